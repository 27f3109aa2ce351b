package dev.sift.knowledge;

import dev.sift.data.AtomicFiles;
import dev.sift.data.BuildStamp;
import dev.sift.data.Dataset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * That a curated knowledge file passed {@link KgValidator} against a dataset, remembered beside the dataset as
 * {@code <store>/<name>.kg-valid}, so that later processes skip the queries validation runs (a few hundred ms on every
 * one-shot {@code ask}). The file holds one key: a hash of the dataset's content fingerprint, the text the curated
 * content was parsed from ({@link CuratedKg#digest}: the bundled file's and the user's), the class files that parse,
 * validate and build the graph, and the jar. Any change to the data, either file or the jar gives another key, and the
 * file is validated again; only a success is ever recorded, so a file that fails keeps failing with its problems.
 */
final class KgValidity {
    private static final Logger LOG = LoggerFactory.getLogger(KgValidity.class);
    static final String SUFFIX = ".kg-valid";

    private final Path file;
    private final String key;

    private KgValidity(Path file, String key) {
        this.file = file;
        this.key = key;
    }

    /**
     * The validity record of {@code curated} over {@code ds}; empty for a dataset without a fingerprint or file, or a
     * curated file not parsed from a text (no digest).
     */
    static Optional<KgValidity> of(Dataset ds, CuratedKg curated) {
        if (ds.fingerprint() == null || ds.fingerprint().isBlank() || ds.file() == null || curated.digest() == null) {
            return Optional.empty();
        }
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((ds.name() + "\n" + ds.fingerprint() + "\n" + KgCache.code() + "\n" + BuildStamp.jar() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            BuildStamp.addClasses(md, List.of(KgValidator.class, KgLoader.class, JoinCheck.class, KgSql.class));
            md.update(curated.digest().getBytes(StandardCharsets.UTF_8));
            return Optional.of(new KgValidity(path(ds), HexFormat.of().formatHex(md.digest())));
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            LOG.debug("No validity record for {} over {}: {}", curated.source(), ds.name(), e.toString());
            return Optional.empty();
        }
    }

    /** Where the record of {@code ds} lives: beside its database file in the store folder. */
    static Path path(Dataset ds) {
        return ds.file().resolveSibling(ds.name() + SUFFIX);
    }

    /** Whether this very content was found valid over this very data before. */
    boolean recorded() {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip().equals(key);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            LOG.debug("Ignoring the knowledge-file validity record {}: {}", file, e.getMessage());
            return false;
        }
    }

    /** Records the success, atomically; a store that cannot be written only costs validating again next time. */
    void record() {
        try {
            AtomicFiles.write(file, out -> out.write((key + "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not write the knowledge-file validity record {}: {}", file, e.getMessage());
        }
    }
}
