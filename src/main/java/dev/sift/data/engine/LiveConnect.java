package dev.sift.data.engine;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Registers a live dataset: connects to the engine, reads its schema from the metadata and bounded samples,
 * checks what the account may do, and publishes the dataset with its connection file. Nothing is copied.
 */
public final class LiveConnect {
    private LiveConnect() { }

    /** The dataset, its connection file and what people should be told (write access, an unstored password). */
    public record Connected(Dataset dataset, EngineFile file, List<String> notes) { }

    public static Connected connect(DatasetStore store, String name, String url, Map<String, String> options,
                                    Map<String, String> env, Workspace.Limits limits) throws QueryException, IOException {
        DatasetStore.checkName(name);
        EngineUrl parsed = EngineUrl.parse(url);
        if (options.containsKey("lake") && parsed.kind() == EngineUrl.Kind.POSTGRESQL) {
            throw new IllegalArgumentException("--lake is for Spark URLs (local[N], spark://, sc://): PostgreSQL reads"
                    + " only its own tables.");
        }
        List<String> notes = new ArrayList<>();
        EngineFile file;
        try (CatalogEngine engine = Engines.open(parsed, options, env, limits, null)) {
            file = engine.describe(parsed.stored());
            if (engine instanceof PostgresEngine pg && pg.passwordFrom().equals("the URL")) {
                notes.add("The password in the URL was used to connect but is not stored; later runs read it from"
                        + " PGPASSWORD or from the variable given with --password-env.");
            }
        }
        return publish(store, name, parsed, file, notes);
    }

    /** Re-reads the schema of live dataset {@code name} (tables, columns, counts, samples, access). */
    public static Connected refresh(DatasetStore store, String name, Map<String, String> env, Workspace.Limits limits)
            throws QueryException, IOException {
        Dataset ds = store.get(name);
        if (!ds.onEngine()) {
            throw new IllegalArgumentException("Dataset '" + name + "' is not a live dataset: it was built with sift load;"
                    + " rebuild it there instead.");
        }
        EngineFile old = EngineFile.read(ds.file());
        EngineUrl parsed = EngineUrl.parse(old.url());
        EngineFile file;
        try (CatalogEngine engine = Engines.open(parsed, old.options(), env, limits, null)) {
            file = engine.describe(parsed.stored());
        }
        return publish(store, name, parsed, file, new ArrayList<>());
    }

    private static Connected publish(DatasetStore store, String name, EngineUrl url, EngineFile file, List<String> notes)
            throws IOException {
        if (file.tables().isEmpty()) {
            throw new IllegalArgumentException("No tables found on " + url.where()
                    + (url.kind() == EngineUrl.Kind.POSTGRESQL ? " in schema '" + url.source().queryList("schema").stream()
                    .findFirst().orElse(file.options().getOrDefault("schema", "public")) + "' (choose another with --schema)"
                    : "")
                    + "; nothing to connect.");
        }
        file.write(store.liveFile(name));
        List<Dataset.TableSummary> summaries = file.tables().stream()
                .map(t -> new Dataset.TableSummary(t.name(), t.rows())).toList();
        Dataset ds = store.publishLive(new Dataset(name, store.liveFile(name), file.fingerprint(),
                "live " + url.where() + " (nothing copied)", file.refreshedAt(), summaries, List.of(url.toString()),
                url.toString()));
        String warning = file.access() == null ? null : file.access().warning();
        if (warning != null) {
            notes.add(warning);
        }
        return new Connected(ds, file, notes);
    }
}
