package dev.sift.data.source;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.sift.data.source.SourceTestSupport.loadIntoMemory;
import static dev.sift.data.source.SourceTestSupport.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MySQL dumps written by a real {@code mariadb-dump} from a real MariaDB server the test starts (Debian's
 * mariadb-server; skipped when it is not installed), restored by Sift's own private server and compared with the
 * same database read live.
 */
class MysqlDumpSourceTest {
    @TempDir
    static Path dumps;
    private static TestMariaDb db;

    @BeforeAll
    static void startServer() throws Exception {
        db = TestMariaDb.startOrSkip();
        db.exec("CREATE DATABASE shop", "CREATE DATABASE crm",
                "CREATE TABLE shop.everything (id int AUTO_INCREMENT PRIMARY KEY, tiny tinyint, flag tinyint(1),"
                        + " small smallint, usmall smallint unsigned, uint int unsigned, big bigint, ubig bigint unsigned,"
                        + " price decimal(12,2), f float, d double, label varchar(20), body text, fixed char(3), day date,"
                        + " dt datetime(6), t time, y year, mood enum('sad','ok','it''s happy'), tags set('a','b','c'),"
                        + " doc json, raw blob)",
                "INSERT INTO shop.everything (tiny, flag, small, usmall, uint, big, ubig, price, f, d, label, body, fixed,"
                        + " day, dt, t, y, mood, tags, doc, raw) VALUES (-5, 1, -300, 65535, 4294967295, -9007199254740993,"
                        + " 18446744073709551615, 1234567890.12, 1.5, 2.25, 'ünï', 'tab\\there, back\\\\slash, ''quote'',"
                        + " new\\nline', 'ab', '2024-02-29', '2024-01-02 03:04:05.678901', '13:14:15', 2024, 'it''s happy',"
                        + " 'a,c', '{\"a\": [1, 2]}', x'00ff10')",
                "INSERT INTO shop.everything (tiny) VALUES (NULL)",
                "CREATE TABLE shop.`Orders` (`Order Id` bigint AUTO_INCREMENT PRIMARY KEY, amount decimal(10,2))",
                "INSERT INTO shop.`Orders` (amount) SELECT seq * 1.5 FROM shop.seq_1_to_1000",
                "CREATE TABLE crm.customer (id int PRIMARY KEY, name text)",
                "INSERT INTO crm.customer VALUES (1, 'Ada'), (2, 'Linus')");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    private static Path dump(String name, String... what) throws Exception {
        Path out = dumps.resolve(name);
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/mariadb-dump", "--no-defaults", "--protocol=tcp",
                "--host=127.0.0.1", "--port=" + db.port(), "--user=root"));
        cmd.addAll(List.of(what));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(dumps.resolve(name + ".err").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(Files.readString(dumps.resolve(name + ".err")))
                .isTrue();
        return out;
    }

    private static List<List<String>> rows(Connection duck, String sql) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void a_dump_reaches_duckdb_with_the_types_and_values_of_the_same_database_read_live() throws Exception {
        Path file = dump("shop.sql", "shop");
        Source s = Sources.open(file.toString(), dumps, Map.of(), Map.of());
        assertThat(s).isInstanceOf(MysqlDumpSource.class);
        Source live = NetworkSources.open("mariadb://root@127.0.0.1:" + db.port() + "/shop", Map.of(), Map.of()).orElseThrow();
        try (Connection fromDump = loadIntoMemory(s); Connection fromLive = loadIntoMemory(live)) {
            for (String table : List.of("everything", "\"Orders\"")) {
                assertThat(types(fromDump, table)).as(table).containsExactlyEntriesOf(types(fromLive, table));
                assertThat(rows(fromDump, "SELECT * FROM " + table + " ORDER BY 1"))
                        .isEqualTo(rows(fromLive, "SELECT * FROM " + table + " ORDER BY 1"));
            }
            assertThat(rows(fromDump, "SELECT body FROM everything WHERE id = 1")).containsExactly(
                    List.of("tab\there, back\\slash, 'quote', new\nline"));
            assertThat(rows(fromDump, "SELECT count(*), sum(amount) FROM \"Orders\"")).containsExactly(List.of("1000", "750750.00"));
        }
        assertThat(s.describe()).isEqualTo("MySQL dump " + file + " (1 database restored: dump)");
        try (var left = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")), MysqlDumpSource.DIR_PREFIX + "*")) {
            assertThat(left).as("the private server's folder is removed").isEmpty();
        }
    }

    @Test
    void a_dump_of_several_databases_restores_the_tables_of_each() throws Exception {
        Path file = dump("both.sql", "--databases", "crm", "shop");
        Source s = Sources.open(file.toString(), dumps, Map.of(), Map.of());
        try (Connection duck = loadIntoMemory(s)) {
            assertThat(rows(duck, "SELECT name FROM customer ORDER BY id")).containsExactly(List.of("Ada"), List.of("Linus"));
            assertThat(rows(duck, "SELECT count(*) FROM \"Orders\"")).containsExactly(List.of("1000"));
        }
        assertThat(s.describe()).endsWith("(2 databases restored: crm, shop)");
    }

    @Test
    void a_syntax_error_mid_file_is_one_error_naming_the_line() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(dump("broken.sql", "crm")));
        int at = lines.indexOf(lines.stream().filter(l -> l.startsWith("INSERT INTO")).findFirst().orElseThrow());
        lines.add(at, "INSERT INTO customer VALUES (3, 'Grace';");
        Path broken = Files.write(dumps.resolve("broken.sql"), lines);
        assertThatThrownBy(() -> loadIntoMemory(Sources.open(broken.toString(), dumps, Map.of(), Map.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("MySQL dump " + broken + ": ERROR 1064 (42000) at line " + (at + 1) + ": ");
    }

    @Test
    void a_sources_file_names_a_mysql_dump_as_dataagentbench_does() throws Exception {
        Path file = dump("crm.sql", "crm");
        Path config = Files.writeString(dumps.resolve("db_config.yaml"), """
                db_clients:
                  crm_database:
                    db_type: mysql
                    db_name: crm
                    sql_file: crm.sql
                """);
        assertThat(MysqlDumpSource.isMysqlDump(file)).isTrue();
        assertThat(Files.readString(config)).contains("sql_file");
        List<SourcesFile.Entry> entries = SourcesFile.read(config, Map.of());
        assertThat(entries).singleElement().satisfies(e -> assertThat(e.source()).isInstanceOf(MysqlDumpSource.class));
    }
}
