package dev.sift.data;

/**
 * A live dataset's engine could not be reached (refused, timed out, no credentials). No planner can fix that by
 * rewriting a call, so it is not an observation: the run stops once with a message naming the dataset, the engine's
 * problem and what the user can do.
 */
public final class EngineUnreachableException extends RuntimeException {

    private final String dataset;

    public EngineUnreachableException(String dataset, QueryException cause) {
        super("Live dataset '" + dataset + "' cannot be reached: " + cause.getMessage() + " Start the engine or fix its"
                + " address or credentials, then ask again (sift datasets shows where '" + dataset + "' points; connect it"
                + " again with sift connect " + dataset + " <url>).", cause);
        this.dataset = dataset;
    }

    /** The message for a web user, who is not shown where the engine lives (the server's log has it under {@code ref}). */
    public String withoutAddress(String ref) {
        return "Live dataset '" + dataset + "' cannot be reached: its engine did not answer. Ask whoever runs this"
                + " Sift to start it or fix its address (the server's log has the details, reference " + ref + ").";
    }

    /** Throws this exception when {@code e} says the engine of {@code dataset} is unreachable; otherwise returns. */
    public static void throwIfUnreachable(FixableException e, java.util.function.Supplier<String> dataset) {
        if (e instanceof QueryException q && q.kind() == QueryException.Kind.UNREACHABLE) {
            throw new EngineUnreachableException(dataset.get(), q);
        }
    }
}
