package dev.sift.cli;

import dev.sift.Sift;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code --kg FILE}: the user's knowledge file for the command's dataset, instead of $SIFT_HOME/kg/<dataset>.kg.yaml. */
public final class KgFileOption {
    @Option(names = "--kg", paramLabel = "FILE",
            description = "your knowledge file for the dataset (default: $SIFT_HOME/kg/<dataset>.kg.yaml)")
    Path file;

    /** Makes {@code sift} read the dataset's knowledge from the named file; a file that does not exist is an error. */
    public void apply(Sift sift, String dataset) {
        if (file != null) {
            use(sift, dataset, file);
        }
    }

    static void use(Sift sift, String dataset, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--kg " + file + ": no such file. Write a starter with 'sift kg init "
                    + dataset + " --out " + file + "'.");
        }
        sift.knowledge().useFile(dataset, file);
    }

    /**
     * {@code --kg NAME=FILE} or {@code --kg FILE} of the server: a bare file names its dataset by its own name
     * ({@code shop.kg.yaml} → shop).
     */
    static void useNamed(Sift sift, String spec) {
        int eq = spec.indexOf('=');
        Path file = Path.of(eq > 0 ? spec.substring(eq + 1) : spec);
        String name = eq > 0 ? spec.substring(0, eq) : file.getFileName().toString().replaceFirst("(\\.kg)?\\.ya?ml$", "");
        use(sift, name, file);
    }
}
