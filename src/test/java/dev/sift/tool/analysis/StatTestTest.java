package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

/**
 * stat_test on hand-made frames: each statistic and p-value against a hand computation or against scipy 1.17
 * (the reference values were computed once with scipy.stats and are written here with the call that made them).
 */
class StatTestTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    private static Workspace ws;

    @BeforeAll
    static void frames() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        // 2 × 2 with all expected counts 25: chi2 = 4 × (5² / 25) = 4 by hand
        ws.saveFrame("square", cells(new String[] {"m", "f"}, new String[] {"yes", "no"}, new int[][] {{20, 30}, {30, 20}}));
        ws.saveFrame("wide", cells(new String[] {"a", "b"}, new String[] {"x", "y", "z"},
                new int[][] {{10, 20, 30}, {20, 25, 15}}));
        ws.saveFrame("sparse", cells(new String[] {"a", "b"}, new String[] {"x", "y"}, new int[][] {{1, 9}, {8, 2}}));
        ws.saveFrame("dice", "SELECT * FROM (SELECT 'a' AS face FROM range(18) UNION ALL SELECT 'b' FROM range(22)"
                + " UNION ALL SELECT 'c' FROM range(20) UNION ALL SELECT 'd' FROM range(40))");
        ws.saveFrame("heights", values("a", List.of(12.1, 14.3, 13.8, 15.2, 11.9, 16.4, 14.1, 13.3, 12.8, 15.9))
                + " UNION ALL " + values("b", List.of(10.2, 11.8, 12.5, 9.9, 13.1, 11.1, 10.7, 12.0))
                + " UNION ALL " + values("c", List.of(1.0, 2.0)));
        ws.saveFrame("ranks", values("x", List.of(1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 5.0, 7.0, 9.0, 10.0, 12.0))
                + " UNION ALL " + values("y", List.of(3.0, 3.0, 4.0, 6.0, 6.0, 8.0, 9.0, 11.0, 11.0, 13.0, 14.0)));
        ws.saveFrame("conv", "SELECT 'new' AS arm, i < 45 AS converted FROM range(100) t(i) UNION ALL"
                + " SELECT 'old', i < 30 FROM range(100) t(i)");
        ws.saveFrame("pairs", "SELECT i AS x, CASE WHEN i = 12 THEN 3 ELSE i * i END AS y, i % 2 AS odd"
                + " FROM range(1, 13) t(i)");
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static String cells(String[] rows, String[] cols, int[][] counts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < cols.length; j++) {
                b.append(b.length() == 0 ? "" : " UNION ALL ").append("SELECT '").append(rows[i]).append("' AS r, '")
                        .append(cols[j]).append("' AS c FROM range(").append(counts[i][j]).append(')');
            }
        }
        return "SELECT * FROM (" + b + ")";
    }

    private static String values(String group, List<Double> vs) {
        StringBuilder b = new StringBuilder("SELECT * FROM (VALUES ");
        for (int i = 0; i < vs.size(); i++) {
            b.append(i == 0 ? "" : ", ").append("('").append(group).append("', ").append(vs.get(i)).append(')');
        }
        return b.append(") v(g, v)").toString();
    }

    private static StatTest.Result run(String args) throws Exception {
        ToolResult r = TOOLS.run(TOOLS.prepare("stat_test", JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
        assertThat(r.ok()).as(r.error()).isTrue();
        return (StatTest.Result) r.payload();
    }

    /** The error the planner reads for a call the tool refuses. */
    private static String error(String args) throws Exception {
        ToolResult r = TOOLS.run(TOOLS.prepare("stat_test", JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
        assertThat(r.ok()).as("refused").isFalse();
        return r.error();
    }

    @Test
    void chi_square_of_a_two_by_two_table_matches_the_hand_computation() throws Exception {
        StatTest.Result r = run("{\"source\":\"square\",\"test\":\"chi_square\",\"columns\":[\"r\",\"c\"]}");
        assertThat(r.statistic()).isCloseTo(4.0, within(1e-12));
        assertThat(r.df()).isEqualTo(1.0);
        assertThat(r.pValue()).isCloseTo(0.0455002639, within(1e-9)); // P(chi2_1 > 4) = 2·(1 − Φ(2))
        assertThat(r.effect()).isCloseTo(Math.sqrt(4.0 / 100), within(1e-12)); // Cramér's V
        assertThat(r.n()).isEqualTo(100);
        assertThat(r.warnings()).isEmpty();
        assertThat(ws.query("SELECT p_value FROM frames.stat_chi_square_square").scalar()).isEqualTo(r.pValue());
    }

    @Test
    void chi_square_of_a_two_by_three_table_matches_scipy() throws Exception {
        // scipy.stats.chi2_contingency([[10,20,30],[20,25,15]], correction=False)
        StatTest.Result r = run("{\"source\":\"wide\",\"test\":\"chi-square\",\"columns\":[\"r\",\"c\"]}");
        assertThat(r.statistic()).isCloseTo(8.88888888888889, within(1e-9));
        assertThat(r.df()).isEqualTo(2.0);
        assertThat(r.pValue()).isCloseTo(0.011743628457021359, within(1e-9));
    }

    @Test
    void small_expected_counts_are_warned_about_and_a_filter_restricts_the_rows() throws Exception {
        StatTest.Result r = run("{\"source\":\"sparse\",\"test\":\"chi_square\",\"columns\":[\"r\",\"c\"]}");
        assertThat(r.warnings()).singleElement().asString().contains("2 of 4 cells have an expected count below 5");
        String summary = StatTest.summary(r, "chi-square test of independence");
        assertThat(summary).contains("Warning: 2 of 4 cells").contains("p = ");
        StatTest.Result some = run("{\"source\":\"wide\",\"test\":\"chi_square\",\"columns\":[\"r\",\"c\"],"
                + "\"filter\":\"c <> 'z'\"}");
        assertThat(some.n()).isEqualTo(75);
    }

    @Test
    void goodness_of_fit_against_equal_and_given_shares_matches_scipy() throws Exception {
        // scipy.stats.chisquare([18,22,20,40]) and chisquare([18,22,20,40], f_exp=[20,20,20,40])
        StatTest.Result equal = run("{\"source\":\"dice\",\"test\":\"goodness_of_fit\",\"columns\":[\"face\"]}");
        assertThat(equal.statistic()).isCloseTo(12.32, within(1e-9));
        assertThat(equal.pValue()).isCloseTo(0.006363629995195269, within(1e-9));
        assertThat(equal.df()).isEqualTo(3.0);
        StatTest.Result given = run("{\"source\":\"dice\",\"test\":\"goodness_of_fit\",\"columns\":[\"face\"],"
                + "\"expected\":{\"a\":0.2,\"b\":0.2,\"c\":0.2,\"d\":0.4}}");
        assertThat(given.statistic()).isCloseTo(0.4, within(1e-9));
        assertThat(given.pValue()).isCloseTo(0.9402424948393607, within(1e-9));
        assertThat(error("{\"source\":\"dice\",\"test\":\"goodness_of_fit\",\"columns\":[\"face\"],"
                + "\"expected\":{\"a\":0.5,\"b\":0.5}}")).contains("missing: c, d");
    }

    @Test
    void welch_t_matches_scipy_and_needs_two_groups_named_when_there_are_more() throws Exception {
        // scipy.stats.ttest_ind(a, b, equal_var=False)
        StatTest.Result r = run("{\"source\":\"heights\",\"test\":\"welch_t\",\"columns\":[\"v\"],\"group\":\"g\","
                + "\"groups\":[\"a\",\"b\"]}");
        assertThat(r.statistic()).isCloseTo(4.1065260868260305, within(1e-9));
        assertThat(r.df()).isCloseTo(15.935955443515478, within(1e-9));
        assertThat(r.pValue()).isCloseTo(0.0008314961471509771, within(1e-9));
        assertThat(r.warnings()).singleElement().asString().contains("fewer than 30");
        assertThat(error("{\"source\":\"heights\",\"test\":\"welch_t\",\"columns\":[\"v\"],\"group\":\"g\"}"))
                .contains("g has 3 values").contains("'groups'");
        assertThat(error("{\"source\":\"heights\",\"test\":\"welch_t\",\"columns\":[\"v\"],\"group\":\"g\","
                + "\"groups\":[\"a\",\"q\"]}")).contains("'q' is not a value of g");
    }

    @Test
    void mann_whitney_with_ties_matches_scipy_asymptotic() throws Exception {
        // scipy.stats.mannwhitneyu(x, y, method='asymptotic', use_continuity=True)
        StatTest.Result r = run("{\"source\":\"ranks\",\"test\":\"mann_whitney\",\"columns\":[\"v\"],\"group\":\"g\","
                + "\"groups\":[\"x\",\"y\"]}");
        assertThat(r.statistic()).isCloseTo(40.0, within(1e-9));
        assertThat(r.pValue()).isCloseTo(0.11537628096107773, within(1e-9));
        assertThat(r.effect()).isCloseTo(2 * 40.0 / (12 * 11) - 1, within(1e-12));
    }

    @Test
    void two_proportions_agree_with_the_chi_square_of_the_same_counts() throws Exception {
        StatTest.Result r = run("{\"source\":\"conv\",\"test\":\"two_proportion\",\"success\":\"converted\",\"group\":\"arm\","
                + "\"groups\":[\"new\",\"old\"]}");
        assertThat(r.statistic()).isCloseTo(2.1908902300206647, within(1e-9));
        assertThat(r.pValue()).isCloseTo(0.02845973691631055, within(1e-9));
        StatTest.Result chi = run("{\"source\":\"conv\",\"test\":\"chi_square\",\"columns\":[\"arm\",\"converted\"]}");
        assertThat(r.statistic() * r.statistic()).isCloseTo(chi.statistic(), within(1e-9)); // z² = chi2 on 2 × 2
        assertThat(error("{\"source\":\"conv\",\"test\":\"two_proportion\",\"group\":\"arm\"}")).contains("needs 'success'");
        assertThat(error("{\"source\":\"conv\",\"test\":\"two_proportion\",\"group\":\"arm\",\"success\":\"nope = 1\"}"))
                .contains("success condition does not work");
    }

    @Test
    void correlations_match_scipy_and_reject_text_columns() throws Exception {
        // scipy.stats.pearsonr / spearmanr on x = 1..12, y = x² but the last y = 3
        StatTest.Result pearson = run("{\"source\":\"pairs\",\"test\":\"pearson\",\"columns\":[\"x\",\"y\"]}");
        assertThat(pearson.statistic()).isCloseTo(0.6680909600277671, within(1e-9));
        assertThat(pearson.pValue()).isCloseTo(0.017568504660650842, within(1e-9));
        StatTest.Result spearman = run("{\"source\":\"pairs\",\"test\":\"spearman\",\"columns\":[\"x\",\"y\"]}");
        assertThat(spearman.statistic()).isCloseTo(0.6153846153846154, within(1e-9));
        assertThat(spearman.pValue()).isCloseTo(0.033169901090105904, within(1e-9));
        assertThat(error("{\"source\":\"dice\",\"test\":\"pearson\",\"columns\":[\"face\",\"face\"]}"))
                .contains("needs numeric columns; face is VARCHAR");
    }

    @Test
    void wrong_arguments_say_what_to_give() throws Exception {
        assertThat(error("{\"source\":\"pairs\",\"test\":\"chi_square\",\"columns\":[\"x\"]}"))
                .contains("chi_square needs 2 columns").contains("Columns of pairs: x, y, odd");
        assertThat(error("{\"source\":\"pairs\",\"test\":\"pearson\",\"columns\":[\"x\",\"y\"],\"filter\":\"x >\"}"))
                .contains("The filter does not work");
        Throwable t = catchThrowable(() -> TOOLS.prepare("stat_test", JSON.readTree("{\"source\":\"pairs\",\"test\":\"anova\"}"), ws));
        assertThat(t).hasMessageContaining("test must be one of chi_square, goodness_of_fit");
    }
}
