package dev.sift.text;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.data.Numbers;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A suggested chart for an answer that made none, chosen by the result's shape (2 to 50 rows, all of them kept):
 * a time series (years, months or dates, then a measure) → a line; a category and a measure → bars, largest first;
 * a share per category → bars in percent; two numeric columns → a scatter. Identifiers are never a measure, and
 * nothing is suggested for shapes that would mislead (one row, several labels, a truncated result). Axis titles
 * come from {@code title}, which names a result column for people (the knowledge graph's labels).
 */
public final class AutoChart {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}(-\\d{2}([ T].*)?)?");
    static final int MAX_ROWS = 50;

    private AutoChart() { }

    /** The chart of {@code e} with its columns' own names as titles. */
    public static Optional<ObjectNode> of(Evidence e) {
        return of(e, c -> c);
    }

    public static Optional<ObjectNode> of(Evidence e, UnaryOperator<String> title) {
        if (e.columns().size() < 2 || e.rows().size() < 2 || e.rows().size() > MAX_ROWS || e.rowCount() != e.rows().size()) {
            return Optional.empty();
        }
        List<Numbers.Kind> kinds = EvidenceText.kinds(e);
        int x = 0;
        Numbers.Kind xk = kinds.get(0);
        int y = measure(kinds);
        if (y < 0) {
            return Optional.empty();
        }
        boolean dates = xk == Numbers.Kind.TEXT && e.rows().stream().allMatch(r -> r.get(0) != null && DATE.matcher(r.get(0).toString()).matches());
        if (xk == Numbers.Kind.YEAR || dates) {
            return Optional.of(spec(e, x, y, kinds.get(y), dates ? "temporal" : "ordinal", "line", title));
        }
        boolean labels = xk == Numbers.Kind.TEXT || xk == Numbers.Kind.ID;
        long textColumns = kinds.stream().filter(k -> k == Numbers.Kind.TEXT).count();
        if (labels && textColumns <= 1 && e.columns().size() <= 3) {
            return Optional.of(spec(e, x, y, kinds.get(y), "nominal", "bar", title));
        }
        if (e.columns().size() == 2 && numeric(xk) && numeric(kinds.get(1)) && e.rows().size() >= 3) {
            return Optional.of(spec(e, 0, 1, kinds.get(1), "quantitative", "scatter", title));
        }
        return Optional.empty();
    }

    /** The first measure after the first column: a count, amount, rate or other number (never an id or a year). */
    private static int measure(List<Numbers.Kind> kinds) {
        for (int i = 1; i < kinds.size(); i++) {
            Numbers.Kind k = kinds.get(i);
            if (k == Numbers.Kind.COUNT || k == Numbers.Kind.AMOUNT || k == Numbers.Kind.RATE || k == Numbers.Kind.NUMBER) {
                return i;
            }
        }
        return -1;
    }

    private static boolean numeric(Numbers.Kind k) {
        return k == Numbers.Kind.COUNT || k == Numbers.Kind.AMOUNT || k == Numbers.Kind.NUMBER || k == Numbers.Kind.RATE;
    }

    private static ObjectNode spec(Evidence e, int x, int y, Numbers.Kind yKind, String xType, String kind,
                                   UnaryOperator<String> title) {
        String xName = e.columns().get(x);
        String yName = e.columns().get(y);
        boolean rate = yKind == Numbers.Kind.RATE;
        ObjectNode spec = JSON.createObjectNode();
        spec.put("$schema", ChartSpec.SCHEMA);
        String yTitle = title.apply(yName) + (rate ? " (%)" : "");
        String xTitle = title.apply(xName);
        spec.put("title", yTitle + (kind.equals("scatter") ? " vs " : " by ") + xTitle.toLowerCase(java.util.Locale.ROOT));
        spec.put("width", "container");
        spec.put("height", 260);
        ArrayNode values = spec.putObject("data").putArray("values");
        for (List<Object> row : e.rows()) {
            ObjectNode o = values.addObject();
            o.set(xName, JSON.valueToTree(xType.equals("quantitative") || row.get(x) == null ? row.get(x) : row.get(x).toString()));
            o.set(yName, JSON.valueToTree(row.get(y)));
        }
        ObjectNode mark = spec.putObject("mark").put("type", kind.equals("scatter") ? "point" : kind).put("tooltip", true);
        if (kind.equals("line")) {
            mark.put("point", true);
        }
        ObjectNode enc = spec.putObject("encoding");
        ObjectNode fx = enc.putObject("x").put("field", xName).put("type", xType).put("title", xTitle);
        ObjectNode axis = fx.putObject("axis");
        if (kind.equals("bar")) {
            fx.put("sort", "-y");
            axis.put("labelAngle", e.rows().size() > 12 ? -45 : 0);
        } else if (xType.equals("ordinal")) {
            axis.put("labelAngle", 0);
        }
        ObjectNode fy = enc.putObject("y").put("field", yName).put("type", "quantitative").put("title", yTitle);
        if (rate) {
            fy.putObject("axis").put("format", ".0%");
        }
        ArrayNode tooltip = enc.putArray("tooltip");
        tooltip.addObject().put("field", xName).put("type", xType).put("title", xTitle);
        tooltip.addObject().put("field", yName).put("type", "quantitative").put("title", yTitle)
                .put("format", rate ? ".2%" : yKind == Numbers.Kind.COUNT ? ",d" : ",.2~f");
        return spec;
    }
}
