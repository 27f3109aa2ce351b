package dev.sift.bench.dab;

import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes {@code pkgdesk}, a DataAgentBench-style dataset of our own in the benchmark's layout ({@code db_config.yaml},
 * {@code db_description.txt}, {@code queryN/query.json}, {@code ground_truth.csv}, {@code validate.py}) over three kinds
 * of database: a DuckDB file (package versions, twelve monthly download tables), a SQLite file (tickets, invoices,
 * advisories) and a MongoDB dump (accounts). Each question needs one skill plain SQL lacks: labelling rows, extracting
 * fields, matching records, a chi-square test, a list in text, dates in words, decorated ids, a table family and a
 * join on three columns. The rows and the truth come from {@link DabStyleData} with a fixed seed; the answers are
 * computed here from that truth, never by Sift.
 */
public final class DabStyleSet {
    /** The dataset's folder name under the root. */
    public static final String NAME = "pkgdesk";
    public static final long SEED = 49;

    /** One question, the skill it needs, its truth and how the validator compares ({@code number} decimals, or text). */
    public record Question(String id, String skill, String text, String truth, int decimals) { }

    private DabStyleSet() { }

    /** Writes {@code root/pkgdesk} from {@code seed}; returns the questions written. */
    public static List<Question> write(Path root, long seed) throws IOException, SQLException {
        DabStyleData d = DabStyleData.generate(seed);
        Path dir = Files.createDirectories(root.resolve(NAME));
        Path data = Files.createDirectories(dir.resolve("query_dataset"));
        Files.deleteIfExists(data.resolve("registry.duckdb"));
        Files.deleteIfExists(data.resolve("support.db"));
        duckdb(d, data.resolve("registry.duckdb"));
        sqlite(d, data.resolve("support.db"));
        mongo(d, Files.createDirectories(data.resolve("crm_dump")));
        Files.writeString(dir.resolve("db_config.yaml"), """
                db_clients:
                  registry_database:
                    db_type: duckdb
                    db_path: query_dataset/registry.duckdb
                  support_database:
                    db_type: sqlite
                    db_path: query_dataset/support.db
                  crm_database:
                    db_type: mongo
                    db_name: crm_db
                    dump_folder: query_dataset/crm_dump
                """);
        Files.writeString(dir.resolve("db_description.txt"), description());
        List<Question> questions = questions(d);
        for (int i = 0; i < questions.size(); i++) {
            Question q = questions.get(i);
            Path qd = Files.createDirectories(dir.resolve("query" + (i + 1)));
            Files.writeString(qd.resolve("query.json"), quoteJson(q.text()) + "\n");
            Files.writeString(qd.resolve("ground_truth.csv"), q.truth() + "\n");
            Files.writeString(qd.resolve("validate.py"), validator(q));
        }
        return questions;
    }

    /** The questions and their answers, computed from the generator's truth. */
    static List<Question> questions(DabStyleData d) {
        Map<String, DabStyleData.Account> acc = new LinkedHashMap<>();
        d.accounts.forEach(a -> acc.put(a.id(), a));
        List<Question> q = new ArrayList<>();
        q.add(new Question("labelling", "classify_rows", "Classify the support tickets by what their text describes: how"
                + " many report a security problem (a leaked token, an exposed secret or a vulnerability)?", count(d.tickets.stream().filter(t -> t.topic().equals("security"))), 0));
        q.add(new Question("extraction", "extract_fields", "Some tickets mention an amount the customer says they were"
                + " overcharged. What is the total of those amounts, in dollars?", money(d.tickets.stream()
                .filter(t -> t.amount() != null).mapToDouble(DabStyleData.Ticket::amount).sum()), 2));
        q.add(new Question("matching", "match_records", "Invoices name the customer as typed by hand, often spelled"
                + " differently from the CRM. What is the total invoiced amount of customers on the Enterprise plan?", money(d.invoices.stream()
                .filter(i -> acc.get(i.account()).plan().equals("Enterprise")).mapToDouble(DabStyleData.Invoice::amount)
                .sum()), 2));
        q.add(new Question("chi_square", "stat_test", "Is a ticket's priority independent of its account's plan? Give the"
                + " chi-square statistic of the plan by priority table.", String.format(Locale.ROOT, "%.2f",
                DabStyleData.chiSquare(d.planPriority())), 2));
        Map<String, Long> kw = d.packages.stream().flatMap(p -> p.keywordList().stream())
                .collect(Collectors.groupingBy(w -> w, Collectors.counting()));
        q.add(new Question("text_list", "text_list", "Which keyword is listed by the most package versions?",
                kw.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey(), -1));
        q.add(new Question("word_dates", "word_date", "How many package versions were published in 2023?",
                count(d.packages.stream().filter(p -> p.year() == 2023)), 0));
        q.add(new Question("decorated_ids", "bare_id", "How many support tickets come from accounts based in Germany?",
                count(d.tickets.stream().filter(t -> acc.get(t.account()).country().equals("Germany"))), 0));
        q.add(new Question("family", "union_family", "How many downloads did NPM packages get from April to June 2024?",
                String.valueOf(d.downloads.stream().filter(x -> x.system().equals("NPM") && x.month() >= 4 && x.month() <= 6)
                        .mapToLong(DabStyleData.Download::downloads).sum()), 0));
        Map<String, String> licence = new LinkedHashMap<>();
        d.packages.forEach(p -> licence.put(p.system() + "/" + p.name() + "/" + p.version(), p.licence()));
        q.add(new Question("multi_column_join", "join on system, name and version", "How many security advisories"
                + " concern package versions licensed under GPL-3.0?", count(d.advisories.stream().filter(a ->
                licence.get(a.system() + "/" + a.name() + "/" + a.version()).equals("GPL-3.0"))), 0));
        return q;
    }

