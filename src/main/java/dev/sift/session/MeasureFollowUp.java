package dev.sift.session;

import dev.sift.data.ColumnInfo;
import dev.sift.data.TableInfo;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Patterns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A follow-up that names another number column, with or without an aggregate ("the average weight instead", "what about
 * acceleration?", "and the maximum mileage?"): the question before, written again with that column in place of the one
 * it measured (and the aggregate, when one is said right before it), so the thread stays a plain question each turn.
 * Columns are found by the phrases people call them ({@link NameWords#columnPhrases}); a follow-up this cannot rewrite is
 * merged as before, and the offline parser lets the follow-up's own words replace the earlier measure.
 */
final class MeasureFollowUp {
    private static final Pattern AGGREGATE = Patterns.ALL.get("follow_up.measure");
    private static final Pattern NUMBER_TYPE = Pattern.compile("(?i).*(INT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC).*");

    private MeasureFollowUp() { }

    /** The question before with the follow-up's column ({@code said}, its words alone) measured instead, or empty. */
    static Optional<String> swapped(String stem, String said, List<TableInfo> tables) {
        String x = said.replaceFirst("(?i)^the\\s+", "").trim();
        Matcher agg = AGGREGATE.matcher(x);
        String newAgg = null;
        if (agg.lookingAt()) {
            newAgg = agg.group().toLowerCase(Locale.ROOT);
            x = x.substring(agg.end()).replaceFirst("(?i)^\\s*(of\\s+)?(the\\s+)?", "").trim();
        }
        Map<String, String> phrases = numberPhrases(tables);
        String column = phrases.get(x.toLowerCase(Locale.ROOT));
        if (column == null) {
            return Optional.empty();
        }
        int[] mention = null;
        String named = null;
        for (Map.Entry<String, String> p : phrases.entrySet()) {
            Matcher m = Pattern.compile("(?i)\\b" + Pattern.quote(p.getKey()) + "\\b").matcher(stem);
            while (m.find()) {
                if (named != null && !named.equals(p.getValue()) && !overlaps(mention, m)) {
                    return Optional.empty(); // two columns named before: which one the follow-up replaces is not said
                }
                if (mention == null || m.end() - m.start() > mention[1] - mention[0]) {
                    mention = new int[] {m.start(), m.end()};
                    named = p.getValue();
                }
            }
        }
        if (mention == null || named.equals(column)) {
            return Optional.empty();
        }
        String before = stem.substring(0, mention[0]);
        if (newAgg != null) {
            Matcher last = Pattern.compile("(?i)\\b(" + AGGREGATE.pattern().replaceFirst("^\\(\\?i\\)", "") + ")\\s+(?:the\\s+)?$")
                    .matcher(before);
            if (!last.find()) {
                return Optional.empty(); // no aggregate right before the column: where the new one goes is not clear
            }
            before = before.substring(0, last.start()) + newAgg + " ";
        }
        return Optional.of(before + x + stem.substring(mention[1]));
    }

    private static boolean overlaps(int[] a, Matcher m) {
        return m.start() < a[1] && a[0] < m.end();
    }

    /** Each phrase of a number column of the tables, lower case, and the column it names. */
    private static Map<String, String> numberPhrases(List<TableInfo> tables) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> twice = new ArrayList<>();
        for (TableInfo t : tables) {
            for (ColumnInfo c : t.columns()) {
                if (!NUMBER_TYPE.matcher(c.type()).matches()) {
                    continue;
                }
                List<String> said = new ArrayList<>(NameWords.columnPhrases(c.name()));
                said.add(c.name().toLowerCase(Locale.ROOT));
                for (String p : said) {
                    String before = out.putIfAbsent(p.toLowerCase(Locale.ROOT), t.name() + "." + c.name());
                    if (before != null && !before.equals(t.name() + "." + c.name())) {
                        twice.add(p.toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        twice.forEach(out::remove); // a phrase of two columns names neither here
        return out;
    }
}
