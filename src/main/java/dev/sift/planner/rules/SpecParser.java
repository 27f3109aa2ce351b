package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Phrases;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a tokenized question ({@link Reader}) into a {@link QuerySpec}, or says why it cannot. Precision
 * first: every content word must be mapped, every ambiguity settled by the question itself (the table it
 * names) or by the knowledge graph, and only the shapes below are built:
 * <ul>
 * <li>counts: "how many clients live in Prague", "number of accounts opened in 1996", optionally grouped;</li>
 * <li>aggregates of a measure: total/average/median/min/max, optionally grouped ("by region", "per year");</li>
 * <li>metrics of the knowledge graph ("default rate by district") and shares ("percentage of loans …");</li>
 * <li>top/bottom N: of groups ("top 5 districts by number of accounts") or rows ("the 3 largest loans");</li>
 * <li>listings ("list the loans of account 16") and breakdowns ("breakdown of loans by status").</li>
 * </ul>
 * Filters: values and aliases, conditions of the graph, numeric comparisons, dates, ids ("account 16"),
 * "with/without a loan", "at least 3 orders". Each filter joins to the entity it follows in the question
 * ("loans of accounts in Prague": the account's district; "clients who live in Prague": the client's).
 */
public final class SpecParser {
    /** The parse: a spec with the readings to state, or a message (what could not be mapped, and what to do). */
    public record Result(QuerySpec spec, List<String> readings, List<String> unmapped, String problem) {
        public boolean ok() {
            return spec != null;
        }
    }

    private static final Map<String, String> AGG = Map.ofEntries(Map.entry("total", "sum"), Map.entry("sum", "sum"),
            Map.entry("average", "avg"), Map.entry("avg", "avg"), Map.entry("mean", "avg"), Map.entry("median", "median"),
            Map.entry("maximum", "max"), Map.entry("max", "max"), Map.entry("largest", "max"), Map.entry("biggest", "max"),
            Map.entry("highest", "max"), Map.entry("greatest", "max"), Map.entry("minimum", "min"), Map.entry("min", "min"),
            Map.entry("smallest", "min"), Map.entry("lowest", "min"), Map.entry("first", "min"), Map.entry("earliest", "min"),
            Map.entry("last", "max"), Map.entry("latest", "max"));
    private static final Set<String> DESC = Set.of("top", "largest", "biggest", "highest", "greatest", "most");
    private static final Set<String> ASC = Set.of("bottom", "smallest", "lowest", "least", "fewest");
    private static final Set<String> SHARE = Set.of("percentage", "percent", "share", "proportion", "fraction");
    private static final Set<String> DISTRIBUTION = Set.of("distribution", "breakdown", "split");
    private static final Set<String> GROUP_CUES = Set.of("by", "per", "each", "every");
    private static final java.util.regex.Pattern PARTICIPLE = java.util.regex.Pattern.compile(
            ".+ed|held|made|paid|done|taken|given|owned|issued|granted|opened|hold|own");
    private static final Set<String> NEGATIONS = Set.of("no", "without", "never");
    /** Negations the parser does not build: said back as a clarification rather than silently dropped. */
    private static final Set<String> UNSUPPORTED_NEGATIONS = Set.of("not", "except", "excluding", "nor", "neither", "non");
    /** Words that carry no content of their own here. */
    private static final Set<String> FUNCTION = Set.of(
            "what", "when", "where", "is", "are", "was", "were", "be", "been", "there", "any", "all", "number",
            "count", "list", "show", "tell", "give", "please", "get", "got", "made", "make", "belong", "belonging",
            "went", "go", "held", "hold", "have", "has", "had", "do", "does", "did", "can", "could", "would",
            "single", "month", "bank", "one", "ever", "overall", "altogether", "currently", "exist", "across",
            "among", "amongst", "so", "far", "ha", "whole", "respectively", "row", "record", "entry", "entrie",
            "exactly", "individual", "doe", "them", "they", "u", "ones", "whose", "who", "which", "that", "than", "i",
            "our", "their", "along", "within", "together", "distinct", "czk", "crown", "kc");

    private final Lexicon lexicon;

    public SpecParser(Lexicon lexicon) {
        this.lexicon = lexicon;
    }

    /** Mutable state of one parse. */
    private final class Walk {
        final List<Tok> toks;
        final List<String> readings = new ArrayList<>();
        final List<String> unmapped = new ArrayList<>();
        final List<QuerySpec.Filter> filters = new ArrayList<>();
        final List<QuerySpec.Link> links = new ArrayList<>();
        final Set<String> mentioned = new LinkedHashSet<>();
        String subject;
        String anchor;
        Sense.Via via;
        Sense.Attr dateSel;
        Sense.Attr group;
        Sense.Attr measure;
        KgEntry.Metric metric;
        String agg;
        boolean groupCue;
        boolean negate;
        Sense.Compare related;
        List<String> entityWords;
        Tok measureTok;
        boolean implicitOne;
        int consumed = -1;
        Tok targetTok;
        String entityTable;
        String problem;
        // top N
        Integer topN;
        boolean desc = true;
        int topStart = -1;
        Object target;      // Entity or Attr: what the top N ranks
        Object orderBy;     // Entity (count), Measure or Attr

