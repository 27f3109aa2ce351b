package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.TurnContext;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.FileLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Months, quarters and weekdays as groups of any date column, and answers honest about their groups: small groups,
 * first and last periods the data covers in part, rows a ranking leaves out for having no group; a follow-up that
 * swaps the measure or the aggregate; a value of two tables' columns chosen by the table the question names. Each
 * answer is checked against SQL written here on a generated file (real DuckDB), not against the planner's own SQL.
 */
class PeriodGroupsPlannerTest {
    private static final KnowledgeStore KNOWLEDGE = new KnowledgeStore();
    private static Workspace sales;
    private static Workspace travel;

    @BeforeAll
    static void open() throws Exception {
        StringBuilder s = new StringBuilder("sale_id,sale_date,make,price,quantity\n");
        String[] makes = {"Toyota", "Ford", "Honda"};
        int id = 0;
        // from 20 January 2023 to 10 June 2024: a first and a last month with data on fewer days than the others
        for (LocalDate d = LocalDate.of(2023, 1, 20); !d.isAfter(LocalDate.of(2024, 6, 10)); d = d.plusDays(1)) {
            for (int k = 0; k < 2; k++, id++) {
                s.append(id).append(',').append(d).append(',').append(makes[id % 3]).append(',').append(10 + (id * 37) % 41)
                        .append(".5,").append(1 + id % 5).append('\n');
            }
        }
        s.append(id++).append(",2023-05-05,Lexus,99.0,1\n").append(id++).append(",2023-05-06,Saab,5.0,2\n")
                .append(id).append(",2023-05-07,,7.0,2\n");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("sales.csv", s.toString());
        files.put("shipments.csv", "shipment_id,ordered_on,shipped_on,weight\n1,2024-01-03,2024-01-05,10\n"
                + "2,2024-02-10,2024-03-01,12\n3,2024-02-11,2024-02-12,7\n");
        sales = Workspace.open(TestDatasets.csv("sales", files), Workspace.Limits.defaults());
        Map<String, String> t = new LinkedHashMap<>();
        t.put("airports.csv", "iata,name,state\nIAH,Houston Intercontinental,TX\nDFW,Dallas Fort Worth,TX\n"
                + "SFO,San Francisco International,CA\nORD,Chicago OHare,IL\n");
        t.put("birdstrikes.csv", "strike_id,Airport Name,Origin State,Cost Repair\n1,Houston Intercontinental,Texas,100\n"
                + "2,Dallas Fort Worth,Texas,250\n3,Chicago OHare,Illinois,80\n4,San Francisco International,California,40\n"
                + "5,Dallas Fort Worth,Texas,60\n");
        travel = Workspace.open(TestDatasets.csv("travel", t), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        sales.close();
        travel.close();
    }

    private static AgentRun ask(Workspace ws, String q, TurnContext context) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).knowledge(KNOWLEDGE)
                .context(context).run(q);
    }

    /** The answer's rows equal the gold SQL's, in order, cell for cell (the answer may add columns). */
    private static AgentRun answers(Workspace ws, String question, String gold) throws Exception {
        return answers(ws, question, gold, TurnContext.NONE);
    }

    private static AgentRun answers(Workspace ws, String question, String gold, TurnContext context) throws Exception {
        AgentRun run = ask(ws, question, context);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        var last = run.evidence().get(run.evidence().size() - 1);
        var rows = last.rows().size() < last.rowCount() ? ws.query(last.sql()).rows() : last.rows(); // evidence keeps 50 rows
        var expected = ws.query(gold).rows();
        assertThat(rows).as(run.answer()).hasSameSizeAs(expected);
        for (int r = 0; r < expected.size(); r++) {
            assertThat(rows.get(r)).as(run.answer()).containsAll(expected.get(r));
        }
        return run;
    }

    private static AgentRun asksBack(Workspace ws, String question) throws Exception {
        AgentRun run = ask(ws, question, TurnContext.NONE);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.evidence()).isEmpty();
        return run;
    }

    @Test
    void months_quarters_and_weekdays_group_a_date_column() throws Exception {
        answers(sales, "How many sales per quarter?", "SELECT year(sale_date) || '-Q' || quarter(sale_date), count(*) FROM sales"
                + " GROUP BY 1 ORDER BY 1");
        answers(sales, "sales by month", "SELECT strftime(sale_date, '%Y-%m'), count(*) FROM sales GROUP BY 1 ORDER BY 1");
        AgentRun week = answers(sales, "Number of sales by day of the week", "SELECT dayname(sale_date), count(*) FROM sales"
                + " GROUP BY 1, isodow(sale_date) ORDER BY isodow(sale_date)");
        assertThat(week.evidence().get(0).rows().get(0).get(0)).isEqualTo("Monday"); // week order, not alphabetical
        answers(sales, "What is the monthly average price?", "SELECT strftime(sale_date, '%Y-%m'), avg(price) FROM sales GROUP BY 1 ORDER BY 1");
        AgentRun top = answers(sales, "Which weekday has the highest total quantity?", "SELECT dayname(sale_date), sum(quantity)"
                + " FROM sales GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        assertThat(top.answer()).startsWith("Weekday ");
    }

    @Test
    void months_of_one_year_are_named_in_calendar_order() throws Exception {
        AgentRun run = answers(sales, "total quantity per month in 2024", "SELECT monthname(sale_date), sum(quantity) FROM sales"
                + " WHERE year(sale_date) = 2024 GROUP BY 1, month(sale_date) ORDER BY month(sale_date)");
        assertThat(run.evidence().get(0).rows().stream().map(r -> r.get(0)).toList())
                .containsExactly("January", "February", "March", "April", "May", "June");
    }

    @Test
    void a_period_of_a_table_with_two_dates_is_asked_about_naming_them() throws Exception {
        AgentRun run = asksBack(sales, "How many shipments per month?");
        assertThat(run.answer()).contains("shipments.ordered_on, shipments.shipped_on").contains("by month of ordered_on");
        answers(sales, "How many shipments by month of shipped on?", "SELECT monthname(shipped_on), count(*) FROM shipments"
                + " GROUP BY 1, month(shipped_on) ORDER BY month(shipped_on)"); // one year: the months by name
    }

    @Test
    void first_and_last_periods_with_fewer_days_of_data_are_flagged() throws Exception {
        AgentRun run = ask(sales, "How many sales per month?", TurnContext.NONE);
        assertThat(run.answer()).contains("Note: the first month, 2023-01, has data on only 12 dates and the last, 2024-06, has"
                + " data on only 10 dates, against about 31 in the other months");
        AgentRun years = ask(sales, "average price per year", TurnContext.NONE);
        assertThat(years.answer()).contains("the last year, 2024, has data on only 162 dates, against about 346 in the other year");
        AgentRun quarters = ask(sales, "How many sales per quarter in 2023?", TurnContext.NONE);
        assertThat(quarters.answer()).contains("the first quarter, Q1, has data on only 71 dates").doesNotContain("the last");
        assertThat(ask(sales, "Number of sales by weekday", TurnContext.NONE).answer()).doesNotContain("Note:"); // no timeline
    }

    @Test
    void small_groups_and_rows_with_no_group_are_said() throws Exception {
        AgentRun avg = answers(sales, "What is the average price by make?", "SELECT make, avg(price) FROM sales GROUP BY 1 ORDER BY 1");
        assertThat(avg.answer()).contains("Note: small groups — make Lexus averages over only 1 row; Saab over only 1 row.");
        AgentRun top = answers(sales, "Which make has the highest average price?", "SELECT make, avg(price) FROM sales"
                + " WHERE make IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(top.answer()).contains("Make Lexus has the highest average price: 99.")
                .contains("Note: make Lexus averages over only 1 row, too few to be typical.")
                .contains("has no make and is left out of the ranking.");
        AgentRun total = ask(sales, "What is the total quantity by make?", TurnContext.NONE);
        assertThat(total.answer()).doesNotContain("Note:"); // a total over one row is no small-sample figure
    }

    @Test
    void a_follow_up_swaps_the_measure_or_the_aggregate_of_the_question_before() throws Exception {
        answers(sales, "What is the average price by make, quantity?", "SELECT make, avg(quantity) FROM sales GROUP BY 1 ORDER BY 1",
                new TurnContext("refine", "what about quantity?", List.of(), List.of()));
        AgentRun max = answers(sales, "What is the average price by make, the maximum quantity?", "SELECT make, max(quantity)"
                + " FROM sales GROUP BY 1 ORDER BY 1", new TurnContext("refine", "the maximum quantity instead", List.of(), List.of()));
        assertThat(max.answer()).contains("sales.quantity replaces sales.price of the earlier turn")
                .contains("'maximum' replaces 'average' of the earlier turn");
        answers(sales, "Which make has the highest average price, quantity?", "SELECT make, avg(quantity) FROM sales"
                + " WHERE make IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
                new TurnContext("refine", "what about quantity?", List.of(), List.of()));
        asksBack(sales, "What is the average price by make, quantity?"); // not a follow-up: two measures, asked about
        AgentRun sameYear = answers(sales, "How many Toyota sales were there in 2023, Ford that year?",
                "SELECT count(*) FROM sales WHERE make = 'Ford' AND year(sale_date) = 2023",
                new TurnContext("refine", "what about Ford that year?", List.of(), List.of()));
        assertThat(sameYear.answer()).contains("'that year' read as the year the question names (2023)");
        asksBack(sales, "How many Ford sales were there that year?"); // no year named: "that year" is not known
    }

    @Test
    void a_value_of_two_tables_is_read_in_the_table_the_question_names_or_asked_about() throws Exception {
        AgentRun airports = answers(travel, "How many airports are in Texas?", "SELECT count(*) FROM airports WHERE state = 'TX'");
        assertThat(airports.answer()).contains("of airports here, the table the question names");
        answers(travel, "How many bird strikes were in Texas?", "SELECT count(*) FROM birdstrikes WHERE \"Origin State\" = 'Texas'");
        answers(travel, "What is the total repair cost in Texas?", "SELECT sum(\"Cost Repair\") FROM birdstrikes"
                + " WHERE \"Origin State\" = 'Texas'");
        AgentRun neither = asksBack(travel, "How many are in Texas?");
        assertThat(neither.answer()).contains("say which table you mean (e.g. 'birdstrikes in Texas' or 'airports in Texas')");
    }

    @Test
    void a_real_monthly_series_by_year_says_its_first_and_last_years_are_partial(@TempDir Path home) throws Exception {
        Path co2 = Path.of("..", "shared", "data", "real", "co2-concentration.csv");
        Assumptions.assumeTrue(Files.isRegularFile(co2), "needs ../shared/data/real/co2-concentration.csv (the shared real"
                + " data); skipped");
        Dataset d = new DatasetStore(home).ensure("co2", new FileLoader(List.of(co2)), Progress.NONE);
        try (Workspace ws = Workspace.open(d, Workspace.Limits.defaults())) {
            AgentRun run = answers(ws, "What is the average adjusted CO2 per year?", "SELECT year(Date), avg(\"adjusted CO2\")"
                    + " FROM co2_concentration GROUP BY 1 ORDER BY 1");
            // monthly readings from March 1958 (two months missing) to April 2020: eight in the first year, four in the last
            assertThat(run.answer()).contains("Note: the first year, 1958, has data on only 8 dates and the last, 2020, has data"
                    + " on only 4 dates, against about 12 in the other years: they cover only part of a year.")
                    .doesNotContain("small groups");
            answers(ws, "average adjusted CO2 per quarter in 2019", "SELECT 'Q' || quarter(Date), avg(\"adjusted CO2\")"
                    + " FROM co2_concentration WHERE year(Date) = 2019 GROUP BY 1 ORDER BY 1");
        }
    }
}
