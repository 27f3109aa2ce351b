package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
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
 * A SQLite database file, read through sqlite-jdbc opened read-only, every table and view copied into DuckDB
 * with the Appender. SQLite types a value, not a column, so each column is first scanned for the storage classes
 * it really holds: rows are appended as those (BIGINT, DOUBLE, VARCHAR, BLOB) and the column is then converted
 * to the type its declaration names (DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, TIME,
 * UUID, JSON). A column whose values do not convert keeps the stored type and a note says so.
 */
public final class SqliteSource implements Source {
    static final String VERSION = "sqlite-1";
    private static final Logger LOG = LoggerFactory.getLogger(SqliteSource.class);
    private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");
    private static final int FLUSH_ROWS = 100_000;

    private final Path file;

    public SqliteSource(Path file) {
        this.file = file.toAbsolutePath().normalize();
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
            for (String table : tables(src)) {
                copy(src, db, schema, table, progress);
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

    private void copy(Connection src, Connection db, String schema, String table, Progress progress) throws SQLException {
        String target = table.replace('.', '_'); // a dot in a table name would read as schema.table
        String qualified = Sql.quoteIdent(schema) + "." + Sql.quoteIdent(target);
        List<String[]> declared = new ArrayList<>();
        try (Statement st = src.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA table_info(" + Sql.quoteIdent(table) + ")")) {
            while (rs.next()) {
                declared.add(new String[] {rs.getString("name"), String.valueOf(rs.getString("type"))});
            }
        }
        List<Column> guessed = new ArrayList<>();
        for (String[] c : declared) {
            guessed.add(column(c[0], c[1], affinity(c[1])));
        }
        long total = count(src, table);
        progress.report("loading " + table, 0, total);
        List<Column> columns = guessed;
        create(db, qualified, columns);
        long done = append(src, db, schema, target, table, columns, total, true, progress);
        if (done < 0) { // a value of a storage class the declaration did not promise: scan what the columns hold
            try (Statement st = db.createStatement()) {
                st.execute("DROP TABLE " + qualified);
            }
            columns = scanned(src, table, declared);
            create(db, qualified, columns);
            done = append(src, db, schema, target, table, columns, total, false, progress);
        }
        convertAll(db, schema, target, table, columns);
        progress.report("loaded " + table, done, total);
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

    private static void create(Connection db, String qualified, List<Column> columns) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(qualified).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            ddl.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(columns.get(i).name())).append(' ').append(columns.get(i).stored());
        }
        try (Statement st = db.createStatement()) {
            st.execute(ddl.append(')').toString());
        }
    }

    /** Storage-class bits of one value in a row's class mask: 0 is NULL. */
    private static final int INTEGER = 1;
    private static final int REAL = 2;
    private static final int TEXT = 4;
    private static final int BLOB = 8;
    /** Columns whose storage classes one 64-bit mask carries (4 bits each). */
    private static final int PER_MASK = 15;

    /**
     * Appends the table's rows as {@code columns} says. Each row also brings, computed by SQLite, a mask of its
     * values' storage classes, so NULLs and classes are known without a driver call per value. Returns the rows
     * appended, or -1 when the columns are only {@code expected} (from the declarations) and a value, or the classes
     * a column held in the end, do not fit them: then the rows appended are rolled back.
     */
    private static long append(Connection src, Connection db, String schema, String target, String table,
                               List<Column> columns, long total, boolean expected, Progress progress) throws SQLException {
        boolean auto = db.getAutoCommit();
        db.setAutoCommit(false); // one transaction: the rows go straight to the file's blocks, not through its log
        try {
            long done = appendRows(src, db, schema, target, table, columns, total, expected, progress);
            if (auto) {
                if (done < 0) {
                    db.rollback();
                } else {
                    db.commit();
                }
            }
            return done;
        } catch (SQLException | RuntimeException e) {
            if (auto) {
                db.rollback();
            }
            throw e;
        } finally {
            db.setAutoCommit(auto);
        }
    }

