package dev.sift.web;

/** A request the API refuses, with its HTTP status and a message written for the caller. */
public final class ApiError extends RuntimeException {
    private final int status;

    public ApiError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, message);
    }
}
