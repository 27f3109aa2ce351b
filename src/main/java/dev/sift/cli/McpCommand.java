package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.mcp.McpServers;
import dev.sift.mcp.SiftMcp;
import io.modelcontextprotocol.server.McpSyncServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "mcp", description = {"Serve Sift to MCP clients (desktop assistants, editors, agents) over stdio:"
        + " the tools ask, sql, list_datasets and describe_dataset, and resources for traces and dataset schemas.",
        "The client starts this command and talks to it on stdin/stdout; logs go to stderr. It ends when stdin closes."})
final class McpCommand implements Callable<Integer> {
    @Option(names = "--max-open-sessions", paramLabel = "N", defaultValue = "16",
            description = "conversations kept open at once; older idle ones close and reopen on use (default: ${DEFAULT-VALUE})")
    int maxOpenSessions;

    @Override
    public Integer call() throws Exception {
        if (maxOpenSessions < 1) {
            throw new IllegalArgumentException("--max-open-sessions must be at least 1, got " + maxOpenSessions);
        }
        PrintStream protocol = System.out;
        System.setOut(System.err); // stdout carries MCP messages only: anything else printed goes to stderr
        CountDownLatch closed = new CountDownLatch(1);
        Sift sift = Runtime.sift();
        try (SiftMcp mcp = SiftMcp.standalone(sift, maxOpenSessions)) {
            McpSyncServer server = McpServers.stdio(mcp, new UntilEnd(System.in, closed), protocol);
            closed.await();
            server.closeGracefully();
        } finally {
            System.setOut(protocol);
        }
        return 0;
    }

    /** Standard input that says when it has ended (the client closed it, or went away). */
    private static final class UntilEnd extends FilterInputStream {
        private final CountDownLatch ended;

        UntilEnd(InputStream in, CountDownLatch ended) {
            super(in);
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            return seen(super.read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return seen(super.read(b, off, len));
            } catch (IOException e) {
                ended.countDown();
                throw e;
            }
        }

        private int seen(int n) {
            if (n < 0) {
                ended.countDown();
            }
            return n;
        }
    }
}
