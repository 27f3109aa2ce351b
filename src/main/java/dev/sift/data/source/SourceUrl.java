package dev.sift.data.source;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A network source location such as {@code postgresql://sift@db.example:5432/shop?schema=sales,crm}, parsed
 * once. {@link #toString()} and {@link #masked()} never show a password: anything printed, logged or stored
 * uses them. The password written in a URL, if any, is kept only for {@link Credentials}.
 *
 * <p>Shape: {@code scheme://[user[:password]@]host[:port][,host2[:port]...][/path][?key=value&...]}; user and
 * password may be percent-encoded; IPv6 hosts go in brackets. {@code s3://bucket/prefix} parses with the bucket
 * as host and the prefix as path.
 */
public final class SourceUrl {
    /** What a password shows as wherever a URL is printed. */
    public static final String MASK = "***";

    private final String scheme;
    private final String user;
    private final String password;
    private final String hosts;
    private final String host;
    private final int port;
    private final String path;
    private final Map<String, String> query;

    private SourceUrl(String scheme, String user, String password, String hosts, String host, int port, String path,
                      Map<String, String> query) {
        this.scheme = scheme;
        this.user = user;
        this.password = password;
        this.hosts = hosts;
        this.host = host;
        this.port = port;
        this.path = path;
        this.query = query;
    }

    /** True when {@code location} starts with a URL scheme ({@code word://}). */
    public static boolean looksLikeUrl(String location) {
        return location != null && location.matches("(?s)[A-Za-z][A-Za-z0-9+.-]*://.*");
    }

    /**
     * Parses {@code location}. Errors are one line and show the location masked, never the password.
     *
     * @throws IllegalArgumentException when it is not a URL of the shape above
     */
    public static SourceUrl parse(String location) {
        if (!looksLikeUrl(location)) {
            throw new IllegalArgumentException("'" + maskText(location) + "' is not a URL like scheme://host/path");
        }
        int sep = location.indexOf("://");
        String scheme = location.substring(0, sep).toLowerCase(Locale.ROOT);
        String rest = location.substring(sep + 3);
        String queryText = null;
        int q = rest.indexOf('?');
        if (q >= 0) {
            queryText = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        String user = null;
        String password = null;
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String info = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon), location);
            password = colon < 0 ? null : decode(info.substring(colon + 1), location);
            if (user.isEmpty()) {
                user = null;
            }
        }
        if (authority.isEmpty()) {
            throw new IllegalArgumentException("'" + maskText(location) + "' names no host: write " + scheme
                    + "://host/...");
        }
        HostPort hp = hostPort(authority.split(",", -1)[0], location);
        if (hp.host().isEmpty()) {
            throw new IllegalArgumentException("'" + maskText(location) + "' names no host: write " + scheme
                    + "://host/...");
        }
        return new SourceUrl(scheme, user, password, authority, hp.host(), hp.port(), path, parseQuery(queryText, location));
    }

    private record HostPort(String host, int port) { }

    /** The host and port of one {@code host[:port]} or {@code [ipv6][:port]} of the authority (port -1 when absent). */
    private static HostPort hostPort(String first, String location) {
        String host;
        String portText = null;
        if (first.startsWith("[")) {
            int close = first.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + maskText(location) + "' has an unclosed IPv6 host '['");
            }
            host = first.substring(1, close);
            if (close + 1 < first.length()) {
                if (first.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("'" + maskText(location) + "' has text after the IPv6 host");
                }
                portText = first.substring(close + 2);
            }
        } else {
            int colon = first.lastIndexOf(':');
            host = colon < 0 ? first : first.substring(0, colon);
            portText = colon < 0 ? null : first.substring(colon + 1);
        }
        if (portText == null) {
            return new HostPort(host, -1);
        }
        if (!portText.matches("[0-9]{1,5}") || Integer.parseInt(portText) > 65_535 || Integer.parseInt(portText) == 0) {
            throw new IllegalArgumentException("'" + maskText(location) + "' has port '" + portText
                    + "': use a number from 1 to 65535");
        }
        return new HostPort(host, Integer.parseInt(portText));
    }

    private static Map<String, String> parseQuery(String text, String location) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return Collections.unmodifiableMap(out);
        }
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq), location);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), location);
            out.put(key, value);
        }
        return Collections.unmodifiableMap(out);
    }

    private static String decode(String s, String location) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + maskText(location) + "' has a malformed %-escape");
        }
    }

    public String scheme() {
        return scheme;
    }

    /** The user named in the URL, if any. */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /** The password written in the URL, if any. Only {@link Credentials} should read it. */
    Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** The first host (brackets of an IPv6 host removed). */
    public String host() {
        return host;
    }

    /** The whole host list as written ({@code h1:27017,h2:27017}), for drivers that take several. */
    public String hosts() {
        return hosts;
    }

    /** The port, or {@code defaultPort} when the URL gives none. */
    public int port(int defaultPort) {
        return port > 0 ? port : defaultPort;
    }

    /** Everything after the first '/' of the authority, undecoded (a database name, or an S3 key prefix). */
    public String path() {
        return path;
    }

    /** The query parameters, in order. */
    public Map<String, String> query() {
        return query;
    }

    /** A comma-separated query parameter as a list ({@code schema=a,b} → [a, b]); empty when absent. */
    public List<String> queryList(String key) {
        String v = query.get(key);
        List<String> out = new ArrayList<>();
        if (v != null) {
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    /** The URL as written, with the password (if any) shown as {@value #MASK}. */
    public String masked() {
        StringBuilder sb = new StringBuilder(scheme).append("://");
        if (user != null || password != null) {
            sb.append(user == null ? "" : user);
            if (password != null) {
                sb.append(':').append(MASK);
            }
            sb.append('@');
        }
        sb.append(hosts);
        if (!path.isEmpty()) {
            sb.append('/').append(path);
        }
        if (!query.isEmpty()) {
            List<String> pairs = new ArrayList<>();
            query.forEach((k, v) -> pairs.add(k + (v.isEmpty() ? "" : "=" + (secretKey(k) ? MASK : v))));
            sb.append('?').append(String.join("&", pairs));
        }
        return sb.toString();
    }

    /** Same as {@link #masked()}: a SourceUrl never prints its password. */
    @Override
    public String toString() {
        return masked();
    }

    /** Query keys whose value is a secret (as some drivers accept {@code ?password=}). */
    private static boolean secretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("token") || k.equals("pwd");
    }

    /**
     * Masks the password of any URL inside free text ({@code scheme://user:pw@} → {@code scheme://user:***@}),
     * for messages that quote a location that may not even parse.
     */
    public static String maskText(String text) {
        if (text == null) {
            return null;
        }
        String out = text.replaceAll("([A-Za-z][A-Za-z0-9+.-]*://[^:/@\\s]*):[^@\\s]*@", "$1:" + MASK + "@");
        return out.replaceAll("(?i)([?&](?:password|pwd|secret|token)[^=&\\s]*=)[^&\\s]*", "$1" + MASK);
    }
}
