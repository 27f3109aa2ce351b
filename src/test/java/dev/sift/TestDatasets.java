package dev.sift;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.BankGenerator;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Datasets for tests, built once per test JVM into a temporary store: a small synthetic bank
 * (same schema as the demo, about 50k transactions).
 */
public final class TestDatasets {
    public static final double SMALL_SCALE = 0.05;
    private static DatasetStore store;
    private static Dataset bank;
    private static Dataset shop;
    private static Dataset fullBank;

    private TestDatasets() { }

    public static synchronized DatasetStore store() throws Exception {
        if (store == null) {
            Path dir = Files.createTempDirectory("sift-test-datasets");
            java.lang.Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            store = new DatasetStore(dir);
        }
        return store;
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a leftover temp folder is harmless
        }
    }

    /** The small bank; never modified by tests (workspaces attach it read-only). */
    public static synchronized Dataset bank() throws Exception {
        if (bank == null) {
            bank = store().ensure("bank", new BankGenerator(SMALL_SCALE, BankGenerator.DEFAULT_SEED), Progress.NONE);
        }
        return bank;
    }

    /**
     * The demo bank at its full size (scale 1.0, as {@code sift ask} builds it, named bank so its knowledge file
     * applies), built once per test JVM into a store of its own; never modified by tests.
     */
    public static synchronized Dataset fullBank() throws Exception {
        if (fullBank == null) {
            Path dir = store().root().resolve("full");
            Files.createDirectories(dir);
            fullBank = new DatasetStore(dir).ensure("bank", new BankGenerator(), Progress.NONE);
        }
        return fullBank;
    }

    /** The generated shop (customers, orders, products CSVs loaded as a user would), built once. */
    public static synchronized Dataset shop() throws Exception {
        if (shop == null) {
            shop = store().ensure("shop", new dev.sift.data.source.ShopGenerator(
                    dev.sift.data.source.ShopGenerator.DEFAULT_SEED), Progress.NONE);
        }
        return shop;
    }

    /** A dataset of CSV files given as name → content, built into the shared test store. */
    public static Dataset csv(String name, java.util.Map<String, String> files) throws Exception {
        Path dir = store().root().resolve(name + "-files");
        Files.createDirectories(dir);
        java.util.List<Path> paths = new java.util.ArrayList<>();
        for (var e : files.entrySet()) {
            paths.add(Files.writeString(dir.resolve(e.getKey()), e.getValue()));
        }
        return store().ensure(name, new dev.sift.data.source.FileLoader(paths), Progress.NONE);
    }
}
