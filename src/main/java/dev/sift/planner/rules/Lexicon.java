package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.ResultLabels;
import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.ValueIndex;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The offline parser's dictionary over one dataset's knowledge: every phrase the knowledge graph, its value
 * index and its code meanings know, resolved to one {@link Sense} (or to a {@link Sense.Choice} /
 * {@link Sense.Ambiguous} the parser must settle or ask about). Built once per knowledge graph.
 *
 * <p>Precedence for one phrase: a code meaning of a coded column when the phrase occurs in exactly one code's
 * meaning and the graph has no other reading (or only a broader condition on the same column: "in debt" is
 * status 'D' "running contract, client in debt", not the broader "defaulted" B-or-D); then metrics; value
 * aliases and stored values; tables and entity concepts; join phrases; columns and attribute concepts.
 */
public final class Lexicon {
    /** Single words the parser reads itself (grouping units), never looked up alone. */
    private static final Set<String> RESERVED = Vocabulary.WORDS.list("reserved");
    /** Every word of the planner's word lists: never read as a value of a many-valued column on its own. */
    private static final Set<String> KNOWN = Vocabulary.WORDS.allWords();
    /** Reserved words that stay the parser's even where a column has the name. */
    private static final Set<String> PARSER_WORDS = Set.of("year", "month", "day", "number", "count", "total", "average", "when");

    private final KnowledgeGraph kg;
    private final ValueIndex values;
    private final Map<String, Sense> codeMeanings;
    private final Map<String, Optional<Sense>> memo;
    /** Phrases a hint after the question defines ({@link Hints}): read before anything the graph names. */
    private final Map<String, Sense> hinted;

    private Lexicon(KnowledgeGraph kg, ValueIndex values) {
        this.kg = kg;
        this.values = values;
        this.codeMeanings = CodeMeanings.of(kg);
        this.memo = new HashMap<>();
        this.hinted = Map.of();
    }

    /** The same dictionary with a question's hinted phrases read first; it shares the memo of what the graph names. */
    private Lexicon(Lexicon base, Map<String, Sense> hinted) {
        this.kg = base.kg;
        this.values = base.values;
        this.codeMeanings = base.codeMeanings;
        this.memo = base.memo;
        this.hinted = Map.copyOf(hinted);
    }

    /** This lexicon with the phrases a hint defines (comparable words → sense) read before the graph's. */
    public Lexicon withHints(Map<String, Sense> phrases) {
        return phrases.isEmpty() ? this : new Lexicon(this, phrases);
    }

    /** The lexicon of {@code k}, built once and kept with it. */
    public static Lexicon of(Knowledge k) {
        return k.derived(Lexicon.class, x -> new Lexicon(x.graph(), x.values()));
    }

    public KnowledgeGraph graph() {
        return kg;
    }

    /** Whether a hint of the question names a phrase with this word in it ("validity longer than 24 months refers to …"). */
    boolean hinted(String word) {
        return hinted.keySet().stream().anyMatch(k -> (" " + k + " ").contains(" " + word + " "));
    }

    /** What a phrase (in comparable words) stands for, or empty when nothing in the dataset's knowledge names it. */
    public Optional<Sense> sense(List<String> words) {
        String key = String.join(" ", words);
        Sense hint = hinted.get(key);
        if (hint != null) {
            return Optional.of(hint);
        }
        synchronized (memo) {
            return memo.computeIfAbsent(key, k -> Optional.ofNullable(resolve(words)));
        }
    }

