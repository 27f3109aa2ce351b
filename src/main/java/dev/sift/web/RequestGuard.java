package dev.sift.web;

import io.javalin.http.Context;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps other web pages from driving the server. A request whose {@code Host} is not one of this server's names
 * is refused (DNS rebinding); a state-changing request (POST, PUT, PATCH, DELETE) from another site is refused
 * ({@code Sec-Fetch-Site}, else an {@code Origin} that is not this server), must carry the per-launch CSRF token
 * and, on JSON routes, {@code Content-Type: application/json}. Every response carries a Content-Security-Policy
 * and headers that forbid framing and content sniffing.
 */
final class RequestGuard {
    static final String CSRF_HEADER = "X-Sift-CSRF";
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none';"
            + " form-action 'self'; frame-ancestors 'none'";
    private static final Set<String> CHANGES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final Set<String> WILDCARD = Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

    private final Set<String> hosts;
    private final boolean anyHost;
    private final String csrf;

    /**
     * {@code bound} is the address the server listens on; {@code names} the extra host names it may be reached
     * by. Loopback names always work; a wildcard bind with no names accepts any host (a token is then required).
     */
    RequestGuard(String bound, List<String> names, String csrf) {
        String b = bracket(bound.toLowerCase(Locale.ROOT));
        this.anyHost = WILDCARD.contains(b) && names.isEmpty();
        this.hosts = new java.util.HashSet<>(LOOPBACK);
        if (!WILDCARD.contains(b)) {
            hosts.add(b);
        }
        hosts.addAll(names.stream().map(n -> bracket(n.toLowerCase(Locale.ROOT))).collect(Collectors.toSet()));
        this.csrf = csrf;
    }

    private static String bracket(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    static void headers(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
    }

    void checkHost(Context ctx) {
        if (anyHost) {
            return;
        }
        String host = ctx.header("Host");
        String name = host == null ? "" : hostName(host.toLowerCase(Locale.ROOT));
        if (!hosts.contains(name)) {
            throw new ApiError(403, "Host '" + (host == null ? "" : host) + "' is not a name of this server: open it"
                    + " as http://127.0.0.1:<port>/ or http://localhost:<port>/, or start it with --allowed-host "
                    + (name.isEmpty() ? "NAME" : name) + " if that name is yours.");
        }
    }

    /** The host part of a Host header: {@code [::1]:80} → {@code [::1]}, {@code a.b:80} → {@code a.b}. */
    static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    void checkOrigin(Context ctx) {
        if (!CHANGES.contains(ctx.method().name())) {
            return;
        }
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
            throw new ApiError(403, "Cross-site requests may not change anything here (Sec-Fetch-Site: " + site + ").");
        }
        String origin = ctx.header("Origin");
        if (origin != null && !sameHost(origin, ctx.header("Host"))) {
            throw new ApiError(403, "Requests from " + origin + " may not change anything here: only this"
                    + " server's own pages may.");
        }
    }

    private static boolean sameHost(String origin, String host) {
        if (host == null) {
            return false;
        }
        try {
            URI u = URI.create(origin);
            String authority = u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
            return authority != null && authority.toLowerCase(Locale.ROOT).equals(host.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false; // "null" or junk: not this server
        }
    }

    /** State changes under {@code /api} need this launch's CSRF token, which only this server's pages can read. */
    void checkCsrf(Context ctx) {
        if (!CHANGES.contains(ctx.method().name())) {
            return;
        }
        String given = ctx.header(CSRF_HEADER);
        if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                csrf.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiError(403, "This request needs the server's CSRF token in the '" + CSRF_HEADER + "' header"
                    + " (the app sends it; scripts get it from GET /api/csrf).");
        }
    }

    /** JSON routes take only JSON and the upload route only multipart, so no plain form or text post gets in. */
    static void checkContentType(Context ctx) {
        String method = ctx.method().name();
        if (!method.equals("POST") && !method.equals("PUT") && !method.equals("PATCH")) {
            return;
        }
        String type = ctx.header("Content-Type");
        String base = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        String want = ctx.path().equals("/api/datasets") ? "multipart/form-data" : "application/json";
        if (!base.equals(want)) {
            throw new ApiError(415, "This endpoint takes " + want + ": send 'Content-Type: " + want + "' (got "
                    + (type == null ? "none" : "'" + type + "'") + ").");
        }
    }
}
