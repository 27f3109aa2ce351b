package dev.sift.data.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The user and password for a network source, looked up in the only places secrets may come from: an
 * environment variable the sources file names ({@code password_env: PG_PASSWORD}), a credentials file it
 * points to ({@code credentials_file: pg.credentials}, lines {@code user=...} and {@code password=...}), a
 * password written in the URL itself, or the driver's standard variable ({@code PGPASSWORD}, {@code MYSQL_PWD}).
 * The first that is given wins; one that is given but missing is an error, not a fall-through.
 *
 * <p>{@link #toString()} masks the password, and {@link #redact} scrubs it from any text (driver errors may
 * echo what they were given), so a password reaches neither logs, errors nor stored files.
 */
public final class Credentials {
    /** Sources-file key naming the environment variable that holds the password. */
    public static final String PASSWORD_ENV = "password_env";
    /** Sources-file key naming the environment variable that holds the user. */
    public static final String USER_ENV = "user_env";
    /** Sources-file key naming a credentials file ({@code user=...}, {@code password=...}). */
    public static final String CREDENTIALS_FILE = "credentials_file";
    /** Sources-file key giving the user in the clear (a user name is no secret). */
    public static final String USER = "user";
    /** Keys that must never hold a secret's value in a sources file: the value would be stored in the clear. */
    private static final List<String> FORBIDDEN = List.of("password", "pwd", "secret");

    private final String user;
    private final String password;
    private final String from;

    private Credentials(String user, String password, String from) {
        this.user = user;
        this.password = password;
        this.from = from;
    }

    /** No user, no password. */
    public static Credentials none() {
        return new Credentials(null, null, "none");
    }

    /**
     * Resolves the credentials for {@code url}. {@code options} are the sources file's keys for the source
     * (relative {@code credentials_file} paths are taken as given: the sources file reader makes them
     * relative to its own folder); {@code env} is the process environment; {@code standardEnv} the driver's
     * usual variable for a password ({@code PGPASSWORD}), or null.
     *
     * @throws IllegalArgumentException one line naming the missing variable or unreadable file, never a secret
     */
    public static Credentials resolve(SourceUrl url, Map<String, String> options, Map<String, String> env,
                                      String standardEnv) {
        Map<String, String> opts = options == null ? Map.of() : options;
        Map<String, String> environment = env == null ? Map.of() : env;
        for (String k : FORBIDDEN) {
            if (opts.containsKey(k)) {
                throw new IllegalArgumentException("Source " + url.masked() + ": do not write the " + k
                        + " in the sources file; name an environment variable instead (" + PASSWORD_ENV
                        + ": PG_PASSWORD) or a " + CREDENTIALS_FILE);
            }
        }
        String user = opts.get(USER);
        String userEnv = opts.get(USER_ENV);
        if (user == null && userEnv != null) {
            user = environment.get(userEnv);
            if (user == null) {
                throw new IllegalArgumentException("Source " + url.masked() + ": environment variable " + userEnv
                        + " (" + USER_ENV + ") is not set");
            }
        }
        String passwordEnv = opts.get(PASSWORD_ENV);
        String file = opts.get(CREDENTIALS_FILE);
        String password;
        String from;
        if (passwordEnv != null) {
            password = environment.get(passwordEnv);
            if (password == null) {
                throw new IllegalArgumentException("Source " + url.masked() + ": environment variable " + passwordEnv
                        + " (" + PASSWORD_ENV + ") is not set");
            }
            from = "environment variable " + passwordEnv;
        } else if (file != null) {
            Map<String, String> creds = readFile(Path.of(file), url);
            password = creds.get("password");
            if (password == null) {
                throw new IllegalArgumentException("Source " + url.masked() + ": credentials file " + file
                        + " has no 'password=' line");
            }
            if (user == null) {
                user = creds.getOrDefault("user", creds.get("username"));
            }
            from = "credentials file " + file;
        } else if (url.password().isPresent()) {
            password = url.password().get();
            from = "the URL";
        } else if (standardEnv != null && environment.get(standardEnv) != null) {
            password = environment.get(standardEnv);
            from = "environment variable " + standardEnv;
        } else {
            password = null;
            from = "none";
        }
        if (user == null) {
            user = url.user().orElse(null);
        }
        return new Credentials(user, password, from);
    }

    /** {@code key=value} (or {@code key: value}) lines; '#' starts a comment. */
    private static Map<String, String> readFile(Path file, SourceUrl url) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("Source " + url.masked() + ": credentials file " + file
                    + " is unreadable (" + e.getClass().getSimpleName() + ")");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            int colon = line.indexOf(':');
            int cut = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            if (cut > 0) {
                out.put(line.substring(0, cut).strip().toLowerCase(Locale.ROOT), line.substring(cut + 1).strip());
            }
        }
        return out;
    }

    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /** The password; hand it to the driver only. */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** Where the password came from, for messages: "environment variable PG_PASSWORD", "none". */
    public String from() {
        return from;
    }

    /** {@code text} with every occurrence of the password replaced by {@value SourceUrl#MASK}, and URLs masked. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        if (password != null && !password.isEmpty()) {
            out = out.replace(password, SourceUrl.MASK);
            String encoded = java.net.URLEncoder.encode(password, StandardCharsets.UTF_8);
            if (!encoded.equals(password)) {
                out = out.replace(encoded, SourceUrl.MASK);
            }
        }
        return SourceUrl.maskText(out);
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + ", password=" + (password == null ? "none" : SourceUrl.MASK
                + " from " + from) + "]";
    }
}
