package dev.sift.bench;

import javax.net.SocketFactory;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A socket factory the PostgreSQL driver takes by class name ({@code socketFactory=…} in the URL) that counts
 * the bytes crossing its sockets: the bytes a bench moved over the wire, measured rather than estimated. The
 * driver instantiates it itself, so the count lives in one static counter that only {@link EngineBench} reads.
 */
public final class CountingSocketFactory extends SocketFactory {
    static final AtomicLong RECEIVED = new AtomicLong();
    static final AtomicLong SENT = new AtomicLong();

    /** For the driver. */
    public CountingSocketFactory() { }

    /** Bytes received and sent through every socket made so far. */
    static long total() {
        return RECEIVED.get() + SENT.get();
    }

    @Override
    public Socket createSocket() {
        return new CountingSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket s = new CountingSocket();
        s.connect(new java.net.InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        Socket s = new CountingSocket();
        s.connect(new java.net.InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return createSocket(address, port);
    }

    private static final class CountingSocket extends Socket {
        @Override
        public InputStream getInputStream() throws IOException {
            return new FilterInputStream(super.getInputStream()) {
                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b >= 0) {
                        RECEIVED.incrementAndGet();
                    }
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    int n = super.read(buf, off, len);
                    if (n > 0) {
                        RECEIVED.addAndGet(n);
                    }
                    return n;
                }
            };
        }

        @Override
        public OutputStream getOutputStream() throws IOException {
            return new FilterOutputStream(super.getOutputStream()) {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    SENT.incrementAndGet();
                }

                @Override
                public void write(byte[] buf, int off, int len) throws IOException {
                    out.write(buf, off, len);
                    SENT.addAndGet(len);
                }
            };
        }
    }
}
