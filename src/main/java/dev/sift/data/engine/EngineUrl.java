package dev.sift.data.engine;

import dev.sift.data.source.SourceUrl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a live dataset's engine is: {@code postgresql://[user[:password]@]host[:port]/database[?schema=s]}
 * ({@code postgres://} too; parsed by {@link SourceUrl}, the sources' parser), a Spark master
 * ({@code spark://host:7077}, {@code local}, {@code local[N]}, {@code local[*]}) or a Spark Connect endpoint
 * ({@code sc://host[:15002]}). {@link #toString()} never shows a password; {@link #stored()} is the form the
 * connection file keeps (no password at all).
 */
public final class EngineUrl {
    /** What kind of engine a URL names. */
    public enum Kind { POSTGRESQL, SPARK, SPARK_CONNECT }

    private static final Pattern LOCAL = Pattern.compile("local(\\[(\\d+|\\*)])?");
    private static final Pattern SPARK = Pattern.compile("spark://[^\\s/]+(:\\d{1,5})?(,[^\\s/]+(:\\d{1,5})?)*/?");
    private static final Pattern CONNECT = Pattern.compile("sc://[^\\s/:]+(:\\d{1,5})?(/;.*)?");

    private final Kind kind;
    private final String text;
    private final SourceUrl source;

    private EngineUrl(Kind kind, String text, SourceUrl source) {
        this.kind = kind;
        this.text = text;
        this.source = source;
    }

    /** @throws IllegalArgumentException one line (password masked) naming the URL forms that work */
    public static EngineUrl parse(String url) {
        String u = url == null ? "" : url.strip();
        if (LOCAL.matcher(u).matches() || SPARK.matcher(u).matches()) {
            return new EngineUrl(Kind.SPARK, u, null);
        }
        if (CONNECT.matcher(u).matches()) {
            return new EngineUrl(Kind.SPARK_CONNECT, u, null);
        }
        String scheme = u.contains("://") ? u.substring(0, u.indexOf("://")).toLowerCase(Locale.ROOT) : "";
        if (scheme.equals("postgresql") || scheme.equals("postgres")) {
            SourceUrl source = SourceUrl.parse(u);
            if (source.path().isEmpty()) {
                throw new IllegalArgumentException("'" + source.masked() + "' names no database: write"
                        + " postgresql://host[:port]/DATABASE");
            }
            return new EngineUrl(Kind.POSTGRESQL, u, source);
        }
        throw new IllegalArgumentException("'" + SourceUrl.maskText(u) + "' is not an engine URL. Use"
                + " postgresql://user@host:5432/database, a Spark master (spark://host:7077, local[2]) or Spark Connect"
                + " (sc://host:15002).");
    }

    public Kind kind() {
        return kind;
    }

    /** The parsed PostgreSQL location (user, host, port, database, query); null for Spark URLs. */
    public SourceUrl source() {
        return source;
    }

    /** The URL as given with the password (or Connect token) left out: what the connection file keeps. */
    public String stored() {
        if (kind == Kind.SPARK_CONNECT) {
            return withToken(null);
        }
        if (source == null) {
            return text;
        }
        StringBuilder b = new StringBuilder(source.scheme()).append("://");
        source.user().ifPresent(u -> b.append(u).append('@'));
        b.append(source.hosts()).append('/').append(source.path());
        if (!source.query().isEmpty()) {
            List<String> pairs = new ArrayList<>();
            source.query().forEach((k, v) -> pairs.add(k + (v.isEmpty() ? "" : "=" + v)));
            b.append('?').append(String.join("&", pairs));
        }
        return b.toString();
    }

    /** The Spark master or Connect URL (for Spark kinds). */
    public String sparkUrl() {
        return text;
    }

    /** For messages: "PostgreSQL at db:5432/shop", "Spark SQL on local[2]". */
    public String where() {
        return switch (kind) {
            case POSTGRESQL -> "PostgreSQL at " + source.host() + ":" + source.port(5432) + "/" + source.path();
            case SPARK -> "Spark SQL on " + text;
            case SPARK_CONNECT -> "Spark Connect at " + stored();
        };
    }

    /** The {@code token} parameter of a Connect URL ({@code sc://host:port/;token=…}), or null. */
    String connectToken() {
        for (String p : connectParams()) {
            if (p.toLowerCase(Locale.ROOT).startsWith("token=")) {
                return p.substring("token=".length());
            }
        }
        return null;
    }

    private List<String> connectParams() {
        int at = text.indexOf("/;");
        return at < 0 ? List.of() : List.of(text.substring(at + 2).split(";"));
    }

    /** The Connect URL with its token parameter replaced by {@code shown}, or left out when null. */
    private String withToken(String shown) {
        int at = text.indexOf("/;");
        List<String> kept = new ArrayList<>();
        for (String p : connectParams()) {
            boolean token = p.toLowerCase(Locale.ROOT).startsWith("token=");
            if (!p.isEmpty() && (!token || shown != null)) {
                kept.add(token ? "token=" + shown : p);
            }
        }
        return (at < 0 ? text : text.substring(0, at)) + (kept.isEmpty() ? "" : "/;" + String.join(";", kept));
    }

    @Override
    public String toString() {
        return kind == Kind.SPARK_CONNECT ? withToken("***") : source != null ? source.masked() : text;
    }
}
