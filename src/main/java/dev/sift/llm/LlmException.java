package dev.sift.llm;

/**
 * An LLM call failed. {@link #getMessage()} is a single line meant for the user: what failed, where,
 * and what to do about it. {@link #kind()} and {@link #httpStatus()} let callers (and {@link RetryingLlm})
 * decide programmatically without parsing text.
 */
public class LlmException extends Exception {

    public enum Kind {
        /** The endpoint did not answer in time. */
        TIMEOUT,
        /** Could not connect (refused, unknown host, reset). */
        CONNECTION,
        /** The endpoint answered with a non-2xx status; see {@link #httpStatus()}. */
        HTTP,
        /** The endpoint answered 2xx but the body could not be understood. */
        BAD_RESPONSE,
        /** Anything else, including scripted/test failures. */
        OTHER
    }

    private final Kind kind;
    private final int httpStatus;
    private final String problem;
    private final String hint;
    private final int attempts;

    /** A free-form failure; never retried. */
    public LlmException(String message) {
        this(Kind.OTHER, -1, message, "", 1, null);
    }

    public LlmException(String message, Throwable cause) {
        this(Kind.OTHER, -1, message, "", 1, cause);
    }

    /**
     * @param problem what failed and where, without a trailing period
     * @param hint what the user should do, a full sentence (may be empty)
     */
    public LlmException(Kind kind, int httpStatus, String problem, String hint, Throwable cause) {
        this(kind, httpStatus, problem, hint, 1, cause);
    }

    private LlmException(Kind kind, int httpStatus, String problem, String hint, int attempts, Throwable cause) {
        super(compose(problem, hint, attempts), cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.problem = problem;
        this.hint = hint == null ? "" : hint;
        this.attempts = attempts;
    }

    private static String compose(String problem, String hint, int attempts) {
        StringBuilder sb = new StringBuilder(problem);
        if (attempts > 1) {
            sb.append(" (tried ").append(attempts).append(" times)");
        }
        if (hint != null && !hint.isEmpty()) {
            sb.append(". ").append(hint);
        }
        // Keep it on one line no matter what a server put in its error body.
        return sb.toString().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    public Kind kind() {
        return kind;
    }

    /** HTTP status code for {@link Kind#HTTP}, otherwise -1. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The "what failed" part of the message, without attempts or hint. */
    public String problem() {
        return problem;
    }

    public String hint() {
        return hint;
    }

    /** How many attempts were made before giving up (1 unless {@link RetryingLlm} retried). */
    public int attempts() {
        return attempts;
    }

    /** Transient failures worth another try: timeouts, connection errors, HTTP 408/429/5xx. */
    public boolean retryable() {
        return switch (kind) {
            case TIMEOUT, CONNECTION -> true;
            case HTTP -> httpStatus == 408 || httpStatus == 429 || httpStatus >= 500;
            default -> false;
        };
    }

    /** Same failure, re-labelled with the total number of attempts made. */
    public LlmException withAttempts(int n) {
        LlmException copy = new LlmException(kind, httpStatus, problem, hint, n, getCause());
        copy.setStackTrace(getStackTrace());
        return copy;
    }
}
