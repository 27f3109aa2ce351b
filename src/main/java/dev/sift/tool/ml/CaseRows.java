package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelCard;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Where the cases of a model are: its training rows (re-made from the card's SQL in a later session) and rows to score. */
final class CaseRows {
    private CaseRows() { }

    /**
     * The model's training source: the session's frame, or — for a saved model in a later session — the frame re-made
     * from the SQL on its card (the dataset's rows are the same while its fingerprint is).
     */
    static TableInfo training(ToolContext ctx, TrainedModel m) throws FixableException {
        Workspace ws = ctx.workspace();
        Optional<TableInfo> t = ws.table(m.source());
        if (t.isPresent()) {
            return t.get();
        }
        Optional<ModelCard> card = ctx.models().card(m.id());
        if (card.isEmpty() || card.get().sourceSql() == null) {
            throw new MlException("The rows model " + m.id() + " was trained on (" + m.source() + ") are not in this"
                    + " session and its card has no SQL to re-make them: build " + m.source() + " again first.");
        }
        try {
            ws.saveTrustedFrame(m.source(), card.get().sourceSql());
        } catch (QueryException e) {
            throw new MlException("The rows model " + m.id() + " was trained on could not be re-made from its card's SQL: "
                    + e.getMessage());
        }
        return ws.table(m.source()).orElseThrow();
    }

    /** The table holding case {@code id}: {@code source} when given, else the training rows, else the task's rows to score. */
    static TableInfo holding(ToolContext ctx, TrainedModel m, String source, String id) throws FixableException {
        if (m.entity() == null) {
            throw new MlException("Model " + m.id() + " has no entity column, so its cases have no ids: give the case as"
                    + " values instead.");
        }
        Workspace ws = ctx.workspace();
        List<TableInfo> tables = new ArrayList<>();
        if (source != null) {
            tables.add(MlSupport.table(ws, source, "source"));
        } else {
            tables.add(training(ctx, m));
            String history = "_history";
            String task = ctx.models().card(m.id()).map(ModelCard::predictionTask).orElse(m.source().endsWith(history)
                    ? m.source().substring(0, m.source().length() - history.length()) : null);
            if (task != null) {
                ws.table(task + "_current").ifPresent(tables::add);
            }
        }
        for (TableInfo t : tables) {
            if (t.column(m.entity()).isPresent() && count(ws, t, m, id) > 0) {
                return t;
            }
        }
        throw new MlException("Case '" + id + "' (" + m.entity() + ") is not in " + String.join(" or ",
                tables.stream().map(TableInfo::name).toList()) + ". Give a " + m.entity() + " from there, or source: a"
                + " table or frame with the model's columns that holds it.");
    }

    /** SQL condition: the entity column equals {@code id} (compared as text). */
    static String entityIs(TrainedModel m, String id) {
        return "CAST(" + Sql.quoteIdent(m.entity()) + " AS VARCHAR) = " + Sql.quoteString(id.trim());
    }

    private static long count(Workspace ws, TableInfo t, TrainedModel m, String id) throws QueryException {
        Object v = ws.trustedQuery("SELECT count(*) FROM " + t.sqlName() + " WHERE " + entityIs(m, id), 1).scalar();
        return ((Number) v).longValue();
    }
}
