package dev.sift.mcp;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.BankGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * The demo dataset at its full size (691 loans, as {@code sift ask} builds it), built once per test JVM (about 30 s)
 * and linked into each test's own Sift home, so every process and server a test starts finds it built.
 */
final class FullBank {
    private static Dataset bank;

    private FullBank() { }

    static synchronized Dataset get() throws Exception {
        if (bank == null) {
            Path dir = Files.createTempDirectory("sift-mcp-bank");
            java.lang.Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
            bank = new DatasetStore(dir).ensure("bank", new BankGenerator(), Progress.NONE);
        }
        return bank;
    }

    /** A fresh Sift home holding the full bank. */
    static Path home() throws Exception {
        Dataset d = get();
        Path home = Files.createTempDirectory("sift-mcp-home");
        java.lang.Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(home)));
        Path datasets = Files.createDirectories(home.resolve("datasets"));
        try {
            Files.createLink(datasets.resolve("bank.duckdb"), d.file());
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(d.file(), datasets.resolve("bank.duckdb"));
        }
        for (String side : new String[] {"bank.json", "bank.load-report.json"}) {
            Path f = d.file().resolveSibling(side);
            if (Files.exists(f)) {
                Files.copy(f, datasets.resolve(side));
            }
        }
        return home;
    }

    static void delete(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary folder is harmless
        }
    }
}
