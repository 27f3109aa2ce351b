package dev.sift.cli;

import dev.sift.data.DatasetStore;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;
import dev.sift.data.engine.EngineFile;
import dev.sift.data.engine.LiveConnect;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "connect", description = {
        "Register a live dataset: the data stays on its engine and the agent's SQL runs there (nothing is copied).",
        "The schema and the automatic knowledge graph come from the engine's metadata and bounded samples;",
        "they are cached and re-read with --refresh. Results come back into the session as frames.",
        "",
        "URL forms:",
        "  postgresql://USER@HOST[:5432]/DATABASE[?schema=NAME]",
        "      PostgreSQL (also postgres://). The password comes from the variable named by --password-env,",
        "      else PGPASSWORD, else the URL (used to connect, never stored). Default schema: public.",
        "  spark://HOST:7077            a Spark standalone master",
        "  local[N]  local[*]  local    Spark SQL in this process with N threads",
        "      Spark URLs need the jar built with 'mvn -Pspark package' (Spark SQL is not in the default jar).",
        "      Tables are those of the session catalog (--database, default 'default').",
        "  sc://HOST[:15002][/;token=T]  Spark Connect (also Databricks), through Spark's Connect client. The token",
        "      comes from the variable named by --password-env, else SPARK_CONNECT_AUTHENTICATE_TOKEN, else the",
        "      URL (used to connect, never stored or shown).",
        "  --lake PATH (any Spark URL)  also the tables of a folder: each subfolder of Parquet files (Hive-partitioned",
        "      as year=2024/… or not) or an Apache Iceberg table, named after the folder. Spark reads it where it",
        "      runs: the path must be the same on the cluster (a shared mount).",
        "",
        "Queries are checked on the engine without running (PostgreSQL EXPLAIN; Spark's parser and analyzer,",
        "read plans only; over Connect the server's EXPLAIN), then run read-only with a statement timeout and a row cap. Sift warns when the",
        "account can write: connect with a read-only role.",
        "",
        "Examples:",
        "  sift connect shop postgresql://analyst@db.internal:5432/shop --password-env SHOP_PW",
        "  sift connect events local[2] --database analytics",
        "  sift connect lake sc://spark.internal:15002 --database analytics --password-env LAKE_TOKEN",
        "  sift connect sales local[2] --lake /data/lake",
        "  sift connect shop --refresh"})
final class ConnectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "dataset name")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "URL", description = "the engine (see URL forms above)")
    String url;

    @Option(names = "--refresh", description = "re-read the schema, counts and samples of a connected dataset")
    boolean refresh;

    @Option(names = "--password-env", paramLabel = "VAR", description = "environment variable holding the password")
    String passwordEnv;

    @Option(names = "--schema", paramLabel = "NAME", description = "PostgreSQL schema (default public)")
    String schema;

    @Option(names = "--database", paramLabel = "NAME", description = "Spark catalog database (default 'default')")
    String database;

    @Option(names = "--lake", paramLabel = "PATH", description = "Spark: also the Parquet and Iceberg tables of this folder")
    String lake;

    @Option(names = "--max-rows", paramLabel = "N", description = "most rows a result may have to come back as a frame"
            + " (default 1000000); a larger result stays on the engine")
    Integer maxRows;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "statement timeout while reading the schema (default 30)")
    Integer timeout;

    @Override
    public Integer call() throws Exception {
        dev.sift.SiftConfig config = Runtime.config();
        DatasetStore store = DatasetStore.under(config.home());
        Workspace.Limits limits = Workspace.Limits.defaults();
        if (timeout != null) {
            limits = limits.withQueryTimeout(Duration.ofSeconds(timeout));
        }
        LiveConnect.Connected c;
        try {
            if (refresh) {
                if (url != null) {
                    throw new IllegalArgumentException("--refresh takes the dataset name only: sift connect " + name + " --refresh");
                }
                c = LiveConnect.refresh(store, name, config.settings(), limits);
            } else {
                if (url == null) {
                    throw new IllegalArgumentException("sift connect needs NAME and URL (or NAME --refresh); see sift connect --help");
                }
                Map<String, String> options = new LinkedHashMap<>();
                if (passwordEnv != null) {
                    options.put("password_env", passwordEnv);
                }
                if (schema != null) {
                    options.put("schema", schema);
                }
                if (database != null) {
                    options.put("database", database);
                }
                if (lake != null) {
                    options.put("lake", java.nio.file.Path.of(lake).toAbsolutePath().normalize().toString());
                }
                if (maxRows != null) {
                    if (maxRows < 1) {
                        throw new IllegalArgumentException("--max-rows must be at least 1");
                    }
                    options.put("max_rows", Integer.toString(maxRows));
                }
                c = LiveConnect.connect(store, name, url, options, config.settings(), limits);
            }
        } catch (QueryException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        dev.sift.data.LastDataset.under(config.home()).loaded(c.dataset().name());
        var out = spec.commandLine().getOut();
        out.println((refresh ? "Refreshed " : "Connected ") + c.dataset().name() + " — " + c.dataset().description());
        for (EngineFile.Table t : c.file().tables()) {
            out.printf("  %-20s %s%,d rows, %d columns%n", t.name(), t.rowsEstimated() ? "~" : "", t.rows(), t.columns().size());
        }
        for (String note : c.notes()) {
            out.println("Note: " + note);
        }
        out.println("Ask with: sift ask \"…\" --dataset " + c.dataset().name());
        out.flush();
        return 0;
    }
}
