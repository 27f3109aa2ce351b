package dev.sift.ml;

import dev.sift.data.FixableException;

/** A problem with the data or the request that the caller (usually the planner) can fix; the message says how. */
public final class MlException extends FixableException {
    public MlException(String message) {
        super(message);
    }
}
