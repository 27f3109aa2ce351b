package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a table of head-to-head results means: one with a team and a score column for each of two sides
 * ({@code home_team}/{@code away_team} with {@code home_score}/{@code away_score}; the sides and score words are
 * {@code contest_sides} and {@code contest_scores} of {@code names.yaml}). Its rows are contests, and people ask of
 * them in words no column carries: the goals of a match (both sides' scores added), a home win, an away win, a draw,
 * the margin, a side's own goals. Each becomes a concept of the automatic graph, its expression shown with every
 * answer that reads it; a row without a score is no win, loss or draw.
 */
public final class Contests {
    private static final Vocabulary N = Vocabulary.load("/names.yaml");

    private Contests() { }

    /** The concepts of {@code table}'s contests, or none when it has no pair of side team and score columns. */
    static List<KgEntry.Concept> of(String table, List<KgEntry.Column> columns) {
        return pair(columns).map(p -> concepts(table, p.sides(), p.scores())).orElse(List.of());
    }

    /** The two sides of a table of contests ("home", "away") and their score columns, in the same order. */
    private record Pair(String[] sides, String[] scores) { }

    /** The sides and score columns of the first pair of sides whose team and score columns the table has, or empty. */
    private static Optional<Pair> pair(List<KgEntry.Column> columns) {
        for (String names : new java.util.TreeSet<>(N.list("contest_sides"))) { // the same order in every run
            String[] sides = names.split(" ");
            Optional<String[]> scores = sidePair(columns, sides, true);
            if (scores.isPresent() && sidePair(columns, sides, false).isPresent()) {
                return Optional.of(new Pair(sides, scores.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the graph reads {@code table} as a table of contests: it holds the concept that adds both sides' scores,
     * which {@link #of} made when the graph was built (read there, not from the columns on every question).
     */
    public static boolean held(KnowledgeGraph kg, String table) {
        return kg.concepts().stream().anyMatch(c -> COMBINED.equals(c.name()) && table.equals(c.table()));
    }

    /** The name of the concept that adds both sides' scores ("goals" of a match). */
    public static final String COMBINED = "combined score";

    /** Whether {@code column} of {@code table} is a side's score in a table of contests: goals add up, a score in general not. */
    public static boolean score(KnowledgeGraph kg, String table, String column) {
        return held(kg, table) && kg.concepts().stream().anyMatch(c -> c.name().endsWith(" score")
                && (table + "." + column).equalsIgnoreCase(c.column()));
    }

    /** The side a column is named by ("home" of home_team), or null. */
    public static String side(String column) {
        List<String> w = NameWords.split(column).stream().map(x -> x.toLowerCase(Locale.ROOT)).toList();
        return w.size() != 2 ? null : N.list("contest_sides").stream().flatMap(p -> java.util.Arrays.stream(p.split(" ")))
                .filter(w::contains).findFirst().orElse(null);
    }

    /** True for a word of winning ("won"), false for one of losing ("lost"), null for any other. */
    public static Boolean result(String word) {
        return N.has(word, "contest_wins") ? Boolean.TRUE : N.has(word, "contest_losses") ? Boolean.FALSE : null;
    }

    /** The condition that {@code side} won ({@code won}) or lost a contest of {@code table}: its score above the other's. */
    public static String winOf(String table, List<KgEntry.Column> columns, String side, boolean won) {
        Pair p = pair(columns).filter(x -> java.util.Arrays.asList(x.sides()).contains(side))
                .orElseThrow(() -> new IllegalArgumentException("table " + table + " has no " + side + " score"));
        int own = p.sides()[0].equals(side) ? 0 : 1;
        String mine = KgSql.column(table, p.scores()[own]);
        String theirs = KgSql.column(table, p.scores()[1 - own]);
        return won ? mine + " > " + theirs : mine + " < " + theirs;
    }

    /** Whether a word is a verb that says no more than a contest's rows do ("scored", "ended"). */
    public static boolean verb(String word) {
        return N.has(word, "contest_verbs");
    }

    private static List<KgEntry.Concept> concepts(String table, String[] sides, String[] scores) {
        String a = KgSql.column(table, scores[0]);
        String b = KgSql.column(table, scores[1]);
        List<String> totals = new ArrayList<>();
        List<String> margins = new ArrayList<>(List.of("margin", "winning margin", "margin of victory"));
        for (String unit : new java.util.TreeSet<>(N.list("contest_scores"))) {
            String units = unit + "s";
            if (!unit.equals("score")) { // "score" alone may be either side's: asked about
                totals.addAll(List.of(units, "total " + units, units + " scored", "number of " + units));
            }
            margins.add(unit + " difference");
        }
        totals.addAll(List.of("total score", "combined score"));
        List<KgEntry.Concept> out = new ArrayList<>();
        out.add(concept(COMBINED, "both sides' scores of a contest added up", totals, table, null, a + " + " + b));
        out.add(concept("margin", "how far apart the two sides' scores are", margins, table, null, "abs(" + a + " - " + b + ")"));
        out.add(concept("draw", "a contest both sides scored the same in", List.of("draw", "draws", "drawn", "drew", "tie",
                "ties", "tied", "ended in a draw", "end in a draw", "finished in a draw", "ended level", "drawn games",
                "drawn matches"), table, null, a + " = " + b));
        for (int s = 0; s < 2; s++) {
            String side = sides[s];
            String own = s == 0 ? a : b;
            String other = s == 0 ? b : a;
            out.add(concept(side + " win", "a contest the " + side + " side scored more in", List.of(side + " win",
                    side + " wins", side + " victory", side + " victories", "won by the " + side + " team", "won by the "
                    + side + " side", side + " team won", side + " team wins", side + " side won", sides[1 - s] + " loss",
                    sides[1 - s] + " losses", sides[1 - s] + " defeat", sides[1 - s] + " defeats", "lost by the "
                    + sides[1 - s] + " team"), table, null, own + " > " + other));
            List<String> ownScore = new ArrayList<>();
            for (String unit : new java.util.TreeSet<>(N.list("contest_scores"))) {
                ownScore.addAll(List.of(side + " " + unit + "s", unit + "s at " + side, side + " team " + unit + "s"));
            }
            out.add(concept(side + " score", "the " + side + " side's score", ownScore, null,
                    table + "." + scores[s], null));
        }
        return out;
    }

    private static KgEntry.Concept concept(String name, String description, List<String> synonyms, String table,
                                           String column, String expression) {
        return new KgEntry.Concept(name, description, List.copyOf(synonyms), table, column, expression, false);
    }

    /**
     * The two columns named by the two sides and one word more, the same for both ({@code home_score} and
     * {@code away_score}, or {@code score_home} …): whole-number score columns when {@code scores}, text team columns
     * otherwise; empty unless exactly one such pair.
     */
    private static Optional<String[]> sidePair(List<KgEntry.Column> columns, String[] sides, boolean scores) {
        List<String[]> found = new ArrayList<>();
        for (KgEntry.Column first : columns) {
            Optional<String> rest = rest(first.name(), sides[0]);
            String type = first.type() == null ? "" : first.type().toUpperCase(Locale.ROOT);
            boolean fits = scores ? type.matches("(TINY|SMALL|BIG|HUGE|U)?INT.*|INTEGER") : type.startsWith("VARCHAR");
            if (rest.isEmpty() || !fits || scores != N.has(rest.get(), "contest_scores")) {
                continue;
            }
            columns.stream().filter(c -> c.type() != null && c.type().equals(first.type())
                    && rest(c.name(), sides[1]).equals(rest)).findFirst()
                    .ifPresent(second -> found.add(new String[] {first.name(), second.name()}));
        }
        return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
    }

    /** The other word of a two-word column name one of whose words is {@code side} ("team" of home_team), or empty. */
    private static Optional<String> rest(String column, String side) {
        List<String> w = NameWords.split(column).stream().map(x -> x.toLowerCase(Locale.ROOT)).toList();
        if (w.size() != 2 || !w.contains(side)) {
            return Optional.empty();
        }
        return Optional.of(w.get(0).equals(side) ? w.get(1) : w.get(0));
    }
}
