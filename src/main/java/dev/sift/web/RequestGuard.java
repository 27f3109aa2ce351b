package dev.sift.web;

import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Keeps other web pages from driving the loopback server: a state-changing request (POST, PUT, PATCH, DELETE)
 * from another site is refused (the browser's {@code Sec-Fetch-Site}, else an {@code Origin} that is not this
 * server), and every response carries headers that forbid framing and content sniffing.
 */
final class RequestGuard {
    private static final Set<String> CHANGES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private RequestGuard() { }

    static void checkOrigin(Context ctx) {
        if (!CHANGES.contains(ctx.method().name())) {
            return;
        }
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
            throw new ForbiddenResponse("Cross-site requests may not change anything here (Sec-Fetch-Site: "
                    + site + ").");
        }
        String origin = ctx.header("Origin");
        if (origin != null && !sameHost(origin, ctx.header("Host"))) {
            throw new ForbiddenResponse("Requests from " + origin + " may not change anything here: only this"
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

    static void headers(Context ctx) {
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
    }
}