        Walk(List<Tok> toks) {
            this.toks = toks;
        }

        void fail(String why) {
            if (problem == null) {
                problem = why;
            }
        }

        String base() {
            return anchor != null ? anchor : subject;
        }

        void link(String from, String to, KgEntry.Join forced) {
            if (from != null && to != null && !from.equals(to)) {
                QuerySpec.Link l = new QuerySpec.Link(from, to, forced);
                if (!links.contains(l)) {
                    links.add(l);
                }
            }
        }

        /** Joins {@code table} to the entity the phrase hangs off, following a named join ("live in") when one is pending. */
        void attach(String table) {
            mentioned.add(table);
            if (via != null && table.equals(via.join().other(via.table()))) {
                link(base(), via.table(), null);
                link(via.table(), table, via.join());
                return;
            }
            link(base(), table, null);
        }

        void read(Tok t, String reading) {
            readings.add("'" + t.text() + "' → " + reading);
        }
    }

    public Result parse(List<Tok> toks) {
        Walk w = new Walk(toks);
        detectTop(w);
        for (int i = 0; i < toks.size(); i++) {
            step(w, i);
        }
        if (w.negate || w.related != null) {
            w.fail(w.negate ? "I could not tell what 'no'/'without' applies to" : "I could not tell what the comparison applies to");
        }
        if (!w.unmapped.isEmpty()) {
            return new Result(null, w.readings, List.copyOf(new LinkedHashSet<>(w.unmapped)), null);
        }
        if (w.problem != null) {
            return new Result(null, w.readings, List.of(), w.problem);
        }
        QuerySpec spec = shape(w);
        return w.problem != null || spec == null ? new Result(null, w.readings, List.of(),
                w.problem != null ? w.problem : "I could not tell what to compute") : new Result(spec, w.readings, List.of(), null);
    }

    /** Finds "top 5", "the 3 largest", "which 2 regions … most", "which district has the highest …". */
    private void detectTop(Walk w) {
        List<Tok> t = w.toks;
        for (int i = 0; i < t.size(); i++) {
            Tok k = t.get(i);
            if (k.number()) {
                boolean before = i > 0 && t.get(i - 1).is("top", "bottom", "which", "the", "first");
                boolean after = i + 1 < t.size() && (t.get(i + 1).is(DESC.toArray(String[]::new)) || t.get(i + 1).is(ASC.toArray(String[]::new)));
                if (before || after) {
                    w.topN = Integer.parseInt(k.word());
                    w.topStart = i + 1;
                    if (i > 0 && t.get(i - 1).is("bottom")) {
                        w.desc = false;
                    }
                    break;
                }
            }
        }
        boolean superlative = t.stream().anyMatch(k -> k.is(DESC.toArray(String[]::new)) || k.is(ASC.toArray(String[]::new)));
        if (w.topN == null && !t.isEmpty() && t.get(0).is("which") && superlative) {
            w.topN = 1;
            w.implicitOne = true;
            w.topStart = 1;
        }
        if (w.topN != null) {
            for (int i = w.topStart; i < t.size(); i++) {
                if (t.get(i).is(ASC.toArray(String[]::new))) {
                    w.desc = false;
                    break;
                }
                if (t.get(i).is(DESC.toArray(String[]::new))) {
                    break;
                }
            }
        }
    }

    private void step(Walk w, int i) {
        Tok t = w.toks.get(i);
        Sense s = t.sense();
        if (s == null) {
            plain(w, i, t);
            return;
        }
        boolean topTarget = w.topN != null && w.target == null && i >= w.topStart;
        if (s instanceof Sense.Entity e) {
            entity(w, i, t, e, topTarget);
        } else if (s instanceof Sense.Cond c) {
            cond(w, t, c, topTarget);
        } else if (s instanceof Sense.Via v) {
            w.read(t, v.reading());
            if (w.subject == null) {
                w.subject = v.table();
                w.anchor = v.table();
            }
            w.via = v;
        } else if (s instanceof Sense.Measure m) {
            measure(w, t, m);
        } else if (s instanceof Sense.Attr a) {
            attr(w, i, t, a, topTarget);
        } else if (s instanceof Sense.Choice c) {
            Optional<Sense.Attr> pick = choose(w, i, c);
            if (pick.isEmpty()) {
                w.fail("'" + t.text() + "' could be " + String.join(", ", c.options().stream().map(Sense.Attr::name).toList())
                        + (c.guidance() == null ? "" : ". " + c.guidance()));
                return;
            }
            attr(w, i, t, pick.get(), topTarget);
        } else if (s instanceof Sense.Ambiguous a) {
            w.fail("'" + t.text() + "' is ambiguous here: " + a.text());
        } else if (s instanceof Sense.Dates d) {
            dates(w, t, d);
        } else if (s instanceof Sense.Compare c) {
            compare(w, i, t, c);
        }
    }

