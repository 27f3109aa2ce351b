package dev.sift.data.engine;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sift's DuckDB SQL as PostgreSQL and Spark SQL get it; the results are compared on the engines in the parity tests. */
class EngineSqlTest {
    private static final List<TableInfo> CATALOG = List.of(
            new TableInfo("district", TableInfo.Kind.TABLE, 77, List.of(new ColumnInfo("A1", "BIGINT", "1"),
                    new ColumnInfo("A3", "VARCHAR", "Prague"), new ColumnInfo("A13", "VARCHAR", "0.3"))),
            new TableInfo("client", TableInfo.Kind.TABLE, 10, List.of(new ColumnInfo("client_id", "BIGINT", "1"),
                    new ColumnInfo("district_id", "BIGINT", "1"), new ColumnInfo("birth_date", "DATE", "1970-01-01"))),
            new TableInfo("trans", TableInfo.Kind.TABLE, 10, List.of(new ColumnInfo("balance", "DOUBLE", "1"),
                    new ColumnInfo("date", "DATE", "1995-01-01"), new ColumnInfo("type", "VARCHAR", "PRIJEM"))));
    private static final EngineSql PG = new EngineSql(SqlDialect.POSTGRESQL, CATALOG);
    private static final EngineSql SPARK = new EngineSql(SqlDialect.SPARK, CATALOG);

    @AfterAll
    static void close() {
        PG.close();
        SPARK.close();
    }

    @Test
    void names_are_quoted_as_the_catalog_spells_them_whatever_case_the_query_used() throws Exception {
        String sql = "SELECT count(*) AS n FROM client JOIN district ON client.district_id = district.a1 WHERE district.A3 = 'Prague'";
        assertThat(PG.render(sql)).isEqualTo("SELECT COUNT(*) AS \"n\" FROM \"client\" INNER JOIN \"district\" ON"
                + " \"client\".\"district_id\" = \"district\".\"A1\" WHERE \"district\".\"A3\" = 'Prague'");
        assertThat(SPARK.render(sql)).isEqualTo("SELECT COUNT(*) `n` FROM `client` INNER JOIN `district` ON"
                + " `client`.`district_id` = `district`.`A1` WHERE `district`.`A3` = 'Prague'");
    }

    @Test
    void duckdb_functions_get_the_engines_form() throws Exception {
        assertThat(PG.render("SELECT date_sub('year', client.birth_date, DATE '1999-01-01') FROM client")).contains("DATE '1999-01-01'")
                .contains("CAST(EXTRACT(YEAR FROM \"client\".\"birth_date\") AS BIGINT)").startsWith("SELECT CAST(TRUNC((CASE WHEN");
        assertThat(PG.render("SELECT arg_max(trans.balance, trans.date) FROM trans")).isEqualTo("SELECT (array_agg("
                + "\"trans\".\"balance\" ORDER BY \"trans\".\"date\" DESC) FILTER (WHERE \"trans\".\"balance\" IS NOT NULL"
                + " AND \"trans\".\"date\" IS NOT NULL AND TRUE)) [1] FROM \"trans\"");
        assertThat(SPARK.render("SELECT arg_max(trans.balance, trans.date) FROM trans")).isEqualTo("SELECT max_by("
                + "`trans`.`balance`, `trans`.`date`) FILTER (WHERE `trans`.`balance` IS NOT NULL AND `trans`.`date` IS NOT NULL"
                + " AND TRUE) FROM `trans`");
        assertThat(PG.render("SELECT year(date), median(balance), 7 / 2 FROM trans ORDER BY 1 DESC LIMIT 3")).isEqualTo(
                "SELECT CAST(EXTRACT(YEAR FROM \"date\") AS BIGINT), percentile_cont(0.5) WITHIN GROUP (ORDER BY \"balance\"),"
                + " (CAST(7 AS DOUBLE PRECISION) / 2) FROM \"trans\" ORDER BY 1 DESC NULLS LAST\nFETCH NEXT 3 ROWS ONLY");
        assertThat(PG.render("SELECT TRY_CAST(A13 AS DOUBLE) FROM district")).isEqualTo("SELECT CASE WHEN CAST(\"A13\" AS TEXT)"
                + " ~ '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$' THEN CAST(CAST(\"A13\" AS TEXT) AS DOUBLE"
                + " PRECISION) WHEN CAST(\"A13\" AS TEXT) ~* '^\\s*[-+]?nan\\s*$' THEN CAST('NaN' AS DOUBLE PRECISION) WHEN"
                + " CAST(\"A13\" AS TEXT) ~* '^\\s*[+]?inf(inity)?\\s*$' THEN CAST('Infinity' AS DOUBLE PRECISION) WHEN"
                + " CAST(\"A13\" AS TEXT) ~* '^\\s*-inf(inity)?\\s*$' THEN CAST('-Infinity' AS DOUBLE PRECISION) END"
                + " FROM \"district\"");
        assertThat(SPARK.render("SELECT avg(balance) FILTER (WHERE date >= DATE '1996-01-01' - INTERVAL 3 MONTH) FROM trans"))
                .isEqualTo("SELECT AVG(`balance`) FILTER (WHERE `date` >= DATE '1996-01-01' - (INTERVAL '1' MONTH * 3)) FROM `trans`");
    }

    @Test
    void between_is_written_in_the_form_every_engine_parses() throws Exception {
        String sql = "SELECT count(*) FROM loan WHERE year(date) BETWEEN 1995 AND 1996";
        assertThat(SPARK.render(sql)).isEqualTo("SELECT COUNT(*) FROM `loan` WHERE ((YEAR(`date`)) BETWEEN 1995 AND 1996)");
        assertThat(PG.render(sql)).doesNotContain("ASYMMETRIC").contains("BETWEEN 1995 AND 1996");
    }

    @Test
    void what_has_no_faithful_form_is_refused_naming_it() {
        assertThatThrownBy(() -> PG.render("SELECT * FROM trans QUALIFY row_number() OVER (ORDER BY date) = 1"))
                .isInstanceOf(QueryException.class).hasMessage("Cannot write this for PostgreSQL: QUALIFY has no PostgreSQL"
                        + " form in Sift's SQL renderer (Sift's own SQL is DuckDB's and is rendered for the engine). Write it"
                        + " with functions both have.");
        assertThatThrownBy(() -> SPARK.render("SELECT list(type) FROM trans")).hasMessageStartingWith(
                "Cannot write this for Spark SQL: DuckDB's function list has no Spark SQL form");
        assertThatThrownBy(() -> PG.render("SELECT balance // 2 FROM trans")).hasMessageStartingWith(
                "Cannot write this for PostgreSQL: the operator // has no PostgreSQL form");
    }
}
