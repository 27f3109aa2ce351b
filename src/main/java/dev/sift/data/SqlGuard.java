package dev.sift.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    private static final Pattern DML_WORD = Pattern.compile("(?i)\\b(INSERT|UPDATE|DELETE|MERGE)\\b");
    private static final Pattern DOLLAR_TAG = Pattern.compile("\\$(?:[A-Za-z_][A-Za-z0-9_]*)?\\$");
    private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "FROM", "VALUES", "TABLE");
    /**
     * Functions a SELECT can call that change the session (checkpoints, logging: file logging even aborts the
     * process on close), run SQL the guard never sees ({@code query}, serialized SQL) or read raw memory.
     */
    private static final Set<String> DENIED_FUNCTIONS = Set.of("checkpoint", "force_checkpoint", "enable_logging",
            "disable_logging", "truncate_duckdb_logs", "write_log", "query", "json_execute_serialized_sql",
            "arrow_scan", "arrow_scan_dumb",
            // settings name the private spill folder, the one place besides the dataset a query could reach
            "current_setting", "duckdb_settings", "duckdb_temporary_files");
    /**
     * Functions that read files. External access is off, which leaves the attached dataset file and the private
     * spill folder reachable (DuckDB allows both); agent SQL reads tables, never raw files.
     */
    private static final Set<String> FILE_FUNCTIONS = Set.of("read_csv", "read_csv_auto", "read_json", "read_json_auto",
            "read_json_objects", "read_json_objects_auto", "read_ndjson", "read_ndjson_auto", "read_ndjson_objects",
            "read_parquet", "parquet_scan", "parquet_metadata", "parquet_kv_metadata", "parquet_file_metadata",
            "parquet_schema", "parquet_bloom_probe", "read_blob", "read_text", "glob", "sniff_csv",
            "duckdb_external_file_cache");
    public static final int MAX_SQL_CHARS = 20_000;
    private static final String OUTSIDE = "reads files or other resources outside the dataset, which is not allowed";
    /**
     * DuckDB cannot interrupt planning, and binding grows steeply with joins (40 tables ≈ 1 s, 80 ≈ 20 s, 300
     * never ends): more joined tables than this are refused before binding.
     */
    static final int MAX_JOINS = 32;
    /**
     * A statement that joins at most this many times and whose parse tree nests at most {@link #INLINE_BIND_DEPTH}
     * levels binds on the caller's thread: it plans in milliseconds (even a hundred correlated subqueries, the most
     * the depth limit lets through, plan in about 0.2 s) and recurses little, and a statement prepared on another
     * thread ran 0.2–0.4 ms slower than one prepared where it runs. Others bind on the guard's own thread, with its
     * deep stack, under the time limit.
     */
    static final int INLINE_BIND_JOINS = 8;
    /** Nesting of the serialized parse tree: a flat query with a few joins nests 9–11 levels, a CTE and subquery 15. */
    static final int INLINE_BIND_DEPTH = 40;

    static final String TOO_DEEP = "SQL is nested too deeply (more than " + Workspace.MAX_EXPRESSION_DEPTH
            + " levels of expressions or subqueries, e.g. a long chain of ||). Use concat(a, b, …) or list"
            + " functions, or split the work into steps saved with run_sql's label.";

    private final Connection connection;
    private final Duration timeout;
    /**
     * Binds statements that may plan long (many joins, deep nesting) on a thread of its own, so a caller waits at most
     * the time limit (planning ignores cancel).
     */
    private final ExecutorService binder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(null, r, "sift-sql-bind", 16L << 20); // deep plans recurse on this stack
        t.setDaemon(true);
        return t;
    });
    /** A bind that outlived the time limit: the connection is busy until it ends. */
    private volatile Future<PreparedStatement> overdue;
    /** The statement the last check bound, its text and DuckDB's parse tree of it (see {@link #takeBound}). */
    private PreparedStatement bound;
    private String boundSql;
    private JsonNode boundTree;
    /** Checks that bound on the binder thread (see {@link #threadBinds}). */
    private int threadBinds;
    /** The shared parser, or null to parse on the workspace's own connection. */
    private final SqlParser sqlParser;
    /** This guard's connection to the shared parser, once it gave one (until then the workspace's own is used). */
    private Connection sharedConnection;
    /** Whether the text macros exist on the connection yet. */
    private boolean macros;
    /** The parse query, prepared once: preparing it each time cost as much as the parse itself. */
    private PreparedStatement parser;
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

    SqlGuard(Connection connection, Duration timeout, SqlParser sqlParser) {
        this.connection = connection;
        this.timeout = timeout;
        this.sqlParser = sqlParser;
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
        awaitIdle();
        SerializedSql parsed = parse(sql);
        if (parsed.error()) {
            if (String.valueOf(parsed.errorMessage()).contains("Max expression depth limit")) {
                throw new QueryException(QueryException.Kind.INVALID, TOO_DEEP);
            }
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
        for (String function : parsed.functions()) {
            if (FILE_FUNCTIONS.contains(function.toLowerCase(Locale.ROOT))) {
                throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query " + OUTSIDE + " ("
                        + function + "() reads files). Query the dataset's tables and frames only.");
            }
        }
        if (parsed.pathTable()) { // a table named like a path makes DuckDB read the file (FROM 'x.csv')
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query " + OUTSIDE + " (a table named"
                    + " like a file path reads that file). Query the dataset's tables and frames only.");
        }
        for (String function : parsed.functions()) {
            if (DENIED_FUNCTIONS.contains(function.toLowerCase(Locale.ROOT))) {
                throw new QueryException(QueryException.Kind.REFUSED, "Refused: " + function + "() may not be used"
                        + " here (it changes the session, runs SQL of its own or reads raw memory). Query the dataset's"
                        + " tables and frames only.");
            }
        }
        if (parsed.joins() > MAX_JOINS) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query joins " + (parsed.joins() + 1)
                    + " tables; at most " + (MAX_JOINS + 1) + " may be joined in one query (planning more takes"
                    + " minutes). Join fewer tables, or save a partial result with run_sql's label and join that.");
        }
        Optional<String> huge = HugeValues.mayBuild(parsed.functions()) ? HugeValues.find(parsed.tree())
                : Optional.empty(); // no call that builds a value from constants: no tree to walk
        if (huge.isPresent()) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: " + huge.get());
        }
        bind(sql, parsed);
        verified.add(sql);
    }

    /**
     * Returns when no overdue bind holds the connection, waiting at most the time limit; then refuses, since
     * every statement on the connection would wait for that bind.
     */
    void awaitIdle() throws QueryException {
        Future<PreparedStatement> pending = overdue;
        if (pending == null) {
            return;
        }
        try {
            closeQuietly(pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS)); // nobody runs it any more
        } catch (TimeoutException e) {
            throw new QueryException(QueryException.Kind.TIMEOUT, "The previous query is still being planned after"
                    + " the time limit; this session cannot run queries until it ends. Send simpler queries.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryException(QueryException.Kind.TIMEOUT, "Interrupted while waiting for the previous query.");
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            // it failed, which ends it
        }
        overdue = null;
    }

    /** DuckDB's serialized parse of {@code sql}, on the shared parser when there is one. */
    private SerializedSql parse(String sql) throws QueryException {
        String s;
        try {
            if (sharedConnection == null && sqlParser != null) {
                sharedConnection = sqlParser.connect();
                if (sharedConnection != null) { // from now on the parse runs there
                    closeQuietly(parser);
                    parser = null;
                }
            }
            if (parser == null) {
                parser = (sharedConnection != null ? sharedConnection : connection)
                        .prepareStatement("SELECT json_serialize_sql(?::VARCHAR)");
            }
            parser.setString(1, sql);
            try (ResultSet rs = parser.executeQuery()) {
                rs.next();
                s = rs.getString(1);
            }
        } catch (SQLException e) {
            closeQuietly(parser); // prepared again by the next check, in case this one left it unusable
            parser = null;
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse: " + clean(e));
        }
        return SerializedSql.read(s);
    }

    /** Binds where the query will run when it plans cheaply ({@link #INLINE_BIND_JOINS}), else within the time limit. */
    private void bind(String sql, SerializedSql parsed) throws QueryException {
        if (parsed.joins() <= INLINE_BIND_JOINS && parsed.depth() <= INLINE_BIND_DEPTH) {
            keepBound(sql, prepare(sql), parsed.tree());
        } else {
            bindWithinLimit(sql, parsed.tree());
        }
    }

    /**
     * Binds on the guard's own thread, within the time limit. Planning cannot be cancelled in DuckDB, so a bind past
     * the limit is left to finish on that thread and the caller gets the time-limit error at once.
     */
    private void bindWithinLimit(String sql, JsonNode tree) throws QueryException {
        Future<PreparedStatement> task = binder.submit(() -> prepare(sql));
        try {
            keepBound(sql, task.get(timeout.toMillis(), TimeUnit.MILLISECONDS), tree);
            threadBinds++;
        } catch (TimeoutException e) {
            overdue = task;
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query planning was stopped after the time limit of "
                    + Math.max(1, timeout.toSeconds()) + " s (binding this SQL takes too long). Join fewer tables,"
                    + " use shorter expressions, or split the work into steps saved with run_sql's label.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryException(QueryException.Kind.TIMEOUT, "Interrupted while checking the query.");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof QueryException q) {
                throw q;
            }
            throw new IllegalStateException("Binding failed unexpectedly", e.getCause());
        }
    }

    private void keepBound(String sql, PreparedStatement ps, JsonNode tree) {
        forgetBound();
        bound = ps;
        boundSql = sql;
        boundTree = tree;
    }

    /** How many checks bound on the guard's own thread (the others bound on the caller's). */
    int threadBinds() {
        return threadBinds;
    }

    /** Creates the text macros on the connection the first time a statement names one ({@link TextMacros}). */
    private synchronized void macrosFor(String sql) throws SQLException {
        if (!macros && TextMacros.mentioned(sql)) {
            TextMacros.create(connection);
            macros = true;
        }
    }

    /**
     * Binds and plans without running (preparing does what EXPLAIN does, at a third of the cost); the statement is
     * kept open, so the query that follows the check runs it instead of parsing and binding again.
     */
    private PreparedStatement prepare(String sql) throws QueryException {
        PreparedStatement ps = null;
        try {
            macrosFor(sql);
            ps = connection.prepareStatement(sql);
            ps.getMetaData();
            return ps;
        } catch (SQLException e) {
            closeQuietly(ps);
            String message = clean(e);
            if (message.startsWith("Permission Error")) {
                throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query " + OUTSIDE + " ("
                        + message + "). Query the dataset's tables and frames only.");
            }
            if (message.contains("Max expression depth limit")) {
                throw new QueryException(QueryException.Kind.INVALID, TOO_DEEP);
            }
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not bind: " + message);
        }
    }

    /** A statement the check bound, and DuckDB's parse of its text as the check read it (a JSON tree). */
    record Bound(PreparedStatement statement, JsonNode tree) { }

    /**
     * The statement the last check bound for exactly {@code sql}, handed over to run once (the loop checks a call, then
     * the tool runs it); null when there is none.
     */
    Bound takeBound(String sql) {
        if (bound == null || !sql.equals(boundSql)) {
            return null;
        }
        Bound taken = new Bound(bound, boundTree);
        bound = null;
        boundSql = null;
        boundTree = null;
        return taken;
    }

    /** Closes the kept bound statement (a statement that changes frames ran, or another was bound). */
    void forgetBound() {
        closeQuietly(bound);
        bound = null;
        boundSql = null;
        boundTree = null;
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            if (ps != null) {
                ps.close();
            }
        } catch (SQLException ignored) {
            // closing a statement of a closed connection: nothing to free
        }
    }

    void close() {
        forgetBound();
        closeQuietly(parser);
        if (sharedConnection != null) {
            sqlParser.release(sharedConnection);
        }
        binder.shutdownNow();
    }

    /**
     * "is a DROP statement" / "has 2 statements including a DROP statement": for the message only, the decision
     * is the parser's. Literals, quoted names and comments (nested too, as DuckDB reads them) are skipped.
     */
    public static String describeStatements(String sql) {
        List<String> kinds = new ArrayList<>();
        int count = 0;
        for (String part : codeParts(sql)) {
            Matcher m = FIRST_WORD.matcher(part);
            if (m.find()) {
                count++;
                String word = m.group(1).toUpperCase(Locale.ROOT);
                if (word.equals("WITH")) { // WITH x AS (...) DELETE …, or a DML statement inside a CTE
                    Matcher dml = DML_WORD.matcher(part);
                    word = dml.find() ? dml.group(1).toUpperCase(Locale.ROOT) : word;
                }
                if (!QUERY_WORDS.contains(word) && !kinds.contains(word)) {
                    kinds.add(word);
                }
            }
        }
        if (kinds.isEmpty()) {
            return count > 1 ? "has " + count + " statements" : "is not a plain query";
        }
        String kindText = kinds.size() == 1 ? article(kinds.get(0)) + " " + kinds.get(0) + " statement"
                : String.join(", ", kinds.subList(0, kinds.size() - 1)) + " and " + kinds.get(kinds.size() - 1)
                        + " statements";
        return count > 1 ? "has " + count + " statements including " + kindText : "is " + kindText;
    }

    private static String article(String word) {
        return "AEIOU".indexOf(word.charAt(0)) >= 0 && !word.equals("USE") ? "an" : "a";
    }

    /** The SQL without its trailing semicolons and comments (so it can be wrapped in a subquery). */
    public static String withoutTerminator(String sql) {
        char[] kind = scan(sql);
        for (int i = sql.length() - 1; i >= 0; i--) {
            char c = sql.charAt(i);
            if (kind[i] == 's' || (kind[i] == 'c' && c != ';' && !Character.isWhitespace(c))) {
                return sql.substring(0, i + 1);
            }
        }
        return sql;
    }

    /** How many statements the SQL holds (top-level ';' outside literals, quoted names and comments). */
    public static int statementCount(String sql) {
        return (int) codeParts(sql).stream().filter(p -> !p.isBlank()).count();
    }

    /** The first word of the code (comments and literals skipped), upper case; empty when there is none. */
    public static String firstWord(String sql) {
        for (String part : codeParts(sql)) {
            Matcher m = FIRST_WORD.matcher(part);
            if (m.find()) {
                return m.group(1).toUpperCase(Locale.ROOT);
            }
        }
        return "";
    }

    /** The statements of the SQL split at top-level ';', with comments, literals and quoted names blanked. */
    private static List<String> codeParts(String sql) {
        char[] kind = scan(sql);
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (kind[i] == 'c' && c == ';') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(kind[i] == 'c' ? c : ' ');
            }
        }
        parts.add(part.toString());
        return parts;
    }

    /** Per character: 'c' code, 's' string literal or quoted name (quotes included), 'm' comment. */
    private static char[] scan(String sql) {
        int n = sql.length();
        char[] kind = new char[n];
        int i = 0;
        while (i < n) {
            int end = commentEnd(sql, i);
            char k = 'm';
            if (end < 0) {
                end = literalEnd(sql, i);
                k = 's';
            }
            if (end < 0) {
                end = i + 1;
                k = 'c';
            }
            end = Math.min(end, n);
            Arrays.fill(kind, i, end, k);
            i = end;
        }
        return kind;
    }

    /** Where the comment starting at {@code i} ends (a line comment before its newline), or -1 if none starts there. */
    private static int commentEnd(String sql, int i) {
        if (sql.startsWith("--", i)) {
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() : end;
        }
        if (!sql.startsWith("/*", i)) {
            return -1;
        }
        int depth = 0; // block comments nest in DuckDB
        int end = i;
        while (end < sql.length()) {
            if (sql.startsWith("/*", end)) {
                depth++;
                end += 2;
            } else if (sql.startsWith("*/", end)) {
                end += 2;
                if (--depth == 0) {
                    break;
                }
            } else {
                end++;
            }
        }
        return end;
    }

    /**
     * Where the string, quoted identifier or dollar-quoted string starting at {@code i} ends, or -1 if none starts
     * there.
     */
    private static int literalEnd(String sql, int i) {
        char ch = sql.charAt(i);
        if (ch == '\'' || ch == '"') {
            return quoteEnd(sql, i, ch);
        }
        if (ch == '$' && (i == 0 || !isIdentifierChar(sql.charAt(i - 1)))) {
            Matcher dollar = DOLLAR_TAG.matcher(sql).region(i, sql.length());
            if (dollar.lookingAt()) {
                int close = sql.indexOf(dollar.group(), dollar.end());
                return close < 0 ? sql.length() : close + dollar.group().length();
            }
        }
        return -1;
    }

    /** Past the closing quote of the quoted text opening at {@code i}: a doubled quote, or after E a backslash, escapes. */
    private static int quoteEnd(String sql, int i, char quote) {
        int n = sql.length();
        boolean backslashes = quote == '\'' && i > 0 && Character.toUpperCase(sql.charAt(i - 1)) == 'E'
                && (i < 2 || !isIdentifierChar(sql.charAt(i - 2)));
        int end = i + 1;
        while (end < n) {
            char c = sql.charAt(end);
            if (backslashes && c == '\\') {
                end += 2;
            } else if (c == quote && end + 1 < n && sql.charAt(end + 1) == quote) {
                end += 2;
            } else {
                end++;
                if (c == quote) {
                    break;
                }
            }
        }
        return end;
    }

    private static boolean isIdentifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
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