    private void cond(Walk w, Tok t, Sense.Cond c, boolean topTarget) {
        w.read(t, c.describe());
        if (w.negate) {
            w.fail("I read 'no'/'without' only before a related table ('accounts with no loan'), not before '" + t.text() + "'");
            return;
        }
        if (w.subject == null) {
            w.subject = c.table();
            w.anchor = c.table();
            w.mentioned.add(c.table());
            if (topTarget) {
                w.target = new Sense.Entity(c.table());
            }
        } else {
            w.attach(c.table());
        }
        w.filters.add(new QuerySpec.Filter(c.table(), c.sql(), c.describe()));
    }

    private void measure(Walk w, Tok t, Sense.Measure m) {
        w.read(t, m.reading());
        Optional<KgEntry.Metric> snapshot = snapshotOf(m.metric());
        if (snapshot.isPresent()) {
            w.fail("'" + t.text() + "' is not a settled measure: the knowledge graph also defines metric " + snapshot.get().name()
                    + (snapshot.get().description() == null ? "" : " (" + snapshot.get().description() + ")")
                    + " over the same column, so a plain " + m.metric().name() + " over all rows may not be what you mean;"
                    + " say per what and at which date");
            return;
        }
        if (w.metric != null) {
            w.fail("the question names two metrics");
        }
        w.metric = m.metric();
        if (w.subject == null) {
            w.subject = m.metric().grain();
            w.anchor = m.metric().grain();
        } else {
            w.attach(m.metric().grain());
        }
        m.metric().tables().forEach(tb -> w.link(m.metric().grain(), tb, null));
        // a metric named with its grouping ("loans per region"): group by what follows the cue
        for (int k = 0; k < t.words().size() - 1; k++) {
            if (GROUP_CUES.contains(t.words().get(k)) || t.words().get(k).equals("in") && t.words().get(k + 1).equals("each")) {
                int from = t.words().get(k + 1).equals("each") ? k + 2 : k + 1;
                Optional<Sense> g = from < t.words().size() ? lexicon.sense(t.words().subList(from, t.words().size())) : Optional.empty();
                if (g.isPresent() && g.get() instanceof Sense.Attr a) {
                    w.attach(a.table());
                    w.group = a;
                } else if (g.isPresent() && g.get() instanceof Sense.Entity e && lexicon.label(e.table()).isPresent()) {
                    w.attach(e.table());
                    w.group = lexicon.label(e.table()).get();
                } else {
                    w.fail("I could not tell how metric " + m.metric().name() + " is grouped");
                }
                break;
            }
        }
        if (w.topN != null && w.target != null && w.orderBy == null) {
            w.orderBy = m;
        }
    }

    private void plain(Walk w, int i, Tok t) {
        String word = t.word();
        if (t.number()) {
            if (w.topN != null && i == w.topStart - 1) {
                return; // the N of "top N"
            }
            Tok prev = previousContent(w, i);
            if (prev != null && prev.sense() instanceof Sense.Entity e && i > 0 && w.toks.get(i - 1) == prev) {
                Optional<KgEntry.Column> key = lexicon.key(e.table());
                if (key.isEmpty()) {
                    w.fail("table " + e.table() + " has no identifier column for '" + t.text() + "'");
                    return;
                }
                String sql = KgSql.column(e.table(), key.get().name()) + " = " + t.word();
                w.filters.add(new QuerySpec.Filter(e.table(), sql, key.get().qualified() + " = " + t.word()));
                w.readings.add("'" + prev.text() + " " + t.text() + "' → " + key.get().qualified() + " = " + t.word());
                return;
            }
            if (prev != null && numericAttr(prev) != null) {
                Sense.Attr a = numericAttr(prev);
                w.filters.add(new QuerySpec.Filter(a.table(), a.sql() + " = " + t.word(), a.name() + " = " + t.word()));
                w.readings.add("'" + t.text() + "' → " + a.name() + " = " + t.word());
                return;
            }
            w.unmapped.add(t.text());
            return;
        }
        Tok before = i > 0 ? w.toks.get(i - 1) : null;
        if (before != null && before.sense() instanceof Sense.Attr a && codeAfter(a, t) != null) {
            String v = codeAfter(a, t);
            cond(w, new Tok(before.text() + " " + t.text(), t.words(), null), new Sense.Cond(a.table(), a.sql() + " = "
                    + dev.sift.data.Sql.quoteString(v), a.name() + " = '" + v + "'"), false);
            return;
        }
        if (word.equals("year") && w.groupCue) {
            w.groupCue = false;
            Sense.Attr date = dateColumn(w);
            if (date == null) {
                w.fail("I could not tell which date 'year' refers to");
                return;
            }
            w.attach(date.table());
            w.group = new Sense.Attr(date.table(), "year", "year(" + date.sql() + ")", "BIGINT");
            w.readings.add("'" + t.text() + "' → year(" + date.name() + ")");
            return;
        }
        if (word.equals("year") && w.topN == null) {
            w.unmapped.add(t.text());
            return;
        }
        if (GROUP_CUES.contains(word)) {
            if (word.equals("by") && i > 0 && w.toks.get(i - 1).plain() && PARTICIPLE.matcher(w.toks.get(i - 1).word()).matches()) {
                return; // "held by accounts …": the agent of a verb, not a grouping
            }
            if (w.topN != null && word.equals("by")) {
                return; // "top 5 districts by …": what follows orders, it does not group
            }
            w.groupCue = true;
            return;
        }
        if (UNSUPPORTED_NEGATIONS.contains(word)) {
            w.fail("I do not read '" + t.text() + "' offline (a negation), and will not drop it");
            return;
        }
        if (NEGATIONS.contains(word)) {
            w.negate = true;
            return;
        }
        if (AGG.containsKey(word)) {
            if (w.topN == null && w.agg == null) {
                w.agg = AGG.get(word);
            } else if (w.topN != null && w.target != null && w.agg == null && Set.of("total", "sum", "average", "avg", "mean",
                    "median").contains(word)) {
                w.agg = AGG.get(word);
            }
            return;
        }
        if (word.equals("or") && w.toks.stream().anyMatch(k -> k.sense() instanceof Sense.Cond || k.sense() instanceof Sense.Compare
                || k.sense() instanceof Sense.Dates)) {
            w.fail("I combine conditions with 'and' only, and this question says 'or'");
            return;
        }
        if (w.entityWords != null && !FUNCTION.contains(word) && !Phrases.STOP.contains(word)) {
            List<String> phrase = new ArrayList<>(List.of(word));
            phrase.addAll(w.entityWords);
            Optional<Sense> adj = lexicon.sense(phrase);
            if (adj.isPresent() && adj.get() instanceof Sense.Cond c && c.table().equals(w.entityTable)) {
                cond(w, t, c, false); // "loans that are running" = "running loans"
                return;
            }
        }
        if (DESC.contains(word) || ASC.contains(word) || SHARE.contains(word) || DISTRIBUTION.contains(word)
                || FUNCTION.contains(word) || Phrases.STOP.contains(word) || word.equals("year")) {
            return;
        }
        w.unmapped.add(t.text());
    }

