package dev.sift.planner.rules;

import dev.sift.knowledge.Patterns;

import java.util.List;
import java.util.regex.Matcher;

/**
 * Word orders the parser reads the same as its own ("In Prague, how many accounts are there?" is "how many accounts
 * are there in Prague?"; "account 16's loans" is "the loans of account 16"): the question is reworded before it is
 * read, and the answer's "Read as" line says so. A rewording only moves the user's words; the reading that follows
 * goes through every check a question in that order would.
 */
public final class Rewording {
    private Rewording() { }

    /** The question in the order the parser reads, and what was moved (empty when nothing was). */
    public record Reworded(String question, List<String> readings) { }

    /**
     * The question reworded; {@code rows} is the word for the dataset's rows ("records", or its one table's name), {@code when}
     * the period "when" can only mean ("year" for a table of years and no dates), or null.
     */
    public static Reworded of(String question, String rows, String when) {
        StringBuilder said = new StringBuilder();
        String q = RankedOrder.reworded(question, said);
        Matcher p = Patterns.ALL.get("reword.possessive_id").matcher(q);
        if (p.find()) {
            q = q.substring(0, p.start()) + "the " + p.group(3) + " of " + p.group(1) + " " + p.group(2) + q.substring(p.end());
            said.append("'").append(p.group()).append("' read as 'the ").append(p.group(3)).append(" of ").append(p.group(1))
                    .append(" ").append(p.group(2)).append("'");
        }
        Matcher down = Patterns.ALL.get("reword.break_down").matcher(q);
        Matcher apart = Patterns.ALL.get("reword.break_apart").matcher(q);
        if (down.find()) {
            said(said, down.group().trim(), "breakdown of");
            q = "Breakdown of " + q.substring(down.end());
        } else if (apart.find()) {
            said(said, apart.group().trim(), "breakdown of " + apart.group(1));
            q = "Breakdown of " + apart.group(1) + " " + q.substring(apart.end());
        }
        Matcher span = Patterns.ALL.get("reword.whole_span").matcher(q);
        if (span.find()) {
            said.append(said.length() > 0 ? "; " : "").append("'").append(span.group().replaceFirst("^[\\s,]+", ""))
                    .append("' read as no period (the whole of the data)");
            q = q.substring(0, span.start()) + q.substring(span.end());
        }
        Matcher same = Patterns.ALL.get("reword.same_period").matcher(q);
        Matcher year = Patterns.ALL.get("reword.named_year").matcher(q);
        if (same.find() && year.find()) { // "what about nuclear that year?" joined to "… in 2015"
            said.append(said.length() > 0 ? "; " : "").append("'").append(same.group().replaceFirst("^[\\s,]+", ""))
                    .append("' read as the year the question names (").append(year.group()).append(")");
            q = q.substring(0, same.start()) + q.substring(same.end());
        }
        Matcher m = Patterns.ALL.get("reword.leading_phrase").matcher(q);
        if (m.matches()) {
            q = m.group(2) + " " + m.group(1) + m.group(3);
            said.append(said.length() > 0 ? "; " : "").append("'").append(m.group(1)).append(", …' read at the end of the question");
        }
        Matcher how = Patterns.ALL.get("reword.how_adjective").matcher(q);
        if (how.matches() && !how.group(1).matches("(?i)many|much|often|long|far")) {
            List<String> attribute = dev.sift.knowledge.Thesaurus.attributesOf(how.group(1));
            if (attribute.size() == 1) {
                String read = "what " + attribute.get(0) + " " + how.group(2);
                said(said, "how " + how.group(1) + " " + how.group(2), read);
                q = read + how.group(3);
            }
        }
        q = wholeQuestions(q, said, when);
        Matcher whoAre = Patterns.ALL.get("reword.who_are_the").matcher(q);
        if (whoAre.matches() && !q.matches("(?i).*\\b\\p{L}+est\\b.*")) {
            said(said, q.trim(), "list the " + whoAre.group(1));
            q = "list the " + whoAre.group(1);
        }
        Matcher who = Patterns.ALL.get("reword.who_superlative").matcher(q);
        if (who.matches()) {
            String read = "which " + who.group(3) + " " + who.group(1) + " the " + who.group(2);
            said(said, q.trim(), read);
            q = read + who.group(4);
        }
        q = superlatives(q, said, rows);
        return new Reworded(q, said.length() == 0 ? List.of() : List.of(said.toString()));
    }

