package dev.sift.data;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;

/**
 * What a record kept beside a dataset (the described tables, a knowledge file's validity) must be keyed by besides
 * the data: the class files whose code produced it and the build Sift runs from, so another build never reads it.
 */
public final class BuildStamp {
    private BuildStamp() { }

    /** Adds the name and bytes of each class file of {@code classes} to {@code md}. */
    public static void addClasses(MessageDigest md, List<Class<?>> classes) throws IOException {
        for (Class<?> k : classes) {
            String res = k.getSimpleName() + ".class";
            try (InputStream in = k.getResourceAsStream(res)) {
                md.update(res.getBytes(StandardCharsets.UTF_8));
                md.update(in == null ? new byte[0] : in.readAllBytes());
            }
        }
    }

    /**
     * The size and time of the jar (or class folder) Sift runs from: a new build may bind SQL or cast values
     * differently (another DuckDB) even where the classes hashed are the same.
     */
    public static String jar() {
        try {
            Path p = Path.of(BuildStamp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.size(p) + ":" + Files.getLastModifiedTime(p).toMillis();
        } catch (IOException | RuntimeException | URISyntaxException e) {
            return "unknown";
        }
    }
}
