package dev.sift.web;

import io.javalin.http.Context;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Short-lived signed URLs for a run's event stream, which {@code EventSource} opens without headers: the
 * run id and an expiry, signed with a key made at launch (HMAC-SHA256). A valid link stands in for the token
 * on that one stream; the token itself never goes into a URL.
 */
final class EventLinks {
    static final long VALID_SECONDS = 15 * 60;
    private static final Pattern EVENTS = Pattern.compile("/api/runs/([^/]+)/events");

    private final byte[] key = new byte[32];
    private final Clock clock;

    EventLinks(SecureRandom random, Clock clock) {
        random.nextBytes(key);
        this.clock = clock;
    }

    String url(String runId) {
        long expires = clock.instant().getEpochSecond() + VALID_SECONDS;
        return "/api/runs/" + runId + "/events?expires=" + expires + "&signature=" + sign(runId, expires);
    }

    /** True when this request is an event stream with a valid, unexpired signature for its run. */
    boolean admits(Context ctx) {
        return valid(ctx.path(), ctx.queryParam("expires"), ctx.queryParam("signature"));
    }

    boolean valid(String path, String expires, String signature) {
        Matcher m = EVENTS.matcher(path);
        if (!m.matches() || expires == null || signature == null || !expires.matches("\\d{1,12}")) {
            return false;
        }
        long exp = Long.parseLong(expires);
        return exp >= clock.instant().getEpochSecond() && MessageDigest.isEqual(
                sign(m.group(1), exp).getBytes(StandardCharsets.US_ASCII), signature.getBytes(StandardCharsets.US_ASCII));
    }

    private String sign(String runId, long expires) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((runId + "\n" + expires).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
