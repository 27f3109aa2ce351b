package dev.sift.data.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/** Shared bits of the file loaders: hashing, peeking at file heads, and one-line DuckDB error reasons. */
final class FileSupport {
    private FileSupport() { }

    private static final Pattern ERROR_PREFIX = Pattern.compile("^[A-Za-z ]{1,40} Error: ");
    private static final int MAX_REASON = 300;

    /**
     * Refuses what is neither a regular file nor a folder (a named pipe, a socket, a device) before anything opens
     * it: opening a named pipe that no one writes to blocks forever.
     */
    static void requireRegular(Path f) {
        if (Files.exists(f) && !Files.isRegularFile(f) && !Files.isDirectory(f)) {
            throw new IllegalArgumentException("File " + f + " is not a regular file (a named pipe, socket or device),"
                    + " so Sift does not open it: give a regular file");
        }
    }

    /** Feeds the file's bytes into {@code digest}, streaming (files may be large). */
    static void hash(MessageDigest digest, Path file) throws IOException {
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                digest.update(buf, 0, n);
            }
        }
    }

    /** The fingerprint of a source that is one file read by the loader of {@code version}: SHA-256 of both. */
    static String fingerprint(String version, Path file) throws IOException, java.security.NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        hashText(sha, version);
        hash(sha, file);
        return hex(sha.digest());
    }

    static void hashText(MessageDigest digest, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        // length prefix so that ("ab","c") and ("a","bc") hash differently
        digest.update(Integer.toString(b.length).getBytes(StandardCharsets.US_ASCII));
        digest.update((byte) ':');
        digest.update(b);
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return sb.toString();
    }

    /** Up to {@code max} bytes from the start of the file, decompressed when {@code gzip}. */
    static byte[] head(Path file, boolean gzip, int max) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = gzip ? new GZIPInputStream(raw) : raw) {
            return in.readNBytes(max);
        }
    }

    static boolean hasNul(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return true;
            }
        }
        return false;
    }

    static boolean isGzip(byte[] bytes) {
        return bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
    }

    static boolean isParquet(byte[] bytes) {
        return bytes.length >= 4 && bytes[0] == 'P' && bytes[1] == 'A' && bytes[2] == 'R' && bytes[3] == '1';
    }

    /** The first line of text in {@code bytes} (without BOM and line end). */
    static String firstLine(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (s.startsWith("\uFEFF")) {
            s = s.substring(1);
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    /**
     * DuckDB's reason for a failure, in one line. DuckDB's CSV errors span twenty lines (the offending
     * line, possible fixes, the dialect); people need the line number and the reason only.
     */
    static String reason(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        String[] lines = m.replace("\r", "").split("\n");
        String first = stripPrefix(lines[0].trim());
        if (first.startsWith("CSV Error on Line:")) {
            String where = first.substring("CSV Error on Line:".length()).trim();
            String why = null;
            for (int i = 1; i < lines.length; i++) {
                String l = lines[i].trim();
                if (l.startsWith("Error when converting")) {
                    why = l; // the value and its column, before DuckDB's notes on how the type was chosen
                    break;
                }
                if (l.toLowerCase(java.util.Locale.ROOT).startsWith("possible")) {
                    break;
                }
                if (i >= 2 && !l.isEmpty() && !l.startsWith("Original Line:")) {
                    why = l;
                }
            }
            return clip("line " + where + ": " + (why == null ? "the CSV text is malformed" : why));
        }
        if (first.startsWith("Error when sniffing file")) {
            return "DuckDB could not detect the CSV dialect (delimiter, quotes, header)";
        }
        return clip(first);
    }

    private static String stripPrefix(String s) {
        return ERROR_PREFIX.matcher(s).replaceFirst("");
    }

    /** Keeps messages one short, printable line even when they quote binary junk. */
    static String clip(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) || c == 0xFFFD ? '?' : c));
        String out = sb.toString().trim();
        return out.length() <= MAX_REASON ? out : out.substring(0, MAX_REASON) + "...";
    }
}
