package dev.sift.planner.rules;

import dev.sift.knowledge.Patterns;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A grouped result asked in an order ("average magnitude per network, highest first", "rank the species by their average
 * habitat", "number of candidates per state in descending order"): every group, ranked by its figure. The order phrase
 * is reworded to the word "descending" or "ascending" before the question is read ({@link #reworded}); once the question
 * is parsed as a grouped count or aggregate, that word makes it a ranking of all its groups ({@link #ranked}).
 */
final class RankedOrder {
    private static final Pattern DESCENDING = Patterns.ALL.get("reword.order_descending");
    private static final Pattern ASCENDING = Patterns.ALL.get("reword.order_ascending");
    private static final Pattern RANK_BY = Patterns.ALL.get("reword.rank_by");

    private RankedOrder() { }

    /** The question with its order phrase as one word, appended; {@code said} gets what was read. */
    static String reworded(String question, StringBuilder said) {
        String q = question;
        String direction = null;
        for (Pattern p : List.of(DESCENDING, ASCENDING)) {
            Matcher m = p.matcher(q);
            if (direction == null && m.find()) {
                direction = p == DESCENDING ? "descending" : "ascending";
                said.append(said.length() > 0 ? "; " : "").append("'").append(m.group().replaceFirst("^[\\s,]+", ""))
                        .append("' read as ").append(direction).append(" order");
                q = q.substring(0, m.start()) + q.substring(m.end());
            }
        }
        Matcher rank = RANK_BY.matcher(q);
        if (rank.matches()) {
            if (direction == null) {
                direction = rank.group(1).equalsIgnoreCase("rank") ? "descending" : "ascending";
            }
            String read = rank.group(3) + " by " + rank.group(2);
            said.append(said.length() > 0 ? "; " : "").append("'").append(rank.group().trim()).append("' read as '")
                    .append(read).append("', ").append(direction);
            return read + " " + direction + rank.group(4);
        }
        if (direction == null) {
            return question;
        }
        Matcher end = Pattern.compile("\\s*([?.!]*)\\s*$").matcher(q);
        end.find();
        return q.substring(0, end.start()) + " " + direction + end.group(1);
    }

    /**
     * The parse with every group of its grouped count or aggregate ranked, when the question says an order; a problem when
     * it says one and has no groups to put in it. The parse as it is otherwise.
     */
    static Parse ranked(Parse parse, List<Tok> toks) {
        java.util.Optional<Tok> word = toks.stream().filter(t -> t.plain() && t.is("descending", "ascending")).findFirst();
        if (word.isEmpty() || !(parse instanceof Parse.Parsed p)) {
            return parse;
        }
        QuerySpec s = p.spec();
        boolean descending = word.get().is("descending");
        if (s.shape() == QuerySpec.Shape.TOP_GROUPS || s.shape() == QuerySpec.Shape.TOP_ROWS) {
            return parse; // "the top 5 …, highest first": already in order
        }
        if ("range".equals(s.aggFn()) && s.group() == null && !descending) {
            return parse; // "the range of magnitudes, lowest to highest": the minimum, then the maximum
        }
        boolean grouped = s.group() != null && s.limit() == null && (s.shape() == QuerySpec.Shape.COUNT
                || s.shape() == QuerySpec.Shape.AGG && s.aggFn() != null && !"range".equals(s.aggFn()));
        if (!grouped) {
            return new Parse.Problem("I put groups in order by their figure, and this question has no groups to order; ask"
                    + " for a figure by a column (e.g. 'the average amount by region, highest first')", p.readings());
        }
        QuerySpec ranked = new QuerySpec(QuerySpec.Shape.TOP_GROUPS, s.subject(), s.shape() == QuerySpec.Shape.COUNT ? null
                : s.aggFn(), s.measure(), s.metric(), s.group(), s.filters(), s.links(), null, descending, s.share(),
                s.columns(), s.distinct());
        List<String> readings = new java.util.ArrayList<>(p.readings());
        readings.add("'" + word.get().text() + "' → every " + s.group().name() + " ranked, " + (descending ? "highest" : "lowest")
                + " first");
        return new Parse.Parsed(ranked, readings, p.toks());
    }
}
