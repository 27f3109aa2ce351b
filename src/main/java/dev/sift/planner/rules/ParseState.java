package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * What one parse has read so far, in typed fields: the subject table (the grain), the entity phrases hang off
 * (anchor), filters and the joins they need, the measure, metric, aggregate and grouping, and the ranking. The rules
 * of {@link SpecParser} fill it token by token; {@link ShapeRules} turns it into a {@link QuerySpec}.
 */
final class ParseState {
    final List<Tok> toks;
    final List<String> readings = new ArrayList<>();
    final List<String> unmapped = new ArrayList<>();
    /** Transaction verbs read as filler ("placed", "sold"), valid only if the question reads a fact table. */
    final List<String> verbs = new ArrayList<>();
    /** Verbs of a contest ("scored"), valid only if the question reads a table of contests ({@link ContestWords}). */
    final List<String> contestVerbs = new ArrayList<>();
    /** The sides of a contest the question named to settle a team ("home"; {@link ContestWords}). */
    final List<String> sides = new ArrayList<>();
    final List<QuerySpec.Filter> filters = new ArrayList<>();
    /** The token each filter was read at, in the order of {@link #filters}. */
    final List<Integer> filterAt = new ArrayList<>();
    /** The token being read. */
    int at;
    final List<QuerySpec.Link> links = new ArrayList<>();
    /** The ranking the question asks for, or null. */
    Ranking ranking;
    /** The table whose rows are counted, aggregated or listed. */
    String subject;
    /** Whether the subject so far is only the table of the value that opened the question ("Toys" in "Toys orders"). */
    boolean subjectByValue;
    /** The entity the next phrase hangs off ("loans of accounts in Prague": account). */
    String anchor;
    /** A join the question named ("live in"), pending until the table it leads to is read. */
    Sense.Via via;
    /** The date column a date phrase applies to ("opened" → account.date). */
    Sense.Attr dateColumn;
    Sense.Attr group;
    /** The period whose totals one average is taken over ("the average yearly generation"), or null. */
    Sense.Attr totalsPer;
    Sense.Attr measure;
    Tok measureTok;
    /** Whether the measure is a count of people said as "the number of" a value: a group's is its total, not its largest row. */
    boolean measureCounted;
    /** The direction a change verb asks for ("grow": up, "drop": down, "change": either), or null. */
    String change;
    KgEntry.Metric metric;
    /** sum, avg, median, min or max, from a plain aggregate word. */
    String agg;
    /** "by", "per", "each" read, waiting for what to group by. */
    boolean groupCue;
    /** "no" / "without" read, waiting for the related table. */
    boolean negate;
    /** "or" read after a value: the next value of the same column joins it ("in Compton or Watts"). */
    boolean orPending;
    /** Whether "more A or B" asked which of two values has more: one figure for each, as "compare" does. */
    boolean comparedValues;
    /** "not" read right before a value: the value's condition is negated. */
    boolean notValue;
    /** "at least 3" read before a table: a related-rows count, waiting for the table. */
    Sense.Compare related;
    /** The words and table of the last entity phrase ("loans that are running": running + loan). */
    List<String> entityWords;
    String entityTable;
    /** A token already read as part of the phrase before it ("more than 100000 inhabitants"). */
    int consumed = -1;
    /** Columns already read with the one before them ("sex" of "which job, sex and year had …"). */
    final java.util.Set<Integer> readWith = new java.util.HashSet<>();
    /** The tokens naming the columns asked for ({@link ColumnRules}); empty when the question asks for none. */
    final java.util.Set<Integer> head;
    /** Whether the question asks for the values of one row ("what is the region of client 3541"). */
    final boolean single;
    /** The columns asked for, in the question's order. */
    final List<Sense.Attr> columns = new ArrayList<>();

