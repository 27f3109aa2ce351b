package dev.sift.knowledge;

import dev.sift.data.Containment;
import dev.sift.data.Numbers;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;

import java.util.List;
import java.util.Optional;

/**
 * Whether a join a person approves is plausible on the live data, measured as the automatic graph measures its own
 * ({@link KgBuilder}): the share of the referring column's non-null values found in the column it points at, and
 * whether that column identifies its table's rows. A join whose values mostly miss ({@literal <} {@link
 * KgBuilder#CANDIDATE_COVERAGE}), one that points at a column whose values repeat, and one of columns that cannot be
 * compared are refused ({@link KgException}) with the share found and the fix; a plausible one gets its measure.
 */
public final class JoinCheck {

    /** What the data says of a plausible join: {@code many-to-one} or {@code one-to-one}, and the share found. */
    public record Measured(String cardinality, double coverage) { }

    private JoinCheck() { }

    /**
     * Measures the join {@code from} → {@code to} (both {@code table.column}) over the graph's tables; empty when a
     * column does not exist (the file's validation names it). {@code where} begins every refusal
     * ({@code "<file>: join_paths[<name>]"}).
     */
    public static Optional<Measured> measure(Workspace ws, KnowledgeGraph graph, String from, String to, String where) {
        String fromTable = table(from);
        String toTable = table(to);
        Optional<KgEntry.Column> referring = graph.column(fromTable, column(from));
        Optional<KgEntry.Column> key = graph.column(toTable, column(to));
        if (referring.isEmpty() || key.isEmpty()) {
            return Optional.empty();
        }
        Containment m;
        try {
            m = ws.stats().containment(Containment.Pair.plain(fromTable, column(from), toTable, column(to)));
        } catch (QueryException e) {
            if (e.kind() == QueryException.Kind.TIMEOUT) {
                throw new KgException(where + ": the join could not be measured on the data in time (" + e.getMessage()
                        + "); try again, or write it into the file by hand.");
            }
            if (e.kind() == QueryException.Kind.REFUSED) {
                throw new IllegalStateException("the containment query of " + from + " → " + to + " was refused", e);
            }
            throw new KgException(where + ": " + from + " (" + referring.get().type() + ") and " + to + " ("
                    + key.get().type() + ") cannot be compared: a join needs two columns that hold the same identifiers."
                    + fix(graph, fromTable, to));
        }
        if (m == null) {
            throw new KgException(where + ": " + from + " has no values, so there is nothing to join on.");
        }
        if (m.coverage() < KgBuilder.CANDIDATE_COVERAGE) {
            long found = Math.round(m.coverage() * m.values());
            throw new KgException(where + ": only " + Numbers.percent(m.coverage()) + " of the values of " + from + " ("
                    + Numbers.grouped(found) + " of " + Numbers.grouped(m.values()) + ") are found in " + to + ", so the two"
                    + " columns do not hold the same identifiers (a join needs at least "
                    + Numbers.percent(KgBuilder.CANDIDATE_COVERAGE) + ")." + fix(graph, fromTable, to));
        }
        if (!key.get().key()) {
            throw new KgException(where + ": the values of " + to + " repeat (or are missing), so a row of " + fromTable
                    + " would meet several rows of " + toTable + "; a join points at the column that identifies its"
                    + " table's rows." + (referring.get().key() ? " Approve it the other way round: from " + to + " to "
                    + from + "." : ""));
        }
        return Optional.of(new Measured(m.unique() ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE, m.coverage()));
    }

    /**
     * What to approve instead: the join the data shows between the two tables (a measured one), else the column of
     * the referring table that holds the key's values.
     */
    private static String fix(KnowledgeGraph graph, String fromTable, String to) {
        String toTable = table(to);
        return " Approve " + graph.joins().stream()
                .filter(j -> !j.curated() && j.fromTable().equals(fromTable) && j.toTable().equals(toTable)).findFirst()
                .map(j -> j.fromTable() + "." + j.fromColumn() + " → " + j.toTable() + "." + j.toColumn() + " instead ("
                        + Numbers.percent(j.coverage()) + " found)")
                .orElse("the column of " + fromTable + " that holds the values of " + to) + ", or fix the values first.";
    }

