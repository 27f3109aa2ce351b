package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.LoadReport;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Types on load as a careful analyst would give them: every unambiguous text date or timestamp format typed, the
 * day/month order taken only from values that show it, two-digit years and leading-zero codes left as text with the
 * reason, future dates flagged, JSON fields of mostly strings as text, and the fix for every column left as text.
 */
class CarefulTypesTest {
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    @TempDir
    Path tmp;

    private record Loaded(Dataset ds, LoadReport report) { }

    private Loaded load(String file, String content) throws Exception {
        Path f = Files.writeString(tmp.resolve(file), content);
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        String name = file.replaceAll("\\..*", "");
        Dataset ds = store.ensure(name, new FileLoader(List.of(f)), Progress.NONE);
        return new Loaded(ds, store.loadReport(name));
    }

    private static String type(Dataset ds, String table, String column) throws Exception {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            return ws.table(table).orElseThrow().column(column).orElseThrow().type();
        }
    }

    private static Object scalar(Dataset ds, String sql) throws Exception {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            return ws.query(sql).scalar();
        }
    }

    /** {@code rows} lines of "id,value" with the value of each row from {@code value}. */
    private static String csv(String header, int rows, java.util.function.IntFunction<String> value) {
        StringBuilder b = new StringBuilder("id," + header + "\n");
        for (int i = 0; i < rows; i++) {
            b.append(i).append(',').append(value.apply(i)).append('\n');
        }
        return b.toString();
    }

    @Test
    void a_date_with_a_month_name_and_no_comma_is_a_date() throws Exception {
        Loaded l = load("movies.csv", csv("Release Date", 3201, i -> MONTHS[i % 12] + " " + String.format("%02d", 1 + i % 28)
                + " " + (1960 + i % 40)));
        assertThat(type(l.ds(), "movies", "Release Date")).isEqualTo("DATE");
        assertThat(l.report().lines()).contains("movies.Release Date: date (3201 values in Mon DD YYYY)");
        assertThat(scalar(l.ds(), "SELECT CAST(\"Release Date\" AS VARCHAR) FROM movies WHERE id = 5")).isEqualTo("1965-06-06");
    }

    @Test
    void full_month_names_with_a_comma_and_day_first_month_names_are_dates() throws Exception {
        Loaded l = load("events.csv", "id,opened,closed\n1,\"June 12, 1998\",12 Sep 1999\n2,\"September 1, 2001\",1 March 2002\n");
        assertThat(type(l.ds(), "events", "opened")).isEqualTo("DATE");
        assertThat(type(l.ds(), "events", "closed")).isEqualTo("DATE");
        assertThat(scalar(l.ds(), "SELECT CAST(opened AS VARCHAR) || ' ' || CAST(closed AS VARCHAR) FROM events WHERE id = 2"))
                .isEqualTo("2001-09-01 2002-03-01");
    }

    @Test
    void a_slash_timestamp_without_seconds_is_a_timestamp() throws Exception {
        Loaded l = load("flights.csv", csv("date,delay", 2000, i -> "2001/01/" + String.format("%02d", 1 + i % 28) + " "
                + String.format("%02d:%02d", i % 24, i % 60) + "," + (i % 50 - 10)));
        assertThat(type(l.ds(), "flights", "date")).isEqualTo("TIMESTAMP");
        assertThat(l.report().lines()).contains("flights.date: timestamp (2000 values in YYYY/MM/DD HH:MM)");
        assertThat(scalar(l.ds(), "SELECT CAST(date AS VARCHAR) FROM flights WHERE id = 1")).isEqualTo("2001-01-02 01:01:00");
    }

    @Test
    void iso_timestamps_in_utc_in_a_json_file_are_timestamps() throws Exception {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 24; i++) {
            json.append(i == 0 ? "" : ",").append("{\"series\":\"Finance\",\"rate\":").append(i % 7)
                    .append(",\"date\":\"20").append(String.format("%02d", i / 12)).append('-')
                    .append(String.format("%02d", 1 + i % 12)).append("-01T08:00:00.000Z\"}");
        }
        Loaded l = load("unemployment.json", json.append("]").toString());
        assertThat(type(l.ds(), "unemployment", "date")).isEqualTo("TIMESTAMP");
        assertThat(l.report().lines()).contains("unemployment.date: timestamp (24 values in UTC YYYY-MM-DDTHH:MM:SS)");
        assertThat(scalar(l.ds(), "SELECT CAST(max(date) AS VARCHAR) FROM unemployment")).isEqualTo("2001-12-01 08:00:00");
    }

    @Test
    void dates_in_the_future_and_before_1900_are_flagged_in_the_load_report() throws Exception {
        Loaded l = load("films.csv", csv("released", 100, i -> i == 7 ? "Mar 03 2046" : i == 8 ? "Jan 01 1850"
                : MONTHS[i % 12] + " 01 1990"));
        assertThat(type(l.ds(), "films", "released")).isEqualTo("DATE");
        assertThat(l.report().notes()).contains("films.released: 1 date is in the future (after " + LocalDate.now()
                + "), the latest 2046-03-03: errors in the source, unless they are planned dates",
                "films.released: 1 date is before 1900, the earliest 1850-01-01: placeholders or errors in the source?");
    }

    @Test
    void an_ambiguous_day_month_order_is_not_guessed_the_report_gives_both_fixes() throws Exception {
        Loaded l = load("visits.csv", csv("day", 30, i -> String.format("%02d/%02d/2020", 1 + i % 12, 1 + i % 12)));
        assertThat(type(l.ds(), "visits", "day")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = l.report().keptText().get(0);
        assertThat(kept.formats()).containsExactly(Map.entry("DD/MM/YYYY or MM/DD/YYYY", 30L));
        assertThat(kept.fix()).isEqualTo("--types visits.day=date:%d/%m/%Y");
        assertThat(l.report().notes()).containsExactly("visits.day: no value shows whether the day or the month comes"
                + " first (e.g. '01/01/2020'); if the month does: --types visits.day=date:%m/%d/%Y");
    }

    @Test
    void a_value_that_shows_the_day_month_order_types_the_column_and_the_report_names_it() throws Exception {
        Loaded months = load("paid.csv", csv("on", 40, i -> i == 39 ? "12/31/2020" : String.format("%02d/02/2020", 1 + i % 12)));
        assertThat(type(months.ds(), "paid", "on")).isEqualTo("DATE");
        assertThat(months.report().lines()).contains(
                "paid.on: date (40 values in DD/MM/YYYY or MM/DD/YYYY, month first: '12/31/2020' shows it)");
        assertThat(scalar(months.ds(), "SELECT CAST(\"on\" AS VARCHAR) FROM paid WHERE id = 3")).isEqualTo("2020-04-02");

        Loaded days = load("sent.csv", csv("at", 40, i -> (i == 0 ? "13" : "01") + "/" + String.format("%02d", 1 + i % 12)
                + "/2020 10:30"));
        assertThat(type(days.ds(), "sent", "at")).isEqualTo("TIMESTAMP");
        assertThat(days.report().lines()).anySatisfy(line -> assertThat(line).startsWith("sent.at: timestamp (40 values in")
                .endsWith("day first: '13/01/2020 10:30' shows it)"));
    }

    @Test
    void two_digit_years_stay_text_and_the_report_states_the_century_rule() throws Exception {
        Loaded l = load("orders.csv", csv("placed", 20, i -> "03/" + String.format("%02d", 1 + i) + "/98"));
        assertThat(type(l.ds(), "orders", "placed")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = l.report().keptText().get(0);
        assertThat(kept.formats()).containsExactly(Map.entry("NN/NN/YY (two-digit year)", 20L));
        assertThat(kept.fix()).isEqualTo("--types orders.placed=date:%m/%d/%y");
        assertThat(l.report().notes()).singleElement().asString().contains("two-digit years ('03/01/98') stay text")
                .contains("00-68 as 2000-2068 and 69-99 as 1969-1999");
    }

    @Test
    void an_impossible_date_keeps_the_column_text_and_the_report_shows_it() throws Exception {
        Loaded l = load("births.csv", csv("born", 10, i -> i == 4 ? "Feb 30 2001" : String.format("Feb %02d 2001", 1 + i)));
        assertThat(type(l.ds(), "births", "born")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = l.report().keptText().get(0);
        assertThat(kept.formats()).containsExactly(Map.entry("Mon DD YYYY (1 not valid dates)", 10L));
        assertThat(kept.examples()).containsExactly("Feb 30 2001");
        assertThat(kept.fix()).isEqualTo("--types births.born=date:%b %d %Y|%B %d %Y|%b. %d %Y");
    }

    @Test
    void numbers_with_na_for_missing_are_numbers_and_the_report_says_so() throws Exception {
        Loaded l = load("weather.csv", csv("rain", 50, i -> i % 10 == 0 ? "NA" : i + ".5"));
        assertThat(type(l.ds(), "weather", "rain")).isEqualTo("DOUBLE");
        assertThat(l.report().lines()).contains("weather.rain: number (45 values like '1.5'; 5 values like 'NA' read as missing)");
        assertThat(scalar(l.ds(), "SELECT count(*) FROM weather WHERE rain IS NULL")).isEqualTo(5L);
    }

    @Test
    void a_column_of_mostly_numbers_left_as_text_is_listed_with_the_fix() throws Exception {
        Loaded l = load("sizes.csv", csv("weight", 20, i -> i == 3 ? "heavy" : String.valueOf(10 + i)));
        assertThat(type(l.ds(), "sizes", "weight")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = l.report().keptText().get(0);
        assertThat(kept.formats()).containsExactly(Map.entry("number with currency or thousands separators", 19L),
                Map.entry("other text", 1L));
        assertThat(kept.fix()).isEqualTo("--types sizes.weight=number");
    }

    @Test
    void digits_with_leading_zeros_are_codes_kept_as_text() throws Exception {
        Loaded l = load("zips.csv", csv("zip_code", 30, i -> i < 10 ? "0050" + i : String.valueOf(10000 + i)));
        assertThat(type(l.ds(), "zips", "zip_code")).isEqualTo("VARCHAR");
        assertThat(l.report().notes()).containsExactly("zips.zip_code: 10 values are digits with leading zeros (e.g."
                + " '00500'): codes, kept as text; --types zips.zip_code=number makes them numbers");
    }

    @Test
    void a_json_field_of_mostly_strings_is_text_even_when_some_values_are_numbers() throws Exception {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 100; i++) {
            json.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"Title\":")
                    .append(i % 11 == 0 ? "1776" : "\"Film " + i + "\"").append('}');
        }
        Loaded l = load("films.json", json.append(']').toString());
        assertThat(type(l.ds(), "films", "Title")).isEqualTo("VARCHAR");
        assertThat(l.report().lines()).contains("films.Title: text (90 strings and 10 other values (numbers, true/false)"
                + " read as text)");
        assertThat(scalar(l.ds(), "SELECT count(*) FROM films WHERE Title = '1776'")).isEqualTo(10L);
    }

    @Test
    void a_json_field_holding_objects_stays_json() throws Exception {
        Loaded l = load("docs.json", "[{\"id\":1,\"meta\":{\"a\":1}},{\"id\":2,\"meta\":\"plain\"}]");
        assertThat(type(l.ds(), "docs", "meta")).isEqualTo("JSON");
        assertThat(l.report().converted()).isEmpty();
    }

    /** The real files of {@code ../shared/data/real/}, when present: dates that were text are typed, codes kept. */
    @Test
    void real_files_get_their_dates_typed_and_their_codes_kept() throws Exception {
        Path real = Path.of("..", "shared", "data", "real");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(real),
                "skipped: ../shared/data/real/ (the real public files) is absent");
        List<Path> files = List.of(real.resolve("political-contributions.json"), real.resolve("zipcodes.csv"),
                real.resolve("co2-concentration.csv"));
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        Dataset ds = store.ensure("real", new FileLoader(files), Progress.NONE);
        assertThat(type(ds, "political_contributions", "Coverage_End_Date")).isEqualTo("DATE");
        assertThat(type(ds, "zipcodes", "zip_code")).isEqualTo("VARCHAR");
        assertThat(type(ds, "co2_concentration", "Date")).isEqualTo("DATE");
        assertThat(store.loadReport("real").lines()).anySatisfy(line -> assertThat(line)
                .startsWith("political_contributions.Coverage_End_Date: date (58 values in DD/MM/YYYY or MM/DD/YYYY, month first"));
        assertThat(scalar(ds, "SELECT count(*) FROM zipcodes WHERE zip_code = '00501'")).isEqualTo(1L);
    }

    @Test
    void a_geojson_collection_is_one_row_per_feature_with_its_properties_and_point_coordinates() throws Exception {
        Loaded l = load("quakes.json", """
                {"type": "FeatureCollection", "metadata": {"count": 3}, "features": [
                 {"type": "Feature", "properties": {"mag": 2.5, "place": "4km W of Castaic, CA", "type": "earthquake",
                  "time": 1517966773840}, "geometry": {"type": "Point", "coordinates": [-118.667, 34.494, 26.49]}, "id": "ci1"},
                 {"type": "Feature", "properties": {"mag": 4.1, "place": "Alaska Peninsula", "type": "earthquake",
                  "time": 1517966037750}, "geometry": {"type": "Point", "coordinates": [-156.1, 57.2, 10.0]}, "id": "ak2"},
                 {"type": "Feature", "properties": {"mag": null, "place": "Nevada", "type": "quarry blast",
                  "time": 1517900000000}, "geometry": {"type": "Point", "coordinates": [-117.0, 38.0, 0.0]}, "id": "nn3"}]}
                """);
        assertThat(scalar(l.ds(), "SELECT count(*) FROM quakes")).isEqualTo(3L);
        assertThat(scalar(l.ds(), "SELECT place || ' ' || id || ' ' || latitude || ' ' || longitude || ' ' || elevation_or_depth"
                + " FROM quakes WHERE mag > 4")).isEqualTo("Alaska Peninsula ak2 57.2 -156.1 10.0");
        assertThat(type(l.ds(), "quakes", "time")).isEqualTo("TIMESTAMP");
        assertThat(scalar(l.ds(), "SELECT CAST(max(time) AS VARCHAR) FROM quakes")).isEqualTo("2018-02-07 01:26:13.84");
        assertThat(l.report().lines()).contains("quakes.time: timestamp (3 values as milliseconds since 1970-01-01, read as UTC)")
                .anyMatch(s -> s.startsWith("quakes: a GeoJSON FeatureCollection, read as one row per feature"));
    }

    @Test
    void geojson_features_that_are_not_all_points_keep_their_geometry_as_json() throws Exception {
        Loaded l = load("areas.json", """
                {"type": "FeatureCollection", "features": [
                 {"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Point", "coordinates": [1.0, 2.0]}},
                 {"type": "Feature", "properties": {"name": "b"}, "geometry": {"type": "LineString", "coordinates": [[1.0, 2.0], [3.0, 4.0]]}}]}
                """);
        assertThat(type(l.ds(), "areas", "geometry")).isEqualTo("JSON");
        assertThat(scalar(l.ds(), "SELECT geometry->>'type' FROM areas WHERE name = 'b'")).isEqualTo("LineString");
    }

    @Test
    void whole_numbers_are_epoch_times_only_when_the_name_and_every_value_say_so() throws Exception {
        Loaded l = load("log.csv", "id,created_at,updated,time,count,date\n"
                + "1,1517966773,1517966773840,1200,1517966773840,20150131\n2,1517966000,1517966000000,1300,5,20150201\n");
        assertThat(type(l.ds(), "log", "created_at")).isEqualTo("TIMESTAMP");
        assertThat(scalar(l.ds(), "SELECT CAST(created_at AS VARCHAR) FROM log WHERE id = 1")).isEqualTo("2018-02-07 01:26:13");
        assertThat(type(l.ds(), "log", "updated")).isEqualTo("TIMESTAMP");
        assertThat(l.report().lines()).contains("log.created_at: timestamp (2 values as seconds since 1970-01-01, read as UTC)");
        assertThat(type(l.ds(), "log", "time")).isEqualTo("BIGINT"); // 12:00 written as a number: no epoch
        assertThat(type(l.ds(), "log", "count")).isEqualTo("BIGINT"); // no time word in the name
        assertThat(type(l.ds(), "log", "date")).isEqualTo("BIGINT"); // YYYYMMDD numbers are not seconds since 1970
    }
}