    /**
     * The words the person wrote, when the question is a follow-up merged into the turns before it ("what about Texas?"
     * after "… in California"), one entry per follow-up turn, oldest first: a value said in a later one replaces an
     * earlier turn's value of the same column or year. Null for a question of its own.
     */
    List<String> followUp;
    /** The tokens of words of the turn before that a follow-up's own words replaced ({@link MeasureSwap}). */
    final java.util.Set<Integer> replaced = new java.util.HashSet<>();
    /** An equality filter: the expression and its value. */
    private static final java.util.regex.Pattern MENTION = java.util.regex.Pattern.compile("^\\(?lower\\(([^()]+)\\) LIKE '");
    private static final java.util.regex.Pattern EQUALITY = java.util.regex.Pattern.compile("^(.+?) = ('[^']*'|-?\\d+(?:\\.\\d+)?)$");
    /** Words that say nothing of which value a token is ("in" of "in March 1997", "the" of "the ci network"). */
    private static final java.util.regex.Pattern LITTLE = java.util.regex.Pattern.compile(
            "(?i)the|a|an|of|on|in|at|to|by|for|from|and|or|during|between|after|before|since|until|with");
    /** Days of a date column: "c >= DATE '2018-02-05' AND …". */
    private static final java.util.regex.Pattern DAYS = java.util.regex.Pattern.compile("^([^ ()]+) >= DATE '");

    ParseState(List<Tok> toks, ColumnRules.Head head) {
        this.toks = toks;
        this.ranking = head == null ? Ranking.detect(toks) : null;
        this.head = head == null ? java.util.Set.of() : head.tokens();
        this.single = head != null && head.single();
    }

    String base() {
        return anchor != null ? anchor : subject;
    }

    /** Sets the subject (and anchor) when none is read yet, else joins {@code table} to what the phrase hangs off. */
    void subjectOrAttach(String table) {
        if (subject == null) {
            subject = table;
            anchor = table;
        } else {
            attach(table);
        }
    }

    void link(String from, String to, KgEntry.Join forced) {
        if (from != null && to != null && !from.equals(to)) {
            QuerySpec.Link l = new QuerySpec.Link(from, to, forced);
            if (!links.contains(l)) {
                links.add(l);
            }
        }
    }

    /** Joins {@code table} to the entity the phrase hangs off, following a named join ("live in") when one is pending. */
    void attach(String table) {
        if (via != null && table.equals(via.join().other(via.table()))) {
            link(base(), via.table(), null);
            link(via.table(), table, via.join());
            return;
        }
        link(base(), table, null);
    }

    void read(Tok t, String reading) {
        readings.add("'" + t.text() + "' → " + reading);
    }

    void filter(String table, String sql, String describe) {
        if (filters.stream().anyMatch(f -> f.sql().equals(sql))) {
            return; // one value said twice ("Colorado (CO)") is one filter
        }
        String column = valueColumn(sql);
        for (int k = filters.size() - 1; followUp != null && column != null && k >= 0; k--) {
            if (column.equals(valueColumn(filters.get(k).sql()))) {
                int now = level(at);
                int before = level(filterAt.get(k));
                if (now == before) {
                    continue; // both or neither in one follow-up's own words: a question to ask, not to settle here
                }
                boolean isNew = now > before;
                if (!isNew) {
                    readings.add(filters.get(k).describe() + " replaces " + describe + " of the earlier turn");
                    return;
                }
                readings.add(describe + " replaces " + filters.get(k).describe() + " of the earlier turn");
                filters.remove(k);
                filterAt.remove(k);
            }
        }
        filters.add(new QuerySpec.Filter(table, sql, describe));
        filterAt.add(at);
    }

    /**
     * The column a value condition is on: "place = 'x'", a place mentioned ("lower(place) LIKE '%utah%'", also with
     * another spelling OR-ed to it), or the date column of days; null for any other condition.
     */
    private static String valueColumn(String sql) {
        java.util.regex.Matcher e = EQUALITY.matcher(sql);
        java.util.regex.Matcher like = MENTION.matcher(sql);
        java.util.regex.Matcher days = DAYS.matcher(sql);
        return e.matches() ? e.group(1) : like.lookingAt() ? like.group(1)
                : days.lookingAt() ? days.group(1) : null;
    }

