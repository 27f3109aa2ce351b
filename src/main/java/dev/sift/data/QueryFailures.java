package dev.sift.data;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;

/**
 * What a failed query of a workspace tells the planner: it ran out of memory (whether DuckDB or the gate's watch
 * stopped it), hit the time limit, was refused, or failed with DuckDB's own message.
 */
final class QueryFailures {
    private final Workspace.Limits limits;

    QueryFailures(Workspace.Limits limits) {
        this.limits = limits;
    }

    /** The time limit in whole seconds, at least one (what JDBC's query timeout takes). */
    static int seconds(Workspace.Limits limits) {
        return (int) Math.max(1, Math.ceil(limits.queryTimeout().toMillis() / 1000.0));
    }

    /** "ran out of memory (limit 2 GB)" whether DuckDB or the gate's watch stopped it. */
    QueryException outOfMemory() {
        return new QueryException(QueryException.Kind.FAILED, "Query ran out of memory (limit "
                + limits.memoryLimit().replaceAll("(?i)^\\s*([0-9.]+)\\s*([KMGT]I?B)\\s*$", "$1 $2") + ") and was stopped."
                + " Aggregate in SQL, filter earlier, select fewer columns, or avoid building huge lists and strings.");
    }

    /**
     * The rows being fetched did not fit in the Java heap: DuckDB hands over whole chunks of up to 2,048 rows, outside
     * its own limit, and its driver reports a value it could not allocate as a NullPointerException from native code.
     * {@code null} when {@code e} is something else (a bug of ours, which must stay loud).
     */
    static QueryException fetchTooLarge(RuntimeException e) {
        StackTraceElement[] at = e.getStackTrace();
        return e instanceof NullPointerException && at.length > 0 && at[0].getClassName().startsWith("org.duckdb.")
                ? fetchTooLarge() : null;
    }

    /** A fetch that ran out of heap as the planner's (and user's) error; any other runtime exception as it was. */
    static RuntimeException tooLargeOr(RuntimeException e) throws QueryException {
        QueryException tooLarge = fetchTooLarge(e);
        if (tooLarge != null) {
            throw tooLarge;
        }
        return e;
    }

    /** As above, for the heap running out in Sift's own copy of the rows. */
    static QueryException fetchTooLarge() {
        return new QueryException(QueryException.Kind.FAILED, "The result's rows are too large to bring into this"
                + " process's memory (Java heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB) and the"
                + " query was stopped. Select fewer rows or shorter values (e.g. left(column, 1000)), or give Sift more"
                + " memory (SIFT_JAVA_OPTS=-Xmx4g).");
    }

    /** Cancelled at the time limit, whether by JDBC's own timer or the gate's watch. */
    private QueryException overTime() {
        return new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled after the time limit of "
                + seconds(limits) + " s. Aggregate more, filter earlier, or avoid cross joins.");
    }

    QueryException of(SQLException e, QueryGate.Ticket ticket) {
        if (ticket != null && ticket.outOfMemory()) {
            return outOfMemory();
        }
        if (ticket != null && ticket.overBudget()) {
            return new QueryException(QueryException.Kind.FAILED, "The process reached its memory budget ("
                    + QueryGate.megabytes(ticket.budgetBytes()) + ": Java heap + DuckDB's memory limit + an allowance)"
                    + " while this query ran, so it was stopped. Select fewer rows or shorter values, aggregate in SQL,"
                    + " or try again when fewer queries run.");
        }
        return ticket != null && ticket.overTime() ? overTime() : of(e);
    }

    QueryException of(SQLException e) {
        if (String.valueOf(e.getMessage()).startsWith("Out of Memory Error")) {
            return outOfMemory();
        }
        if (e instanceof SQLTimeoutException || String.valueOf(e.getMessage()).contains("INTERRUPT")) {
            return overTime();
        }
        String message = SqlGuard.clean(e);
        if (message.startsWith("Permission Error") || message.contains("read-only mode")) {
            return new QueryException(QueryException.Kind.REFUSED, "Refused: " + message);
        }
        return new QueryException(QueryException.Kind.FAILED, "Query failed while running: " + message);
    }
}