    /** The rewordings of a superlative: the period, the row or the value it picks, asked the way the parser ranks. */
    private static String superlatives(String question, StringBuilder said, String rows) {
        String q = question;
        Matcher period = Patterns.ALL.get("reword.period_superlative").matcher(q);
        if (period.matches()) {
            String read = "which " + period.group(1) + " had the " + period.group(3).toLowerCase(java.util.Locale.ROOT).replace("peak", "highest")
                    + " " + period.group(2); // "at its peak": the highest
            said(said, q.trim(), read);
            q = read + period.group(4);
        }
        Matcher single = Patterns.ALL.get("reword.single_period").matcher(q);
        if (single.matches()) {
            String most = single.group(1).toLowerCase(java.util.Locale.ROOT);
            boolean up = !most.matches("lowest|smallest|fewest|least|minimum");
            String per = single.group(3).toLowerCase(java.util.Locale.ROOT);
            String read = per.matches("year|month|quarter") // the figure of the top period's total, then its period
                    ? "what was the " + (up ? "maximum " : "minimum ") + per + "ly " + single.group(2)
                    : "which " + per + " had the " + most.replace("maximum", "highest").replace("minimum", "lowest") + " " + single.group(2);
            said(said, q.trim(), read);
            q = read + single.group(4);
        }
        for (String form : List.of("reword.and_which_period", "reword.which_then_period")) {
            Matcher pair = Patterns.ALL.get(form).matcher(q);
            if (pair.matches()) { // the second column asked after the ranking, or between commas: asked beside the first
                boolean after = form.endsWith("and_which_period");
                String read = pair.group(1) + " " + pair.group(2) + " and " + pair.group(after ? 4 : 3) + " "
                        + (after ? pair.group(3) + pair.group(5) : pair.group(4));
                said(said, q.trim(), read);
                q = read;
            }
        }
        Matcher forWhat = Patterns.ALL.get("reword.period_for").matcher(q);
        if (forWhat.matches()) { // "what was the worst year for wildfire deaths"
            String read = "which " + forWhat.group(2) + " had the " + forWhat.group(1).toLowerCase(java.util.Locale.ROOT) + " "
                    + forWhat.group(3);
            said(said, q.trim(), read);
            q = read + forWhat.group(4);
        }
        Matcher then = Patterns.ALL.get("reword.extreme_then_which").matcher(q);
        if (then.matches()) {
            String read = "which " + then.group(3) + " had the " + then.group(1).toLowerCase(java.util.Locale.ROOT) + " " + then.group(2);
            said(said, q.trim(), read);
            q = read + then.group(4);
        }
        Matcher c = Patterns.ALL.get("reword.most_common").matcher(q);
        Matcher last = Patterns.ALL.get("reword.common_last").matcher(q);
        boolean first = c.matches();
        if (first || last.matches()) {
            Matcher h = first ? c : last;
            String what = h.group(first ? 2 : 1);
            String most = h.group(first ? 1 : 2).equalsIgnoreCase("most") ? "most" : "fewest";
            String read = "which " + what + " has the " + most + " " + rows;
            said(said, q.trim(), read);
            q = read + h.group(3);
        }
        return q;
    }

    /**
     * Questions reworded whole: "When does the data start and end?" (the date range), "… and where did it happen?" (where
     * the row picked was), "In which year were there the most …?" and "In which year did the number of … peak?" (which year
     * had the most).
     */
    private static String wholeQuestions(String question, StringBuilder said, String period) {
        String q = question;
        if (Patterns.ALL.get("reword.data_span").matcher(q).matches()) {
            said(said, q.trim(), "what is the date range");
            return "what is the date range?";
        }
        Matcher there = Patterns.ALL.get("reword.period_there").matcher(q);
        if (there.matches() && (there.group(1) != null || period != null)) { // "when were there the most …": the one period the data has
            String read = "which " + (there.group(1) != null ? there.group(1) : period) + " had the " + there.group(2) + " " + there.group(3);
            said(said, q.trim(), read);
            return read + there.group(4);
        }
        Matcher rows = Patterns.ALL.get("reword.rows_then_columns").matcher(q);
        if (rows.matches()) {
            String read = "show the " + rows.group(2) + " of " + rows.group(1);
            said(said, q.trim(), read);
            return read + rows.group(3);
        }
        Matcher who = Patterns.ALL.get("reword.any_who").matcher(q);
        if (who.matches()) {
            String read = "which " + who.group(1);
            said(said, q.trim(), read);
            return read + who.group(2);
        }
        Matcher falls = Patterns.ALL.get("reword.period_falls").matcher(q);
        if (falls.matches() && (falls.group(2) != null) != (falls.group(4) != null)) { // "most" said once
            String read = "which " + falls.group(1) + " had the most " + falls.group(3);
            said(said, q.trim(), read);
            return read + falls.group(5);
        }
        Matcher peak = Patterns.ALL.get("reword.period_peak").matcher(q);
        if (peak.matches()) {
            String read = "which " + peak.group(1) + " had the " + (peak.group(3).startsWith("peak") ? "most " : "fewest ") + peak.group(2);
            said(said, q.trim(), read);
            return read + peak.group(4);
        }
        for (String form : List.of("reword.extreme_then_where", "reword.where_then_how")) {
            Matcher where = Patterns.ALL.get(form).matcher(q);
            if (where.matches()) {
                boolean when = q.trim().toLowerCase(java.util.Locale.ROOT).startsWith("when") // "when was …, and where": both, unless
                        && !where.group(1).matches("(?i).*\\b(recent|latest|newest|earliest|first|last)\\b.*"); // the row is a time's
                String read = !form.endsWith("where") ? where.group(1) : (when ? "where and when was the " : "where was the ") + where.group(1);
                said(said, q.trim(), read);
                q = read + where.group(2);
            }
        }
        return q;
    }

    private static void said(StringBuilder said, String from, String read) {
        said.append(said.length() > 0 ? "; " : "").append("'").append(from).append("' read as '").append(read).append("'");
    }
}
