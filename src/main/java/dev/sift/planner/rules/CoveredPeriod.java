package dev.sift.planner.rules;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "This week", "the past week", "of the week" said of data that spans no more than a week (a feed of the past week's
 * earthquakes) mean every row: the words are dropped, with a line of "Read as" giving the dates the data runs between.
 * Where the data spans more, the words stay and are asked about; they are never read as a week of today's calendar.
 */
public final class CoveredPeriod {
    private static final Pattern SAID = Pattern.compile(
            "(?i)\\s*,?\\s*\\b(?:(?:in|during|over|for)\\s+)?(?:this|the\\s+past|this\\s+past|the\\s+last|(?<!(?:day|week|month|quarter|hour|time)\\s)of\\s+the)\\s+(week|month|year)\\b");
    /** The longest span, in days, the data may have for each word. */
    private static final java.util.Map<String, Integer> DAYS = java.util.Map.of("week", 8, "month", 31, "year", 366);

    /** A question with its covered period dropped, and the reading that says so. */
    public record Read(String question, String reading) { }

    private CoveredPeriod() { }

    /** {@code question} without a period its one table's one timestamp column fits in; empty when there is none to drop. */
    public static Optional<Read> read(String question, Lexicon lexicon, Workspace ws) {
        Matcher m = SAID.matcher(question);
        List<String> tables = lexicon.graph().tables().stream().map(dev.sift.knowledge.KgEntry.Table::name).toList();
        if (!m.find() || tables.size() != 1) {
            return Optional.empty();
        }
        Optional<Sense.Attr> date = lexicon.dateColumn(tables.get(0));
        if (date.isEmpty()) {
            return Optional.empty();
        }
        String d = date.get().sql();
        try {
            QueryResult r = ws.trustedQuery("SELECT CAST(min(" + d + ") AS DATE), CAST(max(" + d + ") AS DATE), date_diff('day', min("
                    + d + "), max(" + d + ")) FROM " + tables.get(0), 1);
            List<Object> row = r.rows().get(0);
            if (!(row.get(2) instanceof Number span) || span.longValue() > DAYS.get(m.group(1).toLowerCase(java.util.Locale.ROOT))) {
                return Optional.empty();
            }
            String said = m.group().strip().replaceFirst("^,\\s*", "");
            return Optional.of(new Read(m.replaceFirst(""), "'" + said + "' → every row: " + date.get().name() + " runs from "
                    + row.get(0) + " to " + row.get(1)));
        } catch (QueryException e) {
            return Optional.empty();
        }
    }
}
