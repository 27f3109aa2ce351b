package dev.sift.data.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The bearer token of a Spark Connect dataset, found where a password would be: the variable named by
 * {@code password_env} ({@code --password-env}), a {@code credentials_file} with a {@code token=} line, the
 * standard variable {@code SPARK_CONNECT_AUTHENTICATE_TOKEN}, else the URL's {@code ;token=} (used, never stored).
 */
final class ConnectToken {
    static final String STANDARD_ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN";

    private ConnectToken() { }

    /** @throws IllegalArgumentException one line naming the unset variable or unreadable file, never the token */
    static String resolve(EngineUrl url, Map<String, String> options, Map<String, String> env) {
        String var = options.get("password_env");
        if (var != null) {
            String token = env.get(var);
            if (token == null) {
                throw new IllegalArgumentException("Environment variable " + var + " (--password-env, the Spark Connect"
                        + " token of " + url + ") is not set.");
            }
            return token;
        }
        String file = options.get("credentials_file");
        if (file != null) {
            try {
                for (String line : Files.readAllLines(Path.of(file))) {
                    if (line.startsWith("token=")) {
                        return line.substring("token=".length()).strip();
                    }
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("Cannot read the credentials file " + file + " of " + url + ": "
                        + e.getClass().getSimpleName());
            }
            throw new IllegalArgumentException("The credentials file " + file + " of " + url + " has no 'token=' line.");
        }
        String standard = env.get(STANDARD_ENV);
        return standard != null ? standard : url.connectToken();
    }
}
