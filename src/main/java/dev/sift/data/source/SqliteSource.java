package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SQLite database file, read through sqlite-jdbc opened read-only, every table and view copied into DuckDB as
 * Arrow batches ({@link SqliteCopy}). SQLite types a value, not a column: the columns are first expected to hold
 * what their declarations promise (SQLite's affinity rules), and converted on the way in to the type the
 * declaration names (DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, TIME, UUID, JSON). A value
 * of another storage class sends the table back to a scan of the classes its columns really hold; a column whose
 * values do not convert keeps the stored type (BIGINT, DOUBLE, VARCHAR, BLOB) and a note says so.
 */
public final class SqliteSource implements Source {
    static final String VERSION = "sqlite-2"; // 2: rows as Arrow batches, typed on the way in
    private static final Logger LOG = LoggerFactory.getLogger(SqliteSource.class);
    private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    private final Path file;
    private final int readers;

    /** Reads a large table on up to four threads (as many as there are cores), each a chunk of its rowids in turn. */
    public SqliteSource(Path file) {
        this(file, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    SqliteSource(Path file, int readers) {
        this.file = file.toAbsolutePath().normalize();
        this.readers = readers;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        FileSupport.hash(sha, file);
        Path wal = Path.of(file + "-wal"); // committed rows not yet checkpointed into the file
        if (java.nio.file.Files.isRegularFile(wal)) {
            FileSupport.hash(sha, wal);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        return "SQLite file " + file;
    }

    /** One column: its declared type, the storage classes seen, what rows are appended as, and the target type. */
    record Column(String name, String declared, String stored, String target) { }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        try (Connection src = open()) {
            boolean utf8;
            try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery("PRAGMA encoding")) {
                utf8 = rs.next() && "UTF-8".equalsIgnoreCase(rs.getString(1));
            }
            for (String table : tables(src)) {
                copy(src, db, schema, table, utf8, progress);
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("SQLite file " + file + " could not be read: " + reason(e), e);
        }
    }

    private Connection open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        Connection c = config.createConnection("jdbc:sqlite:" + file);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA schema_version")) {
            rs.next(); // reads the header: a corrupt or non-SQLite file fails here, before any table is created
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static List<String> tables(Connection src) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery("SELECT name, type, sql FROM sqlite_master"
                + " WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            while (rs.next()) {
                String sql = String.valueOf(rs.getString(3)).toUpperCase(Locale.ROOT);
                if (sql.startsWith("CREATE VIRTUAL")) {
                    LOG.warn("Skipping SQLite virtual table {} (full-text and other modules are not data)", rs.getString(1));
                    continue;
                }
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private void copy(Connection src, Connection db, String schema, String table, boolean utf8, Progress progress)
            throws Exception {
        String target = table.replace('.', '_'); // a dot in a table name would read as schema.table
        String qualified = Sql.quoteIdent(schema) + "." + Sql.quoteIdent(target);
        List<String[]> declared = new ArrayList<>();
        try (Statement st = src.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA table_info(" + Sql.quoteIdent(table) + ")")) {
            while (rs.next()) {
                declared.add(new String[] {rs.getString("name"), String.valueOf(rs.getString("type"))});
            }
        }
        List<Column> columns = new ArrayList<>();
        for (String[] c : declared) {
            columns.add(column(c[0], c[1], affinity(c[1])));
        }
        long total = count(src, table);
        progress.report("loading " + table, 0, total);
        SqliteCopy copy = new SqliteCopy(src, db, qualified, table, utf8, total, progress, this::open, readers);
        boolean expected = true; // the columns are what the declarations promise, until a value says otherwise
        boolean typed = true; // values converted to the declared types on the way in
        while (true) {
            long done = copy.rows(columns, expected, typed);
            if (done == SqliteCopy.MISMATCH) { // a value of a storage class the declaration did not promise: scan what they hold
                columns = scanned(src, table, declared);
                expected = false;
            } else if (done == SqliteCopy.UNCONVERTIBLE) { // some value is not of its declared type: convert what converts
                typed = false;
            } else {
                if (!typed) {
                    convertAll(db, schema, target, table, columns);
                }
                progress.report("loaded " + table, done, total);
                return;
            }
        }
    }

    /**
     * The storage classes {integer, real, text, blob} a declaration leads SQLite to store (its type affinity), as
     * {@link #column} takes them: what the one-pass copy expects before it reads a row. INTEGER affinity stores
     * integers, REAL reals, TEXT text; NUMERIC stores what reads as a number as one and the rest as text, so dates,
     * times, UUIDs and JSON are expected as text, booleans as integers and decimals as either kind of number.
     */
    static boolean[] affinity(String declared) {
        String d = declared.toUpperCase(Locale.ROOT);
        if (d.contains("INT") || d.contains("BOOL")) {
            return new boolean[] {true, false, false, false};
        }
        if (d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB")) {
            return new boolean[] {false, true, false, false};
        }
        if (d.contains("DEC") || d.contains("NUM")) {
            return new boolean[] {true, true, false, false};
        }
        return new boolean[] {false, false, true, false}; // text, dates, JSON, no declaration: seen as text
    }

    private static long count(Connection src, String table) throws SQLException {
        try (Statement st = src.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + Sql.quoteIdent(table))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The columns as the storage classes their values hold say (one scan of the table). */
    private static List<Column> scanned(Connection src, String table, List<String[]> declared) throws SQLException {
        StringBuilder scan = new StringBuilder("SELECT count(*)");
        for (String[] c : declared) {
            String q = Sql.quoteIdent(c[0]);
            for (String cls : List.of("integer", "real", "text", "blob")) {
                scan.append(", max(typeof(").append(q).append(") = '").append(cls).append("')");
            }
        }
        List<Column> columns = new ArrayList<>();
        try (Statement st = src.createStatement();
             ResultSet rs = st.executeQuery(scan.append(" FROM ").append(Sql.quoteIdent(table)).toString())) {
            rs.next();
            for (int i = 0; i < declared.size(); i++) {
                boolean[] seen = new boolean[4];
                for (int k = 0; k < 4; k++) {
                    seen[k] = rs.getInt(2 + i * 4 + k) == 1;
                }
                columns.add(column(declared.get(i)[0], declared.get(i)[1], seen));
            }
        }
        return columns;
    }

    /** What a column is appended as (from the storage classes its values have), and what it becomes. */
    static Column column(String name, String declared, boolean[] seen) {
        boolean integer = seen[0];
        boolean real = seen[1];
        boolean text = seen[2];
        boolean blob = seen[3];
        String stored;
        if (blob && !integer && !real && !text) {
            stored = "BLOB";
        } else if (text || blob) {
            stored = "VARCHAR";
        } else if (real) {
            stored = "DOUBLE";
        } else if (integer) {
            stored = "BIGINT";
        } else {
            stored = declaredType(declared, "VARCHAR"); // only NULLs: the declaration is all there is
        }
        return new Column(name, declared, stored, declaredType(declared, stored));
    }

    /**
     * The DuckDB type a SQLite declaration names; {@code fallback} when it names none that needs a conversion.
     * Follows SQLite's own affinity rules for the loose cases (any "INT" is an integer, "CHAR"/"TEXT" text).
     */
    static String declaredType(String declared, String fallback) {
        String d = declared.toUpperCase(Locale.ROOT).trim();
        Matcher m = DECIMAL.matcher(d);
        if (m.find()) {
            int p = Integer.parseInt(m.group(1));
            int s = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            return p >= 1 && p <= 38 && s <= p ? "DECIMAL(" + p + "," + s + ")" : fallback;
        }
        if (d.contains("BOOL")) {
            return "BOOLEAN";
        }
        if (d.contains("TIMESTAMPTZ") || d.contains("WITH TIME ZONE")) {
            return "TIMESTAMPTZ";
        }
        if (d.contains("DATETIME") || d.contains("TIMESTAMP")) {
            return "TIMESTAMP";
        }
        if (d.equals("DATE")) {
            return "DATE";
        }
        if (d.equals("TIME")) {
            return "TIME";
        }
        if (d.equals("UUID")) {
            return "UUID";
        }
        if (d.equals("JSON") || d.equals("JSONB")) {
            return "JSON";
        }
        if (d.contains("INT")) {
            return fallback.equals("VARCHAR") && !d.isEmpty() ? "BIGINT" : fallback;
        }
        if (d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB")) {
            return fallback.equals("VARCHAR") ? "DOUBLE" : fallback;
        }
        return fallback;
    }

    /**
     * Converts the columns to their declared types in one rewrite of the table when every value converts (one
     * ALTER per column would rewrite it once per column); otherwise column by column, keeping those that do not.
     */
    private static void convertAll(Connection db, String schema, String target, String table, List<Column> columns) {
        List<Column> changing = columns.stream().filter(c -> !c.target().equals(c.stored())).toList();
        if (changing.isEmpty()) {
            return;
        }
        String qualified = Sql.quoteIdent(schema) + "." + Sql.quoteIdent(target);
        if (changing.size() > 1) {
            String scratch = target + "__typed";
            StringBuilder select = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                Column c = columns.get(i);
                String q = Sql.quoteIdent(c.name());
                select.append(i == 0 ? "" : ", ").append(c.target().equals(c.stored()) ? q
                        : "CAST(" + q + " AS " + c.target() + ") AS " + q);
            }
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(scratch) + " AS " + select
                        + " FROM " + qualified); // insertion order is preserved
                st.execute("DROP TABLE " + qualified);
                st.execute("ALTER TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(scratch) + " RENAME TO "
                        + Sql.quoteIdent(target));
                return;
            } catch (SQLException e) {
                dropQuietly(db, Sql.quoteIdent(schema) + "." + Sql.quoteIdent(scratch)); // some value does not convert
            }
        }
        for (Column c : changing) {
            convert(db, qualified, table, c);
        }
    }

    private static void dropQuietly(Connection db, String qualified) {
        try (Statement st = db.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + qualified);
        } catch (SQLException e) {
            LOG.debug("Could not drop {}: {}", qualified, e.getMessage());
        }
    }

    /** Converts a column to its declared type when every value converts; otherwise keeps it and says why. */
    private static void convert(Connection db, String qualified, String table, Column c) {
        if (c.target().equals(c.stored())) {
            return;
        }
        try (Statement st = db.createStatement()) {
            st.execute("ALTER TABLE " + qualified + " ALTER COLUMN " + Sql.quoteIdent(c.name()) + " TYPE " + c.target());
        } catch (SQLException e) {
            LOG.warn("SQLite table {}: column '{}' is declared {} but holds values that are not; loaded as {}",
                    table, c.name(), c.declared(), c.stored());
        }
    }

    private static String reason(SQLException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("SQLITE_NOTADB") || m.contains("file is not a database")) {
            return "it is not a SQLite database (or it is encrypted)";
        }
        if (m.contains("SQLITE_CORRUPT") || m.contains("malformed")) {
            return "the database is corrupt (database disk image is malformed)";
        }
        return FileSupport.clip(m.replaceFirst("^\\[SQLITE_[A-Z_]+\\]\\s*", ""));
    }
}