    private static String count(java.util.stream.Stream<?> s) {
        return String.valueOf(s.count());
    }

    private static String money(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static void duckdb(DabStyleData d, Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE packages (system VARCHAR, name VARCHAR, version VARCHAR, licence VARCHAR,"
                    + " published VARCHAR, keywords VARCHAR)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO packages VALUES (?, ?, ?, ?, ?, ?)")) {
                for (DabStyleData.Package p : d.packages) {
                    insert(ps, p.system(), p.name(), p.version(), p.licence(), p.published(), p.keywords());
                }
            }
            for (int m = 1; m <= 12; m++) {
                String t = String.format(Locale.ROOT, "downloads_2024_%02d", m);
                st.execute("CREATE TABLE " + t + " (system VARCHAR, name VARCHAR, version VARCHAR, downloads BIGINT)");
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?)")) {
                    for (DabStyleData.Download x : d.downloads) {
                        if (x.month() == m) {
                            insert(ps, x.system(), x.name(), x.version(), x.downloads());
                        }
                    }
                }
            }
        }
    }

    private static void sqlite(DabStyleData d, Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, account_ref TEXT, priority TEXT, opened TEXT,"
                    + " body TEXT)");
            st.execute("CREATE TABLE invoices (invoice_id INTEGER PRIMARY KEY, customer_name TEXT, amount REAL)");
            st.execute("CREATE TABLE advisories (advisory_id INTEGER PRIMARY KEY, system TEXT, name TEXT, version TEXT,"
                    + " severity TEXT)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tickets VALUES (?, ?, ?, ?, ?)")) {
                for (DabStyleData.Ticket t : d.tickets) {
                    insert(ps, t.id(), t.ref(), t.priority(), t.opened(), t.body());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO invoices VALUES (?, ?, ?)")) {
                for (DabStyleData.Invoice i : d.invoices) {
                    insert(ps, i.id(), i.customer(), i.amount());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO advisories VALUES (?, ?, ?, ?, ?)")) {
                for (DabStyleData.Advisory a : d.advisories) {
                    insert(ps, a.id(), a.system(), a.name(), a.version(), a.severity());
                }
            }
            c.commit();
        }
    }

    private static void insert(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
        ps.executeUpdate();
    }

    /** accounts.bson as mongodump writes it: the BSON documents one after another. */
    private static void mongo(DabStyleData d, Path dir) throws IOException {
        BasicOutputBuffer buf = new BasicOutputBuffer();
        BsonDocumentCodec codec = new BsonDocumentCodec();
        for (DabStyleData.Account a : d.accounts) {
            BsonDocument doc = new BsonDocument("account_id", new BsonString(a.id()))
                    .append("company", new BsonString(a.company())).append("plan", new BsonString(a.plan()))
                    .append("country", new BsonString(a.country()));
            try (BsonBinaryWriter w = new BsonBinaryWriter(buf)) {
                codec.encode(w, doc, EncoderContext.builder().build());
            }
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve("accounts.bson"))) {
            buf.pipe(out);
        }
    }

    private static String description() {
        return """
                You are working with three databases of a package registry's support desk.

                1. registry_database (DuckDB)
                   - packages: one row per package version.
                     - system (str): the package ecosystem (NPM, PYPI, CARGO)
                     - name (str): the package name; the same name exists in several systems
                     - version (str): the version; a package version is identified by system, name and version together
                     - licence (str): the licence of that version
                     - published (str): the day the version was published, written as people write dates
                     - keywords (str): the version's keywords, written as a list
                   - downloads_2024_01 … downloads_2024_12: one table per month of 2024, each with system, name, version
                     and downloads (the month's download count of that package version).

                2. support_database (SQLite)
                   - tickets: ticket_id, account_ref (the account's id as the desk typed it), priority (low, normal,
                     high), opened (date), body (the customer's message).
                   - invoices: invoice_id, customer_name (the customer as typed on the invoice), amount (dollars).
                   - advisories: advisory_id, system, name, version (the package version concerned), severity.

                3. crm_database (MongoDB)
                   - accounts: account_id, company (the customer's registered name), plan (Free, Team, Enterprise),
                     country.
                """;
    }

    /** The task's validate.py: the truth with the decimals asked for, or the word, in the answer. */
    private static String validator(Question q) {
        if (q.decimals() < 0) {
            return "import re\n\n"
                    + "def validate(llm_output: str):\n"
                    + "    truth = " + quotePy(q.truth()) + "\n"
                    + "    if re.search(r'\\b' + re.escape(truth) + r'\\b', llm_output, re.IGNORECASE):\n"
                    + "        return True, 'found ' + truth\n"
                    + "    return False, 'the answer does not name ' + truth\n";
        }
        return "import re\n\n"
                + "def validate(llm_output: str):\n"
                + "    truth = " + q.truth() + "\n"
                + "    # a number standing alone: not the 12 of a name such as downloads_2024_12\n"
                + "    for m in re.findall(r'(?<![\\w.,])-?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?(?!\\w)', llm_output):\n"
                + "        v = float(m.replace(',', ''))\n"
                + "        if round(v, " + q.decimals() + ") == round(truth, " + q.decimals() + "):\n"
                + "            return True, 'found ' + m\n"
                + "    return False, 'no number equal to " + q.truth() + " in the answer'\n";
    }

    private static String quotePy(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String quoteJson(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

}