    /** The stored value or code of {@code a} that a plain word spells exactly ("status A"), or null. */
    private String codeAfter(Sense.Attr a, Tok next) {
        if (!next.plain() || !a.name().contains(".")) {
            return null;
        }
        Optional<KgEntry.Column> c = lexicon.graph().column(a.table(), a.name().substring(a.table().length() + 1));
        if (c.isEmpty()) {
            return null;
        }
        for (String v : c.get().codes().isEmpty() ? c.get().values() : List.copyOf(c.get().codes().keySet())) {
            if (v.equals(next.text())) {
                return v;
            }
        }
        return null;
    }

    private static Sense.Attr numericAttr(Tok t) {
        return t.sense() instanceof Sense.Attr a && a.numeric() ? a : null;
    }

    /** The nearest earlier token that is not a stop word. */
    private static Tok previousContent(Walk w, int i) {
        for (int j = i - 1; j >= 0; j--) {
            Tok p = w.toks.get(j);
            if (p.sense() != null || !(Phrases.STOP.contains(p.word()) || p.is("a", "an", "the", "of"))) {
                return p;
            }
        }
        return null;
    }

    private void entity(Walk w, int i, Tok t, Sense.Entity e, boolean topTarget) {
        w.read(t, "table " + e.table());
        w.entityWords = t.words();
        w.entityTable = e.table();
        w.mentioned.add(e.table());
        if (w.related != null) {
            related(w, e.table(), w.related, t);
            w.related = null;
            return;
        }
        if (w.negate) {
            w.negate = false;
            noneOf(w, e.table(), t);
            return;
        }
        if (w.subject != null && i > 0 && w.toks.get(i - 1).is("the", "this", "that", "his", "her", "their", "its")
                && singular(t) && !(i + 1 < w.toks.size() && w.toks.get(i + 1).number())) {
            w.fail("which " + e.table() + " do you mean by '" + w.toks.get(i - 1).text() + " " + t.text() + "'? Name it by its id,"
                    + " e.g. '" + e.table() + " 123'");
            return;
        }
        // "loan duration", "loan amount": a table word qualifying the attribute after it
        if (i + 1 < w.toks.size() && qualifies(w.toks.get(i + 1), e.table())) {
            return;
        }
        if (w.groupCue && w.subject != null) {
            w.groupCue = false;
            Optional<Sense.Attr> label = lexicon.label(e.table());
            if (label.isEmpty()) {
                w.fail("I do not know how to name the rows of table " + e.table());
                return;
            }
            w.attach(e.table());
            w.group = label.get();
            return;
        }
        if (topTarget) {
            w.target = e;
            w.targetTok = t;
            if (w.subject == null) {
                w.subject = e.table();
            } else {
                w.attach(e.table());
            }
            w.anchor = e.table();
            return;
        }
        if (w.topN != null && w.target != null && w.orderBy == null) {
            w.orderBy = e;
            w.attach(e.table());
            w.anchor = e.table();
            return;
        }
        if (w.subject == null) {
            w.subject = e.table();
        } else {
            w.attach(e.table());
        }
        w.anchor = e.table();
    }

