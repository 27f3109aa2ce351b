package dev.sift.planner;

import dev.sift.data.QueryException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.Planner;
import dev.sift.agent.RunState;
import dev.sift.agent.Step;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.VerifiedExample;
import dev.sift.knowledge.Vocabulary;
import dev.sift.planner.rules.AnalysisRoutes;
import dev.sift.planner.rules.AnswerPhraser;
import dev.sift.planner.rules.AnswerShape;
import dev.sift.planner.rules.ChartRequest;
import dev.sift.planner.rules.Comparison;
import dev.sift.data.Numbers;
import dev.sift.planner.rules.Guard;
import dev.sift.planner.rules.GroupNotes;
import dev.sift.planner.rules.Hints;
import dev.sift.planner.rules.Intent;
import dev.sift.planner.rules.CoveredPeriod;
import dev.sift.planner.rules.YearCoverage;
import dev.sift.planner.rules.Lexicon;
import dev.sift.planner.rules.Parse;
import dev.sift.planner.rules.CasePlan;
import dev.sift.planner.rules.PredictivePlan;
import dev.sift.planner.rules.QueryBuilder;
import dev.sift.planner.rules.SampleQuestions;
import dev.sift.planner.rules.QuerySpec;
import dev.sift.planner.rules.Reader;
import dev.sift.planner.rules.Rewording;
import dev.sift.planner.rules.TableNouns;
import dev.sift.planner.rules.Sense;
import dev.sift.planner.rules.SpecParser;
import dev.sift.planner.rules.Suggest;
import dev.sift.planner.rules.Tok;
import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;

import java.util.List;
import java.util.Optional;

/**
 * The offline planner: a deterministic semantic parser over the knowledge graph, the schema and the value
 * index ({@link dev.sift.planner.rules}). It declines requests to change data, rewrite its instructions or talk
 * about something else ({@link Guard}); routes schema and value questions to inspect_data / sample_values;
 * reads everything else into a typed {@link QuerySpec} ({@link Reader} → {@link SpecParser}), builds SQL along
 * approved join paths ({@link QueryBuilder}) and runs it through run_sql, so the answer carries SQL evidence;
 * and answers with the result and how it read the question ({@link AnswerPhraser}). Plain analysis requests
 * ("profile the loan table", "what correlates with loan amount?") go to the analysis tools ({@link AnalysisRoutes}). Any word it cannot map,
 * ambiguity it cannot settle or shape it does not build ends in a clarifying answer that names the problem.
 * The planner is stateless; {@link #begin} makes the per-run reading ({@code RuleRun}).
 */
public final class RulePlanner implements Planner {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The frame a charted query's result is kept in, for make_chart. */
    static final String CHART_FRAME = "chart_data";
    /**
     * The short list of what works offline, in the active dataset's names, with examples written from its own tables
     * and values that the offline parser reads ({@link SampleQuestions#readable}).
     */
    static String capabilities(Lexicon lexicon, dev.sift.data.Workspace ws) {
        List<String> tables = lexicon.graph().tables().stream().map(KgEntry.Table::name).toList();
        List<String> examples = SampleQuestions.readable(lexicon, ws, 2);
        String example = examples.isEmpty() ? "" : " (e.g. " + String.join(", ", examples.stream().map(q -> "'" + q + "'")
                .toList()) + ")";
        return "Offline I answer counts, totals, averages, minimums and maximums, top N, listings and breakdowns of the"
                + " tables " + String.join(", ", tables) + ", filtered by values, numbers and dates" + example + ".";
    }

    @Override
    public String name() {
        return "offline";
    }

    @Override
    public boolean offline() {
        return true;
    }

    /** The skills beyond SQL this planner names but does not plan, from the tool groups' phrases. */
    private final RowSkills skills = new RowSkills(dev.sift.planner.llm.ToolGroups.load());

    /** Reads the question when the run begins; the planner itself keeps nothing of a run. */
    @Override
    public Planner.Run begin(RunState state) {
        return new RuleRun(state, skills);
    }

