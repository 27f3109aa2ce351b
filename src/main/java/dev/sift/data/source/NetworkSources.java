package dev.sift.data.source;

import java.util.Map;
import java.util.Optional;

/**
 * The sources reached over the network: {@code postgresql://}, {@code mysql://} / {@code mariadb://},
 * {@code mongodb://} and {@code s3://} locations. {@code options} are the sources file's keys for this source
 * (e.g. {@code password_env}); {@code env} is the process environment, the only place secrets come from.
 */
public final class NetworkSources {
    private NetworkSources() { }

    /** The source for {@code location}, or empty when it is not a network location. */
    public static Optional<Source> open(String location, Map<String, String> options, Map<String, String> env) {
        return Optional.empty(); // filled in by the network connectors
    }
}