    private Sense resolve(List<String> words) {
        String key = String.join(" ", words);
        if (key.equals(Phrases.key(kg.dataset()))) { // "the bank" is the dataset, not trans.bank; "movies" may be its table
            List<Sense> tables = kg.lookup(key, KgEntry.Table.class).stream().map(t -> (Sense) new Sense.Entity(t.name())).toList();
            if (tables.size() == 1 || kg.source().isPresent() || !namesColumnExactly(key)) {
                return tables.size() == 1 ? tables.get(0) : null;
            } // a dataset of earthquakes named "networks": "network" is its column where no knowledge file says otherwise
        }
        if (Phrases.onlyStopWords(words) || words.size() == 1 && RESERVED.contains(words.get(0)) && !namesColumnExactly(key)) {
            return null;
        }
        Sense rows = TableNouns.rowWord(kg, values, key);
        if (rows != null) {
            return rows;
        }
        List<String> dated = words.size() != 1 ? List.of() : kg.entries(KgEntry.Table.class).stream().map(KgEntry.Table::name)
                .filter(t -> RowNouns.rowNouns(kg.columns(t)).contains(key)).toList();
        if (dated.size() == 1 && (kg.lookup(key, KgEntry.Column.class).isEmpty() || RowNouns.identified(key, kg.columns(dated.get(0)))
                && kg.lookup(key, KgEntry.Table.class).isEmpty())) { // "deaths" dated by death_date; "candidates" keyed by Candidate_ID
            return new Sense.Entity(dated.get(0));
        }
        Sense s = resolveKey(key);
        if (s == null && words.size() == 1 && key.matches("[a-z]+\\d+")) { // a column's own code name: "a11" → district.A11
            List<KgEntry.Column> named = kg.entries(KgEntry.Column.class).stream().filter(c -> c.name().equalsIgnoreCase(key)).toList();
            s = named.size() == 1 ? attr(named.get(0)) : null;
        }
        if (s == null && words.size() >= 3 && words.stream().anyMatch(w -> w.matches("\\d+")) && !Phrases.stop().contains(words.get(0))
                && !Phrases.stop().contains(words.get(words.size() - 1))) {
            List<String> content = words.stream().filter(w -> !Phrases.stop().contains(w)).toList();
            if (content.size() >= 2 && content.size() < words.size()) { // "unemployment rate in 1996" = "unemployment rate 1996"
                s = resolveKg(String.join(" ", content));
            }
        }
        List<KgEntry.Column> all = kg.entries(KgEntry.Column.class); // "how many people lived in Japan": gapminder's pop, when
        s = s != null || !RowNouns.people(key) ? s : RowNouns.population(all).or(() -> RowNouns.peopleCount(all)).map(Lexicon::attr)
                .orElse(null); // nothing is named for people; "total people per year": a table of counts of people's count
        s = s != null ? s : LooseNames.generalNounAfter(words, this::resolve);
        s = s != null ? s : TableNouns.countedBy(kg, words); // "unemployed" in a table of unemployment counts: its count
        s = s != null ? s : LooseNames.typeOf(kg, words, this::resolve);
        if (s == null && words.size() == 1) { // "states": the one column whose values are state names, whatever its name
            List<Sense.Attr> kind = kg.entries(KgEntry.Column.class).stream().filter(c -> c.type().startsWith("VARCHAR")
                    && dev.sift.knowledge.Equivalents.kindOf(key, c.values()).isPresent()).map(Lexicon::attr).toList();
            s = kind.size() == 1 ? kind.get(0) : null;
        }
        if (s == null && key.equals("date") && kg.tables().size() == 1) { // "the date range": the one table's date, else its year
            String table = kg.tables().get(0).name();
            s = dateColumn(table).or(() -> yearColumn(table)).orElse(null);
        }
        return s == null && words.size() == 1 && !KNOWN.contains(key) ? LooseNames.oneWord(kg, key) : s;
    }

    private Sense resolveKey(String key) {
        Sense kgSense = resolveKg(key);
        Sense code = codeMeanings.get(key);
        if (code != null && (kgSense == null || kgSense instanceof Sense.Cond c && c.table().equals(((Sense.Cond) code).table())
                && sameColumn(c.sql(), ((Sense.Cond) code).sql()) || kgSense instanceof Sense.Attr a
                && ((Sense.Cond) code).sql().startsWith(a.sql() + " = "))) { // "challengers": a code, not its column
            return code;
        }
        return kgSense;
    }

    private static boolean sameColumn(String broader, String code) {
        String column = code.substring(0, code.indexOf(" = "));
        return broader.startsWith(column + " ");
    }

