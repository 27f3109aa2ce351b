package dev.sift.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether agent SQL may run: exactly one read-only query, as DuckDB's own parser sees it
 * ({@code json_serialize_sql} serializes SELECT statements only), which binds against the live schema
 * ({@code EXPLAIN} plans without running). The workspace is locked down as well (no file access, no
 * extension loading, locked configuration, read-only dataset): the guard gives the clear reason, the
 * lock-down is the wall behind it.
 */
public final class SqlGuard {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern FIRST_WORD = Pattern.compile("^[\\s(]*([A-Za-z_]+)");
    private static final Pattern COMMENTS = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);
    static final int MAX_SQL_CHARS = 20_000;

    private final Connection connection;

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
        JsonNode parsed = serialize(sql);
        if (parsed.path("error").asBoolean(false)) {
            String type = parsed.path("error_type").asText("");
            String message = parsed.path("error_message").asText("");
            if (type.equals("parser")) {
                throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse: " + firstLine(message)
                        + " Send one DuckDB SELECT statement.");
            }
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: only one read-only query (SELECT or"
                    + " WITH … SELECT) may run here; this SQL " + describeStatements(sql)
                    + ". The dataset is read-only; save results with run_sql's label instead.");
        }
        int statements = parsed.path("statements").size();
        if (statements != 1) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: exactly one statement may run at a time;"
                    + " this SQL has " + statements + ". Send them one by one.");
        }
        explain(sql);
    }

    private JsonNode serialize(String sql) throws QueryException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return JSON.readTree(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse: " + clean(e));
        } catch (Exception e) {
            throw new IllegalStateException("Could not read DuckDB's parse of the SQL", e);
        }
    }

    private void explain(String sql) throws QueryException {
        try (Statement st = connection.createStatement()) {
            st.execute("EXPLAIN " + sql);
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
