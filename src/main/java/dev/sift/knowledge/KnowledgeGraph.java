package dev.sift.knowledge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What Sift knows about one dataset: its tables and columns (with codes, values and keys), business
 * concepts, metrics, join paths, disambiguations and value aliases — the automatic graph derived from the
 * data ({@link KgBuilder}), overlaid with a curated file when one exists ({@link KgLoader}).
 *
 * <p>Contract: immutable and thread-safe once built; every table and column it names exists in the live
 * dataset (the loader validates curated files); lookups compare phrases with {@link Phrases#key} (case-,
 * accent- and plural-insensitive). Typical use by a planner:
 * <pre>{@code
 * KnowledgeGraph kg = Knowledge.of(ws).graph();
 * kg.lookup("default rate");           // [metric:default_rate]
 * kg.mentions("women in Prague");      // value_alias:women [0,1), value_alias:prague [2,3)
 * kg.joinPath("loan", "district");     // loan.account_id = account.account_id, account.district_id = district.A1
 * }</pre>
 */
public final class KnowledgeGraph {
    /** Longest phrase, in words, that {@link #mentions} tries. */
    public static final int MAX_PHRASE_WORDS = 6;

    /** Where a phrase of a text matched entries: words {@code [start, end)} of {@link Phrases#words}. */
    public record Mention(int start, int end, String phrase, List<KgEntry> entries) { }

    private final String dataset;
    private final String source;
    private final List<KgEntry> entries;
    private final Map<String, KgEntry> byId = new LinkedHashMap<>();
    private final Map<String, List<KgEntry>> byPhrase = new HashMap<>();
    private final Map<String, List<KgEntry>> bySoleWord = new HashMap<>();
    /** Tables and columns by their phrases written as one word ("birdstrike" for bird strikes and birdstrikes). */
    private final Map<String, List<KgEntry>> byJoinedPhrase = new HashMap<>();
    private final Map<String, KgEntry.Table> tablesByName = new HashMap<>();
    private final Map<String, List<KgEntry.Column>> columnsByTable = new HashMap<>();
    private final List<KgEntry.Join> joins;
    private final List<PredictionTask> predictions;
    private final List<VerifiedExample> examples;
    /** Each column with the words of each of its name's phrases, for {@link #lookupCut}. */
    private final List<Map.Entry<KgEntry.Column, List<String>>> columnNameWords = new ArrayList<>();
    /** The words that name the dataset's own tables and columns, for {@link #namesData}. */
    private final java.util.Set<String> dataWords = new java.util.HashSet<>();

    /**
     * @param dataset the dataset name
     * @param source  where the curated part came from (e.g. {@code kg/bank.kg.yaml}), or null for automatic only
     * @param entries all entries; ids must be unique
     */
    public KnowledgeGraph(String dataset, String source, List<KgEntry> entries) {
        this(dataset, source, entries, List.of());
    }

    /** As above, with the curated predictive tasks ({@link PredictionTask}), already validated. */
    public KnowledgeGraph(String dataset, String source, List<KgEntry> entries, List<PredictionTask> predictions) {
        this(dataset, source, entries, predictions, List.of());
    }

    /** As above, with the verified question → SQL examples of the user's file ({@link VerifiedExample}). */
    public KnowledgeGraph(String dataset, String source, List<KgEntry> entries, List<PredictionTask> predictions,
                          List<VerifiedExample> examples) {
        this.examples = List.copyOf(examples);
        this.predictions = List.copyOf(predictions);
        this.dataset = dataset;
        this.source = source;
        this.entries = List.copyOf(entries);
        for (KgEntry e : this.entries) {
            if (byId.put(e.id(), e) != null) {
                throw new IllegalArgumentException("Knowledge graph of " + dataset + " has two entries " + e.id());
            }
            if (e instanceof KgEntry.Table t) {
                tablesByName.put(t.name().toLowerCase(java.util.Locale.ROOT), t);
            } else if (e instanceof KgEntry.Column c) {
                columnsByTable.computeIfAbsent(c.table().toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>()).add(c);
            }
            for (String p : e.phrases()) {
                String key = Phrases.key(p);
                if (!key.isEmpty()) {
                    List<KgEntry> list = byPhrase.computeIfAbsent(key, k -> new ArrayList<>());
                    if (!list.contains(e)) {
                        list.add(e);
                    }
                }
            }
        }
        indexWeakPhrases();
        indexNameWords();
        List<KgEntry.Join> all = new ArrayList<>(entries(KgEntry.Join.class));
        all.sort((a, b) -> a.curated() != b.curated() ? Boolean.compare(b.curated(), a.curated())
                : Boolean.compare(b.approved(), a.approved()));
        this.joins = List.copyOf(all);
    }

