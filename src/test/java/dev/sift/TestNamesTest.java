package dev.sift;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** One naming style for tests: a test's name is the sentence it proves, in snake_case. */
class TestNamesTest {
    private static final Set<String> TEST_ANNOTATIONS = Set.of("Test", "ParameterizedTest", "RepeatedTest",
            "TestFactory", "TestTemplate");
    private static final Pattern SNAKE_CASE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");

    @BeforeAll
    static void java17() {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
    }

    @Test
    void every_test_is_named_in_snake_case() throws IOException {
        List<String> off = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                off.addAll(notSnakeCase(StaticJavaParser.parse(f), f));
            }
        }
        assertThat(off).as("tests not named as a snake_case sentence").isEmpty();
    }

    @Test
    void a_camel_case_test_is_reported_with_its_file() {
        CompilationUnit unit = StaticJavaParser.parse("class T { @Test void countsLoans() { }\n"
                + " @ParameterizedTest void counts_loans_by_year() { }\n void helperInCamelCase() { } }");
        assertThat(notSnakeCase(unit, Path.of("T.java"))).containsExactly("T.java: countsLoans");
    }

    static List<String> notSnakeCase(CompilationUnit unit, Path file) {
        return unit.findAll(MethodDeclaration.class).stream()
                .filter(m -> m.getAnnotations().stream().anyMatch(a -> TEST_ANNOTATIONS.contains(a.getNameAsString())))
                .map(MethodDeclaration::getNameAsString)
                .filter(name -> !SNAKE_CASE.matcher(name).matches())
                .map(name -> file + ": " + name)
                .toList();
    }
}
