package dev.sift.data.engine;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a live dataset's engine is: {@code postgresql://[user[:password]@]host[:port]/database[?schema=s]}
 * ({@code postgres://} too), a Spark master ({@code spark://host:7077}, {@code local}, {@code local[N]},
 * {@code local[*]}) or a Spark Connect endpoint ({@code sc://host[:15002]}). {@link #toString()} never shows a
 * password; {@link #stored()} is the form written to the connection file (no password at all).
 */
public final class EngineUrl {
    /** What kind of engine a URL names. */
    public enum Kind { POSTGRESQL, SPARK, SPARK_CONNECT }

    private static final Pattern PG = Pattern.compile("(?i)(postgres(?:ql)?)://(?:([^:@/]*)(?::([^@/]*))?@)?([^/?:]+|\\[[^]]+])(?::(\\d{1,5}))?(?:/([^?]*))?(?:\\?(.*))?");
    private static final Pattern LOCAL = Pattern.compile("local(\\[(\\d+|\\*)])?");
    private static final Pattern SPARK = Pattern.compile("spark://[^\\s/]+(:\\d{1,5})?(,[^\\s/]+(:\\d{1,5})?)*/?");
    private static final Pattern CONNECT = Pattern.compile("sc://[^\\s/:]+(:\\d{1,5})?(/;.*)?");

    private final Kind kind;
    private final String text;
    private final String user;
    private final String password;
    private final String host;
    private final int port;
    private final String database;
    private final Map<String, String> query;

    private EngineUrl(Kind kind, String text, String user, String password, String host, int port, String database,
                      Map<String, String> query) {
        this.kind = kind;
        this.text = text;
        this.user = user;
        this.password = password;
        this.host = host;
        this.port = port;
        this.database = database;
        this.query = query;
    }

    /** Whether {@code url} names a live engine Sift can connect to. */
    public static boolean isEngineUrl(String url) {
        try {
            parse(url);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @throws IllegalArgumentException one line (password masked) naming the URL forms that work */
    public static EngineUrl parse(String url) {
        String u = url == null ? "" : url.strip();
        if (LOCAL.matcher(u).matches() || SPARK.matcher(u).matches()) {
            return new EngineUrl(Kind.SPARK, u, null, null, null, -1, null, Map.of());
        }
        if (CONNECT.matcher(u).matches()) {
            return new EngineUrl(Kind.SPARK_CONNECT, u, null, null, null, -1, null, Map.of());
        }
        Matcher m = PG.matcher(u);
        if (m.matches()) {
            int port = m.group(5) == null ? 5432 : Integer.parseInt(m.group(5));
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("'" + mask(u) + "' has port " + port + ": use a number from 1 to 65535");
            }
            String db = m.group(6) == null ? "" : decode(m.group(6));
            if (db.isEmpty()) {
                throw new IllegalArgumentException("'" + mask(u) + "' names no database: write postgresql://host[:port]/DATABASE");
            }
            Map<String, String> query = new LinkedHashMap<>();
            if (m.group(7) != null) {
                for (String pair : m.group(7).split("&")) {
                    if (!pair.isEmpty()) {
                        int eq = pair.indexOf('=');
                        query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
                    }
                }
            }
            String user = m.group(2) == null || m.group(2).isEmpty() ? null : decode(m.group(2));
            String password = m.group(3) == null ? null : decode(m.group(3));
            return new EngineUrl(Kind.POSTGRESQL, u, user, password, m.group(4), port, db, Map.copyOf(query));
        }
        throw new IllegalArgumentException("'" + mask(u) + "' is not an engine URL. Use postgresql://user@host:5432/database,"
                + " a Spark master (spark://host:7077, local[2]) or Spark Connect (sc://host:15002).");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Any {@code scheme://user:password@} in text with the password shown as {@code ***}. */
    public static String mask(String text) {
        return text == null ? null : text.replaceAll("([A-Za-z][A-Za-z0-9+.-]*://[^:/@\\s]*):[^@\\s]*@", "$1:***@")
                .replaceAll("(?i)([?&;](?:password|pwd|token|secret)[^=&\\s]*=)[^&\\s]*", "$1***");
    }

    public Kind kind() {
        return kind;
    }

    public String user() {
        return user;
    }

    /** The password written in the URL, if any: used to connect, never stored. */
    String password() {
        return password;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    public Map<String, String> query() {
        return query;
    }

    /** The URL as given, password removed: what the connection file keeps. */
    public String stored() {
        return password == null ? text : text.replaceFirst("(://[^:/@]*):[^@]*@", "$1@");
    }

    @Override
    public String toString() {
        return mask(text);
    }

    /** The Spark master or Connect URL (for Spark kinds). */
    public String sparkUrl() {
        return text;
    }

    /** Lower-case scheme-free summary for messages, e.g. "PostgreSQL at db:5432/shop". */
    public String where() {
        return switch (kind) {
            case POSTGRESQL -> "PostgreSQL at " + host + ":" + port + "/" + database;
            case SPARK -> "Spark SQL on " + text.toLowerCase(Locale.ROOT);
            case SPARK_CONNECT -> "Spark Connect at " + text;
        };
    }
}
