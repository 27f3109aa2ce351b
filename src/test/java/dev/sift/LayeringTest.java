package dev.sift;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package map of docs/architecture.md, enforced on the sources: every reference from one of our packages
 * to another (an import, a static import or a fully qualified name in code) must be one the map allows.
 * A wildcard import ({@code import dev.sift.tool.*;}) counts as a reference to its package. A subpackage follows
 * its parent's rule unless it has its own ({@code data.source} and {@code data.engine} are layers of their own, and
 * each tool group may use only the groups listed for it); a package the map does not know fails the test until it
 * is placed on the map.
 */
class LayeringTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package (dev\\.sift(?:\\.[a-z0-9_]+)*);", Pattern.MULTILINE);
    /** A reference to one of our classes (the package is the lower-case part before the first capital) or packages. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.sift((?:\\.[a-z0-9_]+)*)\\.(?:[A-Z]|\\*)");

    /** Which layers each layer may use (besides itself); checked from the most specific name down. */
    static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

    static {
        ALLOWED.put("llm", Set.of());
        ALLOWED.put("data", Set.of());
        ALLOWED.put("data.source", Set.of("data"));
        ALLOWED.put("data.engine", Set.of("data", "data.source"));
        ALLOWED.put("text", Set.of("data"));
        ALLOWED.put("knowledge", Set.of("data", "data.source"));
        ALLOWED.put("ml", Set.of("data"));
        Set<String> base = Set.of("data", "knowledge", "ml", "llm", "text");
        ALLOWED.put("tool", base);
        // the tool groups: each may use the contract, the base layers and the groups named here, and no cycle
        for (String group : List.of("sql", "knowledge", "narrate", "dialog", "chart")) {
            ALLOWED.put("tool." + group, union(base, Set.of("tool")));
        }
        ALLOWED.put("tool.data", union(base, Set.of("tool", "data.source")));
        ALLOWED.put("tool.analysis", union(base, Set.of("tool", "tool.chart")));
        ALLOWED.put("tool.ml", union(base, Set.of("tool", "tool.chart", "tool.analysis")));
        ALLOWED.put("tool.*", Set.of()); // a new tool group is placed on the map by name
        ALLOWED.put("agent", union(base, Set.of("tool")));
        ALLOWED.put("planner", union(base, Set.of("agent", "tool")));
        ALLOWED.put("session", union(base, Set.of("planner", "agent", "tool")));
        Set<String> product = union(base, Set.of("", "session", "planner", "agent", "tool", "tool.*", "data.source",
                "data.engine", "tool.sql", "tool.knowledge", "tool.narrate", "tool.dialog", "tool.chart", "tool.data",
                "tool.analysis", "tool.ml"));
        // the faces: mcp serves the product to MCP clients; web mounts it at /mcp and cli runs it on stdio
        ALLOWED.put("mcp", product);
        ALLOWED.put("web", union(product, Set.of("mcp")));
        ALLOWED.put("cli", union(product, Set.of("web", "mcp")));
        ALLOWED.put("", union(product, Set.of("web", "cli", "mcp")));
        ALLOWED.put("bench", union(product, Set.of("web", "cli", "mcp")));
    }

    @Test
    void every_reference_between_packages_is_one_the_map_allows() throws IOException {
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> violations.addAll(check(f, read(f))));
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void a_lower_layer_reaching_up_is_reported_with_file_and_target() {
        String source = "package dev.sift.data.source;\n\nimport dev.sift.tool.ToolResult;\nimport java.util.List;\n"
                + "class X { Object y = dev.sift.agent.AgentLoop.class; }\n";
        assertThat(check(Path.of("X.java"), source)).containsExactly(
                "X.java: data.source may not use tool (dev.sift.tool.ToolResult)",
                "X.java: data.source may not use agent (dev.sift.agent.AgentLoop)");
    }

    @Test
    void the_loop_may_not_use_a_planner_or_a_concrete_tool_and_the_product_never_uses_bench() {
        assertThat(check(Path.of("L.java"), "package dev.sift.agent;\nimport dev.sift.planner.RulePlanner;\n"
                + "import dev.sift.tool.sql.RunSql;\nimport dev.sift.tool.ToolResult;\n"))
                .containsExactly("L.java: agent may not use planner (dev.sift.planner.RulePlanner)",
                        "L.java: agent may not use tool.sql (dev.sift.tool.sql.RunSql)");
        assertThat(check(Path.of("C.java"), "package dev.sift.cli;\nimport dev.sift.bench.BenchRunner;\n"))
                .containsExactly("C.java: cli may not use bench (dev.sift.bench.BenchRunner)");
        assertThat(check(Path.of("W.java"), "package dev.sift.web;\nimport static dev.sift.bench.BenchRunner.run;\n"))
                .containsExactly("W.java: web may not use bench (dev.sift.bench.BenchRunner)");
    }

    @Test
    void a_wildcard_import_is_a_reference_to_its_package() {
        assertThat(check(Path.of("W.java"), "package dev.sift.data;\nimport dev.sift.tool.*;\nimport dev.sift.ml.*;\n"))
                .containsExactly("W.java: data may not use tool (dev.sift.tool.*)",
                        "W.java: data may not use ml (dev.sift.ml.*)");
    }

    @Test
    void data_source_and_data_engine_are_layers_of_their_own_and_tool_groups_may_not_form_a_cycle() {
        assertThat(check(Path.of("S.java"), "package dev.sift.data.source;\nimport dev.sift.data.engine.PostgresEngine;\n"))
                .containsExactly("S.java: data.source may not use data.engine (dev.sift.data.engine.PostgresEngine)");
        assertThat(check(Path.of("D.java"), "package dev.sift.data;\nimport dev.sift.data.source.Sources;\n"))
                .containsExactly("D.java: data may not use data.source (dev.sift.data.source.Sources)");
        assertThat(check(Path.of("E.java"), "package dev.sift.data.engine;\nimport dev.sift.data.source.Sources;\n"))
                .isEmpty();
        assertThat(check(Path.of("A.java"), "package dev.sift.tool.analysis;\nimport dev.sift.tool.ml.Train;\n"))
                .containsExactly("A.java: tool.analysis may not use tool.ml (dev.sift.tool.ml.Train)");
        assertThat(check(Path.of("M.java"), "package dev.sift.tool.ml;\nimport dev.sift.tool.analysis.Forecast;\n"))
                .isEmpty();
        assertThat(check(Path.of("N.java"), "package dev.sift.tool.newgroup;\nimport dev.sift.tool.ToolResult;\n"))
                .containsExactly("N.java: tool.newgroup may not use tool (dev.sift.tool.ToolResult)");
    }

    @Test
    void a_package_missing_from_the_map_is_reported_until_it_is_placed() {
        assertThat(check(Path.of("N.java"), "package dev.sift.connectors;\nimport dev.sift.data.Dataset;\n"))
                .containsExactly("N.java: package connectors is not on the package map (LayeringTest.ALLOWED,"
                        + " docs/architecture.md)");
    }

    @Test
    void no_two_packages_depend_on_each_other_in_a_cycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> addUses(uses, read(f)));
        }
        assertThat(cycles(uses)).isEmpty();
    }

    @Test
    void a_cycle_between_packages_is_reported_as_the_path_that_closes_it() {
        Map<String, Set<String>> uses = new TreeMap<>();
        addUses(uses, "package dev.sift.bench;\nimport dev.sift.bench.datagen.Datagen;\nimport dev.sift.data.Workspace;\n");
        addUses(uses, "package dev.sift.bench.datagen;\nclass G { Object s = dev.sift.bench.dab.DabTask.class; }\n");
        addUses(uses, "package dev.sift.bench.dab;\nimport dev.sift.bench.BenchReport;\n// dev.sift.data.Workspace\n");
        addUses(uses, "package dev.sift.data;\nimport dev.sift.data.Sql;\n");
        assertThat(cycles(uses)).containsExactly("bench -> bench.datagen -> bench.dab -> bench");
        addUses(uses, "package dev.sift.data;\nimport dev.sift.bench.BenchReport;\n");
        assertThat(cycles(uses)).as("each package's shortest way back; a package on a reported cycle starts none")
                .containsExactly("bench -> data -> bench", "bench.dab -> bench -> bench.datagen -> bench.dab");
    }

    /** Adds the packages a source file's code refers to (not its own) to what its package uses. */
    private static void addUses(Map<String, Set<String>> uses, String source) {
        Matcher pm = PACKAGE.matcher(source);
        if (!pm.find()) {
            return;
        }
        String from = relative(pm.group(1));
        Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
        Matcher m = REFERENCE.matcher(withoutComments(source));
        while (m.find()) {
            String target = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
            if (!target.equals(from)) {
                to.add(target);
            }
        }
    }

    /**
     * For each package, in order, the shortest path of uses that leads from it back to itself, unless the package is
     * on a cycle already reported; a package with none is on no cycle.
     */
    private static List<String> cycles(Map<String, Set<String>> uses) {
        List<String> out = new ArrayList<>();
        Set<String> reported = new TreeSet<>();
        for (String start : uses.keySet()) {
            if (reported.contains(start)) {
                continue;
            }
            Map<String, String> via = new LinkedHashMap<>();
            java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>(List.of(start));
            while (!queue.isEmpty() && !via.containsKey(start)) {
                String p = queue.poll();
                for (String next : uses.getOrDefault(p, Set.of())) {
                    if (!via.containsKey(next)) {
                        via.put(next, p);
                        queue.add(next);
                    }
                }
            }
            if (via.containsKey(start)) {
                List<String> path = new ArrayList<>(List.of(start));
                for (String p = via.get(start); !p.equals(start); p = via.get(p)) {
                    path.add(0, p);
                }
                path.add(0, start);
                reported.addAll(path);
                out.add(String.join(" -> ", path.stream().map(p -> p.isEmpty() ? "dev.sift" : p).toList()));
            }
        }
        return out;
    }

    static List<String> check(Path file, String source) {
        Matcher pm = PACKAGE.matcher(source);
        if (!pm.find()) {
            return List.of();
        }
        String from = relative(pm.group(1));
        Optional<String> rule = ruleFor(from);
        if (rule.isEmpty()) {
            return List.of(file + ": package " + from + " is not on the package map (LayeringTest.ALLOWED,"
                    + " docs/architecture.md)");
        }
        Set<String> seen = new TreeSet<>();
        List<String> out = new ArrayList<>();
        String code = withoutComments(source);
        Matcher m = REFERENCE.matcher(code);
        while (m.find()) {
            String to = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
            Optional<String> target = ruleFor(to);
            if (target.isPresent() && (target.equals(rule) || ALLOWED.get(rule.get()).contains(target.get()))) {
                continue;
            }
            String name = "dev.sift" + m.group(1) + "." + className(code, m.end() - 1);
            if (seen.add(name)) {
                out.add(file + ": " + (from.isEmpty() ? "dev.sift" : from) + " may not use " + (to.isEmpty() ? "dev.sift" : to)
                        + " (" + name + ")");
            }
        }
        return out;
    }

    /** The rule for a package: its own entry, else {@code parent.*} for a direct child of a starred parent, else its parent's. */
    private static Optional<String> ruleFor(String pkg) {
        String p = pkg;
        while (true) {
            if (ALLOWED.containsKey(p)) {
                return Optional.of(p);
            }
            int dot = p.lastIndexOf('.');
            if (dot < 0) {
                return Optional.empty();
            }
            String parent = p.substring(0, dot);
            if (ALLOWED.containsKey(parent + ".*")) {
                return Optional.of(parent + ".*");
            }
            p = parent;
        }
    }

    private static String relative(String pkg) {
        return pkg.equals("dev.sift") ? "" : pkg.substring("dev.sift.".length());
    }

    private static String className(String source, int start) {
        if (source.charAt(start) == '*') {
            return "*";
        }
        int end = start;
        while (end < source.length() && Character.isJavaIdentifierPart(source.charAt(end))) {
            end++;
        }
        return source.substring(start, end);
    }

    /** Comments may name any class (a {@code {@link}} to explain a design); only code is a dependency. */
    private static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new TreeSet<>(a);
        s.addAll(b);
        return Set.copyOf(s);
    }
}
