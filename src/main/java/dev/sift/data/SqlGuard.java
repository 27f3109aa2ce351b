package dev.sift.data;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether agent SQL may run: exactly one read-only query, as DuckDB's own parser sees it
 * ({@code json_serialize_sql} serializes SELECT statements only), which binds against the live schema
 * (preparing the statement binds and plans it without running, like {@code EXPLAIN}). The workspace is locked down as well (no file access, no
 * extension loading, locked configuration, read-only dataset): the guard gives the clear reason, the
 * lock-down is the wall behind it.
 */
public final class SqlGuard {
    private static final Pattern FIRST_WORD = Pattern.compile("^[\\s(]*([A-Za-z_]+)");
    private static final Pattern COMMENTS = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);
    static final int MAX_SQL_CHARS = 20_000;

    private final Connection connection;
    /**
     * Statements that passed recently. Being one read-only statement is a property of the text alone; a
     * binding that goes stale (a frame replaced in between) fails safely when the query runs.
     */
    private final Set<String> verified = Collections.newSetFromMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 64;
        }
    });

    SqlGuard(Connection connection) {
        this.connection = connection;
    }

    /** Throws {@link QueryException} with a reason written for the planner when the SQL may not run. */
    public void check(String sql) throws QueryException {
        if (sql == null || sql.isBlank()) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL is empty: send one SELECT statement.");
        }
        if (sql.length() > MAX_SQL_CHARS) {
            throw new QueryException(QueryException.Kind.REFUSED,
                    "SQL is " + sql.length() + " characters long; the limit is " + MAX_SQL_CHARS + ". Send a shorter query.");
        }
        if (verified.contains(sql)) {
            return; // checked moments ago (the loop validates a call, then the tool runs it)
        }
        Parse parsed = parse(sql);
        if (parsed.error()) {
            if ("parser".equals(parsed.errorType())) {
                throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse: "
                        + firstLine(parsed.errorMessage()) + " Send one DuckDB SELECT statement.");
            }
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: only one read-only query (SELECT or"
                    + " WITH … SELECT) may run here; this SQL " + describeStatements(sql)
                    + ". The dataset is read-only; save results with run_sql's label instead.");
        }
        if (parsed.statements() != 1) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: exactly one statement may run at a time;"
                    + " this SQL has " + parsed.statements() + ". Send them one by one.");
        }
        bind(sql);
        verified.add(sql);
    }

    /** DuckDB's verdict on the text, read inside DuckDB so only four small values cross JDBC. */
    private record Parse(boolean error, String errorType, String errorMessage, int statements) { }

    private Parse parse(String sql) throws QueryException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT coalesce(j->>'error', 'false') = 'true',"
                + " j->>'error_type', j->>'error_message', coalesce(json_array_length(j->'statements'), 0)"
                + " FROM (SELECT json_serialize_sql(?::VARCHAR)::JSON AS j)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Parse(rs.getBoolean(1), rs.getString(2), rs.getString(3), rs.getInt(4));
            }
        } catch (SQLException e) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse: " + clean(e));
        }
    }

    /** Binds and plans without running: preparing does what EXPLAIN does, at a third of the cost. */
    private void bind(String sql) throws QueryException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.getMetaData();
        } catch (SQLException e) {
            String message = clean(e);
            if (message.startsWith("Permission Error")) {
                throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query reads files or other"
                        + " resources outside the dataset, which is not allowed (" + message + "). Query the dataset's tables"
                        + " and frames only.");
            }
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not bind: " + message);
        }
    }

    /** "contains a DROP statement" / "is a PRAGMA statement": for the message only, the decision is the parser's. */
    static String describeStatements(String sql) {
        String stripped = COMMENTS.matcher(sql).replaceAll(" ");
        String[] parts = stripped.split(";");
        StringBuilder kinds = new StringBuilder();
        int count = 0;
        for (String part : parts) {
            Matcher m = FIRST_WORD.matcher(part);
            if (m.find()) {
                count++;
                String word = m.group(1).toUpperCase(Locale.ROOT);
                if (!word.equals("SELECT") && !word.equals("WITH") && kinds.indexOf(word) < 0) {
                    kinds.append(kinds.length() == 0 ? "" : ", ").append(word);
                }
            }
        }
        if (kinds.length() == 0) {
            return count > 1 ? "has " + count + " statements" : "is not a plain query";
        }
        return (count > 1 ? "has " + count + " statements including " : "is a ") + kinds + " statement";
    }

    /** DuckDB's message without the trailing caret diagram, on one line. */
    static String clean(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int caret = m.indexOf("\n\nLINE ");
        if (caret >= 0) {
            m = m.substring(0, caret);
        }
        return m.replaceAll("\\s*\\n\\s*", " ").trim();
    }

    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s.trim() : s.substring(0, nl).trim();
    }
}
