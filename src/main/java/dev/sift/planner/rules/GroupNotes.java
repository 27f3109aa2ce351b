package dev.sift.planner.rules;

import dev.sift.data.Numbers;
import dev.sift.data.QueryResult;
import dev.sift.text.Evidence;
import dev.sift.text.ResultText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a grouped answer says about its own groups, from one count per group ({@link QueryBuilder#groupSizes}): an
 * average, median or rate over fewer than {@link #SMALL} rows ("Make Lexus averages over only 1 row"); the first or last
 * period of a timeline with data on fewer days than the others ("the last month, 2015-06, has data on only 12 dates,
 * against about 30 in the others"); and how many rows a ranking leaves out because they have no group (a missing value
 * never wins a ranking, and the answer says how many rows had none).
 */
public final class GroupNotes {
    /** Fewer rows than this make a group's average, median or rate a small-sample figure. */
    static final int SMALL = 5;
    /** Small groups named in a note; more are counted. */
    private static final int NAMED = 5;
    /** A first or last period with data on fewer days than this share of the others' is partial. */
    private static final double PARTIAL = 0.9;

    private GroupNotes() { }

    /** The notes on the answer of {@code s} whose result is {@code e}; none when nothing needs saying or the count fails. */
    public static List<String> of(QuerySpec s, Evidence e, QueryBuilder builder, Lexicon lexicon) {
        boolean grouped = s.shape() == QuerySpec.Shape.COUNT || s.shape() == QuerySpec.Shape.AGG
                || s.shape() == QuerySpec.Shape.METRIC || s.shape() == QuerySpec.Shape.TOP_GROUPS;
        if (s.group() == null || !grouped || e.rows().isEmpty()) {
            return List.of();
        }
        QueryResult sizes;
        try {
            sizes = builder.groupSizes(s);
        } catch (QueryBuilder.Unsupported x) {
            return List.of(); // the answer stands without its notes
        }
        int at = s.shape() == QuerySpec.Shape.TOP_GROUPS && e.columns().size() == 3 ? 1 : 0; // a ranked row's key, after its name
        Map<String, String> shown = new LinkedHashMap<>();
        e.rows().forEach(r -> shown.put(ResultText.cell(r.get(at)), ResultText.cell(r.get(0))));
        List<String> notes = new ArrayList<>();
        small(s, sizes, shown, lexicon).ifPresent(notes::add);
        partial(s, sizes, shown).ifPresent(notes::add);
        if (s.shape() == QuerySpec.Shape.TOP_GROUPS) {
            missing(s, sizes, lexicon).ifPresent(notes::add);
        }
        return notes;
    }

    /** "Make Lexus averages over only 1 row.": the shown groups whose average, median or rate rests on few rows. */
    private static Optional<String> small(QuerySpec s, QueryResult sizes, Map<String, String> shown, Lexicon lexicon) {
        String over = "avg".equals(s.aggFn()) ? "averages over" : "median".equals(s.aggFn()) ? "is the median of"
                : s.metric() != null && s.metric().expression().matches("(?is).*(avg\\(|/).*") ? "is a rate over" : null;
        if (over == null || Periods.read(s.group()).isPresent()) {
            return Optional.empty(); // a period's few rows are a sampling of time (three months a quarter): said by partial()
        }
        List<String> few = new ArrayList<>();
        for (List<Object> r : sizes.rows()) {
            String group = ResultText.cell(r.get(0));
            if (r.get(0) != null && shown.containsKey(group) && ((Number) r.get(2)).longValue() < SMALL) {
                few.add(shown.get(group) + " " + (few.isEmpty() ? over + " " : "over ") + "only "
                        + Numbers.count(((Number) r.get(2)).longValue(), "row", "rows"));
            }
        }
        if (few.isEmpty()) {
            return Optional.empty();
        }
        String what = AnswerPhraser.entity(s, lexicon);
        if (few.size() == 1) {
            return Optional.of("Note: " + what + " " + few.get(0) + ", too few to be typical.");
        }
        String named = String.join("; ", few.subList(0, Math.min(NAMED, few.size())));
        return Optional.of("Note: small groups — " + what + " " + named + (few.size() > NAMED ? "; and " + (few.size() - NAMED)
                + " more" : "") + ". A figure over fewer than " + SMALL + " rows may not be typical.");
    }

    /** The first or last period of a timeline with data on fewer days than the others ("covers part of a month"). */
    private static Optional<String> partial(QuerySpec s, QueryResult sizes, Map<String, String> shown) {
        Optional<Periods.Of> period = Periods.read(s.group()).filter(p -> p.grain().timeline());
        List<List<Object>> periods = sizes.rows().stream().filter(r -> r.get(0) != null).toList();
        if (period.isEmpty() || periods.size() < 2 || sizes.columns().size() < 4) {
            return Optional.empty();
        }
        long[] days = periods.stream().mapToLong(r -> ((Number) r.get(3)).longValue()).toArray();
        long[] middle = periods.size() > 2 ? java.util.Arrays.copyOfRange(days, 1, days.length - 1) : null;
        long typical = middle == null ? 0 : median(middle);
        List<String> said = new ArrayList<>();
        String grain = period.get().grain().word;
        for (int end : new int[] {0, days.length - 1}) {
            long others = middle != null ? typical : days[days.length - 1 - end];
            String group = ResultText.cell(periods.get(end).get(0));
            boolean ranked = s.shape() != QuerySpec.Shape.TOP_GROUPS || shown.containsKey(group);
            if (days[end] < PARTIAL * others && ranked) {
                said.add((said.isEmpty() ? "the " + (end == 0 ? "first " : "last ") + grain : "the " + (end == 0 ? "first" : "last"))
                        + ", " + group + ", has data on only " + Numbers.count(days[end], "date", "dates"));
                typical = others;
            }
        }
        if (said.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Note: " + String.join(" and ", said) + ", against about " + typical + " in the other " + grain + (periods.size() == 2 ? "" : "s") + ": "
                + (said.size() == 1 ? "it covers" : "they cover") + " only part of a " + grain + ".");
    }

    private static long median(long[] values) {
        long[] v = values.clone();
        java.util.Arrays.sort(v);
        return v[v.length / 2];
    }

    /** "1,331 movies have no director and are left out of the ranking." */
    private static Optional<String> missing(QuerySpec s, QueryResult sizes, Lexicon lexicon) {
        for (List<Object> r : sizes.rows()) {
            long n = r.get(0) == null ? ((Number) r.get(1)).longValue() : 0;
            if (n > 0) {
                return Optional.of("Note: " + Numbers.count(n, AnswerPhraser.noun(s, lexicon, false), AnswerPhraser.noun(s, lexicon,
                        true)) + " " + (n == 1 ? "has" : "have") + " no " + AnswerPhraser.entity(s, lexicon).toLowerCase(Locale.ROOT)
                        + " and " + (n == 1 ? "is" : "are") + " left out of the ranking.");
            }
        }
        return Optional.empty();
    }
}
