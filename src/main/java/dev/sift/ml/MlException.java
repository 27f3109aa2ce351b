package dev.sift.ml;

/** A problem with the data or the request that the caller (usually the planner) can fix; the message says how. */
public final class MlException extends Exception {
    public MlException(String message) {
        super(message);
    }
}
