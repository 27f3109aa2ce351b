package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.javalin.http.Context;

/** Reading requests: JSON bodies (through the server's Jackson mapper) and bounded query parameters. */
final class Requests {
    private Requests() { }

    private static final String LIMIT = "sift.maxJsonBytes";

    /**
     * JSON bodies are small: one over {@code max} bytes gets 413 from its Content-Length, before any of it is read,
     * and {@link #object} stops reading one sent without a length as soon as it passes {@code max}.
     */
    static void limitBody(Context ctx, long max) {
        String type = ctx.header("Content-Type");
        if (type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/")) {
            return; // uploads have their own, larger limit
        }
        ctx.attribute(LIMIT, max);
        long announced = ctx.req().getContentLengthLong();
        if (announced > max) {
            throw tooLarge(ctx, max, " (" + announced + " announced)");
        }
    }

    private static ApiError tooLarge(Context ctx, long max, String detail) {
        ctx.header("Connection", "close"); // the rest of the body is not worth reading
        return new ApiError(413, "The request body is over the limit of " + max + " bytes for this endpoint" + detail
                + ": send a smaller one (the limit is SIFT_MAX_JSON_KB).");
    }

    /** The body read up to the limit: never more than the limit and one byte is held. */
    private static String body(Context ctx) {
        Long max = ctx.attribute(LIMIT);
        if (max == null) {
            return ctx.body();
        }
        try {
            byte[] b = ctx.req().getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (b.length > max) {
                throw tooLarge(ctx, max, "");
            }
            return new String(b, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw ApiError.badRequest("The request body could not be read: " + e.getMessage());
        }
    }

    /** The body as a JSON object; an empty body is {@code {}}. */
    static JsonNode object(Context ctx) {
        String b = body(ctx);
        if (b == null || b.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode n;
        try {
            n = ctx.jsonMapper().fromJsonString(b, JsonNode.class);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) { // Jackson's checked exceptions pass through the Kotlin mapper undeclared
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage()
                    : e.getMessage();
            throw ApiError.badRequest("The request body is not valid JSON: " + why);
        }
        if (!n.isObject()) {
            throw ApiError.badRequest("The request body must be a JSON object.");
        }
        return n;
    }

    static int intParam(Context ctx, String name, int dflt, int min, int max) {
        String v = ctx.queryParam(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("'" + name + "' must be a whole number from " + min + " to " + max + ", got '"
                    + v + "'.");
        }
    }
}
