package dev.sift.knowledge;

import java.util.List;

/**
 * A curated predictive task (section {@code predictions} of a curated file): what a question's trigger words
 * ask to predict, for which entity, learnt from which history with which label, scored on which current set,
 * from which features. The loader checks every SQL part binds on the live data ({@link KgValidator}).
 *
 * @param name        entry name, e.g. {@code loan_default}
 * @param description one line for answers, e.g. "probability that a loan ends unpaid"
 * @param triggers    phrases that name the task in a question ("default", "in debt", …)
 * @param entity      the entity column as table.column (e.g. {@code loan.loan_id}); the features SQL returns it
 * @param label       the label column name in the history set (e.g. {@code defaulted})
 * @param labelExpression SQL over the entity table giving 1 for the positive class and 0 otherwise
 * @param history     the rows with a known outcome to learn from
 * @param current     the rows to score
 * @param features    a SELECT returning one row per entity: the entity column and the features
 * @param asOf        the moment the prediction is made, as table.column of the entity table (e.g. {@code loan.date}):
 *                    every time-stamped table the features read is cut off strictly before it ({@link PointInTime});
 *                    null when the features read no time-stamped table
 */
public record PredictionTask(String name, String description, List<String> triggers, String entity, String label,
                             String labelExpression, Subset history, Subset current, String features, String asOf) {

    /** The rule an answer and a model card state, e.g. "features use only rows dated strictly before loan.date". */
    public String pointInTimeRule() {
        return asOf == null ? null : "features use only rows dated strictly before " + asOf
                + " (the moment the prediction is made)";
    }

    /**
     * A subset of the entity table: a SQL filter over it, the words to describe it, and the phrases a question
     * uses for it ("running", "currently being repaid").
     */
    public record Subset(String filter, String description, List<String> phrases) { }

    /** The column of the entity table that {@code as_of} names (e.g. date), or null. */
    public String asOfColumn() {
        return asOf == null ? null : KgLoader.columnOf(asOf);
    }

    public String entityTable() {
        return KgLoader.tableOf(entity);
    }

    public String entityColumn() {
        return KgLoader.columnOf(entity);
    }

    /** The history set: features plus the label, for the rows with a known outcome. */
    public String historySql() {
        return historySql(null);
    }

    /** The history set narrowed by {@code extra}, a condition on the entity table (null: none). */
    public String historySql(String extra) {
        return subsetSql(", " + labelExpression + " AS " + KgSql.ident(label), and(history.filter(), extra));
    }

    /** The current set: features only, for the rows to score. */
    public String currentSql() {
        return currentSql(null);
    }

    /** The current set narrowed by {@code extra}, a condition on the entity table (null: none). */
    public String currentSql(String extra) {
        return subsetSql("", and(current.filter(), extra));
    }

    private static String and(String filter, String extra) {
        return extra == null ? filter : "(" + filter + ") AND " + extra;
    }

    private String subsetSql(String extra, String filter) {
        String table = KgSql.table(entityTable());
        String col = KgSql.ident(entityColumn());
        return "SELECT f.*" + extra + " FROM (" + features.strip() + ") AS f JOIN " + table + " ON " + table + "." + col
                + " = f." + col + " WHERE " + filter + " ORDER BY f." + col;
    }

    /** Whether the question's words contain one of the trigger phrases (compared by {@link Phrases#key}). */
    public boolean triggeredBy(String question) {
        String q = " " + Phrases.key(question) + " ";
        return triggers.stream().map(Phrases::key).anyMatch(t -> !t.isEmpty() && q.contains(" " + t + " "));
    }
}
