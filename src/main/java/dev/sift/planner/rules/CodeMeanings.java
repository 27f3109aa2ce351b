package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.Equivalents;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Phrases;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The phrases of coded columns' meanings that each name one code ({@link Lexicon}'s first reading of a phrase). */
final class CodeMeanings {
    private CodeMeanings() { }

    /** The code meanings that name exactly one code of one column ("in debt" → loan.status = 'D'). */
    static Map<String, Sense> of(KnowledgeGraph kg) {
        Map<String, Sense> codeMeanings = new HashMap<>();
        Map<String, List<Sense.Cond>> found = new LinkedHashMap<>();
        for (KgEntry.Column c : kg.entries(KgEntry.Column.class)) {
            Map<String, Set<String>> codesOf = new HashMap<>();
            for (Map.Entry<String, String> code : c.codes().entrySet()) {
                for (String key : meaningKeys(code.getValue())) {
                    codesOf.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(code.getKey());
                }
            }
            codesOf.forEach((key, codes) -> {
                if (codes.size() == 1) {
                    String code = codes.iterator().next();
                    found.computeIfAbsent(key, k -> new ArrayList<>()).add(new Sense.Cond(c.table(),
                            KgSql.column(c.table(), c.name()) + " = " + Sql.quoteString(code),
                            c.qualified() + " = '" + code + "' (" + c.codes().get(code)
                                    + (c.curated() || c.description() == null ? "" : "; " + c.description()) + ")"));
                }
            });
        }
        found.forEach((key, conds) -> {
            if (conds.size() == 1) {
                codeMeanings.put(key, conds.get(0));
            }
        });
        return Map.copyOf(codeMeanings);
    }

    /**
     * The phrase keys of one code meaning: the whole meaning, its other ways of writing ({@link Equivalents}), its
     * comma-separated parts and their 2+ word spans.
     */
    private static Set<String> meaningKeys(String meaning) {
        Set<String> keys = new LinkedHashSet<>();
        keys.add(Phrases.key(meaning));
        Equivalents.of(meaning).stream().filter(f -> f.length() > 1).forEach(f -> keys.add(Phrases.key(f))); // "women"
        for (String part : meaning.split("[,;()]")) {
            List<String> w = Phrases.words(part);
            for (int i = 0; i < w.size(); i++) {
                for (int j = i + 2; j <= w.size(); j++) {
                    List<String> span = w.subList(i, j);
                    String last = span.get(span.size() - 1);
                    if (!Phrases.onlyStopWords(span) && !Phrases.stop().contains(last)) {
                        keys.add(String.join(" ", span));
                    }
                }
            }
        }
        keys.remove("");
        return keys;
    }
}