    /**
     * One run of the offline planner: the question read once, when the run begins, into the first decision and
     * what the final answer is phrased from (the query, its readings and joins, or the ML flow); set while reading
     * the question and not changed after.
     */
    private static final class RuleRun implements Planner.Run {
        /** The query this run is answering, kept to phrase the final answer. */
        private QuerySpec spec;
        private List<String> readings = List.of();
        private List<KgEntry.Join> joins = List.of();
        /** The two alternatives this run compares ("which has more orders: Toys or Books?"), or null. */
        private Comparison.Plan comparison;
        /** The ML flow when the question is a prediction the knowledge graph names. */
        private PredictivePlan predictive;
        /** The flow when the question is about one case or a model's health. */
        private CasePlan casePlan;
        /** The verified example whose SQL answers this run's question, or null. */
        private VerifiedExample example;
        /** The dataset's dictionary, for this run. */
        private Lexicon lexicon;
        /** The run's workspace, where a clarification's examples are built. */
        private dev.sift.data.Workspace workspace;
        /** How the question's words were reordered before reading ("In Prague, how many …"), said first in "Read as". */
        private List<String> movedWords = List.of();
        /** The skills beyond SQL it names, and the question, to say which one a clarified question needs. */
        private final RowSkills skills;
        private String posed = "";
        /** The chart the question asks for ("plot loans per year"): the query's result is charted before answering. */
        private ChartRequest chart;

        /** The run's first decision, made when the run begins. */
        private final Decision first;

        RuleRun(RunState state, RowSkills skills) {
            this.skills = skills;
            this.first = route(state);
        }

        @Override
        public Decision next(RunState state) {
            Step last = state.lastStep();
            if (last == null) {
                return first;
            }
            if (predictive != null) {
                return predictive.next(state);
            }
            if (casePlan != null) {
                return casePlan.next(state);
            }
            if (chart != null && "run_sql".equals(last.tool()) && last.ok() && !state.evidence().isEmpty()) {
                Optional<Decision> call = chartCall(state.evidence().get(state.evidence().size() - 1));
                if (call.isPresent()) {
                    return call.get();
                }
            }
            if (!last.ok() && !"make_chart".equals(last.tool())) {
                return Decision.answer("the only planned step failed", "I could not answer this offline: "
                        + last.observation(), AnswerKind.DECLINED, null);
            }
            return finalFrom(state, last);
        }

        @Override
        public Decision.Answer forceFinal(RunState state) {
            if (predictive != null) {
                return predictive.forceFinal(state);
            }
            if (casePlan != null) {
                return casePlan.forceFinal(state);
            }
            Step last = state.lastStep();
            return last != null && last.ok() ? finalFrom(state, last) : Decision.answer(null,
                    "I could not answer this offline within the step budget.", AnswerKind.DECLINED, null);
        }

        private Decision.Answer finalFrom(RunState state, Step last) {
            boolean charted = "make_chart".equals(last.tool());
            if (("run_sql".equals(last.tool()) || charted) && !state.evidence().isEmpty()) {
                Evidence e = state.evidence().get(state.evidence().size() - 1);
                if (example != null) {
                    return Decision.answer("answered by a verified example", "Answered with the SQL saved for this question"
                            + " (a verified example in " + example.source() + "), run again now: " + EvidenceText.render(e),
                            AnswerKind.ANSWER, null);
                }
                String pictured = !charted ? chart == null ? "" : "\n(One value: there is nothing to chart.)"
                        : last.ok() ? "\nThe chart shows it." : "\n(The chart could not be made: " + last.observation() + ")";
                if (comparison != null) {
                    return Decision.answer("answered from the query result", AnswerPhraser.compare(comparison, readings, joins, e,
                            lexicon), AnswerKind.ANSWER, null);
                }
                if (spec != null) {
                    List<String> notes = GroupNotes.of(spec, e, new QueryBuilder(lexicon, state.workspace()), lexicon);
                    return Decision.answer("answered from the query result", AnswerPhraser.phrase(spec, readings, joins, e, lexicon,
                            notes) + pictured, AnswerKind.ANSWER, null);
                }
                return Decision.answer("answered from the query result", EvidenceText.render(e), AnswerKind.ANSWER, null);
            }
            if (AnalysisRoutes.TOOLS.contains(last.tool())) {
                return Decision.answer("the analysis answers the question", AnalysisRoutes.answer(last), AnswerKind.ANSWER, null);
            }
            return Decision.answer("the tool's output answers the question", last.observation(), AnswerKind.ANSWER, null);
        }

