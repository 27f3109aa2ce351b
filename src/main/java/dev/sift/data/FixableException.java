package dev.sift.data;

/**
 * The one marker for failures whoever asked can fix by asking differently: a column that does not exist, a
 * query that timed out, a model that cannot be trained on the rows given. The message is written for the
 * planner: what came in, what exists, what to do next. The tool registry turns these into an error result the
 * planner sees, in one place; everything else a tool throws is a bug of ours and fails the run loudly.
 */
public abstract class FixableException extends Exception {
    protected FixableException(String message) {
        super(message);
    }

    /** False for the kinds of failure of this type that are faults of ours, not of the request. */
    public boolean fixable() {
        return true;
    }
}
