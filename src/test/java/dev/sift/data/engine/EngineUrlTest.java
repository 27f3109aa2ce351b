package dev.sift.data.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineUrlTest {
    @Test
    void reads_each_url_form() {
        EngineUrl pg = EngineUrl.parse("postgresql://ana:s3cr%40t@db.example:6543/shop?schema=sales&sslmode=require");
        assertThat(pg.kind()).isEqualTo(EngineUrl.Kind.POSTGRESQL);
        assertThat(pg.source().user()).contains("ana");
        assertThat(pg.source().host()).isEqualTo("db.example");
        assertThat(pg.source().port(5432)).isEqualTo(6543);
        assertThat(pg.source().path()).isEqualTo("shop");
        assertThat(pg.source().query()).containsEntry("schema", "sales").containsEntry("sslmode", "require");
        assertThat(pg.stored()).isEqualTo("postgresql://ana@db.example:6543/shop?schema=sales&sslmode=require");
        assertThat(EngineUrl.parse("postgres://db/shop").where()).isEqualTo("PostgreSQL at db:5432/shop");
        assertThat(EngineUrl.parse("local[2]").kind()).isEqualTo(EngineUrl.Kind.SPARK);
        assertThat(EngineUrl.parse("local[*]").kind()).isEqualTo(EngineUrl.Kind.SPARK);
        assertThat(EngineUrl.parse("local").kind()).isEqualTo(EngineUrl.Kind.SPARK);
        assertThat(EngineUrl.parse("spark://master:7077").kind()).isEqualTo(EngineUrl.Kind.SPARK);
        assertThat(EngineUrl.parse("sc://spark.example:15002").kind()).isEqualTo(EngineUrl.Kind.SPARK_CONNECT);
    }

    @Test
    void never_shows_or_stores_a_password() {
        EngineUrl pg = EngineUrl.parse("postgresql://ana:hunter2@db/shop");
        assertThat(pg.toString()).isEqualTo("postgresql://ana:***@db/shop");
        assertThat(pg.stored()).isEqualTo("postgresql://ana@db/shop");
        assertThatThrownBy(() -> EngineUrl.parse("mysql://ana:hunter2@db/shop"))
                .hasMessage("'mysql://ana:***@db/shop' is not an engine URL. Use postgresql://user@host:5432/database,"
                        + " a Spark master (spark://host:7077, local[2]) or Spark Connect (sc://host:15002).");
    }

    @Test
    void a_postgres_url_needs_a_database() {
        assertThatThrownBy(() -> EngineUrl.parse("postgresql://ana@db"))
                .hasMessage("'postgresql://ana@db' names no database: write postgresql://host[:port]/DATABASE");
    }
}