    /**
     * Measures a join on several columns: {@code from} and {@code to} list {@code table.column} of one table each,
     * paired in order. The tuples of {@code from} (rows with every column set) are looked up in those of {@code to},
     * whose combination must identify its table's rows. One column each is {@link #measure(Workspace, KnowledgeGraph,
     * String, String, String)}.
     */
    public static Optional<Measured> measure(Workspace ws, KnowledgeGraph graph, List<String> from, List<String> to,
                                             String where) {
        if (from.size() == 1 && to.size() == 1) {
            return measure(ws, graph, from.get(0), to.get(0), where);
        }
        String problem = KgLoader.severalProblem(from, to);
        if (problem != null) {
            throw new KgException(where + ": " + problem + ".");
        }
        String fromTable = table(from.get(0));
        String toTable = table(to.get(0));
        List<String> fromCols = from.stream().map(JoinCheck::column).toList();
        List<String> toCols = to.stream().map(JoinCheck::column).toList();
        if (fromCols.stream().anyMatch(c -> graph.column(fromTable, c).isEmpty())
                || toCols.stream().anyMatch(c -> graph.column(toTable, c).isEmpty())) {
            return Optional.empty();
        }
        String fromSide = fromTable + ".(" + String.join(", ", fromCols) + ")";
        String toSide = toTable + ".(" + String.join(", ", toCols) + ")";
        Containment m;
        List<List<String>> unique;
        try {
            m = ws.stats().containment(new Containment.Tuple(fromTable, fromCols, toTable, toCols));
            unique = ws.stats().uniqueSets(ws.table(toTable).orElseThrow(), List.of(toCols));
        } catch (QueryException e) {
            if (e.kind() == QueryException.Kind.REFUSED) {
                throw new IllegalStateException("the containment query of " + fromSide + " → " + toSide + " was refused", e);
            }
            throw new KgException(where + ": " + fromSide + " and " + toSide + " could not be compared pair by pair ("
                    + e.getMessage() + "); each pair needs two columns of comparable types, in the same order.");
        }
        if (m == null) {
            throw new KgException(where + ": no row of " + fromTable + " has all of " + fromCols + " set, so there is"
                    + " nothing to join on.");
        }
        if (m.coverage() < KgBuilder.CANDIDATE_COVERAGE) {
            long found = Math.round(m.coverage() * m.values());
            throw new KgException(where + ": only " + Numbers.percent(m.coverage()) + " of the rows of " + fromSide + " ("
                    + Numbers.grouped(found) + " of " + Numbers.grouped(m.values()) + ") find their combination in " + toSide
                    + " (a join needs at least " + Numbers.percent(KgBuilder.CANDIDATE_COVERAGE) + "). Check that the"
                    + " columns are paired in the same order, or fix the values first.");
        }
        if (unique.isEmpty()) {
            throw new KgException(where + ": the combinations of " + toSide + " repeat (or a column is missing in"
                    + " some rows), so a row of " + fromTable + " would meet several rows of " + toTable + "; a join"
                    + " points at columns that together identify their table's rows. Add the column that tells the"
                    + " repeated rows apart, or approve it the other way round.");
        }
        return Optional.of(new Measured(m.unique() ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE, m.coverage()));
    }

    /** A share as written into the knowledge file: four decimals (0.9983). */
    public static double rounded(double share) {
        return Math.round(share * 10_000) / 10_000.0;
    }

    private static String table(String qualified) {
        return qualified.substring(0, qualified.lastIndexOf('.'));
    }

    private static String column(String qualified) {
        return qualified.substring(qualified.lastIndexOf('.') + 1);
    }
}