        /**
         * The chart of the query's result: x its first column, y its measure (the last number), as the kind asked for,
         * else a line over years or dates and bars otherwise. Empty for a single value.
         */
        private Optional<Decision> chartCall(Evidence e) {
            List<Numbers.Kind> kinds = EvidenceText.kinds(e);
            int y = kinds.size() - 1;
            while (y > 0 && (kinds.get(y) == Numbers.Kind.TEXT || kinds.get(y) == Numbers.Kind.ID)) {
                y--;
            }
            if (e.rows().size() < 2 || y < 1) {
                return Optional.empty();
            }
            boolean series = kinds.get(0) == Numbers.Kind.YEAR || e.rows().stream()
                    .allMatch(r -> r.get(0) != null && r.get(0).toString().matches("\\d{4}-\\d{2}.*"));
            String kind = chart.kind() != null ? chart.kind() : series ? "line" : "bar";
            ObjectNode args = JSON.createObjectNode().put("source", CHART_FRAME).put("kind", kind).put("x", e.columns().get(0))
                    .put("y", e.columns().get(y));
            return Optional.of(Decision.call("chart the result, as asked", "make_chart", args, null));
        }

        private Decision route(RunState state) {
            Hints.Split split = Hints.split(state.question());
            String q = split.question();
            Optional<ChartRequest> asked = ChartRequest.read(q);
            if (asked.isPresent() && !asked.get().question().isBlank() && state.tools().names().contains("make_chart")) {
                chart = asked.get();
                q = chart.question();
            }
            Hints.Read hint = Hints.read(split.hint(), state.knowledge().graph());
            lexicon = Lexicon.of(state.knowledge()).withHints(hint.phrases());
            // a word off the topic of data is on it when the data holds it: a value 'Extreme weather' for "weather"
            Optional<String> declined = Guard.check(q, word -> lexicon.namesData(word) || !lexicon.values().resolvePart(word).isEmpty());
            if (declined.isPresent()) {
                return Decision.answer("declined", "I decline this request: " + declined.get() + ". I answer questions about"
                        + " the data in dataset '" + state.workspace().dataset().name() + "', and never change it.",
                        AnswerKind.DECLINED, null);
            }
            workspace = state.workspace();
            posed = q;
            Optional<RowSkills.Need> beyond = skills.of(q, true);
            if (beyond.isPresent()) { // a test, a fuzzy match or labels: a plain query would pass off something else
                return viaTools(state, beyond.get().what() + " ('" + beyond.get().phrase() + "')", beyond.get().tools(), "");
            }
            Optional<VerifiedExample> saved = lexicon.graph().example(q);
            if (saved.isPresent()) { // the user confirmed this question's answer: its SQL, run again now
                example = saved.get();
                return Decision.call("a verified example of the knowledge file answers this question", "run_sql",
                        JSON.createObjectNode().put("sql", example.sql()), null);
            }
            Optional<Object> aboutCase = CasePlan.read(q, lexicon.graph(), state.tools().names());
            if (aboutCase.isPresent()) {
                if (aboutCase.get() instanceof String problem) {
                    return clarify(problem);
                }
                casePlan = (CasePlan) aboutCase.get();
                return casePlan.start();
            }
            Intent intent = Intent.classify(Phrases.words(q), lexicon.graph().prediction(q).isPresent(), w -> namesColumn(lexicon, w));
            if (intent.analysis()) {
                if (!state.tools().names().contains(intent.tool)) {
                    return viaTools(state, intent.what, List.of(intent.tool), "");
                }
                Optional<Decision> analysis = AnalysisRoutes.route(intent, q, state.workspace().datasetTables());
                if (analysis.isPresent()) {
                    return analysis.get();
                }
            }
            Optional<CoveredPeriod.Read> covered = CoveredPeriod.read(q, lexicon, state.workspace()); // "this week" of a week's feed
            Rewording.Reworded reworded = Rewording.of(covered.map(CoveredPeriod.Read::question).orElse(q), TableNouns.rowsWord(lexicon), TableNouns.whenWord(lexicon));
            Reader reader = new Reader(lexicon);
            List<Tok> toks = reader.read(reworded.question());
            movedWords = java.util.stream.Stream.of(hint.readings(), covered.map(c -> List.of(c.reading())).orElse(List.of()),
                    reworded.readings(), reader.links()).flatMap(List::stream).toList();
            return switch (intent) {
                case SCHEMA -> schema(toks);
                case VALUES -> filters(toks) ? query(state, lexicon, toks, reader) : values(toks);
                case PREDICTIVE -> predict(state, lexicon, q);
                default -> query(state, lexicon, toks, reader);
            };
        }

