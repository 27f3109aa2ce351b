package dev.sift.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.io.IOException;

/**
 * MCP's Streamable HTTP transport in its stateless form, free of any web framework: the server's {@code /mcp} route
 * hands each POST body here (after its own checks: host, origin, token, size, concurrency) and writes back the
 * {@link Reply}. A request gets one JSON response; a notification gets 202 and no body; there is no server-to-client
 * stream (GET is 405), which the protocol allows, and no protocol session: Sift's own sessions are named in the
 * {@code ask} arguments.
 */
public final class McpHttpEndpoint implements McpStatelessServerTransport {
    private static final Logger LOG = LoggerFactory.getLogger(McpHttpEndpoint.class);

    /** An HTTP answer: status, and a JSON body or none. */
    public record Reply(int status, String json) { }

    private static final ObjectMapper PLAIN = new ObjectMapper();
    private final McpJsonMapper json = McpServers.jsonMapper();
    private volatile McpStatelessServerHandler handler;
    private volatile boolean closing;
    private final McpStatelessSyncServer server;

    public McpHttpEndpoint(SiftMcp mcp) {
        this.server = McpServers.stateless(mcp, this);
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    /** Answers one POSTed message; {@code accept} is the request's Accept header. */
    public Reply post(String accept, String body) {
        if (closing) {
            return error(503, McpSchema.ErrorCodes.INTERNAL_ERROR, "Sift is shutting down; try again when it is back.");
        }
        if (accept == null || !accept.contains("application/json") || !accept.contains("text/event-stream")) {
            return error(406, McpSchema.ErrorCodes.INVALID_REQUEST, "Send 'Accept: application/json, text/event-stream'"
                    + " (MCP's Streamable HTTP asks clients to accept both).");
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException | IllegalArgumentException e) {
            return error(400, McpSchema.ErrorCodes.PARSE_ERROR, "The body is not a JSON-RPC message: send one MCP"
                    + " request or notification as a JSON object.");
        }
        McpTransportContext ctx = McpTransportContext.EMPTY;
        try {
            if (message instanceof McpSchema.JSONRPCRequest request) {
                McpSchema.JSONRPCResponse response = handler.handleRequest(ctx, request)
                        .contextWrite(c -> c.put(McpTransportContext.KEY, ctx)).block();
                return new Reply(200, json.writeValueAsString(response));
            }
            if (message instanceof McpSchema.JSONRPCNotification notification) {
                handler.handleNotification(ctx, notification).contextWrite(c -> c.put(McpTransportContext.KEY, ctx))
                        .block();
                return new Reply(202, null);
            }
            return error(400, McpSchema.ErrorCodes.INVALID_REQUEST, "Send a request or a notification: this server"
                    + " sends no requests of its own, so it takes no responses.");
        } catch (IOException | RuntimeException e) {
            LOG.error("MCP request failed", e);
            return error(500, McpSchema.ErrorCodes.INTERNAL_ERROR, "The request failed with an internal error; the Sift"
                    + " log has the details.");
        }
    }

    /** A JSON-RPC error for a message that never reached the server (so it answers no request id). */
    private static Reply error(int status, int code, String message) {
        ObjectNode e = PLAIN.createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION).putNull("id");
        e.putObject("error").put("code", code).put("message", message);
        return new Reply(status, e.toString());
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> closing = true);
    }

    /** Stops answering (503 from now on) and closes the server behind. */
    public void shutdown() {
        closing = true;
        server.close();
    }
}