    private static final java.util.regex.Pattern PLAIN_AGG = java.util.regex.Pattern.compile(
            "(?i)\\s*(sum|avg|min|max|median|count)\\(\\s*(DISTINCT\\s+)?([A-Za-z_\"][\\w\".]*)\\s*\\)\\s*");

    /**
     * Another metric of the graph that reads the same column as a snapshot (e.g. the balance after the last
     * transaction, {@code arg_max(trans.balance, trans.date)}): then a plain aggregate of that column over all rows
     * ("average balance") is not a settled reading.
     */
    private Optional<KgEntry.Metric> snapshotOf(KgEntry.Metric m) {
        java.util.regex.Matcher plain = PLAIN_AGG.matcher(m.expression());
        if (!plain.matches()) {
            return Optional.empty();
        }
        String column = plain.group(3);
        return lexicon.graph().metrics().stream().filter(o -> o != m && !PLAIN_AGG.matcher(o.expression()).matches()
                && o.expression().matches("(?s)\\s*\\w+\\(\\s*" + java.util.regex.Pattern.quote(column) + "\\b.*")).findFirst();
    }

    private static boolean singular(Tok t) {
        String last = t.words().get(t.words().size() - 1);
        String shown = t.text().toLowerCase(java.util.Locale.ROOT);
        return shown.endsWith(last) && !shown.endsWith("s");
    }

    private static boolean qualifies(Tok next, String table) {
        return next.sense() instanceof Sense.Attr a && a.table().equals(table)
                || next.sense() instanceof Sense.Choice c && c.options().stream().anyMatch(a -> a.table().equals(table));
    }

    private Optional<Sense.Attr> choose(Walk w, int i, Sense.Choice c) {
        List<String> prefer = new ArrayList<>();
        if (i > 0 && w.toks.get(i - 1).sense() instanceof Sense.Entity e) {
            prefer.add(e.table());
        }
        if (w.anchor != null) {
            prefer.add(w.anchor);
        }
        if (w.subject != null) {
            prefer.add(w.subject);
        }
        for (String p : prefer) {
            List<Sense.Attr> hit = c.options().stream().filter(a -> a.table().equals(p)).toList();
            if (hit.size() == 1) {
                return Optional.of(hit.get(0));
            }
        }
        // a table named later in the question ("the total amount of all loans")
        Set<String> later = new LinkedHashSet<>();
        for (int j = i + 1; j < w.toks.size(); j++) {
            Sense s = w.toks.get(j).sense();
            if (s instanceof Sense.Entity e) {
                later.add(e.table());
            } else if (s instanceof Sense.Cond cd) {
                later.add(cd.table());
            } else if (s instanceof Sense.Attr la) {
                later.add(la.table());
            }
        }
        for (String p : later) {
            List<Sense.Attr> hit = c.options().stream().filter(a -> a.table().equals(p)).toList();
            if (hit.size() == 1) {
                return Optional.of(hit.get(0));
            }
        }
        return Optional.empty();
    }

    private void attr(Walk w, int i, Tok t, Sense.Attr a, boolean topTarget) {
        w.read(t, a.name());
        if (i == w.consumed) {
            return;
        }
        if (i + 1 < w.toks.size() && codeAfter(a, w.toks.get(i + 1)) != null) {
            return; // "status A": the column of the code after it
        }
        if (namesValueColumn(w, i - 1, a) || namesValueColumn(w, i + 1, a)) {
            return; // "the south Moravia region", "weekly frequency": the column of a value next to it
        }
        if (w.groupCue) {
            w.groupCue = false;
            if (w.subject == null) {
                w.subject = a.table();
                w.anchor = a.table();
            } else {
                w.attach(a.table());
            }
            w.group = a;
            return;
        }
        if (topTarget) {
            w.target = a;
            if (w.subject == null) {
                w.subject = a.table();
                w.anchor = a.table();
            } else {
                w.attach(a.table());
            }
            return;
        }
        if (a.date()) {
            if (w.agg != null && (w.agg.equals("min") || w.agg.equals("max")) && w.measure == null && w.metric == null
                    && !nextIsDates(w, i)) {
                setMeasure(w, a, t);
                return;
            }
            w.dateSel = a;
            if (w.subject == null) {
                w.subject = a.table();
                w.anchor = a.table();
            }
            return;
        }
        if (w.topN != null && w.target != null && w.orderBy == null) {
            w.orderBy = a;
            w.attach(a.table());
            return;
        }
        if (a.numeric() && i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Compare) {
            return; // compared right after: "an average salary above 10000"
        }
        if (a.numeric() && numberFollows(w, i)) {
            return; // "a duration of 60 months"
        }
        if (w.measure == null && w.metric == null && (w.agg != null || !a.numeric())) {
            setMeasure(w, a, t);
            return;
        }
        if (w.measure == null && w.metric == null) {
            setMeasure(w, a, t);
            return;
        }
        w.fail("I could not tell what '" + t.text() + "' is for in this question");
    }

