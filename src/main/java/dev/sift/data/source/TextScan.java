package dev.sift.data.source;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
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
             InputStream body = new BufferedInputStream(in.gzip() ? new GZIPInputStream(raw, 1 << 16) : raw, 1 << 16)) {
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

    private static IllegalArgumentException tooLong(String file, long line) {
        return new IllegalArgumentException(file + ": line " + line + " is longer than " + (MAX_LINE_BYTES >> 20)
                + " MB; is it really " + "line-oriented text? Split it into rows (one record per line)");
    }

    /** Line lengths and quoted fields of CSV/TSV text. */
    private static void delimited(InputStream in, String file) throws IOException {
        long line = 1;
        long lineBytes = 0;
        boolean quoted = false;
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
                if (c == '"') {
                    in.mark(1);
                    int next = in.read();
                    if (next != '"') { // "" is an escaped quote; anything else ends the field's quotes
                        quoted = false;
                        if (next >= 0) {
                            in.reset();
                        }
                    }
                }
                continue;
            }
            if (c == '"' && fieldStart) {
                quoted = true;
                quoteLine = line;
            }
            fieldStart = c == '\n' || c == '\r' || DELIMITERS.indexOf(c) >= 0
                    || (fieldStart && (c == ' ' || c >= 0xEF)); // leading blanks and a byte-order mark
        }
        if (quoted) {
            throw new IllegalArgumentException(file + ": line " + quoteLine + " opens a quoted field (\") that is never"
                    + " closed, so the rest of the file would load as one value; close the quote or remove it");
        }
    }

    /**
     * Nesting depth, line lengths (JSON lines) and the shape of records: a JSON document must be an object or an
     * array of objects; a JSON lines file one object per line.
     */
    private static void json(InputStream in, String file, boolean lines) throws IOException {
        int depth = 0;
        long line = 1;
        long lineBytes = 0;
        boolean inString = false;
        boolean escaped = false;
        boolean expectRecord = true; // the next value at record level must be an object
        boolean topArray = false;
        boolean sawValue = false;
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
            int recordLevel = topArray ? 1 : 0;
            if (depth == recordLevel && expectRecord && c != ']' && c != ',') {
                if (c == '[' && depth == 0 && !lines && !sawValue) {
                    topArray = true;
                    depth = 1;
                    sawValue = true;
                    continue;
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
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
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
