package dev.sift.mcp;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

/** The MCP errors Sift answers with: a call whose arguments are wrong gets JSON-RPC's invalid-params error. */
final class McpErrors {
    private McpErrors() { }

    /** {@code message} names what was wrong and how to call instead. */
    static McpError invalid(String message) {
        return McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(message).build();
    }

    static McpError notFound(String message) {
        return McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).message(message).build();
    }
}
