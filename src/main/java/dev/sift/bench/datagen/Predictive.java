package dev.sift.bench.datagen;

import dev.sift.bench.suite.Suite;
import dev.sift.data.Sql;
import dev.sift.knowledge.PredictionTask;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Predictive items for the knowledge graph's prediction tasks: "which running loans are likely to default?", in
 * three wordings, each scored on the entities of the task's current set (the rows a model would score).
 */
final class Predictive {
    private Predictive() { }

    static List<Suite.Item> items(Inventory inv, Predicate<String> goldRuns) {
        List<Suite.Item> out = new ArrayList<>();
        int k = 0;
        for (PredictionTask task : inv.tasks()) {
            Inventory.Table t = inv.table(task.entityTable()).orElse(null);
            if (t == null || task.triggers().isEmpty() || task.current().phrases().isEmpty()) {
                continue;
            }
            String gold = "SELECT " + Sql.quoteIdent(task.entityColumn()) + " FROM " + t.sql() + " WHERE "
                    + task.current().filter();
            if (!goldRuns.test(gold)) {
                continue;
            }
            String which = task.current().phrases().get(0);
            String verb = task.triggers().get(0);
            List<String> wordings = List.of("Which " + which + " " + t.plural() + " are likely to " + verb + "?",
                    "Of the " + t.plural() + " that are " + which + ", which will probably " + verb + "?",
                    "Predict which " + which + " " + Wordings.other(t) + " will " + verb + ".");
            k++;
            for (int w = 0; w < wordings.size(); w++) {
                out.add(new Suite.Item(String.format("predictive-%02d-%s", k, Wordings.LABELS.get(w)), Suite.Tier.PREDICTIVE,
                        wordings.get(w), gold, Suite.Expect.PREDICTIVE, Suite.Scoring.ROW_SET, Suite.ROW_SET_TOLERANCE,
                        "task " + task.name(), "predictive", Wordings.LABELS.get(w)));
            }
        }
        return out;
    }
}
