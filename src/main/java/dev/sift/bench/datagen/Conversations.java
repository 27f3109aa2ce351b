package dev.sift.bench.datagen;

import dev.sift.bench.suite.Suite;
import dev.sift.bench.datagen.Inventory.Category;
import dev.sift.bench.datagen.Inventory.DateColumn;
import dev.sift.bench.datagen.Inventory.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Multi-turn conversations composed from generated questions: a first question, then follow-ups that change its
 * filter value ("And with frequency POPLATEK TYDNE?"), its period ("And in 1997?") or its grouping ("And per
 * type?"), each scored against its own gold query. Kinds and tables are taken in turn, so a conversation suite
 * covers the dataset rather than one table.
 */
final class Conversations {
    private final Inventory inv;
    private final Random rnd;
    private final Predicate<Draft> goldOk;

    Conversations(Inventory inv, Random rnd, Predicate<Draft> goldOk) {
        this.inv = inv;
        this.rnd = rnd;
        this.goldOk = goldOk;
    }

    /**
     * Conversations of three turns until they hold at least {@code turns} turns, or the data offers no more: one per
     * three values of a category (two for a category of six or more), per date column spanning three years or more, and per table with three
     * categories or more, in an order the seed shuffles.
     */
    List<Suite.Dialogue> compose(int turns) {
        List<List<Draft>> candidates = new ArrayList<>();
        for (Table t : inv.tables()) {
            for (Category c : t.categories()) {
                List<String> vs = new ArrayList<>(c.values());
                java.util.Collections.shuffle(vs, rnd);
                for (int i = 0; i + 3 <= Math.min(vs.size(), 6); i += 3) {
                    candidates.add(filter(t, c, vs.subList(i, i + 3)));
                }
            }
            t.dates().stream().filter(d -> d.years().size() >= 3).forEach(d -> candidates.add(period(t, d)));
            if (t.categories().size() >= 3) {
                candidates.add(grouping(t));
            }
        }
        java.util.Collections.shuffle(candidates, rnd);
        List<Suite.Dialogue> out = new ArrayList<>();
        int total = 0;
        for (List<Draft> chat : candidates) {
            if (total >= turns) {
                break;
            }
            if (chat.stream().allMatch(goldOk)) {
                out.add(dialogue(String.format("conv-%02d", out.size() + 1), chat));
                total += chat.size();
            }
        }
        return out;
    }

    private List<Draft> filter(Table t, Category c, List<String> vs) {
        Templates tpl = new Templates(inv, rnd, sql -> null);
        return List.of(tpl.countValue(t, c, vs.get(0)),
                followUp("followup_filter", "And with " + c.phrase() + " " + vs.get(1) + "?", tpl.countValue(t, c, vs.get(1))),
                followUp("followup_filter", "What about " + vs.get(2) + "?", tpl.countValue(t, c, vs.get(2))));
    }

    private List<Draft> period(Table t, DateColumn d) {
        List<Integer> ys = three(d.years());
        Templates tpl = new Templates(inv, rnd, sql -> null);
        return List.of(tpl.yearCount(t, d, ys.get(0)),
                followUp("followup_period", "And in " + ys.get(1) + "?", tpl.yearCount(t, d, ys.get(1))),
                followUp("followup_period", "in " + ys.get(2) + "?", tpl.yearCount(t, d, ys.get(2))));
    }

    private List<Draft> grouping(Table t) {
        List<Category> cs = three(t.categories());
        Templates tpl = new Templates(inv, rnd, sql -> null);
        return List.of(tpl.groupCount(t, cs.get(0)),
                followUp("followup_group", "And per " + cs.get(1).phrase() + "?", tpl.groupCount(t, cs.get(1))),
                followUp("followup_group", "What about by " + cs.get(2).phrase() + "?", tpl.groupCount(t, cs.get(2))));
    }

    /** Three different elements of {@code xs} (it has at least three), chosen by the seed. */
    private <T> List<T> three(List<T> xs) {
        List<T> copy = new ArrayList<>(xs);
        java.util.Collections.shuffle(copy, rnd);
        return copy.subList(0, 3);
    }

    /** A follow-up: the same gold as the full question, asked in a few words that lean on the turn before. */
    private static Draft followUp(String template, String text, Draft full) {
        return new Draft(template, List.of(text, text, text), full.goldSql(), full.tier(), full.scoring(), null);
    }

    private static Suite.Dialogue dialogue(String id, List<Draft> turns) {
        List<Suite.Item> items = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            Draft d = turns.get(i);
            items.add(new Suite.Item(id + "." + (i + 1), d.tier(), d.wordings().get(0), d.goldSql(), null, d.scoring(),
                    Suite.ROW_SET_TOLERANCE, null, d.template(), Wordings.LABELS.get(0)));
        }
        return new Suite.Dialogue(id, turns.get(1).template().replace("followup_", "a new ") + ", twice", items);
    }
}