    private Sense resolveKg(String key) {
        List<KgEntry> entries = kg.lookup(key);
        List<KgEntry.Metric> metrics = entries.stream().filter(KgEntry.Metric.class::isInstance).map(KgEntry.Metric.class::cast).toList();
        if (metrics.size() == 1) {
            return new Sense.Measure(metrics.get(0));
        }
        List<ValueIndex.Match> vals = key.length() <= 1 || key.matches("[\\d ]+") ? List.of() : values.resolve(key);
        if (!vals.isEmpty()) {
            return orEquivalent(key, valueSense(key, vals));
        }
        if (entries.isEmpty()) {
            entries = LooseNames.entries(kg, key);
        }
        Sense s = readings(entries).sense(key);
        if (s instanceof Sense.Attr a && keyNamedLikeItsTable(a, key)) { // "zip codes": the rows of zipcodes, keyed by zip_code
            return new Sense.Entity(a.table());
        }
        if (s instanceof Sense.Entity e) {
            s = TableNouns.column(this, entries, e).orElse(s);
        }
        if (s == null && entries.isEmpty() && !key.matches("[\\d ]+") && !Phrases.onlyStopWords(List.of(key.split(" ")))
                && (key.contains(" ") || !KNOWN.contains(key))) { // 'Steven Spielberg', 'SFO': a value of a many-valued column
            List<ValueIndex.Match> many = LooseNames.asWritten(key, values.resolveMany(key));
            if (!many.isEmpty()) {
                return orEquivalent(key, valueSense(key, many));
            }
            List<ValueIndex.Match> part = LooseNames.valueParts(values, key);
            if (!part.isEmpty()) { // "Premier League" → 'English Premier League'
                return part.size() == 1 ? valueSense(key, part) : new Sense.Ambiguous("'" + key + "' is part of several values: "
                        + String.join(", ", part.stream().limit(5).map(ValueIndex.Match::describe).toList()) + "; name one");
            }
            if (key.length() >= 3) { // "Texas" → 'TX'; else "Fords": names beginning 'ford '; else "Alaska" in a place
                Sense eq = equivalent(key);
                eq = eq != null ? eq : LooseNames.ledBy(key, values.resolvePrefix(key));
                return eq != null ? eq : LooseNames.mentioned(key, values, kg);
            }
        }
        return s;
    }

    /**
     * The one stored value that another way of writing the phrase spells ("Texas" → state = 'TX', "Japanese" → origin =
     * 'Japan', through {@link Equivalents}), or null when none or several do.
     */
    private Sense equivalent(String key) {
        Set<Sense.Cond> found = new LinkedHashSet<>();
        for (String alt : dev.sift.knowledge.Equivalents.of(key)) {
            List<ValueIndex.Match> ms = values.resolve(alt);
            for (ValueIndex.Match m : ms.isEmpty() ? values.resolveMany(alt) : ms) {
                found.add(new Sense.Cond(m.table(), KgSql.column(m.table(), m.column()) + " = " + Sql.quoteString(m.value()),
                        m.describe() + " ('" + key + "' written as '" + m.value() + "' in the data)"));
            }
        }
        if (found.size() != 1) {
            return null;
        }
        Sense.Cond one = found.iterator().next();
        List<ValueIndex.Match> alike = values.resolvePart(key).stream().filter(m -> !one.sql().endsWith(" = " + Sql.quoteString(m.value()))
                && one.column().equals(KgSql.column(m.table(), m.column()))).toList();
        return alike.isEmpty() ? one : new Sense.Ambiguous("'" + key + "' may be " + one.reading() + " or a value it is part of: "
                + String.join(", ", alike.stream().limit(5).map(ValueIndex.Match::describe).toList()) + "; name one");
    }

    /**
     * A value the phrase spells, unless another way of writing it is a value of another column ("Texas": a county
     * named Texas, and the state 'TX'): then the question is asked which it means.
     */
    private Sense orEquivalent(String key, Sense spelled) {
        List<Sense.Cond> spelt = spelled instanceof Sense.Cond c ? List.of(c) : spelled instanceof Sense.Values v ? v.options() : List.of();
        if (spelt.isEmpty() || key.length() < 3 || dev.sift.knowledge.Equivalents.of(key).isEmpty()) {
            return spelled;
        }
        Sense other = equivalent(key);
        if (other instanceof Sense.Cond o && spelt.stream().noneMatch(c -> c.column().equals(o.column()))) {
            List<Sense.Cond> all = new ArrayList<>(spelt);
            all.add(o);
            return new Sense.Values(List.copyOf(all), "'" + key + "' may be " + String.join(" or ", all.stream().map(Sense.Cond::reading)
                    .toList()));
        }
        return spelled;
    }