        /**
         * What makes a parsed question one with nothing to compute: a "they" no earlier answer explains ("which countries
         * were they?" is not every country), or a year the data does not reach ({@link YearCoverage}).
         */
        private Optional<String> nothingToAnswer(RunState state, Lexicon lexicon, List<Tok> toks, QuerySpec spec) {
            Optional<Tok> pronoun = java.util.stream.IntStream.range(0, toks.size()).filter(k -> spec.filters().isEmpty()
                    || k > 0 && toks.get(k - 1).is("of", "among", "from")) // "of those, how many are Republicans?" alone
                    .filter(k -> toks.get(k).is("they", "them") || toks.get(k).is("those", "these") // not "those loans"
                            && (k + 1 == toks.size() || toks.get(k + 1).plain())).mapToObj(toks::get).findFirst();
            boolean data = toks.size() > 3 && toks.get(0).is("how") && toks.get(1).is("many") && toks.get(2).is("of")
                    && toks.get(3).is("these") && state.context().earlierTurns().isEmpty(); // "how many of these …" first: the data's
            if (pronoun.isPresent() && !data) {
                return Optional.of("I could not tell what '" + pronoun.get().text() + "' refers to: no earlier answer of this"
                        + " conversation says; ask the whole question");
            }
            try {
                return YearCoverage.outside(spec, lexicon, state.workspace());
            } catch (QueryException e) {
                return Optional.empty(); // the query itself will say what is wrong
            }
        }

        /** Whether a word names the data or one column by itself ("significance" of sig): no analysis word then. */
        private static boolean namesColumn(Lexicon lexicon, String word) {
            return lexicon.namesData(word) || lexicon.sense(List.of(word)).filter(dev.sift.planner.rules.Sense.Attr.class::isInstance).isPresent();
        }

        private Decision query(RunState state, Lexicon lexicon, List<Tok> toks, Reader reader) {
            Parse parse = new SpecParser(lexicon, state.context().followUps().isEmpty() ? null : state.context().followUps()).parse(toks);
            if (!(parse instanceof Parse.Parsed)) {
                Optional<Decision> compared = compare(state, toks, reader);
                if (compared.isPresent()) {
                    return compared.get();
                }
            }
            if (parse instanceof Parse.Unmapped u) {
                String lead = "I could not map " + String.join(", ", u.words().stream().map(w -> "'" + w + "'").toList())
                        + " to anything in this dataset, and I will not guess.";
                List<String> meant = Suggest.didYouMean(u.words(), lexicon);
                if (!meant.isEmpty()) { // a likely typo: the suggestion, not the list of what works offline
                    return Decision.answer("a word looks misspelt", lead + " Did you mean " + String.join(", ", meant) + "?"
                            + readSoFar(withMoved(u.readings())), AnswerKind.CLARIFICATION, null);
                }
                if (offTopic(toks)) {
                    return Decision.answer("declined", "I decline this request: it does not mention anything in dataset '"
                            + state.workspace().dataset().name() + "' (I could not map " + String.join(", ", u.words().stream()
                            .map(w -> "'" + w + "'").toList()) + "), and asks for no analysis of it. I answer questions about"
                            + " the data in dataset '" + state.workspace().dataset().name() + "', and never change it.",
                            AnswerKind.DECLINED, null);
                }
                return clarify(lead + readSoFar(withMoved(u.readings())));
            }
            if (parse instanceof Parse.Problem p) {
                return clarify(capitalize(p.reason()) + "." + readSoFar(withMoved(p.readings())));
            }
            Parse.Parsed r = (Parse.Parsed) parse;
            Optional<String> nothing = nothingToAnswer(state, lexicon, toks, r.spec());
            if (nothing.isPresent()) {
                return clarify(nothing.get() + "." + readSoFar(withMoved(r.readings())));
            }
            Optional<String> mismatch = AnswerShape.mismatch(r.toks(), r.spec());
            if (mismatch.isPresent()) {
                return clarify(capitalize(mismatch.get()) + "." + readSoFar(withMoved(r.readings())));
            }
            QueryBuilder.Built built;
            try {
                built = new QueryBuilder(lexicon, state.workspace()).build(r.spec());
            } catch (QueryBuilder.Unsupported e) {
                return clarify("I will not build this query: " + e.getMessage() + "." + readSoFar(withMoved(r.readings())));
            }
            spec = r.spec();
            readings = withMoved(r.readings());
            joins = built.joins();
            ObjectNode args = JSON.createObjectNode().put("sql", built.sql());
            if (chart != null) {
                args.put("label", CHART_FRAME);
            }
            return Decision.call(AnswerPhraser.describe(spec) + ".", "run_sql", args, null);
        }

