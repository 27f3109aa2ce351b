package dev.sift.data.source;

import dev.sift.data.FixableException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which sources a model may make Sift read ({@code connect_source}): local paths only under allowed folders,
 * URLs only under allowed prefixes, both set by the operator in {@value #SETTING} (comma-separated folders and
 * {@code scheme://host[:port][/path]} prefixes). Unset, the folders are the Sift home and the working directory
 * and no URL is allowed. A path is checked after resolving symbolic links (a link out of a folder is refused),
 * and so is every file of a dump folder; a URL may carry no driver option but {@code schema}, so a model cannot
 * point the driver elsewhere ({@code ?endpoint=}, {@code ?socketFactory=}). People loading with {@code sift
 * load} are not limited by this.
 */
public final class AllowedSources {
    /** The setting (environment variable) that lists the allowed folders and URL prefixes. */
    public static final String SETTING = "SIFT_ALLOWED_SOURCES";
    private static final Set<String> SCHEMES = Set.of("postgresql", "postgres", "mysql", "mariadb", "mongodb", "s3");
    private static final Set<String> URL_KEYS = Set.of("schema");

    private final List<Path> folders;
    private final List<SourceUrl> prefixes;
    private final Path cwd;
    private final Map<String, String> env;

    private AllowedSources(List<Path> folders, List<SourceUrl> prefixes, Path cwd, Map<String, String> env) {
        this.folders = List.copyOf(folders);
        this.prefixes = List.copyOf(prefixes);
        this.cwd = cwd;
        this.env = Map.copyOf(env);
    }

    /** Nothing allowed: every source is refused (a registry built without configuration). */
    public static AllowedSources none() {
        return new AllowedSources(List.of(), List.of(), Path.of("").toAbsolutePath(), Map.of());
    }

    /**
     * The policy of {@code setting} (the value of {@value #SETTING}, null or blank when unset); relative folders
     * resolve against {@code cwd}. {@code env} is where sources find their credentials ({@code password_env}).
     */
    public static AllowedSources of(String setting, Path home, Path cwd, Map<String, String> env) {
        List<Path> folders = new ArrayList<>();
        List<SourceUrl> prefixes = new ArrayList<>();
        if (setting == null || setting.isBlank()) {
            folders.add(home.toAbsolutePath().normalize());
            folders.add(cwd.toAbsolutePath().normalize());
        } else {
            for (String entry : setting.split(",")) {
                String e = entry.trim();
                if (e.isEmpty()) {
                    continue;
                }
                if (SourceUrl.looksLikeUrl(e)) {
                    prefixes.add(SourceUrl.parse(e));
                } else {
                    folders.add(cwd.resolve(e).toAbsolutePath().normalize());
                }
            }
        }
        return new AllowedSources(folders, prefixes, cwd.toAbsolutePath(), env);
    }

    /** Where credentials of a connected source come from (the environment read at start). */
    public Map<String, String> env() {
        return env;
    }

    /** The folder relative paths resolve against. */
    public Path cwd() {
        return cwd;
    }

    /** The source a model asked for, refused with a message naming {@value #SETTING} unless it is allowed. */
    public static final class RefusedException extends FixableException {
        RefusedException(String message) {
            super(message);
        }
    }

    /**
     * Checks {@code location} and returns it as it will be read: a URL unchanged, a path as its absolute real
     * path (links resolved), so what is read is what was checked.
     */
    public String check(String location) throws RefusedException {
        if (location == null || location.isBlank()) {
            throw new RefusedException("No source given: name a file, a folder or a URL.");
        }
        String l = location.trim();
        return SourceUrl.looksLikeUrl(l) ? checkUrl(l) : checkPath(l);
    }

    private String checkPath(String location) throws RefusedException {
        if (Sources.isSourcesFile(location)) {
            throw new RefusedException("A sources file (" + location + ") cannot be connected from a conversation: it may"
                    + " name any path or server. Connect one file, folder or URL, or ask the operator to run sift load.");
        }
        Path path = cwd.resolve(location).toAbsolutePath().normalize();
        if (folders.stream().noneMatch(path::startsWith)) {
            throw outsideFolders(location);
        }
        if (!Files.exists(path)) {
            throw new RefusedException("File not found: " + path + ".");
        }
        Path real = realPath(path);
        if (!insideFolders(real)) {
            throw new RefusedException("Source " + location + " is a link that leads outside the allowed folders ("
                    + describeFolders() + "); the folders are set by the operator in " + SETTING + ".");
        }
        if (Files.isDirectory(real)) {
            try (Stream<Path> files = Files.list(real)) {
                for (Path f : files.toList()) {
                    if (!insideFolders(realPath(f))) {
                        throw new RefusedException("Folder " + location + " holds " + f.getFileName() + ", a link that"
                                + " leads outside the allowed folders (" + describeFolders() + "); the folders are set by"
                                + " the operator in " + SETTING + ".");
                    }
                }
            } catch (IOException e) {
                throw new RefusedException("Folder " + location + " cannot be read: " + e.getMessage());
            }
        }
        return real.toString();
    }

    private RefusedException outsideFolders(String location) {
        return new RefusedException("Source " + location + " is outside the folders Sift may read ("
                + describeFolders() + "). The operator allows folders and URLs in " + SETTING
                + "; ask the user to put the file there or to load it with sift load.");
    }

    private boolean insideFolders(Path real) {
        for (Path folder : folders) {
            Path root = Files.exists(folder) ? realPath(folder) : folder;
            if (real.startsWith(root)) {
                return true;
            }
        }
        return false;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize(); // a dangling link: it is not followed by anything reading it
        }
    }

    private String describeFolders() {
        return folders.isEmpty() ? "none" : String.join(", ", folders.stream().map(Path::toString).toList());
    }

    private String checkUrl(String location) throws RefusedException {
        String scheme = location.substring(0, location.indexOf("://")).toLowerCase(Locale.ROOT);
        if (!SCHEMES.contains(scheme)) {
            throw new RefusedException("Source " + SourceUrl.maskText(location) + ": the scheme '" + scheme + "' is not one"
                    + " Sift connects to; use a path, or " + NetworkSources.SCHEMES + " under a prefix allowed in " + SETTING + ".");
        }
        SourceUrl url;
        try {
            url = SourceUrl.parse(location);
        } catch (IllegalArgumentException e) {
            throw new RefusedException(e.getMessage());
        }
        String decoded = java.net.URLDecoder.decode(url.path().replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        if (Stream.of(decoded.split("/")).anyMatch(seg -> seg.equals("..") || seg.equals("."))) {
            throw new RefusedException("Source " + url.masked() + ": a path with '.' or '..' segments is refused; name"
                    + " the object or database itself.");
        }
        for (String key : url.query().keySet()) {
            if (!URL_KEYS.contains(key)) {
                throw new RefusedException("Source " + url.masked() + ": the option '" + key + "' cannot be set when"
                        + " connecting from a conversation (only ?schema= can); the operator sets driver options with sift load.");
            }
        }
        if (prefixes.stream().noneMatch(p -> matches(p, url))) {
            throw new RefusedException("Source " + url.masked() + " is not under a URL prefix the operator allows ("
                    + (prefixes.isEmpty() ? "none are set" : String.join(", ", prefixes.stream().map(SourceUrl::masked).toList()))
                    + "). Allowed sources are set in " + SETTING + ".");
        }
        return location;
    }

    /**
     * Same scheme, host and port (a prefix without a port means the default one; several hosts must be written
     * alike), the prefix's user if it names one, and its path at a '/' boundary.
     */
    private static boolean matches(SourceUrl prefix, SourceUrl url) {
        boolean several = prefix.hosts().contains(",") || url.hosts().contains(",");
        if (!family(prefix.scheme()).equals(family(url.scheme()))
                || several && !prefix.hosts().equalsIgnoreCase(url.hosts())
                || !several && (!prefix.host().equalsIgnoreCase(url.host())
                        || prefix.port(defaultPort(prefix.scheme())) != url.port(defaultPort(url.scheme())))) {
            return false;
        }
        if (prefix.user().isPresent() && !prefix.user().equals(url.user())) {
            return false;
        }
        String p = prefix.path().replaceAll("/+$", "");
        String u = url.path();
        return p.isEmpty() || u.equals(p) || u.startsWith(p + "/");
    }

    private static int defaultPort(String scheme) {
        return switch (family(scheme)) {
            case "postgresql" -> 5432;
            case "mysql" -> 3306;
            case "mongodb" -> 27017;
            default -> -1;
        };
    }

    private static String family(String scheme) {
        return switch (scheme) {
            case "postgres" -> "postgresql";
            case "mariadb" -> "mysql";
            default -> scheme;
        };
    }
}