    /**
     * Whether a word the parser reads itself is also the exact name of a column ("rate", "value" in a user's table), so
     * it names that column; the words of counting, totals, averages and calendar units stay the parser's, except "year"
     * for a whole-number column named so: its values are the years ("which years are in the data").
     */
    private boolean namesColumnExactly(String word) {
        return kg.entries(KgEntry.Column.class).stream().anyMatch(c -> c.name().equalsIgnoreCase(word)
                && (!PARSER_WORDS.contains(word) || word.equals("year") && yearColumn(c.table()).isPresent()));
    }

    /** Whether {@code a} is its table's key and the phrase, written as one word, names that table too. */
    private boolean keyNamedLikeItsTable(Sense.Attr a, String key) {
        return key(a.table()).filter(k -> k.qualified().equals(a.name())).isPresent()
                && kg.lookupJoined(key.replace(" ", "")).stream().anyMatch(e -> e instanceof KgEntry.Table t && t.name().equals(a.table()));
    }

    /** A phrase that is a stored value: its condition when all matches agree, else what makes it ambiguous. */
    private static Sense valueSense(String key, List<ValueIndex.Match> vals) {
        List<Sense.Cond> conds = vals.stream().map(Lexicon::cond).distinct().toList();
        if (conds.size() == 1) {
            return conds.get(0);
        }
        List<String> columns = vals.stream().map(m -> m.table() + "." + m.column()).distinct().toList();
        if (columns.size() == 1) { // 'Web'/'web', 'Electronic'/'Electronics': variants of one column's value
            return new Sense.Ambiguous("it matches the values " + String.join(", ", vals.stream().map(m -> "'"
                    + m.value() + "'").toList()) + " of " + columns.get(0) + ", which may be one thing written in"
                    + " several ways; name one exactly, or say in your knowledge file what it means (a value alias"
                    + " or a concept)");
        }
        String text = "'" + key + "' is a value of " + String.join(" and ", columns);
        return conds.size() == columns.size() ? new Sense.Values(conds, text) : new Sense.Ambiguous(text);
    }

    /** The knowledge graph's entries for a phrase, sorted into the kinds of reading they give. */
    private Readings readings(List<KgEntry> entries) {
        Readings r = new Readings();
        for (KgEntry e : entries) {
            if (e instanceof KgEntry.Table t) {
                add(r.entities, new Sense.Entity(t.name()));
            } else if (e instanceof KgEntry.Concept c) {
                concept(c, r);
            } else if (e instanceof KgEntry.Column col) {
                add(r.attrs, attr(col));
            } else if (e instanceof KgEntry.Join j && j.approved()) {
                add(r.vias, new Sense.Via(j.fromTable(), j));
            } else if (e instanceof KgEntry.Disambiguation d) {
                r.guidance = d.text();
            }
        }
        return r;
    }

    /** A concept reads as a condition, a computed attribute, a link through a key, a column or a table. */
    private void concept(KgEntry.Concept c, Readings r) {
        if (c.expression() != null) {
            if (c.expression().matches("(?s).*(\\sIN\\s*\\(|[<>=]|\\sLIKE\\s|\\sIS\\s).*")) {
                add(r.conds, new Sense.Cond(c.table(), c.expression(), c.name() + ": " + c.expression()));
            } else {
                add(r.attrs, new Sense.Attr(c.table(), c.name(), c.expression(), "BIGINT"));
            }
        } else if (c.column() != null) {
            String[] tc = c.column().split("\\.", 2);
            Optional<KgEntry.Join> fk = kg.joins().stream().filter(KgEntry.Join::approved)
                    .filter(j -> !j.severalColumns() && j.fromTable().equals(tc[0]) && j.fromColumn().equals(tc[1])).findFirst();
            if (fk.isPresent()) {
                add(r.vias, new Sense.Via(tc[0], fk.get()));
            } else {
                kg.column(tc[0], tc[1]).ifPresent(col -> add(r.attrs, attr(col)));
            }
        } else if (c.table() != null) {
            add(r.entities, new Sense.Entity(c.table()));
        }
    }

    /** What a phrase's knowledge-graph entries say it is, by kind. */
    private static final class Readings {
        final List<Sense.Entity> entities = new ArrayList<>();
        final List<Sense.Via> vias = new ArrayList<>();
        final List<Sense.Cond> conds = new ArrayList<>();
        final List<Sense.Attr> attrs = new ArrayList<>();
        String guidance;

