package dev.sift.data;

/**
 * A query that was refused or failed. The message is written for the planner (and people): what was
 * wrong and what to do instead. These are planner mistakes, not bugs: they become observations.
 */
public final class QueryException extends FixableException {

    public enum Kind {
        /** Not allowed here (not a single read-only query, touches files, …). */
        REFUSED,
        /** Does not parse or bind against the schema. */
        INVALID,
        /** Ran longer than the time limit and was cancelled. */
        TIMEOUT,
        /** Bound, but failed while running (conversion error, out of memory, …). */
        FAILED,
        /** A live dataset's engine could not be reached or would not let Sift in: nothing a planner can fix. */
        UNREACHABLE
    }

    private final Kind kind;

    public QueryException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * A query that hit the time limit or named something that does not exist is the planner's to fix; a
     * refused or failing query that a tool generated itself is a bug of ours (the registry reports every kind to the
     * planner when the tool runs the planner's own SQL, as run_sql does).
     */
    @Override
    public boolean fixable() {
        return kind == Kind.TIMEOUT || kind == Kind.INVALID;
    }
}
