package dev.sift.data.source;

import java.util.Map;
import java.util.Optional;

/**
 * The sources reached over the network: {@code postgresql://}, {@code mysql://} / {@code mariadb://},
 * {@code mongodb://} and {@code s3://} locations. {@code options} are the sources file's keys for this source
 * (e.g. {@code password_env}); {@code env} is the process environment, the only place secrets come from.
 */
public final class NetworkSources {
    /** The URL schemes this class opens, for messages. */
    public static final String SCHEMES = "postgresql://, mysql://, mariadb://, mongodb:// or s3://";

    private NetworkSources() { }

    /**
     * The source for {@code location}, or empty when it is not a network location (a path, a {@code file:} URL).
     * Nothing is contacted here: the server is first reached by {@link Source#fingerprint()}.
     *
     * @throws IllegalArgumentException one line (password masked) for a URL that is malformed or of a scheme
     *                                  that is not supported, or for credentials named but missing
     */
    public static Optional<Source> open(String location, Map<String, String> options, Map<String, String> env) {
        if (!SourceUrl.looksLikeUrl(location) || location.regionMatches(true, 0, "file:", 0, 5)) {
            return Optional.empty();
        }
        SourceUrl url = SourceUrl.parse(location);
        Map<String, String> opts = options == null ? Map.of() : options;
        Map<String, String> environment = env == null ? Map.of() : env;
        return Optional.of(switch (url.scheme()) {
            case "postgresql", "postgres" -> new JdbcSource(new PostgresDialect(), url, opts, environment);
            case "mysql", "mariadb" -> new JdbcSource(new MariaDbDialect(), url, opts, environment);
            case "mongodb" -> new MongoSource(url, opts, environment);
            case "s3" -> new S3Source(url, opts, environment);
            default -> throw new IllegalArgumentException("Source " + url.masked() + ": the scheme '" + url.scheme()
                    + "' is not supported; use " + SCHEMES);
        });
    }
}
