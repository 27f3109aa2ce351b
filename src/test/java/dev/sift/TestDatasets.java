package dev.sift;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.BankGenerator;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Datasets for tests, built once per test JVM into a temporary store: a small synthetic bank
 * (same schema as the demo, about 20k transactions).
 */
public final class TestDatasets {
    public static final double SMALL_SCALE = 0.02;
    private static DatasetStore store;
    private static Dataset bank;

    private TestDatasets() { }

    public static synchronized DatasetStore store() throws Exception {
        if (store == null) {
            Path dir = Files.createTempDirectory("sift-test-datasets");
            dir.toFile().deleteOnExit();
            store = new DatasetStore(dir);
        }
        return store;
    }

    /** The small bank; never modified by tests (workspaces attach it read-only). */
    public static synchronized Dataset bank() throws Exception {
        if (bank == null) {
            bank = store().ensure("bank", new BankGenerator(SMALL_SCALE, BankGenerator.DEFAULT_SEED), Progress.NONE);
        }
        return bank;
    }
}
