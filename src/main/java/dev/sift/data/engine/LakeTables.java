package dev.sift.data.engine;

import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A lake given with {@code --lake PATH}: a folder of tables, each a folder of Parquet files (Hive-partitioned as
 * {@code year=2024/…} or not) or an Apache Iceberg table (a folder with {@code metadata/*.metadata.json}), or one such
 * table itself. Each is registered in a Spark session as a temporary view named after its folder, read by Spark where
 * the session runs: the folder must be at the same path there (this machine for {@code local[N]}, the cluster's
 * driver and workers otherwise). Partition columns come from the folders, so a filter on one prunes the files read.
 */
final class LakeTables {
    /** One table: its view name, its folder, and Spark's format for it ({@code parquet} or {@code iceberg}). */
    record Table(String name, Path path, String format) { }

    /** The catalog Iceberg's Spark source loads a table given by path through. */
    private static final String ICEBERG_BY_PATH = "spark.sql.catalog.default_iceberg";

    private LakeTables() { }

    /** The tables of the lake at {@code lake}, by folder name. */
    static List<Table> find(String lake) {
        Path root = Path.of(lake.startsWith("file:") ? java.net.URI.create(lake).getPath() : lake);
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("--lake " + lake + " is not a folder on this machine: give the absolute path"
                    + " of a folder of Parquet or Iceberg tables (mounted at the same path on the cluster's workers).");
        }
        Table itself = table(root);
        if (itself != null) {
            return List.of(itself);
        }
        List<Table> tables = new ArrayList<>();
        try (Stream<Path> children = Files.list(root)) {
            for (Path child : children.filter(Files::isDirectory).sorted().toList()) {
                String name = child.getFileName().toString();
                Table t = name.startsWith(".") || name.startsWith("_") ? null : table(child);
                if (t != null) {
                    tables.add(t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list the lake " + root + ": " + e.getMessage(), e);
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("No tables in the lake " + root + ": a table is a folder of Parquet files"
                    + " (partitioned as year=2024/… or not) or an Iceberg table (a folder with metadata/*.metadata.json).");
        }
        return tables;
    }

    /** {@code dir} as a table, or null when it holds neither Parquet files nor Iceberg metadata. */
    private static Table table(Path dir) {
        String name = dir.getFileName().toString();
        Path metadata = dir.resolve("metadata");
        if (Files.isDirectory(metadata) && any(metadata, 1, ".metadata.json")) {
            return new Table(name, dir.toAbsolutePath(), "iceberg");
        }
        return parquet(dir, 8) ? new Table(name, dir.toAbsolutePath(), "parquet") : null;
    }

    /**
     * Whether {@code dir} is one Parquet table: Parquet files in it, or only partition folders ({@code year=2024})
     * that are. A folder of tables is not one (Spark would refuse its "conflicting directory structures").
     */
    private static boolean parquet(Path dir, int depth) {
        List<Path> children;
        try (Stream<Path> list = Files.list(dir)) {
            children = list.filter(p -> !p.getFileName().toString().startsWith(".")
                    && !p.getFileName().toString().startsWith("_")).toList();
        } catch (IOException e) {
            return false;
        }
        if (children.stream().anyMatch(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".parquet"))) {
            return true;
        }
        List<Path> folders = children.stream().filter(Files::isDirectory).toList();
        return depth > 0 && !folders.isEmpty() && folders.stream().allMatch(p -> p.getFileName().toString().indexOf('=') > 0)
                && folders.stream().anyMatch(p -> parquet(p, depth - 1));
    }

    private static boolean any(Path dir, int depth, String suffix) {
        try (Stream<Path> files = Files.walk(dir, depth)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(suffix) && Files.isRegularFile(p));
        } catch (IOException e) {
            return false;
        }
    }

    /** Registers each table as a temporary view of {@code session}, which reads the folder where it runs. */
    static void register(SparkSession session, List<Table> tables) {
        for (Table t : tables) {
            try {
                if (t.format().equals("iceberg") && session.conf().getOption(ICEBERG_BY_PATH).isEmpty()) {
                    // Iceberg reads a table by path through this catalog, by default a Hive metastore's: a folder's instead
                    session.conf().set(ICEBERG_BY_PATH, "org.apache.iceberg.spark.SparkCatalog");
                    session.conf().set(ICEBERG_BY_PATH + ".type", "hadoop");
                    session.conf().set(ICEBERG_BY_PATH + ".warehouse", t.path().getParent().toString());
                }
                session.read().format(t.format()).load(t.path().toString())
                        .createOrReplaceTempView("`" + t.name().replace("`", "``") + "`");
            } catch (RuntimeException e) {
                String m = SparkSqlEngine.message(e);
                throw new IllegalArgumentException("Could not read lake table '" + t.name() + "' (" + t.format() + ", "
                        + t.path() + ") on Spark: " + m + (t.format().equals("iceberg") && m.toLowerCase(java.util.Locale.ROOT)
                        .contains("iceberg") ? " Iceberg tables need Iceberg's Spark runtime (iceberg-spark-runtime-4.1_2.13)"
                        + " where Spark runs: the Spark build of Sift bundles it; add it to a cluster with --packages or"
                        + " spark.jars." : ""), e);
            }
        }
    }
}
