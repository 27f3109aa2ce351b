package dev.sift.bench;

import dev.sift.data.Dataset;
import dev.sift.data.Sql;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;

/**
 * A built dataset's tables as a Spark catalog holds them, for parity runs: DuckDB writes each table as one Parquet
 * file (names and types kept: {@code "A1"} stays upper case, dates stay dates) and a database of Spark's own names it
 * as an external table. The session is any of Spark's: this process's ({@code local[1]} or a driver on a standalone
 * cluster) or a Spark Connect client, whose server then reads the files. Only this class and {@link SparkSessions}
 * name Spark in the bench, so the other engines run without Spark in the jar.
 */
final class SparkCopy implements AutoCloseable {
    private final SparkSession spark;
    private final String database;
    private final boolean ownsSession;
    private final long rows;

    private SparkCopy(SparkSession spark, String database, boolean ownsSession, long rows) {
        this.spark = spark;
        this.database = database;
        this.ownsSession = ownsSession;
        this.rows = rows;
    }

    /**
     * Copies {@code dataset} into a new database of {@code spark} under {@code dir} (Parquet files and the database's
     * folder); {@code owns}: the copy stops the session when closed.
     */
    static SparkCopy of(Dataset dataset, Path dir, SparkSession spark, boolean owns) throws Exception {
        String database = "sift_parity_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        long rows = 0;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + dataset.file(), readOnly());
             Statement st = duck.createStatement()) {
            spark.sql("CREATE DATABASE " + database + " LOCATION '" + dir.resolve(database) + "'");
            for (EngineCopy.Table t : EngineCopy.tables(duck)) {
                Path file = dir.resolve("parquet").resolve(t.name().toLowerCase(Locale.ROOT) + ".parquet");
                java.nio.file.Files.createDirectories(file.getParent());
                st.execute("COPY " + Sql.quoteIdent(t.name()) + " TO " + Sql.quoteString(file.toString()) + " (FORMAT parquet)");
                String table = database + ".`" + t.name().replace("`", "``") + "`";
                spark.sql("CREATE TABLE " + table + " USING parquet LOCATION '" + file + "'");
                rows += spark.table(table).count();
            }
        } catch (Exception | Error e) {
            close(spark, database, owns);
            throw e;
        }
        return new SparkCopy(spark, database, owns, rows);
    }

    private static Properties readOnly() {
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        return p;
    }

    /** The Spark database holding the tables (the live dataset's {@code database} option). */
    String database() {
        return database;
    }

    long rows() {
        return rows;
    }

    String version() {
        return spark.version();
    }

    @Override
    public void close() {
        close(spark, database, ownsSession);
    }

    private static void close(SparkSession spark, String database, boolean owns) {
        try {
            spark.sql("DROP DATABASE IF EXISTS " + database + " CASCADE");
        } finally {
            if (owns) {
                spark.stop();
            }
        }
    }
}
