package dev.sift.bench.datagen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.bench.suite.ResultMatcher;
import dev.sift.data.QueryResult;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.PromptTemplate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The optional round-trip stage of question generation: a model answers a question from its gold result alone,
 * with the prompt the product narrates results with ({@code prompts/summarize.md}), and the question is kept only
 * when the answer gives back every value of that result. A question a capable model cannot read back from the right
 * rows is ambiguous or badly worded, and would measure the wording rather than Sift.
 */
final class RoundTrip {
    /** Relative difference within which a number of the answer is the result's number (three significant digits). */
    static final double READ_BACK_TOLERANCE = 0.005;
    private static final Pattern NUMBER = Pattern.compile("-?\\d[\\d,]*(?:\\.\\d+)?");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmClient llm;

    RoundTrip(LlmClient llm) {
        this.llm = Objects.requireNonNull(llm, "llm");
    }

    /** Whether the model's answer to {@code question} from {@code gold} (and its query) gives back every value. */
    boolean readsBack(String question, String goldSql, QueryResult gold) throws LlmException {
        String prompt = PromptTemplate.load("summarize").render(Map.of("question", question, "evidence",
                evidence(goldSql, gold)));
        String answer = llm.complete(LlmRequest.of(LlmMessage.user(prompt)).withMaxTokens(600)).text();
        return givesBack(answer, gold);
    }

    /** The result as the product shows it to a model when it narrates: its query, columns, rows and row count. */
    private static String evidence(String sql, QueryResult gold) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sql", sql);
        m.put("columns", gold.columns().stream().map(QueryResult.Column::name).toList());
        m.put("rows", gold.rows());
        m.put("row_count", gold.rows().size());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(List.of(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a query result could not be written as JSON", e); // plain values: a bug
        }
    }

    /**
     * Whether {@code answer} holds every non-null value of the result: a number as a number of the answer within
     * {@link #READ_BACK_TOLERANCE} (thousands separators allowed), anything else as its text, a whole word or
     * phrase, ignoring case (status "C" is not in "cannot").
     */
    static boolean givesBack(String answer, QueryResult gold) {
        List<Double> numbers = numbers(answer);
        String text = answer.toLowerCase(Locale.ROOT);
        for (List<Object> row : gold.rows()) {
            for (Object cell : row) {
                if (cell == null) {
                    continue;
                }
                java.math.BigDecimal number = cell instanceof String ? null : ResultMatcher.number(cell);
                Double value = number == null ? null : number.doubleValue();
                boolean found = value != null
                        ? numbers.stream().anyMatch(n -> close(n, value))
                        : Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(cell.toString().toLowerCase(Locale.ROOT))
                                + "(?![\\p{L}\\p{N}])").matcher(text).find();
                if (!found) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean close(double a, double b) {
        return a == b || Math.abs(a - b) <= READ_BACK_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
    }

    private static List<Double> numbers(String answer) {
        List<Double> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(answer);
        while (m.find()) {
            out.add(Double.parseDouble(m.group().replace(",", "")));
        }
        return out;
    }
}