        /** The one reading the entries give, an ambiguity naming why, a choice of attributes, or null (none). */
        Sense sense(String key) {
            if (!conds.isEmpty()) {
                return conds.size() == 1 && entities.isEmpty() ? conds.get(0)
                        : new Sense.Ambiguous("'" + key + "' has several readings in the knowledge graph");
            }
            if (entities.size() == 1) {
                return entities.get(0); // "district": the table (its name column is how it is shown)
            }
            if (entities.size() > 1) {
                return new Sense.Ambiguous("'" + key + "' names the tables " + String.join(", ",
                        entities.stream().map(Sense.Entity::table).toList()));
            }
            if (vias.size() == 1 && attrs.isEmpty()) {
                return vias.get(0);
            }
            if (attrs.size() == 1 && vias.isEmpty()) {
                return attrs.get(0);
            }
            if (attrs.size() > 1 && vias.isEmpty()) {
                return new Sense.Choice(List.copyOf(attrs), guidance);
            }
            if (guidance != null || !vias.isEmpty()) {
                return new Sense.Ambiguous(guidance != null ? guidance : "'" + key + "' has several readings");
            }
            return null;
        }
    }

    /**
     * The one stored value a phrase spells exactly, ignoring case only ("Electronics" beside the stored 'Electronic'
     * and 'Electronics'), or empty; 'Web' and 'web' both spell "web", so that stays a question.
     */
    public Optional<Sense> exactValue(String shown, List<String> words) {
        String key = String.join(" ", words);
        if (key.length() <= 1 || key.matches("[\\d ]+") || !kg.lookup(key).stream().allMatch(e -> e instanceof KgEntry.Column)) {
            return Optional.empty();
        }
        List<Sense.Cond> exact = values.resolve(key).stream().filter(m -> m.via() == ValueIndex.Via.DATA
                && m.value().trim().equalsIgnoreCase(shown.trim())).map(Lexicon::cond).distinct().toList();
        return exact.size() == 1 ? Optional.of(exact.get(0)) : Optional.empty();
    }

    /**
     * The stored value or code of column {@code a} that the words spell ("region Prague" → district.A3 = 'Prague', whatever
     * else "Prague" names): exactly as stored, or ignoring case for values of three letters or more; empty when none or
     * several match.
     */
    public Optional<Sense.Cond> valueOf(Sense.Attr a, String shown) {
        if (!a.name().startsWith(a.table() + ".")) {
            return Optional.empty();
        }
        Optional<KgEntry.Column> col = kg.column(a.table(), a.name().substring(a.table().length() + 1));
        if (col.isEmpty()) {
            return Optional.empty();
        }
        Set<String> stored = new LinkedHashSet<>(col.get().values());
        stored.addAll(col.get().codes().keySet());
        String text = shown.trim();
        List<String> hit = stored.stream().filter(v -> v.equals(text)).toList();
        if (hit.isEmpty() && text.length() > 2) {
            hit = stored.stream().filter(v -> v.equalsIgnoreCase(text)).toList();
        }
        if (hit.size() != 1) {
            return Optional.empty();
        }
        String v = hit.get(0);
        String meaning = col.get().codes().get(v);
        return Optional.of(new Sense.Cond(a.table(), a.sql() + " = " + Sql.quoteString(v), a.name() + " = '" + v + "'"
                + (meaning == null ? "" : " (" + meaning + ")")));
    }

    private static <T> void add(List<T> list, T item) {
        if (!list.contains(item)) {
            list.add(item);
        }
    }

    /** A column as the parser reads it; a date named as a year (iowa's {@code year}) is the year number it stands for. */
    static Sense.Attr attr(KgEntry.Column col) {
        String sql = KgSql.column(col.table(), col.name());
        return col.type().matches("(?i)DATE|TIMESTAMP.*") && dev.sift.knowledge.NameWords.namesYear(col.name())
                ? new Sense.Attr(col.table(), col.qualified(), "year(" + sql + ")", "BIGINT")
                : new Sense.Attr(col.table(), col.qualified(), sql, col.type());
    }


    static Sense.Cond cond(ValueIndex.Match m) {
        return new Sense.Cond(m.table(), KgSql.column(m.table(), m.column()) + " = " + Sql.quoteString(m.value()),
                m.describe());
    }

