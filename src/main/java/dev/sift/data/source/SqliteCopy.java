package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.sqlite.SQLiteException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One attempt at copying a SQLite table into DuckDB, in one transaction: the table is created, its rows streamed
 * in as Arrow batches ({@link SqliteBatches}, {@link ArrowIngest}) and, when {@code typed}, converted to their
 * declared types on the way in. An attempt that cannot stand is rolled back whole and says why, so the caller tries
 * the next way: {@link #MISMATCH} when a value's storage class does not fit what the columns expected,
 * {@link #UNCONVERTIBLE} when some value is not of its declared type.
 */
final class SqliteCopy {
    static final long MISMATCH = -1;
    static final long UNCONVERTIBLE = -2;

    private final Connection src;
    private final Connection db;
    private final String qualified;
    private final String table;
    private final boolean utf8;
    private final long total;
    private final Progress progress;
    private final Opener opener;
    private final int readers;

    /** Opens another connection to the same file, for another reader thread. */
    @FunctionalInterface
    interface Opener {
        Connection open() throws SQLException;
    }

    /** {@code readers}: how many threads may read one table (each on a connection from {@code opener}). */
    SqliteCopy(Connection src, Connection db, String qualified, String table, boolean utf8, long total,
               Progress progress, Opener opener, int readers) {
        this.src = src;
        this.db = db;
        this.qualified = qualified;
        this.table = table;
        this.utf8 = utf8;
        this.total = total;
        this.progress = progress;
        this.opener = opener;
        this.readers = readers;
    }

    /**
     * Copies the rows as {@code columns} says: the rows copied, or {@link #MISMATCH} / {@link #UNCONVERTIBLE} with
     * nothing left behind. {@code expected} columns come from the declarations; otherwise from a scan of what the
     * columns hold, and a value that does not fit them is a bug.
     */
    long rows(List<SqliteSource.Column> columns, boolean expected, boolean typed) throws Exception {
        boolean auto = db.getAutoCommit();
        db.setAutoCommit(false); // one transaction: the rows go straight to the file's blocks, not through its log
        long done = UNCONVERTIBLE;
        try {
            done = attempt(columns, expected, typed);
            return done;
        } finally {
            if (done < 0) {
                if (auto) {
                    db.rollback();
                }
                try (Statement st = db.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS " + qualified); // within a caller's transaction, the rollback is theirs
                }
            } else if (auto) {
                db.commit();
            }
            db.setAutoCommit(auto);
        }
    }

    private long attempt(List<SqliteSource.Column> columns, boolean expected, boolean typed) throws Exception {
        List<ColumnBuffer.Kind> kinds = columns.stream().map(c -> kind(c.stored())).toList();
        String select = create(columns, kinds, typed);
        Span span = span(columns);
        int n = span == null ? 1 : (int) Math.min(readers, (span.last() - span.first()) / SqliteBatches.BATCH_ROWS + 1);
        String query = "SELECT " + String.join(", ", columns.stream().map(c -> Sql.quoteIdent(c.name())).toList())
                + " FROM " + Sql.quoteIdent(table);
        List<Connection> opened = new ArrayList<>();
        List<SqliteBatches> batches = new ArrayList<>();
        AtomicLong copied = new AtomicLong();
        try {
            for (int k = 0; k < n; k++) {
                Connection c = k == 0 ? src : opener.open();
                if (k > 0) {
                    opened.add(c);
                }
                batches.add(new SqliteBatches(c, query, span == null ? null : new SqliteBatches.Chunks(span.rowid(),
                        span.first(), span.last(), SqliteBatches.BATCH_ROWS, k, n), kinds, utf8, progress, table, total, copied));
            }
            boolean mismatch;
            try {
                ArrowIngest.insert(db, qualified, select, ColumnBuffer.schema(kinds), List.copyOf(batches));
                mismatch = batches.stream().anyMatch(SqliteBatches::mismatch);
            } catch (SQLException e) {
                mismatch = batches.stream().anyMatch(SqliteBatches::mismatch);
                if (mismatch && expected) {
                    return MISMATCH;
                }
                if (e instanceof SQLiteException || !typed || mismatch) {
                    throw e; // the file's reason, or a conversion that was not asked for
                }
                return UNCONVERTIBLE;
            }
            if (mismatch) {
                if (expected) {
                    return MISMATCH;
                }
                throw new IllegalStateException("SQLite table " + table + " holds a value its scan did not see");
            }
            return expected && !heldAsDeclared(columns, batches) ? MISMATCH : copied.get();
        } finally {
            for (SqliteBatches b : batches) {
                b.close();
            }
            for (Connection c : opened) {
                c.close();
            }
        }
    }

    /** Creates the target table (declared or stored types); returns the select list that casts the handed-over columns to them. */
    private String create(List<SqliteSource.Column> columns, List<ColumnBuffer.Kind> kinds, boolean typed) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(qualified).append(" (");
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            SqliteSource.Column c = columns.get(i);
            String type = typed ? c.target() : c.stored();
            String v = Sql.quoteIdent("c" + i);
            ddl.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(c.name())).append(' ').append(type);
            select.append(i == 0 ? "" : ", ").append(type.equals(kinds.get(i).name()) ? v : "CAST(" + v + " AS " + type + ")");
        }
        try (Statement st = db.createStatement()) {
            st.execute(ddl.append(')').toString());
        }
        return select.toString();
    }

    /**
     * Whether every column held what its declaration led to expect: a TEXT column holding only numbers is typed as
     * what it holds, as the scan does, so it does not match.
     */
    private static boolean heldAsDeclared(List<SqliteSource.Column> columns, List<SqliteBatches> batches) {
        for (int i = 0; i < columns.size(); i++) {
            SqliteSource.Column c = columns.get(i);
            int k = i;
            int cls = batches.stream().mapToInt(b -> b.seen(k)).reduce(0, (a, b) -> a | b);
            boolean[] held = {(cls & SqliteBatches.INTEGER) != 0, (cls & SqliteBatches.REAL) != 0,
                    (cls & SqliteBatches.TEXT) != 0, (cls & SqliteBatches.BLOB) != 0};
            if (!SqliteSource.column(c.name(), c.declared(), held).equals(c)) {
                return false;
            }
        }
        return true;
    }

    /** A table's rowids: the name that reads them and their range. */
    private record Span(String rowid, long first, long last) { }

    /**
     * The rowid range to split the table by for several readers, or null to read it whole on one: a view, a table
     * WITHOUT ROWID, one whose columns take all three rowid names, a small table, or rowids so sparse that most
     * chunks would be empty.
     */
    private Span span(List<SqliteSource.Column> columns) throws SQLException {
        if (readers < 2 || total < 4L * SqliteBatches.BATCH_ROWS) {
            return null;
        }
        try (PreparedStatement ps = src.prepareStatement("SELECT type FROM sqlite_master WHERE name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !"table".equals(rs.getString(1))) {
                    return null;
                }
            }
        }
        String rowid = null;
        for (String name : List.of("_rowid_", "rowid", "oid")) {
            if (rowid == null && columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(name))) {
                rowid = name;
            }
        }
        if (rowid == null) {
            return null;
        }
        try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT (SELECT min(" + rowid + ") FROM " + Sql.quoteIdent(table) + "), (SELECT max(" + rowid + ") FROM "
                        + Sql.quoteIdent(table) + ")")) { // apart, each is a lookup; together, a scan
            rs.next();
            long first = rs.getLong(1);
            long last = rs.getLong(2);
            return last - first + 1 <= 2 * total ? new Span(rowid, first, last) : null;
        } catch (SQLException e) {
            return null; // WITHOUT ROWID: no rowid to split by
        }
    }

    /** How a column of stored type {@code stored} is handed over: BIGINT, DOUBLE, BLOB, anything else as text. */
    private static ColumnBuffer.Kind kind(String stored) {
        return switch (stored) {
            case "BIGINT" -> ColumnBuffer.Kind.BIGINT;
            case "DOUBLE" -> ColumnBuffer.Kind.DOUBLE;
            case "BLOB" -> ColumnBuffer.Kind.BLOB;
            default -> ColumnBuffer.Kind.VARCHAR;
        };
    }
}
