package dev.sift.data.source;

import java.io.IOException;
import java.io.Reader;
import java.util.Locale;

/**
 * A plain-format {@code pg_dump} script read one statement at a time, as psql would split it: a statement ends at a
 * {@code ;} outside quotes ({@code '…'}, {@code E'…'}, {@code "…"}, {@code $tag$…$tag$}) and comments; a line
 * starting with a backslash between statements is a psql meta-command ({@code \connect}, {@code \restrict}); the
 * data lines after a {@code COPY … FROM stdin;} run up to a line {@code \.}. Each statement keeps the line it starts
 * on, so an error can name it. Comments are dropped; line breaks are kept.
 */
final class PgDumpScript {
    /** One statement and the 1-based line of the file it starts on. */
    record Statement(String sql, int line) {
        /** Its first words in upper case, single-spaced, e.g. "CREATE TABLE PUBLIC.T (". */
        String head(int words) {
            String[] parts = sql.strip().split("\\s+", words + 1);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(words, parts.length); i++) {
                sb.append(i == 0 ? "" : " ").append(parts[i].toUpperCase(Locale.ROOT));
            }
            return sb.toString();
        }

        boolean isCopyFromStdin() {
            return head(1).equals("COPY") && sql.strip().toLowerCase(Locale.ROOT).matches("(?s).*\\bfrom\\s+stdin\\b.*");
        }
    }

    private final Reader in;
    private final char[] buffer = new char[1 << 16];
    private int at;
    private int filled;
    private int line;
    private int metaCommands;
    private String rest; // what followed the last statement's ; on its line

    PgDumpScript(Reader in) {
        this.in = in;
    }

    /** Lines read so far (the number of the last line read). */
    int line() {
        return line;
    }

    /** psql meta-commands skipped so far. */
    int metaCommands() {
        return metaCommands;
    }

    /** The next data line of a COPY block, or null at its end marker {@code \.}. */
    String copyLine(int copyStart) throws IOException {
        String l = readLine();
        if (l == null) {
            throw new IllegalArgumentException("line " + copyStart + ": the data of this COPY has no end marker \\. (the file"
                    + " ends at line " + line + "; a cut-off copy?)");
        }
        return l.equals("\\.") || l.equals("\\.\r") ? null : l;
    }

    /** The next statement, or null at the end of the file. */
    Statement next() throws IOException {
        StringBuilder sql = new StringBuilder();
        Lexer lexer = new Lexer();
        int start = -1;
        String l;
        while ((l = nextLine()) != null) {
            if (start < 0 && l.startsWith("\\")) {
                metaCommands++;
                continue;
            }
            int end = lexer.scan(l, sql);
            if (start < 0 && !sql.toString().isBlank()) {
                start = line;
            }
            if (end >= 0) {
                rest = l.substring(end).isBlank() ? null : l.substring(end);
                return new Statement(sql.toString(), start);
            }
            if (start >= 0) {
                sql.append('\n');
            } else {
                sql.setLength(0);
            }
        }
        if (start >= 0) {
            throw new IllegalArgumentException("line " + start + ": the file ends inside this statement (no closing ;"
                    + lexer.openQuote() + ")");
        }
        return null;
    }

    private String nextLine() throws IOException {
        if (rest != null) {
            String l = rest;
            rest = null;
            return l;
        }
        return readLine();
    }

    /** The next line without its \n, or null at the end; unlike BufferedReader, a lone \r is content (in a string). */
    private String readLine() throws IOException {
        StringBuilder sb = null;
        while (true) {
            if (at == filled) {
                filled = in.read(buffer);
                at = 0;
                if (filled <= 0) {
                    filled = 0;
                    if (sb == null) {
                        return null;
                    }
                    line++;
                    return sb.toString();
                }
            }
            int start = at;
            while (at < filled && buffer[at] != '\n') {
                at++;
            }
            if (sb == null) {
                sb = new StringBuilder(Math.max(16, at - start));
            }
            sb.append(buffer, start, at - start);
            if (at < filled) {
                at++;
                line++;
                return sb.toString();
            }
        }
    }

    /** Quote and comment state carried from line to line. */
    private static final class Lexer {
        private char quote; // 0, '\'', '"', '$' or '*' (block comment)
        private boolean escapes; // inside E'…', where a backslash escapes the next character
        private String dollarTag = "";
        private int commentDepth;

        String openQuote() {
            return switch (quote) {
                case '\'' -> "; a quoted string is not closed";
                case '"' -> "; a quoted name is not closed";
                case '$' -> "; a " + dollarTag + " quoted body is not closed";
                case '*' -> "; a /* comment is not closed";
                default -> "";
            };
        }

        /** Appends the line's SQL (comments dropped) to {@code sql}; returns the index after a closing ; or -1. */
        int scan(String l, StringBuilder sql) {
            int i = 0;
            while (i < l.length()) {
                char c = l.charAt(i);
                if (quote == '*') {
                    if (l.startsWith("*/", i)) {
                        commentDepth--;
                        quote = commentDepth == 0 ? 0 : '*';
                        i += 2;
                    } else if (l.startsWith("/*", i)) {
                        commentDepth++;
                        i += 2;
                    } else {
                        i++;
                    }
                    continue;
                }
                if (quote != 0) {
                    i = inQuote(l, i, sql);
                    continue;
                }
                if (l.startsWith("--", i)) {
                    return -1;
                }
                if (l.startsWith("/*", i)) {
                    quote = '*';
                    commentDepth = 1;
                    i += 2;
                    continue;
                }
                if (c == ';') {
                    return i + 1;
                }
                i = opening(l, i, sql);
            }
            return -1;
        }

        /** Outside quotes: appends one character, or a whole opening quote, and enters the quote. */
        private int opening(String l, int i, StringBuilder sql) {
            char c = l.charAt(i);
            if (c == '\'' || c == '"') {
                quote = c;
                escapes = c == '\'' && i > 0 && (l.charAt(i - 1) == 'E' || l.charAt(i - 1) == 'e')
                        && (i < 2 || !Character.isLetterOrDigit(l.charAt(i - 2)) && l.charAt(i - 2) != '_');
                sql.append(c);
                return i + 1;
            }
            if (c == '$' && (i == 0 || !Character.isLetterOrDigit(l.charAt(i - 1)) && l.charAt(i - 1) != '_')) {
                int close = l.indexOf('$', i + 1);
                if (close > 0 && l.substring(i + 1, close).matches("([A-Za-z_][A-Za-z0-9_]*)?")) {
                    quote = '$';
                    dollarTag = l.substring(i, close + 1);
                    sql.append(dollarTag);
                    return close + 1;
                }
            }
            sql.append(c);
            return i + 1;
        }

        private int inQuote(String l, int i, StringBuilder sql) {
            if (quote == '$') {
                int close = l.indexOf(dollarTag, i);
                if (close < 0) {
                    sql.append(l, i, l.length());
                    return l.length();
                }
                sql.append(l, i, close + dollarTag.length());
                quote = 0;
                return close + dollarTag.length();
            }
            char c = l.charAt(i);
            sql.append(c);
            if (escapes && c == '\\' && i + 1 < l.length()) {
                sql.append(l.charAt(i + 1));
                return i + 2;
            }
            if (c == quote) {
                if (i + 1 < l.length() && l.charAt(i + 1) == quote) { // '' or "" inside: one quote character
                    sql.append(quote);
                    return i + 2;
                }
                quote = 0;
            }
            return i + 1;
        }
    }
}
