package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a question's words to values stored in the data: first through the knowledge graph's value aliases
 * ("Prague" → district.A2 = 'Hl.m. Praha', "women" → client.gender = 'F'), then through the distinct values
 * of every low-cardinality text column ("east Bohemia" → district.A3 = 'east Bohemia'). Phrases are compared
 * by {@link Phrases#key}. Only values that occur in the data are ever returned (aliases are validated at load).
 * Immutable and thread-safe.
 */
public final class ValueIndex {
    /** Values of more words are titles or sentences, whose parts are no way of naming them. */
    private static final int MAX_PART_WORDS = 5;

    /** How a phrase reached a value. */
    public enum Via { ALIAS, DATA }

    /**
     * A stored value a phrase stands for: {@code table.column = value}. For aliases, {@code alias} is the
     * alias entry's id and {@code note} its note (e.g. the region of a district); both null for data values.
     */
    public record Match(String table, String column, String value, Via via, String alias, String note) {
        /** {@code district.A2 = 'Hl.m. Praha'} */
        public String describe() {
            return table + "." + column + " = '" + value + "'" + (note == null ? "" : " (" + note + ")");
        }
    }

    /** Words {@code [start, end)} of {@link Phrases#words}(text) that name stored values. */
    public record Mention(int start, int end, String phrase, List<Match> matches) { }

    private final Map<String, List<Match>> aliases = new HashMap<>();
    private final Map<String, List<Match>> data = new HashMap<>();
    /** The listed values by the runs of their words ("premier league" → 'English Premier League'). */
    private final Map<String, List<Match>> parts = new HashMap<>();
    private final int size;

    /** The values of the many-valued text columns, on disk; empty when there is no such file. */
    private final java.util.Optional<ValueFile> many;

    /** The index of a graph: its value aliases and the listed values of its columns. */
    public ValueIndex(KnowledgeGraph kg) {
        this(kg, java.util.Optional.empty());
    }

    /** As above, with the values of the columns the graph does not list read from {@code many}. */
    public ValueIndex(KnowledgeGraph kg, java.util.Optional<ValueFile> many) {
        this.many = many;
        int n = 0;
        for (KgEntry.ValueAlias a : kg.valueAliases()) {
            for (String p : a.phrases()) {
                add(aliases, Phrases.key(p), new Match(a.table(), a.column(), a.value(), Via.ALIAS, a.id(), a.note()));
            }
        }
        for (KgEntry.Column c : kg.entries(KgEntry.Column.class)) {
            for (String v : c.values()) {
                add(data, Phrases.key(v), new Match(c.table(), c.name(), v, Via.DATA, null, codeMeaning(c, v)));
                for (String said : Phrases.slashSaid(v)) { // "lawyers and judges"
                    add(data, said, new Match(c.table(), c.name(), v, Via.DATA, null, codeMeaning(c, v)));
                }
                addParts(c, v);
                n++;
            }
        }
        size = n;
    }

    /** Every shorter run of a value's words that is not only stop words, as a key to the whole value. */
    private void addParts(KgEntry.Column c, String v) {
        List<String> words = Phrases.words(v);
        for (int from = 0; from < words.size() && words.size() <= MAX_PART_WORDS; from++) {
            for (int to = from + 1; to <= words.size(); to++) {
                List<String> run = words.subList(from, to);
                if (run.size() < words.size() && !Phrases.onlyStopWords(run) && !(run.size() == 1 && run.get(0).length() == 1)) {
                    String part = String.join(" ", run);
                    add(parts, part, new Match(c.table(), c.name(), v, Via.DATA, null, "the value with '" + part + "' in it"));
                }
            }
        }
        int comma = v.indexOf(',');
        if (comma > 0 && comma == v.lastIndexOf(',')) { // 'BARR, BOB' is said "Bob Barr": a name written last name first
            List<String> last = Phrases.words(v.substring(0, comma));
            List<String> given = Phrases.words(v.substring(comma + 1));
            if (!last.isEmpty() && last.size() <= 2 && !given.isEmpty()) {
                add(parts, given.get(0) + " " + String.join(" ", last), new Match(c.table(), c.name(), v, Via.DATA, null,
                        "the value '" + v + "', written last name first"));
            }
        }
    }

    private static String codeMeaning(KgEntry.Column c, String v) {
        return c.codes().get(v);
    }

    private static void add(Map<String, List<Match>> map, String key, Match m) {
        if (key.isEmpty()) {
            return;
        }
        List<Match> list = map.computeIfAbsent(key, k -> new ArrayList<>());
        if (list.stream().noneMatch(x -> x.table().equals(m.table()) && x.column().equals(m.column())
                && x.value().equals(m.value()))) {
            list.add(m);
        }
    }

    /** How many distinct (column, value) pairs are indexed from the data. */
    public int size() {
        return size;
    }

    /**
     * The values a phrase stands for: alias targets when an alias matches (they take precedence), else every
     * column whose stored value equals the phrase. More than one match means the phrase is ambiguous.
     */
    public List<Match> resolve(String phrase) {
        String key = Phrases.key(phrase);
        List<Match> a = aliases.get(key);
        return a != null ? List.copyOf(a) : List.copyOf(data.getOrDefault(key, List.of()));
    }

    /**
     * The values of the many-valued text columns (names, titles, codes) whose comparable form is the phrase's: read
     * only for a phrase nothing else in the dataset names, since such columns hold every kind of word.
     */
    public List<Match> resolveMany(String phrase) {
        return many.map(f -> f.find(Phrases.key(phrase))).orElse(List.of());
    }

    /**
     * The values of the many-valued text columns whose first one or two words are the phrase's ("ford" → 'ford torino'):
     * read only for a phrase nothing else names.
     */
    public List<Match> resolvePrefix(String phrase) {
        return many.map(f -> f.findPrefix(Phrases.key(phrase))).orElse(List.of());
    }

    /**
     * One value of each many-valued text column with the one-word phrase among the words of its values ("alaska" →
     * place '5km SW of Anchorage, Alaska'): read only for a phrase nothing else names.
     */
    public List<Match> resolveWord(String phrase) {
        return many.map(f -> f.findWord(Phrases.key(phrase))).orElse(List.of());
    }

    /**
     * The listed values that have the phrase's words as a run of their own ("Premier League" → 'English Premier
     * League'): read only for a phrase nothing else names.
     */
    public List<Match> resolvePart(String phrase) {
        return List.copyOf(parts.getOrDefault(Phrases.key(phrase), List.of()));
    }

    /** The values of one table a phrase stands for (aliases first). */
    public List<Match> resolve(String table, String phrase) {
        return resolve(phrase).stream().filter(m -> m.table().equalsIgnoreCase(table)).toList();
    }

    /**
     * The phrases of a text that name stored values, longest first and not overlapping, in text order.
     * Single stop words and single-letter data values (codes like 'A') are not matched inside free text.
     */
    public List<Mention> mentions(String text) {
        return KnowledgeGraph.scanGeneric(Phrases.words(text), words -> {
            String key = String.join(" ", words);
            List<Match> a = aliases.get(key);
            if (a != null) {
                return a;
            }
            return key.length() <= 1 ? List.of() : data.getOrDefault(key, List.of());
        }).stream().map(m -> new Mention(m.start(), m.end(), m.phrase(), m.hits())).toList();
    }
}