    private static long appendRows(Connection src, Connection db, String schema, String target, String table,
                                   List<Column> columns, long total, boolean expected, Progress progress) throws SQLException {
        int n = columns.size();
        int masks = (n + PER_MASK - 1) / PER_MASK;
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < n; i++) {
            select.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(columns.get(i).name()));
        }
        for (int m = 0; m < masks; m++) {
            select.append(", ");
            for (int i = m * PER_MASK; i < Math.min(n, (m + 1) * PER_MASK); i++) {
                select.append(i == m * PER_MASK ? "" : " | ").append("(CASE typeof(").append(Sql.quoteIdent(columns.get(i).name()))
                        .append(") WHEN 'integer' THEN 1 WHEN 'real' THEN 2 WHEN 'text' THEN 4 WHEN 'blob' THEN 8 ELSE 0 END << ")
                        .append(4 * (i % PER_MASK)).append(')');
            }
        }
        int[] kinds = columns.stream().mapToInt(c -> STORED.indexOf(c.stored())).toArray();
        long[] seen = new long[masks];
        long[] mask = new long[masks];
        long done = 0;
        try (DuckDBAppender a = db.unwrap(DuckDBConnection.class).createAppender(BsonTables.catalog(db), schema, target);
             Statement st = src.createStatement();
             ResultSet rs = st.executeQuery(select.append(" FROM ").append(Sql.quoteIdent(table)).toString())) {
            while (rs.next()) {
                for (int m = 0; m < masks; m++) {
                    mask[m] = rs.getLong(n + 1 + m);
                    seen[m] |= mask[m];
                }
                a.beginRow();
                for (int i = 0; i < n; i++) {
                    int cls = (int) (mask[i / PER_MASK] >>> (4 * (i % PER_MASK))) & 15;
                    if (!append(a, rs, i + 1, kinds[i], cls)) {
                        if (expected) {
                            return -1;
                        }
                        throw new IllegalStateException("SQLite table " + table + ": column " + columns.get(i).name()
                                + " holds a value its scan did not see");
                    }
                }
                a.endRow();
                if (++done % FLUSH_ROWS == 0) {
                    a.flush();
                    progress.report("loading " + table, done, total);
                }
            }
        }
        for (int i = 0; expected && i < n; i++) {
            int cls = (int) (seen[i / PER_MASK] >>> (4 * (i % PER_MASK))) & 15;
            Column c = columns.get(i);
            boolean[] held = {(cls & INTEGER) != 0, (cls & REAL) != 0, (cls & TEXT) != 0, (cls & BLOB) != 0};
            if (!column(c.name(), c.declared(), held).equals(c)) {
                return -1; // e.g. a TEXT column holding only numbers: typed as what it holds, like the scan does
            }
        }
        return done;
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

    /** The types rows are appended as, by index: BIGINT, DOUBLE, BLOB, anything else as text. */
    private static final List<String> STORED = List.of("BIGINT", "DOUBLE", "BLOB");

    /**
     * Appends value {@code i} of storage class {@code cls} as a column of stored type {@code kind}; false when the
     * class does not fit the type (a text value in a BIGINT column). Text goes over as the UTF-8 bytes SQLite holds,
     * decoded and encoded again only when it is not plain ASCII (so invalid UTF-8 still becomes valid text).
     */
    private static boolean append(DuckDBAppender a, ResultSet rs, int i, int kind, int cls) throws SQLException {
        if (cls == 0) {
            a.appendNull();
            return true;
        }
        switch (kind) {
            case 0 -> {
                if (cls != INTEGER) {
                    return false;
                }
                a.append(rs.getLong(i));
            }
            case 1 -> {
                if (cls != INTEGER && cls != REAL) {
                    return false;
                }
                a.append(rs.getDouble(i));
            }
            case 2 -> {
                if (cls != BLOB) {
                    return false;
                }
                a.append(rs.getBytes(i));
            }
            default -> {
                byte[] v = rs.getBytes(i);
                if (ascii(v)) {
                    a.append(v);
                } else {
                    a.append(new String(v, java.nio.charset.StandardCharsets.UTF_8));
                }
            }
        }
        return true;
    }

    private static boolean ascii(byte[] v) {
        for (byte b : v) {
            if (b < 0) {
                return false;
            }
        }
        return true;
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
