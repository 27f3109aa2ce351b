package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sift load}: user files become a dataset that {@code ask}, {@code sql} and {@code datasets} see;
 * loading again is a no-op; every bad input is one stderr line and leaves no (half-built) dataset behind.
 */
class LoadCommandTest {
    /** The real PKDD'99 files, relative to the project folder (the tests' working directory). */
    static final Path BERKA = Path.of("../shared/data/berka");

    @TempDir
    static Path home;
    @TempDir
    static Path data;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    private static Path write(String dir, String name, String text) throws IOException {
        Path d = Files.createDirectories(data.resolve(dir));
        return Files.writeString(d.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static Path writeBytes(String dir, String name, byte[] bytes) throws IOException {
        Path d = Files.createDirectories(data.resolve(dir));
        return Files.write(d.resolve(name), bytes);
    }

    private static Path shops(String dir) throws IOException {
        return write(dir, "shops.csv", "id,name,city\n1,\"Acme, Inc\",Prague\n2,Bolt,Brno\n3,Cog,Prague\n");
    }

    private static Path visits(String dir) throws IOException {
        return write(dir, "visits.jsonl", """
                {"shop_id": 1, "day": "2024-01-02", "amount": 3.5}
                {"shop_id": 1, "day": "2024-02-03", "amount": 1.0}
                {"shop_id": 2, "day": "2025-03-04", "amount": 7.25}
                {"shop_id": 3, "day": "2025-03-05", "amount": null}
                """);
    }

    /**
     * The store holds only published datasets: name.duckdb with its name.json (and perhaps the knowledge-graph
     * cache name.kg-cache.json, the knowledge file's validity record name.kg-valid, the described tables
     * name.tables.json, the load report name.load-report.json and the values of many-valued columns name.values), no
     * temp or WAL files.
     */
    private static void assertStoreClean() throws IOException {
        List<String> files = CliHarness.storeFiles(home);
        assertThat(files).allMatch(f -> f.matches("[a-z][a-z0-9_]*\\.(duckdb|json|kg-cache\\.json|kg-valid|tables\\.json|load-report\\.json|values)"),
                "only published files");
        for (String f : files) {
            String stem = f.substring(0, f.indexOf('.'));
            assertThat(files).contains(stem + ".duckdb", stem + ".json");
        }
    }

    /**
     * The load failed with one stderr line and changed nothing in the store: no dataset of that name unless one was
     * there before (another test may have built it), that one untouched, and no stray files.
     */
    private static String refused(String name, String... args) throws IOException {
        Map<String, String> before = storeState();
        String line = usageError(args);
        assertThat(storeState()).isEqualTo(before);
        if (before.keySet().stream().noneMatch(f -> f.startsWith(name + "."))) {
            assertThat(ok("datasets").out()).doesNotContain(name);
            assertThat(CliHarness.storeFiles(home)).noneMatch(f -> f.contains(name));
        }
        assertStoreClean();
        return line;
    }

    /** Every file of the store with its size and modification time. */
    private static Map<String, String> storeState() throws IOException {
        Map<String, String> state = new TreeMap<>();
        for (String f : CliHarness.storeFiles(home)) {
            Path p = CliHarness.datasetsDir(home).resolve(f);
            state.put(f, Files.size(p) + " bytes, modified " + Files.getLastModifiedTime(p));
        }
        return state;
    }

    @Test
    void loads_csv_and_json_lines_into_a_dataset_that_ask_sql_and_datasets_see() throws Exception {
        Path shops = shops("good");
        Path visits = visits("good");
        CliHarness.Result r = ok("load", "shopdata", shops.toString(), visits.toString());
        assertThat(r.out().lines().toList()).containsExactly(
                "Built dataset 'shopdata' — files: shops.csv, visits.jsonl",
                "  shops        3 rows",
                "  visits       4 rows");
        assertStoreClean();

        assertThat(ok("sql", "--dataset", "shopdata", "SELECT name, city FROM shops ORDER BY id", "--format", "csv")
                .out().lines().toList()).containsExactly("name,city", "\"Acme, Inc\",Prague", "Bolt,Brno", "Cog,Prague");

        CliHarness.assumeOffline();
        JsonNode shopsAnswer = ok("ask", "--dataset", "shopdata", "--json", "how many shops are there?").json();
        assertThat(shopsAnswer.get("kind").asText()).isEqualTo("answer");
        assertThat(shopsAnswer.get("status").asText()).isEqualTo("rule_based");
        assertThat(shopsAnswer.get("dataset").asText()).isEqualTo("shopdata");
        assertThat(shopsAnswer.get("evidence").get(0).get("rows").get(0).get(0).asLong()).isEqualTo(3);

        JsonNode visitsAnswer = ok("ask", "--dataset", "shopdata", "--json", "how many visits are there?").json();
        assertThat(visitsAnswer.get("evidence").get(0).get("rows").get(0).get(0).asLong()).isEqualTo(4);

        JsonNode inPrague = ok("ask", "--dataset", "shopdata", "--json", "how many shops are in Prague?").json();
        assertThat(inPrague.get("kind").asText()).isEqualTo("answer");
        assertThat(inPrague.get("evidence").get(0).get("sql").asText()).isEqualTo("SELECT count(*) AS n FROM shops WHERE shops.city = 'Prague'");
        assertThat(inPrague.get("evidence").get(0).get("rows").get(0).get(0).asLong()).isEqualTo(2);

        String listing = ok("datasets").out();
        assertThat(listing).contains("shopdata — files: shops.csv, visits.jsonl (built ")
                .containsPattern("(?m)^  shops +3 rows$").containsPattern("(?m)^  visits +4 rows$")
                .contains("bank — synthetic demo bank");
    }

    @Test
    void the_dataset_last_loaded_or_asked_about_is_remembered_for_the_web_app() throws Exception {
        dev.sift.data.LastDataset last = dev.sift.data.LastDataset.under(home);
        ok("load", "remembered", shops("remembered").toString());
        assertThat(last.read()).get().extracting(dev.sift.data.LastDataset.Entry::dataset, dev.sift.data.LastDataset.Entry::how)
                .containsExactly("remembered", "loaded");
        ok("ask", "How many loans are there?"); // the CLI's default stays the demo, and asking it is a use
        assertThat(last.read()).get().extracting(dev.sift.data.LastDataset.Entry::dataset, dev.sift.data.LastDataset.Entry::how)
                .containsExactly("bank", "used");
        ok("ask", "--dataset", "remembered", "how many shops are there?");
        assertThat(last.read()).get().extracting(dev.sift.data.LastDataset.Entry::dataset).isEqualTo("remembered");
    }

    @Test
    void loading_the_same_files_again_is_up_to_date_and_a_changed_file_rebuilds() throws Exception {
        Path shops = shops("again");
        Path visits = visits("again");
        assertThat(ok("load", "again", shops.toString(), visits.toString()).out()).startsWith("Built dataset 'again'");
        String manifest = Files.readString(home.resolve("datasets/again.json"));

        CliHarness.Result second = ok("load", "again", shops.toString(), visits.toString());
        assertThat(second.out().lines().toList()).containsExactly(
                "Up to date: dataset 'again' — files: shops.csv, visits.jsonl",
                "  shops        3 rows",
                "  visits       4 rows");
        assertThat(Files.readString(home.resolve("datasets/again.json"))).isEqualTo(manifest);

        Files.writeString(shops, "4,Dyn,Ostrava\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        CliHarness.Result third = ok("load", "again", shops.toString(), visits.toString());
        assertThat(third.out()).startsWith("Built dataset 'again'").contains("  shops        4 rows");
        assertStoreClean();
    }

    @Test
    void a_missing_file_is_refused() throws Exception {
        Path missing = data.resolve("nowhere/missing.csv");
        assertThat(refused("bad_missing", "load", "bad_missing", missing.toString()))
                .isEqualTo("sift: error: File not found: " + missing.toAbsolutePath().normalize());
        Path shops = shops("missing");
        assertThat(refused("bad_missing2", "load", "bad_missing2", shops.toString(), missing.toString()))
                .isEqualTo("sift: error: File not found: " + missing.toAbsolutePath().normalize());
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 30, unit = java.util.concurrent.TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void a_named_pipe_is_refused_in_one_line_instead_of_hanging() throws Exception {
        Path pipe = Files.createDirectories(data.resolve("fifo")).resolve("feed.csv");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();
        assertThat(refused("bad_fifo", "load", "bad_fifo", pipe.toString())).isEqualTo("sift: error: File " + pipe
                + " is not a regular file (a named pipe, socket or device), so Sift does not open it: give a regular file");
    }

    @Test
    void an_empty_file_is_refused() throws Exception {
        Path empty = write("empty", "empty.csv", "");
        assertThat(refused("bad_empty", "load", "bad_empty", empty.toString()))
                .isEqualTo("sift: error: File " + empty.toAbsolutePath().normalize() + " is empty: nothing to load");
    }

    @Test
    void binary_junk_named_csv_is_refused() throws Exception {
        byte[] junk = new byte[4096];
        new Random(42).nextBytes(junk);
        junk[0] = (byte) 0x89; // a PNG header, then noise (with NUL bytes)
        System.arraycopy("PNG\r\n\u001a\n\0\0\0".getBytes(StandardCharsets.ISO_8859_1), 0, junk, 1, 10);
        Path png = writeBytes("junk", "picture.csv", junk);
        assertThat(refused("bad_junk", "load", "bad_junk", png.toString()))
                .startsWith("sift: error: File " + png.toAbsolutePath().normalize() + " ")
                .contains("binary");
    }

    @Test
    void an_unsupported_extension_is_refused() throws Exception {
        Path xlsx = writeBytes("xlsx", "sheet.xlsx", new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0});
        assertThat(refused("bad_xlsx", "load", "bad_xlsx", xlsx.toString()))
                .isEqualTo("sift: error: File " + xlsx.toAbsolutePath().normalize()
                        + " has an unsupported type: use .csv, .tsv, .txt, .csv.gz, .tsv.gz, .parquet, .json, .jsonl or .ndjson");
    }

    @Test
    void a_bad_dataset_name_is_refused() throws Exception {
        Path shops = shops("badname");
        assertThat(refused("Bad-Name", "load", "Bad-Name", shops.toString())).isEqualTo("sift: error: Dataset name"
                + " 'Bad-Name' is not valid: use lowercase letters, digits and '_', starting with a letter.");
        assertThat(refused("bad-name", "load", "bad-name", shops.toString())).startsWith("sift: error: Dataset name 'bad-name'");
        assertThat(CliHarness.storeFiles(home)).noneMatch(f -> f.toLowerCase().contains("bad"));
    }

    @Test
    void a_file_that_fails_halfway_through_the_build_leaves_no_half_built_dataset() throws Exception {
        Path shops = shops("ragged");
        Path ragged = write("ragged", "ragged.csv", "a,b\n1,2\n3,4,5\n6,7\n");
        CliHarness.Result r = run("load", "bad_ragged", shops.toString(), ragged.toString());
        assertThat(r.exit()).as("%s", r).isEqualTo(Main.USAGE_ERROR);
        assertThat(r.out()).isEmpty();
        // the failure comes mid-build, so progress lines precede it; the error itself is one line, the last
        List<String> lines = r.errLines();
        assertThat(lines.subList(0, lines.size() - 1)).allMatch(l -> l.startsWith("Building dataset 'bad_ragged': "));
        String line = lines.get(lines.size() - 1);
        assertThat(ok("datasets").out()).doesNotContain("bad_ragged");
        assertThat(CliHarness.storeFiles(home)).noneMatch(f -> f.contains("bad_ragged"));
        assertStoreClean();
        assertThat(line).startsWith("sift: error: File " + ragged.toAbsolutePath().normalize() + " could not be read as CSV: ");
    }

    @Test
    void a_failed_rebuild_keeps_the_previous_dataset() throws Exception {
        Path shops = shops("keep");
        ok("load", "keep", shops.toString());
        Path empty = write("keep", "extra.csv", "");
        usageError("load", "keep", "--replace", shops.toString(), empty.toString());
        assertThat(ok("datasets").out()).contains("keep — files: shops.csv (built ");
        assertThat(ok("sql", "--dataset", "keep", "SELECT count(*) AS n FROM shops", "--format", "csv").out().lines())
                .containsExactly("n", "3");
        assertStoreClean();
    }

    @Test
    void the_demo_datasets_are_never_replaced_by_files() throws Exception {
        Path shops = shops("demo");
        String bankBefore = Files.readString(home.resolve("datasets/bank.json"));
        assertThat(usageError("load", "bank", shops.toString())).isEqualTo("sift: error: Dataset 'bank' is a demo dataset"
                + " and is never replaced by files or sources: choose another name, e.g. 'sift load my_bank " + shops + "'.");
        assertThat(usageError("load", "pkdd", "--replace", shops.toString())).startsWith("sift: error: Dataset 'pkdd' is a"
                + " demo dataset and is never replaced by files or sources");
        assertThat(Files.readString(home.resolve("datasets/bank.json"))).isEqualTo(bankBefore);
        assertStoreClean();
    }

    @Test
    void a_name_built_from_other_sources_is_refused_unless_replace_is_given() throws Exception {
        Path shops = shops("taken");
        Path visits = visits("taken");
        ok("load", "taken", shops.toString());
        assertThat(usageError("load", "taken", visits.toString())).isEqualTo("sift: error: Dataset 'taken' already"
                + " exists, built from files: " + shops.toAbsolutePath().normalize() + ": add --replace to replace it, or"
                + " choose another name.");
        assertThat(ok("sql", "--dataset", "taken", "SELECT count(*) AS n FROM shops", "--format", "csv").out().lines())
                .containsExactly("n", "3");
        assertThat(ok("load", "taken", "--replace", visits.toString()).out()).startsWith("Built dataset 'taken'");
        assertThat(ok("datasets").out()).contains("taken — files: visits.jsonl (built ")
                .contains("  from files: " + visits.toAbsolutePath().normalize());
        assertStoreClean();
    }

    @Test
    void refresh_rebuilds_unchanged_sources() throws Exception {
        Path shops = shops("fresh");
        ok("load", "fresh", shops.toString());
        assertThat(ok("load", "fresh", shops.toString()).out()).startsWith("Up to date: dataset 'fresh'");
        CliHarness.Result again = ok("load", "fresh", "--refresh", shops.toString());
        assertThat(again.out()).startsWith("Built dataset 'fresh'");
        assertThat(again.err()).contains("Building dataset 'fresh': ");
        assertStoreClean();
    }

    @Test
    void options_that_do_not_fit_are_refused() throws Exception {
        Path shops = shops("options");
        assertThat(refused("nofiles", "load", "nofiles"))
                .isEqualTo("sift: error: No sources given: sift load nofiles SOURCE... (data files, a SQLite or DuckDB file, a MongoDB"
                        + " dump folder, a URL or a sources file).");
        assertThat(refused("scaled", "load", "scaled", shops.toString(), "--scale", "2"))
                .isEqualTo("sift: error: --scale, --seed and --name go with 'pkdd' or 'bank' only.");
        assertThat(usageError("load", "bank", "--from", data.toString()))
                .isEqualTo("sift: error: --from DIR goes with 'sift load pkdd --from DIR' (no sources).");
        assertThat(usageError("load", "bank", "--scale", "0")).isEqualTo("sift: error: scale must be > 0, got 0.0");
        assertThat(usageError("load")).isEqualTo("sift: error: Missing required parameter: 'NAME' (try 'sift load --help')");
        assertStoreClean();
    }

    @Test
    void pkdd_needs_an_existing_folder() throws Exception {
        assertThat(refused("pkdd", "load", "pkdd")).isEqualTo(
                "sift: error: sift load pkdd needs --from DIR: the folder with account.asc, loan.asc, …");
        assertThat(refused("pkdd", "load", "pkdd", "--from", "/nonexistent"))
                .startsWith("sift: error: PKDD'99 folder /nonexistent not found: expected account.asc");
        Path emptyDir = Files.createDirectories(data.resolve("pkdd-empty"));
        assertThat(refused("pkdd", "load", "pkdd", "--from", emptyDir.toString()))
                .startsWith("sift: error: PKDD'99 files ").contains("loan.asc").contains("not found in " + emptyDir);
    }

    @Test
    void loads_the_real_pkdd_files() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(BERKA), "The PKDD'99 files are not at " + BERKA.toAbsolutePath()
                + " (../shared/data/berka from the project folder); skipping the real-data load.");
        CliHarness.Result r = ok("load", "pkdd", "--from", BERKA.toString());
        assertThat(r.out()).startsWith("Built dataset 'pkdd' — PKDD'99 Financial data from ")
                .containsPattern("(?m)^  loan +682 rows$");
        assertThat(ok("sql", "--dataset", "pkdd", "SELECT count(*) FROM loan").out().lines().toList())
                .containsExactly("count_star()", "------------", "682", "(1 row)");
        assertThat(ok("datasets").out()).contains("pkdd — PKDD'99 Financial data");
        assertThat(ok("load", "pkdd", "--from", BERKA.toString()).out()).startsWith("Up to date: dataset 'pkdd'");
        assertStoreClean();
    }
}
