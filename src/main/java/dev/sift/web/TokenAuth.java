package dev.sift.web;

import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** With a token configured, {@code /api} and {@code /metrics} need it, in a header only; compared in constant time. */
final class TokenAuth {
    private final String token;

    TokenAuth(String token) {
        this.token = token == null || token.isBlank() ? null : token;
    }

    void authorize(Context ctx) {
        if (token == null) {
            return;
        }
        String given = ctx.header("X-Sift-Token");
        String auth = ctx.header("Authorization");
        if (given == null && auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            given = auth.substring(7).trim();
        }
        if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiError(401, "A valid token is required: send 'Authorization: Bearer <SIFT_TOKEN>'"
                    + " (event streams: open the signed events_url the ask response gives).");
        }
    }
}