    // ------------------------------------------------------------------ facts about tables the parser needs

    /** Whether one comparable word names a table or column of the dataset ({@link KnowledgeGraph#namesData}). */
    public boolean namesData(String word) {
        return kg.namesData(word);
    }

    /** The stored values of the dataset's text columns, found by their words. */
    public ValueIndex values() {
        return values;
    }

    /** The column of {@code table} whose SQL is {@code sql} ({@code disasters.Entity}), or empty. */
    Optional<KgEntry.Column> columnOf(String table, String sql) {
        return kg.columns(table).stream().filter(c -> attr(c).sql().equals(sql)).findFirst();
    }

    /** The key column of a table (unique, non-null), or empty. */
    public Optional<KgEntry.Column> key(String table) {
        return kg.columns(table).stream().filter(KgEntry.Column::key).findFirst();
    }

    /** How a row of the table is named in results: a concept naming the table's name column (district → A2), else its key. */
    public Optional<Sense.Attr> label(String table) {
        for (KgEntry.Concept c : kg.concepts()) {
            if (c.column() != null && c.column().startsWith(table + ".") && Phrases.key(c.name()).equals(Phrases.key(table))) {
                return kg.column(table, c.column().substring(table.length() + 1)).map(Lexicon::attr);
            }
        }
        return key(table).map(Lexicon::attr).or(() -> TableNouns.nameLike(kg, table));
    }

    /**
     * The column that names a table's rows for people, when its label is only the key: a text column called
     * {@code name}, {@code title}, {@code <table>_name} or {@code <singular>_name} (products → product_name); empty when
     * the label is already a name (a concept) or no such column is unique.
     */
    public Optional<Sense.Attr> nameColumn(String table) {
        Optional<Sense.Attr> label = label(table);
        Optional<KgEntry.Column> key = key(table);
        if (label.isPresent() && key.isPresent() && !label.get().name().equals(key.get().qualified())) {
            return label;
        }
        return TableNouns.nameLike(kg, table);
    }

    /**
     * How a person names a column: the knowledge graph's concept for it ("region" for district.A3), else a short
     * description ("number of inhabitants"); empty for derived attributes and undescribed columns.
     */
    public Optional<String> columnLabel(Sense.Attr a) {
        if (!a.name().contains(".")) {
            return Optional.empty();
        }
        return ResultLabels.column(kg, a.table(), a.name().substring(a.table().length() + 1));
    }

    /**
     * The table's only whole-number column named for a year ("Year", "model_year"), what "per year" and "in 1997" mean in
     * a table with no date column; empty when none or several.
     */
    public Optional<Sense.Attr> yearColumn(String table) {
        List<Sense.Attr> years = kg.columns(table).stream().filter(c -> dev.sift.knowledge.NameWords.namesYear(c.name())).map(Lexicon::attr)
                .filter(a -> a.type().matches("(?i).*INT.*")).toList();
        return years.size() == 1 ? Optional.of(years.get(0)) : Optional.empty();
    }

    /** Whether {@code a} is a whole-number column named for a year, one of several too: never an amount to add up. */
    boolean isYearColumn(Sense.Attr a) {
        return dev.sift.knowledge.NameWords.namesYear(a.column()) && a.type().matches("(?i).*INT.*");
    }

    /** The column of a table of people saying how many people each row stands for ({@link RowNouns#headcount}). */
    Optional<Sense.Attr> headcount(String table) {
        return RowNouns.headcount(kg.columns(table)).map(Lexicon::attr);
    }

    /** The column that tallies what each row of a table of counts stands for ({@link RowNouns#tally}). */
    Optional<Sense.Attr> tally(String table) {
        return RowNouns.tally(kg.columns(table)).map(Lexicon::attr);
    }

    /** The age column of a table of people ({@link RowNouns}): what "victims under 20" compares; empty otherwise. */
    public Optional<Sense.Attr> ageOfPeople(String table) {
        return RowNouns.kinds(kg.columns(table)).contains(RowNouns.Kind.PERSON)
                ? kg.column(table, "age").map(Lexicon::attr).filter(Sense.Attr::numeric) : Optional.empty();
    }

