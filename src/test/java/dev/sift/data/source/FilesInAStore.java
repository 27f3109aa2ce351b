package dev.sift.data.source;

import dev.sift.data.DatasetStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A test's data folder of files to load and a fresh dataset store beside it, both in a temporary folder. */
abstract class FilesInAStore {
    @TempDir
    Path tmp;
    Path data;
    Path storeDir;
    DatasetStore store;

    @BeforeEach
    void setUpFolders() throws IOException {
        data = Files.createDirectories(tmp.resolve("data"));
        storeDir = tmp.resolve("store");
        store = new DatasetStore(storeDir);
    }

    /** A UTF-8 text file in the data folder. */
    Path write(String name, String text) throws IOException {
        return Files.writeString(data.resolve(name), text, StandardCharsets.UTF_8);
    }
}