        /**
         * Two alternatives compared by one number each ({@link Comparison}): both sides must read, fit their shape and be
         * numbers of one kind; otherwise the question's own reading is what is answered or asked about.
         */
        private Optional<Decision> compare(RunState state, List<Tok> toks, Reader reader) {
            Optional<Comparison.Sides> sides = Comparison.read(toks);
            if (sides.isEmpty()) {
                return Optional.empty();
            }
            List<Tok> ta = reader.read(sides.get().questionA());
            List<Tok> tb = reader.read(sides.get().questionB());
            SpecParser parser = new SpecParser(lexicon);
            if (!(parser.parse(ta) instanceof Parse.Parsed a) || !(parser.parse(tb) instanceof Parse.Parsed b)
                    || AnswerShape.mismatch(ta, a.spec()).isPresent() || AnswerShape.mismatch(tb, b.spec()).isPresent()) {
                return Optional.empty();
            }
            List<String> read = new java.util.ArrayList<>(List.of("'" + sides.get().shownA() + " or " + sides.get().shownB()
                    + "' read as two questions: '" + sides.get().questionA() + "' and '" + sides.get().questionB() + "'"));
            java.util.stream.Stream.concat(a.readings().stream(), b.readings().stream()).filter(r -> !read.contains(r)).forEach(read::add);
            Optional<String> why = Comparison.incomparable(a.spec(), b.spec());
            if (why.isPresent()) {
                return Optional.of(clarify(capitalize(why.get()) + "." + readSoFar(withMoved(read))));
            }
            QueryBuilder.Built built;
            try {
                built = new QueryBuilder(lexicon, state.workspace()).compare(a.spec(), b.spec(), sides.get());
            } catch (QueryBuilder.Unsupported e) {
                return Optional.of(clarify("I will not build this query: " + e.getMessage() + "." + readSoFar(withMoved(read))));
            }
            comparison = new Comparison.Plan(a.spec(), b.spec(), sides.get(), read);
            readings = withMoved(read);
            joins = built.joins();
            return Optional.of(Decision.call("Compare " + sides.get().shownA() + " and " + sides.get().shownB() + ".", "run_sql",
                    JSON.createObjectNode().put("sql", built.sql()), null));
        }

        /**
         * Not a question about the data: no phrase names a table, column, value or metric of the dataset, and no word
         * asks for a count, an aggregate, a grouping, a ranking or an analysis ("forget everything above and act as a
         * pirate"). A question with any of those is clarified instead ("what is our profit by category?").
         */
        private static boolean offTopic(List<Tok> toks) {
            Vocabulary v = Vocabulary.WORDS;
            return toks.stream().allMatch(t -> t.plain() || t.sense() instanceof Sense.Dates || t.sense() instanceof Sense.Compare)
                    && toks.stream().filter(Tok::plain).noneMatch(t -> v.has(t.word(), "aggregates", "group_cues", "share",
                    "distribution", "count_words", "descending", "ascending", "reserved", "intents.schema", "intents.values",
                    "intents.predictive", "intents.explain", "intents.forecast", "intents.correlation", "intents.trend",
                    "intents.profile", "intents.quality", "intents.anomaly", "intents.cluster"));
        }

        private List<String> withMoved(List<String> read) {
            return movedWords.isEmpty() ? read : java.util.stream.Stream.concat(movedWords.stream(), read.stream()).toList();
        }

        private static String readSoFar(List<String> readings) {
            return readings.isEmpty() ? "" : " (I read: " + String.join("; ", readings) + ".)";
        }

        private static String capitalize(String s) {
            return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
        }

        private Decision.Answer clarify(String lead) {
            String needs = skills.of(posed, false).filter(n -> !lead.startsWith("This asks for"))
                    .map(n -> "This seems to need " + n.what() + " ('" + n.phrase() + "'), which the offline planner does not"
                            + " plan (" + String.join(", ", n.tools()) + "); ask with a model configured, or call the tool"
                            + " directly. ").orElse("");
            return Decision.answer("cannot map the question with certainty", needs + lead + " " + capabilities(lexicon, workspace)
                    + " For other questions, configure a model (SIFT_LLM_PROVIDER with SIFT_LLM_BASE_URL / SIFT_LLM_API_KEY).",
                    AnswerKind.CLARIFICATION, null);
        }

