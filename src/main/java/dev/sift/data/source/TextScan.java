package dev.sift.data.source;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * One streaming pass over a text file before DuckDB reads it, for what DuckDB's readers get wrong or die on:
 * a truncated or corrupt gzip (DuckDB loads the rows before the damage), JSON nested deeper than {@link #MAX_DEPTH}
 * (thousands of levels crash the process), a JSON document that is a single value instead of records, lines longer
 * than {@link #MAX_LINE_BYTES}, and a quoted CSV field that is never closed (DuckDB takes the rest of the file as one
 * value). Every refusal is one line naming the file, the line and the fix.
 */
final class TextScan {
    static final int MAX_DEPTH = 100;
    static final int MAX_LINE_BYTES = 1 << 20;
    private static final String DELIMITERS = ",\t;|";

    private TextScan() { }

    static void check(FileLoader.Input in) throws IOException {
        String file = "File " + in.file();
        try (InputStream raw = Files.newInputStream(in.file());
             Bytes body = new Bytes(in.gzip() ? new GZIPInputStream(raw, 1 << 16) : raw)) {
            switch (in.format()) {
                case JSON -> json(body, file, false);
                case JSONL -> json(body, file, true);
                default -> delimited(body, file);
            }
        } catch (EOFException | ZipException e) {
            if (!in.gzip()) {
                throw e;
            }
            throw new IllegalArgumentException(file + " is a damaged gzip file (" + FileSupport.clip(
                    String.valueOf(e.getMessage())) + "): it was cut short or corrupted; compress it again", e);
        }
    }

    /**
     * The scans of a load's text files, one after another on a thread of their own while DuckDB reads the files
     * (a CSV file's problems only make DuckDB load wrong rows, which the refusal then discards); a JSON file's scan is
     * awaited before DuckDB opens it, since what it refuses can crash the reader. A scan's refusal wins over any error
     * DuckDB gives, and the first refusal in file order wins, as when every file was scanned before any was read.
     */
    static final class Background implements AutoCloseable {
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sift-text-scan");
            t.setDaemon(true);
            return t;
        });
        private final List<Future<?>> scans = new ArrayList<>();

        Background(List<FileLoader.Input> inputs) {
            for (FileLoader.Input in : inputs) {
                scans.add(in.format().text() ? thread.submit(() -> {
                    check(in);
                    return null;
                }) : CompletableFuture.completedFuture(null));
            }
        }

        /** Waits for the scans of the first {@code count} files; throws the first refusal among them. */
        void await(int count) throws IOException, InterruptedException {
            for (Future<?> scan : scans.subList(0, count)) {
                try {
                    scan.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException("The scan of a file failed", e.getCause());
                }
            }
        }

        /** Waits for every scan; throws the first refusal. */
        void awaitAll() throws IOException, InterruptedException {
            await(scans.size());
        }

        @Override
        public void close() {
            thread.shutdownNow();
        }
    }

    /** A stream's bytes one at a time, from a buffer and without locking (a buffered stream locks on every read). */
    private static final class Bytes extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int len;

        Bytes(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (pos == len) {
                len = Math.max(0, in.read(buf, 0, buf.length));
                pos = 0;
                if (len == 0) {
                    return -1;
                }
            }
            return buf[pos++] & 0xff;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static IllegalArgumentException tooLong(String file, long line) {
        return new IllegalArgumentException(file + ": line " + line + " is longer than " + (MAX_LINE_BYTES >> 20)
                + " MB; is it really " + "line-oriented text? Split it into rows (one record per line)");
    }

    /** Bytes after which a quote may open a field: field and line ends. */
    private static final boolean[] FIELD_END = new boolean[256];

    static {
        for (char c : ("\n\r" + DELIMITERS).toCharArray()) {
            FIELD_END[c] = true;
        }
    }

    /** Line lengths and quoted fields of CSV/TSV text. */
    private static void delimited(Bytes in, String file) throws IOException {
        long line = 1;
        long lineBytes = 0;
        boolean quoted = false;
        boolean quoteSeen = false; // inside quotes: the last byte was a quote, which "" makes an escaped one
        boolean fieldStart = true;
        long quoteLine = 0;
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                line++;
                lineBytes = 0;
            } else if (++lineBytes > MAX_LINE_BYTES) {
                throw tooLong(file, line);
            }
            if (quoted) {
                if (!quoteSeen) {
                    quoteSeen = c == '"';
                    continue;
                }
                quoteSeen = false;
                if (c == '"') {
                    continue;
                }
                quoted = false; // the quote before this byte ended the field's quotes
            }
            if (c == '"') {
                if (fieldStart) {
                    quoted = true;
                    quoteLine = line;
                }
                fieldStart = false;
                continue;
            }
            fieldStart = FIELD_END[c] || (fieldStart && (c == ' ' || c >= 0xEF)); // leading blanks and a byte-order mark
        }
        if (quoted && !quoteSeen) {
            throw new IllegalArgumentException(file + ": line " + quoteLine + " opens a quoted field (\") that is never"
                    + " closed, so the rest of the file would load as one value; close the quote or remove it");
        }
    }

    /**
     * Nesting depth, line lengths (JSON lines) and the shape of records: a JSON document must be an object or an
     * array of objects; a JSON lines file one object per line.
     */
    private static void json(InputStream in, String file, boolean lines) throws IOException {
        JsonRecords records = new JsonRecords(file, lines);
        long line = 1;
        long lineBytes = 0;
        boolean inString = false;
        boolean escaped = false;
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                line++;
                lineBytes = 0;
            } else if (++lineBytes > MAX_LINE_BYTES && lines) {
                throw tooLong(file, line);
            }
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF) {
                continue; // white space and a byte-order mark
            }
            records.next(c, line);
            inString = c == '"';
        }
    }

    /** The structure of a JSON text, read from its characters outside strings: nesting depth and where records begin. */
    private static final class JsonRecords {
        private final String file;
        private final boolean lines;
        private int depth;
        private boolean expectRecord = true; // the next value at record level must be an object
        private boolean topArray;
        private boolean sawValue;

        JsonRecords(String file, boolean lines) {
            this.file = file;
            this.lines = lines;
        }

        void next(int c, long line) {
            int recordLevel = topArray ? 1 : 0;
            if (depth == recordLevel && expectRecord && c != ']' && c != ',') {
                if (c == '[' && depth == 0 && !lines && !sawValue) {
                    topArray = true;
                    depth = 1;
                    sawValue = true;
                    return;
                }
                if (c != '{') {
                    throw new IllegalArgumentException(file + ": line " + line + " holds a single " + kind(c)
                            + " where a record should be; a table needs " + (lines
                            ? "one object per line, like {\"id\": 1, \"name\": \"a\"}"
                            : "an object or an array of objects, like [{\"id\": 1, \"name\": \"a\"}]"));
                }
                expectRecord = false;
                sawValue = true;
            }
            if (c == '{' || c == '[') {
                if (++depth > MAX_DEPTH) {
                    throw new IllegalArgumentException(file + ": line " + line + " nests JSON deeper than " + MAX_DEPTH
                            + " levels; flatten the records (DuckDB cannot read such depth safely)");
                }
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == recordLevel) {
                    expectRecord = lines || topArray;
                }
            } else if (c == ',' && depth == recordLevel) {
                expectRecord = true;
            }
        }
    }

    private static String kind(int c) {
        return switch (c) {
            case '"' -> "string";
            case '[' -> "array";
            case 't', 'f' -> "true/false value";
            case 'n' -> "null";
            default -> c == '-' || (c >= '0' && c <= '9') ? "number" : "value";
        };
    }
}
