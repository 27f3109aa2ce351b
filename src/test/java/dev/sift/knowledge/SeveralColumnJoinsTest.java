package dev.sift.knowledge;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.planner.RulePlanner;
import dev.sift.planner.llm.SchemaKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Joins on several columns (deps_dev's System, Name, Version): inferred when no one column is a key but a combination
 * is, measured and approved like one-column joins, written in the prompt's facts, followed by the offline planner,
 * declared in a knowledge file and approved through {@link Sift#approveJoin}, with each refusal's text.
 */
class SeveralColumnJoinsTest {
    private static final String[] SYSTEMS = {"NPM", "PYPI", "CARGO"};
    private static final String[] LICENCES = {"MIT", "Apache-2.0", "GPL-3.0"};

    @TempDir
    Path home;

    /**
     * 30 package names, each in 3 systems and 2 versions (180 packages, no column a key alone), and 400 dependency
     * rows pointing at them; {@code missing} of the dependency rows name a version no package has.
     */
    private static Dataset deps(String name, int missing) throws Exception {
        Random rnd = new Random(49);
        StringBuilder packages = new StringBuilder("system,name,version,licence\n");
        for (String s : SYSTEMS) {
            for (int n = 0; n < 30; n++) {
                for (String v : List.of("1.0.0", "2.1.0")) {
                    packages.append(s).append(",pkg").append(n).append(',').append(v).append(',')
                            .append(LICENCES[(n + s.length()) % 3]).append('\n');
                }
            }
        }
        StringBuilder deps = new StringBuilder("dep_id,system,name,version,downloads\n");
        for (int i = 0; i < 400; i++) {
            String version = i < missing ? "9.9.9" : rnd.nextBoolean() ? "1.0.0" : "2.1.0";
            deps.append(i + 1).append(',').append(SYSTEMS[rnd.nextInt(3)]).append(",pkg").append(rnd.nextInt(30))
                    .append(',').append(version).append(',').append(rnd.nextInt(1000)).append('\n');
        }
        return TestDatasets.csv(name, Map.of("packages.csv", packages.toString(), "deps.csv", deps.toString()));
    }

    private static AgentRun ask(Workspace ws, String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).run(q);
    }

    @Test
    void a_combination_that_is_a_key_on_one_side_and_found_on_the_other_is_an_approved_join_in_the_facts() throws Exception {
        try (Workspace ws = Workspace.open(deps("deps_full", 0), Workspace.Limits.defaults())) {
            KnowledgeGraph kg = KgBuilder.build(ws);
            assertThat(kg.joins()).singleElement().satisfies(j -> {
                assertThat(j.describe()).isEqualTo("join deps.system = packages.system AND deps.name = packages.name AND"
                        + " deps.version = packages.version (approved: key → foreign key, many-to-one)");
                assertThat(j.fromColumns()).containsExactly("system", "name", "version");
                assertThat(j.fromColumn()).isEqualTo("system"); // what reads one pair reads the first
                assertThat(j.coverage()).isEqualTo(1.0);
            });
            assertThat(SchemaKeys.facts(kg, 3000)).contains("Approved joins (foreign key = key): deps.system ="
                    + " packages.system AND deps.name = packages.name AND deps.version = packages.version")
                    .doesNotContain("deps.system,"); // its columns are said by the join, not listed as keys

            AgentRun run = ask(ws, "What is the total downloads by licence?");
            assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
            assertThat(run.evidence().get(0).sql()).contains("JOIN packages ON deps.system = packages.system AND deps.name"
                    + " = packages.name AND deps.version = packages.version");
            assertThat(run.evidence().get(0).rows()).containsExactlyInAnyOrderElementsOf(ws.query("SELECT p.licence,"
                    + " sum(d.downloads) FROM deps d, packages p WHERE d.system = p.system AND d.name = p.name"
                    + " AND d.version = p.version GROUP BY 1").rows());
        }
    }

    @Test
    void a_combination_found_for_most_rows_is_a_candidate_with_its_share_and_none_is_proposed_where_one_column_is_a_key()
            throws Exception {
        try (Workspace ws = Workspace.open(deps("deps_loose", 80), Workspace.Limits.defaults())) {
            KgEntry.Join j = KgBuilder.build(ws).joins().get(0);
            Object share = ws.query("SELECT avg(CASE WHEN EXISTS (SELECT 1 FROM packages p WHERE p.system = d.system"
                    + " AND p.name = d.name AND p.version = d.version) THEN 1.0 ELSE 0 END) FROM deps d").scalar();
            assertThat(j.approved()).isFalse();
            assertThat(j.coverage()).isEqualTo(((Number) share).doubleValue()).isEqualTo(0.8);
            assertThat(SchemaKeys.facts(KgBuilder.build(ws), 3000)).contains("Candidate joins (not approved;")
                    .contains("deps.version = packages.version (80 % of values match)");
        }
        // one column (the package id) identifies packages: that is the one-column join's business, not a combination's
        Dataset keyed = TestDatasets.csv("deps_keyed", Map.of(
                "packages.csv", "code,system,name\nA1,NPM,x\nA2,NPM,y\nA3,PYPI,x\n",
                "deps.csv", "dep_id,code,system,name\n1,A1,NPM,x\n2,A3,PYPI,x\n3,A3,PYPI,x\n"));
        try (Workspace ws = Workspace.open(keyed, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).noneMatch(KgEntry.Join::severalColumns);
        }
    }

    @Test
    void a_knowledge_file_declares_a_join_on_several_columns_and_its_mistakes_are_named() throws Exception {
        Dataset ds = deps("deps_file", 80);
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            KnowledgeGraph auto = KgBuilder.build(ws);
            CuratedKg file = KgLoader.parse("""
                    join_paths:
                      - name: package_of
                        from: [deps.system, deps.name, deps.version]
                        to: [packages.system, packages.name, packages.version]
                        meaning: the package version a dependency row is about
                    """, "deps.kg.yaml");
            KnowledgeGraph kg = KgLoader.overlay(auto, file, ws);
            assertThat(kg.joins()).singleElement().satisfies(j -> {
                assertThat(j.curated()).isTrue();
                assertThat(j.approved()).isTrue();
                assertThat(j.condition()).isEqualTo("deps.system = packages.system AND deps.name = packages.name AND"
                        + " deps.version = packages.version");
            });
            assertThatThrownBy(() -> KgLoader.parse("""
                    join_paths:
                      - {name: short, from: [deps.system, deps.name], to: [packages.system]}
                    """, "a.yaml")).hasMessageContaining("a.yaml: join_paths[short]: 'from' names 2 column(s) and 'to' 1;"
                    + " a join on several columns pairs them in order, so both lists need the same length");
            assertThatThrownBy(() -> KgLoader.parse("""
                    join_paths:
                      - {name: mixed, from: [deps.system, packages.name], to: [packages.system, packages.name]}
                    """, "a.yaml")).hasMessageContaining("a.yaml: join_paths[mixed]: the columns [deps.system,"
                    + " packages.name] are in different tables; each side of a join names columns of one table");
            CuratedKg unknown = KgLoader.parse("""
                    join_paths:
                      - {name: typo, from: [deps.system, deps.nme], to: [packages.system, packages.name]}
                    """, "a.yaml");
            assertThatThrownBy(() -> KgLoader.overlay(auto, unknown, ws)).hasMessageContaining(
                    "a.yaml: join_paths[typo]: column deps.nme does not exist");
        }
    }

    @Test
    void approving_a_join_on_several_columns_measures_it_and_writes_lists_and_refusals_say_why() throws Exception {
        Dataset ds = deps("deps_approve", 80);
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        sift.knowledge().useFile(ds.name(), home.resolve("deps.kg.yaml")); // the test store's own folder outlives the test
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", "package_of");
        item.put("from", List.of("deps.system", "deps.name", "deps.version"));
        item.put("to", List.of("packages.system", "packages.name", "packages.version"));
        Path file = sift.approveJoin(ds, item);
        assertThat(Files.readString(file)).contains("  - name: \"package_of\"\n"
                + "    from: [\"deps.system\",\"deps.name\",\"deps.version\"]\n"
                + "    to: [\"packages.system\",\"packages.name\",\"packages.version\"]\n"
                + "    cardinality: \"many-to-one\"\n    coverage: 0.8\n");
        try (Workspace ws = sift.open(ds)) {
            assertThat(sift.knowledge().of(ws).graph().joins()).anySatisfy(j -> {
                assertThat(j.curated()).isTrue();
                assertThat(j.toColumns()).containsExactly("system", "name", "version");
            });
        }

        Map<String, Object> repeat = new LinkedHashMap<>(Map.of("name", "by_name",
                "from", List.of("deps.system", "deps.name"), "to", List.of("packages.system", "packages.name")));
        assertThatThrownBy(() -> sift.approveJoin(ds, repeat)).hasMessage(file + ": join_paths[by_name]: the combinations"
                + " of packages.(system, name) repeat (or a column is missing in some rows), so a row of deps would meet"
                + " several rows of packages; a join points at columns that together identify their table's rows. Add the"
                + " column that tells the repeated rows apart, or approve it the other way round.");
        Map<String, Object> crossed = new LinkedHashMap<>(Map.of("name", "crossed",
                "from", List.of("deps.name", "deps.system", "deps.version"),
                "to", List.of("packages.system", "packages.name", "packages.version")));
        assertThatThrownBy(() -> sift.approveJoin(ds, crossed)).hasMessage(file + ": join_paths[crossed]: only 0% of the"
                + " rows of deps.(name, system, version) (0 of 400) find their combination in packages.(system, name,"
                + " version) (a join needs at least 50%). Check that the columns are paired in the same order, or fix"
                + " the values first.");
    }
}