    private static boolean namesValueColumn(Walk w, int j, Sense.Attr a) {
        return j >= 0 && j < w.toks.size() && w.toks.get(j).sense() instanceof Sense.Cond c && c.sql().startsWith(a.sql() + " = ");
    }

    private static boolean nextIsDates(Walk w, int i) {
        return i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Dates;
    }

    private static boolean numberFollows(Walk w, int i) {
        for (int j = i + 1; j < w.toks.size() && j <= i + 3; j++) {
            Tok n = w.toks.get(j);
            if (n.number()) {
                return true;
            }
            if (!n.plain() || !n.is("of", "a", "an", "the", "is", "equal", "to")) {
                return false;
            }
        }
        return false;
    }

    private static void setMeasure(Walk w, Sense.Attr a, Tok t) {
        w.measure = a;
        w.measureTok = t;
        if (w.subject == null) {
            w.subject = a.table();
            w.anchor = a.table();
        } else {
            w.attach(a.table());
        }
    }

    private Sense.Attr dateColumn(Walk w) {
        if (w.dateSel != null) {
            return w.dateSel;
        }
        for (String table : new String[] {w.anchor, w.subject}) {
            if (table != null) {
                Optional<Sense.Attr> d = lexicon.dateColumn(table);
                if (d.isPresent()) {
                    return d.get();
                }
            }
        }
        return null;
    }

    private void dates(Walk w, Tok t, Sense.Dates d) {
        Sense.Attr col = dateColumn(w);
        if (col == null) {
            // a date word may follow: "accounts opened in 1996" reads 'opened' first; "in 1996 … opened" is rare
            w.fail("I could not tell which date '" + t.text() + "' refers to" + (w.base() == null ? ""
                    : ": table " + w.base() + " has " + (lexicon.graph().columns(w.base()).stream().noneMatch(c -> Lexicon.attr(c).date())
                    ? "no date column" : "several date columns")));
            return;
        }
        w.attach(col.table());
        String c = col.sql();
        String sql;
        String said;
        if (d.yearFrom() > 0 && d.yearFrom() == d.yearTo()) {
            sql = "year(" + c + ") = " + d.yearFrom();
            said = sql.replace(c, col.name());
        } else if (d.yearFrom() > 0) {
            sql = "year(" + c + ") BETWEEN " + d.yearFrom() + " AND " + d.yearTo();
            said = sql.replace(c, col.name());
        } else if (d.from() != null && d.to() != null) {
            sql = c + " >= " + date(d.from()) + " AND " + c + " < " + date(d.to());
            said = col.name() + " in [" + d.from() + ", " + d.to() + ")";
        } else if (d.from() != null) {
            sql = c + " >= " + date(d.from());
            said = col.name() + " >= " + d.from();
        } else {
            sql = c + " < " + date(d.to());
            said = col.name() + " < " + d.to();
        }
        w.filters.add(new QuerySpec.Filter(col.table(), sql, said));
        w.readings.add("'" + t.text() + "' → " + said);
    }

    private static String date(LocalDate d) {
        return "DATE '" + d + "'";
    }

    private void compare(Walk w, int i, Tok t, Sense.Compare c) {
        if (i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Entity) {
            w.related = c; // "at least 3 payment orders"
            return;
        }
        Tok prev = previousContent(w, i);
        Sense.Attr col = prev == null ? null : numericAttr(prev);
        if (col == null && i + 1 < w.toks.size() && numericAttr(w.toks.get(i + 1)) != null) {
            col = numericAttr(w.toks.get(i + 1)); // "more than 100000 inhabitants"
            w.consumed = i + 1;
        }
        if (col == null && w.base() != null) {
            col = lexicon.amount(w.base()).orElse(null);
        }
        if (col == null) {
            w.fail("I could not tell which number '" + t.text() + "' compares");
            return;
        }
        w.attach(col.table());
        String sql = col.sql() + " " + c.op() + " " + c.value();
        w.filters.add(new QuerySpec.Filter(col.table(), sql, col.name() + " " + c.op() + " " + c.value()));
        w.readings.add("'" + t.text() + "' → " + col.name() + " " + c.op() + " " + c.value());
    }

    /** "accounts with at least 3 orders": the anchor's rows with that many related rows (a direct approved join only). */
    private void related(Walk w, String table, Sense.Compare c, Tok t) {
        String owner = w.base();
        Optional<KgEntry.Join> j = direct(owner, table);
        if (owner == null || j.isEmpty() || !j.get().fromTable().equals(table)) {
            w.fail("I can count related rows only along one approved join, and '" + t.text() + "' is not directly"
                    + " attached to " + (owner == null ? "anything" : owner));
            return;
        }
        String sql = KgSql.column(j.get().toTable(), j.get().toColumn()) + " IN (SELECT " + KgSql.column(table, j.get().fromColumn())
                + " FROM " + KgSql.table(table) + " GROUP BY " + KgSql.column(table, j.get().fromColumn()) + " HAVING count(*) "
                + c.op() + " " + c.value() + ")";
        String said = owner + " with " + c.op() + " " + c.value() + " " + table + " rows";
        w.filters.add(new QuerySpec.Filter(owner, sql, said));
        w.readings.add("'" + c.op() + " " + c.value() + " " + t.text() + "' → " + said);
    }

