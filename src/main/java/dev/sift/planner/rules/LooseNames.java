package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.ValueIndex;

import java.util.List;

/**
 * The entries a phrase names when no entry's own phrase is the phrase, read as people shorten, join or lengthen names:
 * "bird strikes" for the table birdstrikes (and the other way round), "life expectancy" for life_expect (the name's
 * words cut short), "fertility rate" and "death toll" for the number columns fertility and Deaths (a general noun for
 * a number added). Empty when none reads it, or several do.
 */
final class LooseNames {
    private LooseNames() { }

    static List<KgEntry> entries(KnowledgeGraph kg, String key) {
        if (key.length() >= 5) {
            List<KgEntry> joined = kg.lookupJoined(key.replace(" ", ""));
            if (!joined.isEmpty()) {
                return joined;
            }
            List<KgEntry.Column> cut = kg.lookupCut(key);
            if (!cut.isEmpty()) {
                return List.copyOf(cut);
            }
        }
        List<String> words = List.of(key.split(" "));
        if (words.size() >= 2 && NameWords.measureNoun(words.get(words.size() - 1))) {
            List<KgEntry> head = kg.lookup(String.join(" ", words.subList(0, words.size() - 1))).stream()
                    .filter(e -> e instanceof KgEntry.Column c && Lexicon.attr(c).numeric()).toList();
            return head.size() == 1 ? head : List.of();
        }
        return List.of();
    }

    /**
     * The listed values the phrase is a run of words of ({@link ValueIndex#resolvePart}); one word of English only as a
     * value's first word: "nuclear" → 'Nuclear Energy', never "league" → 'English Premier League'.
     */
    static List<ValueIndex.Match> valueParts(ValueIndex values, String key) {
        return values.resolvePart(key).stream().filter(m -> key.contains(" ") || !Thesaurus.known(key)
                || Phrases.key(m.value()).startsWith(key + " ")).toList();
    }
}