    /**
     * In a follow-up, the one option of a value said in it whose column holds a value of the earlier turn ("what about nc?"
     * after "the ak network": net = 'nc', which replaces it); null otherwise.
     */
    Sense.Cond sameColumnAsEarlier(int i, List<Sense.Cond> options) {
        if (level(i) == 0) {
            return null;
        }
        List<Sense.Cond> again = options.stream().filter(c -> filters.stream()
                .anyMatch(f -> c.column().equals(valueColumn(f.sql())))).toList();
        return again.size() == 1 ? again.get(0) : null;
    }

    /** The question's tokens but those a follow-up replaced. */
    List<Tok> asRead() {
        List<Tok> out = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            if (!replaced.contains(i)) {
                out.add(toks.get(i));
            }
        }
        return out;
    }

    /**
     * Joins a value to the last filter when both are values of one column ("Compton or Watts": neighborhood IN
     * ('Compton', 'Watts')); an error when the last filter is no value of that column.
     */
    void orWith(Tok t, Sense.Cond c) throws Unreadable {
        orPending = false;
        java.util.regex.Matcher m = EQUALITY.matcher(c.sql());
        QuerySpec.Filter last = filters.isEmpty() ? null : filters.get(filters.size() - 1);
        java.util.regex.Matcher not = java.util.regex.Pattern.compile("^NOT \\((.+?) (?:= |IN \\()(.+?)\\)?\\)$").matcher(last == null ? "" : last.sql());
        if (m.matches() && not.matches() && not.group(1).equals(m.group(1))) { // "not explosions or quarry blasts": neither
            filters.set(filters.size() - 1, new QuerySpec.Filter(last.table(), "NOT (" + m.group(1) + " IN (" + not.group(2) + ", "
                    + m.group(2) + "))", last.describe() + " nor " + c.describe()));
            return;
        }
        java.util.regex.Matcher e = java.util.regex.Pattern.compile("^(.+?) (?:= |IN \\()(.+?)\\)?$").matcher(last == null ? "" : last.sql());
        if (!m.matches() || !e.matches() || !e.group(1).equals(m.group(1))) {
            throw new Unreadable("I read 'or' only between values of one column ('in Compton or Watts'), not before '" + t.text() + "'");
        }
        filters.set(filters.size() - 1, new QuerySpec.Filter(last.table(), m.group(1) + " IN (" + e.group(2) + ", " + m.group(2) + ")",
                last.describe() + " or " + c.describe()));
    }

    /**
     * Which follow-up turn last said the token at {@code i} in the person's own words, counted from 1 (the oldest);
     * 0 when none did (the words of the question the follow-ups lean on).
     */
    int level(int i) {
        if (followUp == null || i < 0 || i >= toks.size()) {
            return 0;
        }
        // the token's words as written in any spacing ("White tailed" was said "White-tailed")
        List<String> words = java.util.Arrays.stream(toks.get(i).text().split("\\W+")).filter(w -> !w.isEmpty()).toList();
        java.util.regex.Pattern whole = said(String.join("\\W+", words.stream().map(java.util.regex.Pattern::quote).toList()));
        // else a word only this token has, but a little one ("junior" of "junior cards" in "what about junior ones?"; not
        // "cylinders" of "6 cylinders" beside "4 cylinders")
        List<java.util.regex.Pattern> own = words.stream().filter(w -> !LITTLE.matcher(w).matches() && java.util.stream.IntStream
                .range(0, toks.size()).noneMatch(j -> j != i && java.util.Arrays.asList(toks.get(j).text().split("\\W+")).stream()
                        .anyMatch(w::equalsIgnoreCase)))
                .map(w -> said(java.util.regex.Pattern.quote(w))).toList();
        for (List<java.util.regex.Pattern> by : List.of(List.of(whole), own)) {
            for (int k = followUp.size() - 1; k >= 0 && !words.isEmpty(); k--) {
                String text = followUp.get(k);
                if (by.stream().anyMatch(p -> p.matcher(text).find())) {
                    return k + 1;
                }
            }
        }
        return 0;
    }

    private static java.util.regex.Pattern said(String words) {
        return java.util.regex.Pattern.compile("(?i)(^|\\W)" + words + "(\\W|$)");
    }
}