    /** "accounts with no loan": NOT EXISTS along one approved join. */
    private void noneOf(Walk w, String table, Tok t) {
        String owner = w.base();
        Optional<KgEntry.Join> j = direct(owner, table);
        if (owner == null || j.isEmpty()) {
            w.fail("I can test for missing related rows only along one approved join, and '" + t.text()
                    + "' is not directly attached to " + (owner == null ? "anything" : owner));
            return;
        }
        KgEntry.Join jj = j.get();
        String sql = "NOT EXISTS (SELECT 1 FROM " + KgSql.table(table) + " WHERE " + jj.condition() + ")";
        w.filters.add(new QuerySpec.Filter(owner, sql, owner + " without " + table));
        w.readings.add("'no " + t.text() + "' → " + owner + " rows without a " + table + " row");
    }

    private Optional<KgEntry.Join> direct(String a, String b) {
        if (a == null) {
            return Optional.empty();
        }
        return lexicon.graph().joins().stream().filter(KgEntry.Join::curated)
                .filter(j -> b.equals(j.other(a))).findFirst();
    }

    /** Decides the shape from what was read. */
    private QuerySpec shape(Walk w) {
        List<String> words = w.toks.stream().filter(Tok::plain).map(Tok::word).toList();
        boolean counting = words.contains("many") && words.contains("how") || words.contains("count")
                || containsPair(words, "number", "of");
        boolean share = words.stream().anyMatch(SHARE::contains);
        boolean distribution = words.stream().anyMatch(DISTRIBUTION::contains);
        boolean listing = !words.isEmpty() && (words.contains("list") || words.get(0).equals("show") || words.get(0).equals("which")
                || words.get(0).equals("give") || containsPair(words, "what", "are"));
        if (w.subject == null) {
            w.fail("I could not tell what the question is about");
            return null;
        }
        if (w.groupCue) {
            w.fail("I could not tell what to group by");
            return null;
        }
        Set<String> equalities = new java.util.HashSet<>();
        for (QuerySpec.Filter f : w.filters) {
            int eq = f.sql().indexOf(" = '");
            if (eq > 0 && !equalities.add(f.sql().substring(0, eq))) {
                w.fail("the question asks for two values of " + f.sql().substring(0, eq) + " at once; ask for one, or for a"
                        + " breakdown by it");
                return null;
            }
        }
        if (w.topN != null) {
            return top(w);
        }
        if (w.metric != null) {
            if (w.measure != null) {
                w.fail("the question names both metric " + w.metric.name() + " and " + w.measure.name());
                return null;
            }
            return spec(w, QuerySpec.Shape.METRIC, w.metric.grain(), null, null, w.metric, null);
        }
        if (share) {
            List<QuerySpec.Filter> onSubject = w.filters.stream().filter(f -> f.table().equals(w.subject)).toList();
            if (onSubject.isEmpty() || onSubject.size() != w.filters.size() || w.group != null) {
                w.fail("I can compute a percentage of one table's rows meeting conditions on that table only");
                return null;
            }
            String cond = String.join(" AND ", onSubject.stream().map(QuerySpec.Filter::sql).toList());
            return new QuerySpec(QuerySpec.Shape.SHARE, w.subject, null, null, null, null, List.of(), List.of(), null, true,
                    new QuerySpec.Filter(w.subject, cond, String.join(" and ", onSubject.stream().map(QuerySpec.Filter::describe).toList())));
        }
        if (w.agg != null && w.measure != null) {
            if (!w.measure.numeric() && !w.measure.date()) {
                w.fail("'" + w.measure.name() + "' is not a number to aggregate");
                return null;
            }
            if (w.measure.date() && !(w.agg.equals("min") || w.agg.equals("max"))) {
                w.fail("I can only give the first or last date of " + w.measure.name());
                return null;
            }
            return spec(w, QuerySpec.Shape.AGG, w.measure.table(), w.agg, w.measure, null, null);
        }
        if (w.agg != null) {
            w.fail("I could not tell which number to " + w.agg + (w.agg.equals("sum") ? "" : " over"));
            return null;
        }
        if (counting) {
            if (w.measure != null) {
                w.fail("I could not tell what to count: '" + w.measure.name() + "' is a value of each row, not rows");
                return null;
            }
            return spec(w, QuerySpec.Shape.COUNT, w.subject, null, null, null, null);
        }
        if (distribution) {
            Sense.Attr by = w.group != null ? w.group : w.measure;
            if (by == null) {
                w.fail("I could not tell what to break down by");
                return null;
            }
            if (w.group != null && w.measure != null) {
                w.fail("I could not tell what '" + w.measure.name() + "' is for in a breakdown");
                return null;
            }
            return spec(w, QuerySpec.Shape.COUNT, w.subject, null, null, null, by);
        }
        if (w.measure != null && w.measureTok != null && AGG.containsKey(w.measureTok.word()) && w.measure.numeric()) {
            // "average salary" is the name of district.A11 itself; averaging it again is what the graph's metric does
            String fn = AGG.get(w.measureTok.word());
            String expr = fn + "(" + w.measure.sql() + ")";
            Optional<KgEntry.Metric> metric = lexicon.graph().metrics().stream()
                    .filter(m -> m.expression().replace(" ", "").equalsIgnoreCase(expr.replace(" ", ""))).findFirst();
            if (metric.isPresent()) {
                w.readings.add("'" + w.measureTok.text() + "' over several rows → metric " + metric.get().name() + " = "
                        + metric.get().expression());
                return spec(w, QuerySpec.Shape.METRIC, metric.get().grain(), null, null, metric.get(), null);
            }
        }
        if (listing && w.measure == null && w.group == null) {
            return spec(w, QuerySpec.Shape.LIST, w.subject, null, null, null, null);
        }
        w.fail("I could not tell whether to count, aggregate or list");
        return null;
    }

