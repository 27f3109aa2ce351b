package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.javalin.http.Context;

/** Reading requests: JSON bodies (through the server's Jackson mapper) and bounded query parameters. */
final class Requests {
    private Requests() { }

    /** The body as a JSON object; an empty body is {@code {}}. */
    static JsonNode object(Context ctx) {
        String b = ctx.body();
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