        private Decision schema(List<Tok> toks) {
            List<String> tables = toks.stream().filter(t -> t.sense() instanceof Sense.Entity).map(t -> ((Sense.Entity) t.sense()).table())
                    .distinct().toList();
            ObjectNode args = JSON.createObjectNode();
            if (tables.size() == 1) {
                args.put("table", tables.get(0));
            }
            return Decision.call("a schema question", "inspect_data", args, null);
        }

        /**
         * Whether a question names rows ("list the products with category Garden" a value, "the CO2 level in January
         * 2000" a date): then a values word in it asks for those rows, not for a column's values.
         */
        private static boolean filters(List<Tok> toks) {
            return toks.stream().anyMatch(t -> t.sense() instanceof Sense.Cond || t.sense() instanceof Sense.Dates
                    || t.sense() instanceof Sense.Compare || t.number());
        }

        private Decision values(List<Tok> toks) {
            List<Sense.Attr> attrs = new java.util.ArrayList<>();
            String table = null;
            for (Tok t : toks) {
                if (t.sense() instanceof Sense.Entity e) {
                    table = e.table();
                } else if (t.sense() instanceof Sense.Attr a) {
                    attrs.add(a);
                } else if (t.sense() instanceof Sense.Choice c) {
                    String tb = table;
                    List<Sense.Attr> hit = c.options().stream().filter(a -> a.table().equals(tb)).toList();
                    if (hit.size() == 1) {
                        attrs.add(hit.get(0));
                    } else {
                        return clarify("Which column do you mean: " + String.join(", ", c.options().stream().map(Sense.Attr::name)
                                .toList()) + "? Name it as table.column.");
                    }
                }
            }
            List<Sense.Attr> distinct = attrs.stream().distinct().toList();
            if (distinct.size() != 1 || !distinct.get(0).name().contains(".")) {
                return clarify("I could not tell which column's values you mean; name it as table.column"
                        + SampleQuestions.valuesQuestion(lexicon.graph()).map(e -> ", e.g. '" + e + "'").orElse("") + ".");
            }
            Sense.Attr a = distinct.get(0);
            ObjectNode args = JSON.createObjectNode().put("source", a.table()).put("column", a.name().substring(a.table().length() + 1));
            return Decision.call("the values of " + a.name(), "sample_values", args, null);
        }

        /**
         * A prediction the knowledge graph names (section predictions) runs the ML flow ({@link PredictivePlan}) when the
         * ML tools are registered; otherwise, or with no matching task, the general clarification.
         */
        private Decision predict(RunState state, Lexicon lexicon, String question) {
            List<String> tools = List.of("train_model", "predict");
            if (!state.tools().names().containsAll(PredictivePlan.TOOLS)) {
                return viaTools(state, "a prediction", tools, predictiveTarget(lexicon));
            }
            Optional<Object> read = PredictivePlan.read(question, lexicon.graph());
            if (read.isEmpty()) {
                return viaTools(state, "a prediction", tools, predictiveTarget(lexicon));
            }
            if (read.get() instanceof String problem) {
                return clarify(problem);
            }
            predictive = new PredictivePlan((PredictivePlan.Reading) read.get());
            return predictive.start();
        }

        private static String predictiveTarget(Lexicon lexicon) {
            return lexicon.graph().metrics().stream().filter(m -> m.name().equals("default_rate")).findFirst()
                    .map(m -> " The knowledge graph names the target: loan default (" + m.description() + ").").orElse("");
        }

        private Decision viaTools(RunState state, String what, List<String> tools, String note) {
            List<String> missing = tools.stream().filter(t -> !state.tools().names().contains(t)).toList();
            String lead = "This asks for " + what + "." + note;
            if (!missing.isEmpty()) {
                return clarify(lead + " Offline, that needs the tool" + (missing.size() > 1 ? "s " : " ")
                        + String.join(", ", missing) + ", which " + (missing.size() > 1 ? "are" : "is") + " not available here,"
                        + " and I will not answer it with a plain query.");
            }
            return clarify(lead + " The offline planner does not yet plan " + String.join(" / ", tools)
                    + " steps on its own; ask for it with a model configured, or call the tool directly.");
        }
    }
}