    /** The table's only date column (a record-keeping date beside one other does not count), or empty. */
    public Optional<Sense.Attr> dateColumn(String table) {
        List<Sense.Attr> dates = kg.columns(table).stream().map(Lexicon::attr).filter(Sense.Attr::date).toList();
        List<Sense.Attr> events = dates.stream().filter(d -> !dev.sift.knowledge.NameWords.bookkeeping(d.name())).toList();
        return dates.size() == 1 ? Optional.of(dates.get(0)) : events.size() == 1 ? Optional.of(events.get(0)) : Optional.empty();
    }

    /**
     * The column of {@code table} named like {@code a} with a qualifier ("bank_to" for trans.bank), when {@code a} is
     * another table's: the word that named {@code a} may as well mean it.
     */
    public Optional<Sense.Attr> namedLike(String table, Sense.Attr a) {
        String name = a.column().toLowerCase(java.util.Locale.ROOT);
        if (a.table().equalsIgnoreCase(table)) {
            return Optional.empty();
        }
        List<Sense.Attr> like = kg.columns(table).stream().filter(c -> {
            String n = c.name().toLowerCase(java.util.Locale.ROOT);
            return n.startsWith(name + "_") || n.endsWith("_" + name);
        }).map(Lexicon::attr).toList();
        return like.size() == 1 ? Optional.of(like.get(0)) : Optional.empty();
    }

    /** The table's only numeric column with "price" in its name (what "the most expensive product" ranks by), or empty. */
    public Optional<Sense.Attr> price(String table) {
        List<Sense.Attr> prices = kg.columns(table).stream().filter(c -> c.name().toLowerCase(java.util.Locale.ROOT)
                .contains("price")).map(Lexicon::attr).filter(Sense.Attr::numeric).toList();
        return prices.size() == 1 ? Optional.of(prices.get(0)) : Optional.empty();
    }

    /**
     * Whether the table is a fact table: an approved join leads out of it to another table (orders → customers), so
     * its rows are the events that "placed", "sold" and "ordered" speak of.
     */
    public boolean fact(String table) {
        return table != null && kg.joins().stream().anyMatch(j -> j.approved() && j.fromTable().equals(table)
                && !j.toTable().equals(table));
    }

    /**
     * The date column a verb names by its stem ("signed up" → customers.signup_date, "ordered" → orders.order_date,
     * "created" → created_at): the column's first name part equals the stem, or starts with it (five letters or more);
     * empty unless exactly one date column of the dataset fits.
     */
    public Optional<Sense.Attr> dateOfVerb(List<String> stems) {
        List<Sense.Attr> hits = new ArrayList<>();
        for (KgEntry.Column c : kg.entries(KgEntry.Column.class)) {
            Sense.Attr a = attr(c);
            String first = c.name().toLowerCase(java.util.Locale.ROOT).split("_")[0];
            if (a.date() && stems.stream().anyMatch(s -> first.equals(s) || s.length() >= 5 && first.startsWith(s))) {
                hits.add(a);
            }
        }
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    /**
     * Whether every row of {@code from} meets at most one row of {@code to}: the one shortest approved path between them
     * goes from foreign key to key at every step (client → district; not account → client, through the dispositions).
     */
    public boolean manyToOne(String from, String to) {
        List<List<KgEntry.Join>> paths = kg.shortestPaths(from, to, true);
        if (paths.size() != 1) {
            return false;
        }
        String at = from;
        for (KgEntry.Join j : paths.get(0)) {
            if (!j.fromTable().equals(at)) {
                return false;
            }
            at = j.toTable();
        }
        return at.equals(to);
    }

    /**
     * The table's amount, what "loans over 300000" compares and "the average CO2 concentration" averages: its column named
     * "amount", else its one number column whose name's words are all words of the table's name (co2_concentration.CO2).
     */
    public Optional<Sense.Attr> amount(String table) {
        Optional<Sense.Attr> amount = kg.column(table, "amount").map(Lexicon::attr);
        if (amount.isPresent()) {
            return amount;
        }
        List<String> named = NameWords.split(table).stream().map(Phrases::stem).toList();
        List<Sense.Attr> in = kg.columns(table).stream().map(Lexicon::attr).filter(a -> a.numeric() && !a.date()
                && named.containsAll(NameWords.split(a.column()).stream().map(Phrases::stem)
                .toList())).toList();
        return in.size() == 1 ? Optional.of(in.get(0)) : Optional.empty();
    }
}