    /** The verified examples (section {@code examples} of the user's file), in file order. */
    public List<VerifiedExample> examples() {
        return examples;
    }

    /** The verified example asked in the same words (case, punctuation and plurals folded), if any; the last one wins. */
    public Optional<VerifiedExample> example(String question) {
        String key = Phrases.key(question);
        VerifiedExample found = null;
        for (VerifiedExample e : examples) {
            if (e.key().equals(key)) {
                found = e;
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Up to {@code n} verified examples that share content words with the question, most shared first (a share of
     * their words, so a short saved question is not beaten by a long one); none that share nothing.
     */
    public List<VerifiedExample> similarExamples(String question, int n) {
        java.util.Set<String> asked = content(question);
        record Scored(VerifiedExample x, double score) { }
        return examples.stream().map(x -> {
            java.util.Set<String> words = content(x.question());
            long shared = words.stream().filter(asked::contains).count();
            return new Scored(x, shared == 0 ? 0 : (double) shared / (words.size() + asked.size() - shared));
        }).filter(sc -> sc.score() > 0).sorted((a, b) -> Double.compare(b.score(), a.score())).limit(n)
                .map(Scored::x).toList();
    }

    private static java.util.Set<String> content(String text) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>(Phrases.words(text));
        out.removeAll(Phrases.stop());
        return out;
    }

    /** The curated predictive tasks (section {@code predictions}); empty without a curated file. */
    public List<PredictionTask> predictions() {
        return predictions;
    }

    /** The first predictive task one of whose trigger phrases occurs in the question. */
    public Optional<PredictionTask> prediction(String question) {
        return predictions.stream().filter(p -> p.triggeredBy(question)).findFirst();
    }

    public String dataset() {
        return dataset;
    }

    /** The curated file overlaid on the automatic graph, or empty when there is none. */
    public Optional<String> source() {
        return Optional.ofNullable(source);
    }

    /** Every entry, tables first, then columns, concepts, metrics, joins, disambiguations, value aliases. */
    public List<KgEntry> entries() {
        return entries;
    }

    /** The entries of one kind, in file/schema order. */
    @SuppressWarnings("unchecked")
    public <T extends KgEntry> List<T> entries(Class<T> type) {
        return (List<T>) entries.stream().filter(type::isInstance).toList();
    }

    /** An entry by id ({@code metric:default_rate}); a bare name is tried against every kind, first match wins. */
    public Optional<KgEntry> entry(String id) {
        KgEntry e = byId.get(id);
        if (e != null || id.contains(":")) {
            return Optional.ofNullable(e);
        }
        for (KgEntry.Kind k : KgEntry.Kind.values()) {
            e = byId.get(k.wire() + ":" + id);
            if (e != null) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * A table's own words — its name, its columns' names, their synonyms and descriptions — of four letters or more,
     * lower case: what tells which sense of a general word a question means there. All tables' words when
     * {@code table} is null.
     */
    public java.util.Set<String> ownWords(String table) {
        java.util.Set<String> out = new java.util.HashSet<>();
        java.util.function.Consumer<String> add = text -> {
            if (text != null) {
                out.addAll(java.util.Arrays.asList(text.toLowerCase(java.util.Locale.ROOT).split("[^a-z]+")));
            }
        };
        for (KgEntry.Table t : tables()) {
            if (table == null || t.name().equalsIgnoreCase(table)) {
                add.accept(t.name() + " " + t.description() + " " + String.join(" ", t.synonyms()));
                for (KgEntry.Column c : columns(t.name())) {
                    add.accept(c.name() + " " + c.description() + " " + String.join(" ", c.synonyms()));
                }
            }
        }
        out.removeIf(w -> w.length() < 4);
        return out;
    }

    public List<KgEntry.Table> tables() {
        return entries(KgEntry.Table.class);
    }

    public Optional<KgEntry.Table> table(String name) {
        return Optional.ofNullable(name == null ? null : tablesByName.get(name.toLowerCase(java.util.Locale.ROOT)));
    }

    /** The columns of a table, in schema order (empty for an unknown table). */
    public List<KgEntry.Column> columns(String table) {
        return List.copyOf(columnsByTable.getOrDefault(table.toLowerCase(java.util.Locale.ROOT), List.of()));
    }

    public Optional<KgEntry.Column> column(String table, String column) {
        return columns(table).stream().filter(c -> c.name().equalsIgnoreCase(column)).findFirst();
    }

    public List<KgEntry.Concept> concepts() {
        return entries(KgEntry.Concept.class);
    }

    public List<KgEntry.Metric> metrics() {
        return entries(KgEntry.Metric.class);
    }

    /** Joins of the knowledge file first, then approved automatic ones, then candidates. */
    public List<KgEntry.Join> joins() {
        return joins;
    }

    public List<KgEntry.Disambiguation> disambiguations() {
        return entries(KgEntry.Disambiguation.class);
    }

    public List<KgEntry.ValueAlias> valueAliases() {
        return entries(KgEntry.ValueAlias.class);
    }

    /** Entries one of whose phrases equals {@code phrase} (compared by {@link Phrases#key}). */
    public List<KgEntry> lookup(String phrase) {
        return List.copyOf(byPhrase.getOrDefault(Phrases.key(phrase), List.of()));
    }

    /**
     * Phrases read only where no entry's own phrase is the same: the last word of a column's name ("rating" for IMDB
     * Rating, "gross" for Worldwide Gross and US Gross alike) and, below that, the words of a table's name ("seattle"
     * for seattle_weather). Also indexes tables and columns by their phrases written as one word.
     */
    private void indexWeakPhrases() {
        Map<String, List<KgEntry>> heads = new HashMap<>();
        Map<String, List<KgEntry>> tableWords = new HashMap<>();
        for (KgEntry e : entries) {
            if (e instanceof KgEntry.Column c) {
                NameWords.head(c.name()).map(Phrases::key).filter(k -> !k.isEmpty())
                        .ifPresent(k -> heads.computeIfAbsent(k, x -> new ArrayList<>()).add(e));
            } else if (e instanceof KgEntry.Table t) {
                NameWords.tableWords(t.name()).stream().map(Phrases::key).filter(k -> !k.isEmpty()).distinct()
                        .forEach(k -> tableWords.computeIfAbsent(k, x -> new ArrayList<>()).add(e));
            }
            if (e instanceof KgEntry.Column || e instanceof KgEntry.Table) {
                for (String p : e.phrases()) {
                    String joined = Phrases.key(p).replace(" ", "");
                    List<KgEntry> list = byJoinedPhrase.computeIfAbsent(joined, k -> new ArrayList<>());
                    if (!joined.isEmpty() && !list.contains(e)) {
                        list.add(e);
                    }
                }
            }
        }
        Map<String, Long> holders = entries.stream().filter(e -> e instanceof KgEntry.Column).flatMap(e -> NameWords.split(
                ((KgEntry.Column) e).name()).stream().map(Phrases::key).distinct()).collect(java.util.stream.Collectors.groupingBy(
                k -> k, java.util.stream.Collectors.counting()));
        // "contributions" ends Total_Individual_Contributions but opens three other names: no name of its own
        heads.forEach((k, v) -> { if (holders.getOrDefault(k, 0L) <= v.size()) { byPhrase.putIfAbsent(k, v); } });
        tableWords.forEach(byPhrase::putIfAbsent);
        soleWords().forEach((k, v) -> { if (!byPhrase.containsKey(k)) { bySoleWord.put(k, v); } });
    }

    /**
     * The column a phrase names by a noun of its name that no other name holds ("habitat" for habitat_yearround_pct), or
     * an empty list: read last, where nothing else names the phrase.
     */
    public List<KgEntry> lookupSole(String phrase) {
        return List.copyOf(bySoleWord.getOrDefault(Phrases.key(phrase), List.of()));
    }

    /**
     * Apart from those, a noun of a column's name that no other column's or table's name holds ("habitat" of
     * habitat_yearround_pct, "county" of county_id, "debts" of Debts_Owed_By), or a run of two words or more of its name
     * that no other name holds ("individual contributions" of Total_Individual_Contributions): a person names the column
     * by it. Words the parser reads itself, abbreviations, units and verb forms ("owed", "ending") are left out.
     */
    private Map<String, List<KgEntry>> soleWords() {
        Map<String, List<KgEntry>> sole = new HashMap<>();
        Set<String> taken = new HashSet<>();
        for (KgEntry e : entries) {
            if (e instanceof KgEntry.Table t) {
                NameWords.split(t.name()).forEach(w -> taken.add(Phrases.key(w)));
            }
        }
        for (KgEntry.Column c : entries(KgEntry.Column.class)) {
            List<String> words = NameWords.column(c.name()).map(NameWords.Read::words).orElse(List.of());
            if (words.size() < 2) {
                continue;
            }
            Set<String> said = new LinkedHashSet<>(NameWords.runs(words)); // "individual contributions"
            for (String w : new LinkedHashSet<>(words)) {
                String k = Phrases.key(w);
                if (NameWords.soleWord(w) && !k.isEmpty() && !taken.contains(k)) {
                    said.addAll(NameWords.soleForms(c.name(), w));
                }
            }
            for (String p : said) {
                List<KgEntry> list = sole.computeIfAbsent(Phrases.key(p), x -> new ArrayList<>());
                if (!list.contains(c)) {
                    list.add(c);
                }
            }
        }
        sole.values().removeIf(list -> list.size() != 1);
        return sole;
    }

    /**
     * Tables and columns one of whose phrases, written as one word, is {@code joined} ("birdstrike" finds the table
     * birdstrikes for "bird strikes", and bird_strikes for "birdstrikes"); compared in {@link Phrases#key} form.
     */
    public List<KgEntry> lookupJoined(String joined) {
        return List.copyOf(byJoinedPhrase.getOrDefault(joined, List.of()));
    }

    /**
     * Columns whose name is the phrase's words cut short, word for word ("life expectancy" → life_expect, "temperature
     * max" → temp_max is the abbreviations' work): each word of the name equals the phrase's or, at five letters or more,
     * begins it, and one at least is cut. Read only where no entry's own phrase is the phrase.
     */
    public List<KgEntry.Column> lookupCut(String phrase) {
        List<String> asked = Phrases.words(Phrases.key(phrase));
        List<KgEntry.Column> out = new ArrayList<>();
        for (Map.Entry<KgEntry.Column, List<String>> named : columnNameWords) {
            if (named.getValue().size() == asked.size() && cut(named.getValue(), asked) && !out.contains(named.getKey())) {
                out.add(named.getKey());
            }
        }
        return out;
    }

    /**
     * Whether one comparable word is the name of a table or a column of the dataset ("segment", "orders"), or a word of
     * the name of a column no knowledge file describes ("score" of home_score).
     */
    public boolean namesData(String word) {
        return dataWords.contains(word);
    }

    /** What {@link #lookupCut} and {@link #namesData} read, worked out once: the graph does not change. */
    private void indexNameWords() {
        for (KgEntry.Table t : entries(KgEntry.Table.class)) {
            dataWords.add(Phrases.key(t.name()));
        }
        for (KgEntry.Column c : entries(KgEntry.Column.class)) {
            for (String p : NameWords.columnPhrases(c.name())) {
                columnNameWords.add(Map.entry(c, Phrases.words(Phrases.key(p))));
            }
            dataWords.add(Phrases.key(c.name()));
            if (!c.curated()) {
                dataWords.addAll(Phrases.words(String.join(" ", NameWords.split(c.name()))));
            }
        }
    }

    private static boolean cut(List<String> named, List<String> asked) {
        boolean shortened = false;
        for (int i = 0; i < named.size(); i++) {
            String n = named.get(i);
            String a = asked.get(i);
            if (!n.equals(a) && !(n.length() >= 5 && a.length() > n.length() && a.startsWith(n)
                    && (a.length() >= n.length() + 3 || Thesaurus.nounBase(a) == null) && !Thesaurus.known(a.substring(n.length())))) {
                // "countryfolk" is country and folk, not country cut; a noun two letters longer is its own word ("country" is
                // no "count" cut), an adjective may be ("deathly" of death)
                return false;
            }
            shortened |= !n.equals(a);
        }
        return shortened;
    }

    /** Entries of one kind whose phrase equals {@code phrase}. */
    public <T extends KgEntry> List<T> lookup(String phrase, Class<T> type) {
        return lookup(phrase).stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * The phrases of {@code text} that name entries, longest first and not overlapping, in text order.
     * A single stop word never matches alone.
     */
    public List<Mention> mentions(String text) {
        return scan(Phrases.words(text), words -> byPhrase.getOrDefault(String.join(" ", words), List.of()));
    }

    /** Longest-first, non-overlapping n-gram scan shared with {@link ValueIndex}. */
    static <T> List<MentionOf<T>> scanGeneric(List<String> words, java.util.function.Function<List<String>, List<T>> find) {
        boolean[] used = new boolean[words.size()];
        List<MentionOf<T>> out = new ArrayList<>();
        for (int n = Math.min(MAX_PHRASE_WORDS, words.size()); n >= 1; n--) {
            for (int i = 0; i + n <= words.size(); i++) {
                boolean free = true;
                for (int j = i; j < i + n; j++) {
                    free &= !used[j];
                }
                List<String> gram = words.subList(i, i + n);
                if (!free || Phrases.onlyStopWords(gram)) {
                    continue;
                }
                List<T> hits = find.apply(gram);
                if (!hits.isEmpty()) {
                    for (int j = i; j < i + n; j++) {
                        used[j] = true;
                    }
                    out.add(new MentionOf<>(i, i + n, String.join(" ", gram), List.copyOf(hits)));
                }
            }
        }
        out.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return out;
    }

    record MentionOf<T>(int start, int end, String phrase, List<T> hits) { }

    private static List<Mention> scan(List<String> words, java.util.function.Function<List<String>, List<KgEntry>> find) {
        return scanGeneric(words, find).stream().map(m -> new Mention(m.start(), m.end(), m.phrase(), m.hits())).toList();
    }

    /**
     * The shortest chain of approved joins from {@code from} to {@code to}, else the shortest chain through
     * candidates too (so a caller can say which candidate would be needed); empty when the tables are not
     * connected, an empty list when they are the same table. Each join is returned as stored; walk it with
     * {@link KgEntry.Join#other}.
     */
    public Optional<List<KgEntry.Join>> joinPath(String from, String to) {
        List<List<KgEntry.Join>> approved = shortestPaths(from, to, true);
        if (!approved.isEmpty()) {
            return Optional.of(approved.get(0));
        }
        List<List<KgEntry.Join>> any = shortestPaths(from, to, false);
        return any.isEmpty() ? Optional.empty() : Optional.of(any.get(0));
    }

    /** Most alternatives {@link #shortestPaths} returns. */
    static final int MAX_PATHS = 4;

    /**
     * Every shortest chain of joins between two tables (at most {@link #MAX_PATHS}), along approved joins only
     * or along every join; more than one equally ranked means the question could mean either, which a planner
     * must ask about. Ranked by {@link #sharedDimensions} (fewer first), then by joins from a knowledge file.
     */
    public List<List<KgEntry.Join>> shortestPaths(String from, String to, boolean approvedOnly) {
        if (from.equalsIgnoreCase(to)) {
            return List.of(List.of());
        }
        Map<String, Integer> depth = new HashMap<>(Map.of(from, 0));
        Map<String, List<KgEntry.Join>> parents = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(from));
        String target = null;
        while (!queue.isEmpty()) {
            String t = queue.poll();
            if (target != null && depth.get(t) >= depth.get(target)) {
                break;
            }
            for (KgEntry.Join j : joinsOf(t)) {
                String o = j.other(t);
                if (o == null || (approvedOnly && !j.approved())) {
                    continue;
                }
                Integer d = depth.get(o);
                if (d == null) {
                    depth.put(o, depth.get(t) + 1);
                    parents.computeIfAbsent(o, k -> new ArrayList<>()).add(j);
                    queue.add(o);
                } else if (d == depth.get(t) + 1) {
                    parents.computeIfAbsent(o, k -> new ArrayList<>()).add(j);
                }
                if (o.equalsIgnoreCase(to)) {
                    target = o;
                }
            }
        }
        if (target == null) {
            return List.of();
        }
        List<List<KgEntry.Join>> out = new ArrayList<>();
        walkBack(target, from, new ArrayDeque<>(), parents, out);
        out.sort(java.util.Comparator.comparingInt((List<KgEntry.Join> p) -> sharedDimensions(p, from))
                .thenComparingLong(p -> -p.stream().filter(KgEntry.Join::curated).count()));
        return List.copyOf(out);
    }

    /**
     * How often a path walked from {@code from} enters a lookup table (one that refers to no other table) by
     * its key and leaves by its key again (client → district ← account): rows that merely share an attribute
     * value, which is not how they are related when another path exists. Fewer is better;
     * {@link #shortestPaths} ranks by it.
     */
    public int sharedDimensions(List<KgEntry.Join> path, String from) {
        int n = 0;
        String at = from;
        for (int i = 0; i < path.size(); i++) {
            String next = path.get(i).other(at);
            String t = next;
            if (i + 1 < path.size() && path.get(i).toTable().equals(t) && path.get(i + 1).toTable().equals(t)
                    && joinsOf(t).stream().noneMatch(j -> j.fromTable().equals(t))) {
                n++;
            }
            at = next;
        }
        return n;
    }

    private static void walkBack(String at, String from, Deque<KgEntry.Join> suffix, Map<String, List<KgEntry.Join>> parents,
                                 List<List<KgEntry.Join>> out) {
        if (out.size() >= MAX_PATHS) {
            return;
        }
        if (at.equals(from)) {
            out.add(List.copyOf(suffix));
            return;
        }
        for (KgEntry.Join j : parents.getOrDefault(at, List.of())) {
            suffix.push(j);
            walkBack(j.other(at), from, suffix, parents, out);
            suffix.pop();
        }
    }

    /** The joins touching a table, approved first. */
    public List<KgEntry.Join> joinsOf(String table) {
        if (adjacency == null) {
            Map<String, List<KgEntry.Join>> adj = new HashMap<>();
            for (KgEntry.Join j : joins) {
                adj.computeIfAbsent(j.fromTable(), k -> new ArrayList<>()).add(j);
                adj.computeIfAbsent(j.toTable(), k -> new ArrayList<>()).add(j);
            }
            adjacency = adj;
        }
        return adjacency.getOrDefault(table, List.of());
    }

    private volatile Map<String, List<KgEntry.Join>> adjacency;

    /**
     * Joins connecting all {@code tables} (the union of shortest paths from the first one), in an order a
     * FROM clause can follow; empty when some table cannot be reached.
     */
    public Optional<List<KgEntry.Join>> joinTree(Collection<String> tables) {
        List<String> list = List.copyOf(new LinkedHashSet<>(tables));
        List<KgEntry.Join> out = new ArrayList<>();
        for (int i = 1; i < list.size(); i++) {
            Optional<List<KgEntry.Join>> p = joinPath(list.get(0), list.get(i));
            if (p.isEmpty()) {
                return Optional.empty();
            }
            p.get().stream().filter(j -> !out.contains(j)).forEach(out::add);
        }
        return Optional.of(List.copyOf(out));
    }

    /** A short overview: counts per kind and the names of concepts, metrics and joins. */
    public String outline() {
        StringBuilder b = new StringBuilder("Knowledge graph of dataset '").append(dataset).append("' (")
                .append(source == null ? "automatic only: no curated file" : "automatic + curated " + source).append(")\n");
        for (KgEntry.Kind k : KgEntry.Kind.values()) {
            List<KgEntry> of = entries.stream().filter(e -> e.kind() == k).toList();
            b.append("- ").append(k.wire()).append(": ").append(of.size());
            if (k != KgEntry.Kind.COLUMN && !of.isEmpty()) {
                b.append(" (");
                int shown = Math.min(of.size(), 12);
                for (int i = 0; i < shown; i++) {
                    b.append(i == 0 ? "" : ", ").append(of.get(i).id().substring(k.wire().length() + 1));
                }
                b.append(of.size() > shown ? ", …)" : ")");
            }
            b.append('\n');
        }
        return b.toString().trim();
    }
}
