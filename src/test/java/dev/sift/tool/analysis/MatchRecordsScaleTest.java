package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Sql;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * match_records on 10,000 × 10,000 generated company names, each right name a variant of one left name (a typo,
 * another legal suffix, case, a '#', accents, words swapped): the time it takes (printed; docs/beyond-sql.md
 * gives the figure) and how many variants find their original.
 */
class MatchRecordsScaleTest {
    static final int N = 10_000;
    private static final String[] SYLLABLES = {"ka", "lo", "mer", "tin", "sa", "vor", "el", "dri", "pan", "qu", "ro",
        "bel", "stan", "fi", "gor", "ne", "zu", "mar", "ti", "cor", "len", "ha", "wes", "ox", "bri", "dal", "um", "sen"};
    private static final String[] SUFFIXES = {"Inc.", "Corp", "Ltd", "GmbH", "LLC", "Co.", "", "Group", "Holdings",
        "Systems", "Partners", "Labs"};

    private static String word(Random rnd) {
        StringBuilder w = new StringBuilder();
        for (int i = 0, n = 2 + rnd.nextInt(2); i < n; i++) {
            w.append(SYLLABLES[rnd.nextInt(SYLLABLES.length)]);
        }
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    static String variant(String name, Random rnd) {
        String[] words = name.split(" ");
        switch (rnd.nextInt(6)) {
            case 0 -> { // swap two neighbouring letters inside the first word
                char[] c = words[0].toCharArray();
                int i = 1 + rnd.nextInt(Math.max(1, c.length - 2));
                char t = c[i];
                c[i] = c[i - 1 + (i == c.length - 1 ? 0 : 2)];
                c[i - 1 + (i == c.length - 1 ? 0 : 2)] = t;
                words[0] = new String(c);
                return String.join(" ", words);
            }
            case 1 -> {
                return name.replaceAll(" (Inc\\.|Corp|Ltd|GmbH|LLC|Co\\.)$", "") + " Limited";
            }
            case 2 -> {
                return name.toUpperCase(java.util.Locale.ROOT);
            }
            case 3 -> {
                return "# " + name;
            }
            case 4 -> {
                return name.replaceFirst("a", "á").replaceFirst("e", "é");
            }
            default -> {
                return words.length > 1 ? words[1] + ", " + words[0] + (words.length > 2 ? " " + words[2] : "") : name;
            }
        }
    }

    @Test
    void ten_thousand_by_ten_thousand_names_match_in_seconds() throws Exception {
        Random rnd = new Random(7);
        Set<String> names = new LinkedHashSet<>();
        while (names.size() < N) {
            String suffix = SUFFIXES[rnd.nextInt(SUFFIXES.length)];
            names.add(word(rnd) + " " + word(rnd) + (suffix.isEmpty() ? "" : " " + suffix));
        }
        List<String> left = new ArrayList<>(names);
        List<String> right = new ArrayList<>();
        for (String n : left) {
            right.add(variant(n, rnd));
        }
        try (Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            ws.saveTrustedFrame("companies", values(left, "name"));
            ws.saveTrustedFrame("payees", values(right, "payee"));
            ws.saveTrustedFrame("truth", "SELECT * FROM (VALUES " + String.join(", ", pairs(right, left)) + ") t(payee, name)");
            ToolRegistry tools = Sift.defaultTools();
            long start = System.nanoTime();
            ToolResult r = tools.run(tools.prepare("match_records", new ObjectMapper().readTree(
                    "{\"source\":\"payees\",\"column\":\"payee\",\"other\":\"companies\",\"other_column\":\"name\"}"), ws),
                    new ToolContext(ws, null, "q"));
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(r.ok()).as(r.error()).isTrue();
            MatchRecords.Result res = (MatchRecords.Result) r.payload();
            long right_ = ((Number) ws.query("SELECT count(*) FROM frames.match_payees_companies m JOIN truth t"
                    + " ON t.payee = m.value AND t.name = m.match").scalar()).longValue();
            System.out.printf("match_records %d x %d: %.2f s, %d candidate pairs, %d matched, %d correct, %d ambiguous%n",
                    N, N, seconds, res.candidates(), res.matched(), right_, res.ambiguous());
            assertThat(res.candidates()).isLessThan((long) N * N / 200);
            assertThat(right_).isGreaterThan((long) (0.9 * N));
            assertThat(res.matched() - right_).isLessThan(N / 50);
            assertThat(seconds).isLessThan(30);
        }
    }

    private static List<String> pairs(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add("(" + Sql.quoteString(a.get(i)) + ", " + Sql.quoteString(b.get(i)) + ")");
        }
        return out;
    }

    private static String values(List<String> vs, String column) {
        List<String> rows = vs.stream().map(v -> "(" + Sql.quoteString(v) + ")").toList();
        return "SELECT * FROM (VALUES " + String.join(", ", rows) + ") t(" + column + ")";
    }
}
