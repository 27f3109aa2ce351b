package dev.sift.data.engine;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.classic.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A lake as a live dataset on Spark ({@code local[1]}, {@code --lake PATH}): a folder holding a Hive-partitioned Parquet
 * table ({@code year=2022/…}) and an Apache Iceberg table partitioned by year, both written by Spark. Both answer
 * questions, and a filter on the partition column prunes in the plan Spark runs.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SparkLakeTest {
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(120));
    private static SparkSession spark;
    private static Path lake;
    private static Dataset sales;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        spark = LocalSpark.session("sift-test", dir.resolve("warehouse"));
        lake = dir.resolve("lake");
        spark.range(0, 3000).selectExpr("CAST(id AS INT) AS sale_id", "CAST(2022 + id % 3 AS INT) AS year",
                "CAST(id % 7 * 10 AS DOUBLE) AS amount").write().partitionBy("year").parquet(lake.resolve("sales").toString());
        // an Iceberg table written through a Hadoop catalog whose namespace folder is the lake: lake/trips
        spark.conf().set("spark.sql.catalog.ice", "org.apache.iceberg.spark.SparkCatalog");
        spark.conf().set("spark.sql.catalog.ice.type", "hadoop");
        spark.conf().set("spark.sql.catalog.ice.warehouse", dir.toString());
        spark.sql("CREATE TABLE ice.lake.trips (trip_id INT, year INT, km DOUBLE) USING iceberg PARTITIONED BY (year)");
        spark.sql("INSERT INTO ice.lake.trips SELECT CAST(id AS INT), CAST(2020 + id % 4 AS INT), CAST(id % 5 AS DOUBLE)"
                + " FROM range(0, 400)");
        Files.createDirectories(lake.resolve("_scratch")); // neither a table nor listed
        sales = LiveConnect.connect(new DatasetStore(dir.resolve("datasets")), "sales", "local[1]",
                Map.of("lake", lake.toString()), Map.of(), LIMITS).dataset();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void the_lakes_parquet_and_iceberg_tables_answer_with_their_partition_columns() throws Exception {
        assertThat(sales.tables()).extracting(Dataset.TableSummary::name).containsExactly("sales", "trips");
        assertThat(sales.rows("sales")).isEqualTo(3000);
        assertThat(sales.rows("trips")).isEqualTo(400);
        try (Workspace ws = Workspace.open(sales, LIMITS, null, new dev.sift.data.DatasetTables(1), Map.of(), null)) {
            QueryResult r = ws.query("SELECT year, count(*) AS n FROM sales WHERE year >= 2023 GROUP BY year ORDER BY year");
            assertThat(r.rows()).extracting(row -> row.get(0) + ":" + row.get(1)).containsExactly("2023:1000", "2024:1000");
            QueryResult t = ws.query("SELECT count(*) AS n, sum(km) AS km FROM trips WHERE year = 2021");
            assertThat(t.rows().get(0)).containsExactly(100L, 200.0); // ids 1, 5, 9, …: km cycles 1, 0, 4, 3, 2
        }
    }

    @Test
    void a_filter_on_the_partition_column_prunes_in_the_plan() throws Exception {
        try (SparkSqlEngine engine = (SparkSqlEngine) Engines.open(EngineUrl.parse("local[1]"), Map.of("lake", lake.toString()),
                Map.of(), LIMITS, null)) {
            String parquet = plan(engine, "SELECT sum(amount) FROM sales WHERE year = 2023");
            assertThat(parquet).containsPattern("PartitionFilters: \\[[^\\]]*\\(year#\\d+ = 2023\\)");
            String iceberg = plan(engine, "SELECT sum(km) FROM trips WHERE year = 2021");
            assertThat(iceberg).containsPattern("BatchScan .*trips").containsPattern("filters=[^\\n]*year = 2021");
        }
    }

    @Test
    void a_lake_that_is_not_a_folder_of_tables_is_refused_with_what_a_table_is() {
        assertThatThrownBy(() -> LakeTables.find(lake.resolve("nope").toString())).hasMessageContaining("is not a folder");
        assertThatThrownBy(() -> LakeTables.find(lake.resolve("_scratch").toString()))
                .hasMessageContaining("a table is a folder of Parquet files");
        assertThatThrownBy(() -> LiveConnect.connect(new DatasetStore(lake.resolve("_scratch")), "pg",
                "postgresql://x@localhost:1/db", Map.of("lake", lake.toString()), Map.of(), LIMITS))
                .hasMessageContaining("--lake is for Spark URLs");
    }

    private static String plan(SparkSqlEngine engine, String sql) {
        return engine.session.sql("EXPLAIN FORMATTED " + sql).collectAsList().stream().map(Row::toString)
                .collect(Collectors.joining("\n"));
    }
}