    private QuerySpec spec(Walk w, QuerySpec.Shape shape, String subject, String agg, Sense.Attr measure,
                           KgEntry.Metric metric, Sense.Attr groupOverride) {
        Sense.Attr group = groupOverride != null ? groupOverride : w.group;
        if (group != null && groupOverride != null && !group.table().equals(subject)) {
            w.link(subject, group.table(), null);
        }
        return new QuerySpec(shape, subject, agg, measure, metric, group, List.copyOf(w.filters), List.copyOf(w.links),
                null, true, null);
    }

    private QuerySpec top(Walk w) {
        if (w.target == null) {
            w.fail("I could not tell what to rank");
            return null;
        }
        if (w.implicitOne && w.targetTok != null && !singular(w.targetTok)) {
            w.fail("how many " + w.targetTok.text() + " should I list? Say e.g. 'which 5 " + w.targetTok.text() + " …'");
            return null;
        }
        if (w.group != null) {
            w.fail("I rank one kind of thing at a time");
            return null;
        }
        Sense.Attr by;
        if (w.target instanceof Sense.Entity e) {
            by = lexicon.label(e.table()).orElse(null);
        } else {
            by = (Sense.Attr) w.target;
        }
        if (by == null) {
            w.fail("I do not know how to name the rows being ranked");
            return null;
        }
        Object order = w.orderBy != null ? w.orderBy : w.measure;
        if (order == null && w.metric != null) {
            order = new Sense.Measure(w.metric);
        }
        if (order == null && w.target instanceof Sense.Entity e) { // "the 3 largest loans"
            Optional<Sense.Attr> amount = lexicon.amount(e.table());
            if (amount.isEmpty()) {
                w.fail("I could not tell what to rank " + e.table() + " rows by");
                return null;
            }
            w.readings.add("'largest/smallest' → by " + amount.get().name());
            return new QuerySpec(QuerySpec.Shape.TOP_ROWS, e.table(), null, amount.get(), null, null, List.copyOf(w.filters),
                    List.copyOf(w.links), w.topN, w.desc, null);
        }
        if (order instanceof Sense.Attr a && w.target instanceof Sense.Entity e && a.table().equals(e.table()) && w.agg == null) {
            return new QuerySpec(QuerySpec.Shape.TOP_ROWS, e.table(), null, a, null, null, List.copyOf(w.filters),
                    List.copyOf(w.links), w.topN, w.desc, null);
        }
        if (order instanceof Sense.Entity counted) { // "which 3 regions have the most clients"
            List<QuerySpec.Link> links = relink(w, counted.table(), by.table());
            return new QuerySpec(QuerySpec.Shape.TOP_GROUPS, counted.table(), null, null, null, by, List.copyOf(w.filters),
                    links, w.topN, w.desc, null);
        }
        if (order instanceof Sense.Measure m) {
            List<QuerySpec.Link> links = relink(w, m.metric().grain(), by.table());
            return new QuerySpec(QuerySpec.Shape.TOP_GROUPS, m.metric().grain(), null, null, m.metric(), by,
                    List.copyOf(w.filters), links, w.topN, w.desc, null);
        }
        if (order instanceof Sense.Attr a && w.agg != null && a.numeric()) {
            List<QuerySpec.Link> links = relink(w, a.table(), by.table());
            return new QuerySpec(QuerySpec.Shape.TOP_GROUPS, a.table(), w.agg, a, null, by, List.copyOf(w.filters), links,
                    w.topN, w.desc, null);
        }
        w.fail("I could not tell what to rank by");
        return null;
    }

    /** The links re-rooted at the counted table: the ranked table joins to it, filters keep their anchors. */
    private static List<QuerySpec.Link> relink(Walk w, String grain, String rankedTable) {
        List<QuerySpec.Link> out = new ArrayList<>();
        out.add(new QuerySpec.Link(grain, rankedTable, null));
        for (QuerySpec.Link l : w.links) {
            if (!(l.from().equals(rankedTable) && l.to().equals(grain)) && !out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    private static boolean containsPair(List<String> words, String a, String b) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(a) && words.get(i + 1).equals(b)) {
                return true;
            }
        }
        return false;
    }
}
