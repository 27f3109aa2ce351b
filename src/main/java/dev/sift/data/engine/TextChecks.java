package dev.sift.data.engine;

import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import dev.sift.data.SqlGuard;

import java.util.Set;

/**
 * The checks every engine's guard makes on the text before asking the engine: not empty, not too long, one
 * statement (a second statement after ';' would run as well on some drivers), and a query by its first word.
 * The engine's own parser and binder decide the rest.
 */
final class TextChecks {
    private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM");

    private TextChecks() { }

    static void check(String sql, SqlDialect dialect) throws QueryException {
        if (sql == null || sql.isBlank()) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL is empty: send one SELECT statement.");
        }
        if (sql.length() > SqlGuard.MAX_SQL_CHARS) {
            throw new QueryException(QueryException.Kind.REFUSED, "SQL is " + sql.length() + " characters long; the limit is "
                    + SqlGuard.MAX_SQL_CHARS + ". Send a shorter query.");
        }
        int statements = SqlGuard.statementCount(sql);
        if (statements > 1) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: exactly one statement may run at a time;"
                    + " this SQL has " + statements + ". Send them one by one.");
        }
        if (!QUERY_WORDS.contains(SqlGuard.firstWord(sql))) {
            throw new QueryException(QueryException.Kind.REFUSED, refusal(sql, dialect));
        }
    }

    static String refusal(String sql, SqlDialect dialect) {
        return "Refused: only one read-only query (SELECT or WITH … SELECT) may run on " + dialect.label()
                + "; this SQL " + SqlGuard.describeStatements(sql) + ". The dataset is read-only; save results with"
                + " run_sql's label instead.";
    }
}
