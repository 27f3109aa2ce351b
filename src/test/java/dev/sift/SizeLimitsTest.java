package dev.sift;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The size limits of docs/architecture.md, measured on the parsed sources: no file in src/main over 600 lines,
 * every file in {@code web} under 300, and no method or constructor over 60 lines in {@code agent},
 * {@code tool/ToolRegistry} or {@code web} (where one long method hides the request flow).
 */
class SizeLimitsTest {
    private static final Path MAIN = Path.of("src/main/java");
    static final int MAX_FILE_LINES = 600;
    static final int MAX_WEB_FILE_LINES = 300;
    static final int MAX_METHOD_LINES = 60;

    @BeforeAll
    static void parser() {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
    }

    @Test
    void no_source_file_is_over_600_lines() throws IOException {
        assertThat(over(sources(MAIN), MAX_FILE_LINES)).as("files over " + MAX_FILE_LINES + " lines").isEmpty();
    }

    @Test
    void every_web_file_is_under_300_lines() throws IOException {
        List<Path> web = sources(MAIN.resolve("dev/sift/web"));
        assertThat(web).as("the web package's sources").isNotEmpty();
        assertThat(over(web, MAX_WEB_FILE_LINES - 1)).as("web files of " + MAX_WEB_FILE_LINES + " lines or more").isEmpty();
    }

    @Test
    void no_method_in_the_loop_the_registry_or_the_web_layer_is_over_60_lines() throws IOException {
        List<Path> files = new ArrayList<>(sources(MAIN.resolve("dev/sift/agent")));
        files.add(MAIN.resolve("dev/sift/tool/ToolRegistry.java"));
        files.addAll(sources(MAIN.resolve("dev/sift/web")));
        List<String> long_ = new ArrayList<>();
        for (Path f : files) {
            long_.addAll(longMethods(StaticJavaParser.parse(f), f));
        }
        assertThat(long_).as("methods over " + MAX_METHOD_LINES + " lines").isEmpty();
    }

    @Test
    void a_long_method_is_found() {
        StringBuilder body = new StringBuilder("class A { void shortOne() { }\n void longOne() {\n");
        body.append("int x = 0;\n".repeat(MAX_METHOD_LINES));
        CompilationUnit unit = StaticJavaParser.parse(body.append("}\n}\n").toString());
        assertThat(longMethods(unit, Path.of("A.java"))).containsExactly("A.java: longOne (62 lines)");
    }

    static List<String> longMethods(CompilationUnit unit, Path file) {
        List<String> out = new ArrayList<>();
        for (CallableDeclaration<?> m : unit.findAll(CallableDeclaration.class)) {
            int lines = m.getEnd().orElseThrow().line - m.getBegin().orElseThrow().line + 1;
            if (lines > MAX_METHOD_LINES) {
                out.add(file.getFileName() + ": " + m.getNameAsString() + " (" + lines + " lines)");
            }
        }
        return out;
    }

    private static List<String> over(List<Path> files, int max) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path f : files) {
            long lines;
            try (Stream<String> s = Files.lines(f)) {
                lines = s.count();
            }
            if (lines > max) {
                out.add(MAIN.relativize(f) + " (" + lines + " lines)");
            }
        }
        return out;
    }

    private static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
