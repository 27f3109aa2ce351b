package dev.sift.bench.datagen;

import dev.sift.bench.suite.ResultMatcher;
import dev.sift.bench.suite.Suite;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * Writes a question suite from a dataset, in stages: the {@link Inventory} of what the data holds, {@link Templates}
 * instantiated with real values, each gold query run on the data (a draft whose gold is empty, all NULL, too long
 * to compare or tied at its cut is dropped), optionally a {@link RoundTrip} through a model, three or four
 * {@link Wordings} per kept draft, follow-up
 * {@link Conversations}, and predictive items where the knowledge graph has a prediction task. The same dataset,
 * seed and size give the same file, byte for byte.
 */
public final class Datagen {
    /** The share of scored items that are turns of conversations (the floor is 20 %). */
    static final double CONVERSATION_SHARE = 0.25;
    /** Gold results longer than this are not compared by hand: a listing of more rows is dropped. */
    static final int MAX_GOLD_ROWS = 25;

    /** What to generate: about {@code n} scored items from {@code seed}. */
    public record Options(int n, long seed) {
        public Options {
            if (n < 12) {
                throw new IllegalArgumentException("--n must be at least 12 (three wordings of four questions), got " + n);
            }
        }
    }

    /**
     * The generated suite and what the stages kept and dropped, per template: {@code dropped} by their gold query,
     * {@code unread} by the round-trip stage (empty without it).
     */
    public record Result(GeneratedSuite suite, Map<String, Integer> kept, Map<String, Integer> dropped,
                         Map<String, Integer> unread) { }

    private final Workspace ws;
    private final KnowledgeGraph kg;
    private final RoundTrip roundTrip;
    private final Map<String, Integer> unread = new LinkedHashMap<>();

    public Datagen(Workspace ws, KnowledgeGraph kg) {
        this(ws, kg, null);
    }

    /** With {@code roundTrip} set, a question is kept only when that model reads its answer back from the gold result. */
    public Datagen(Workspace ws, KnowledgeGraph kg, LlmClient roundTrip) {
        this.ws = ws;
        this.kg = kg;
        this.roundTrip = roundTrip == null ? null : new RoundTrip(roundTrip);
    }

    /** @throws LlmException when the round-trip model cannot be reached: the suite is not written half-checked */
    public Result generate(Options options) throws QueryException, LlmException {
        unread.clear();
        Inventory inv = Inventory.read(ws, kg);
        Random rnd = new Random(options.seed());
        Map<String, Integer> kept = new LinkedHashMap<>();
        Map<String, Integer> dropped = new LinkedHashMap<>();
        List<Suite.Dialogue> chats = new Conversations(inv, rnd, this::goldOk)
                .compose((int) Math.ceil(options.n() * CONVERSATION_SHARE));
        List<Suite.Item> predictive = Predictive.items(inv, this::goldRuns);
        int turns = chats.stream().mapToInt(c -> c.turns().size()).sum();
        int rest = Math.max(1, options.n() - turns - predictive.size());
        List<Draft> chosen = choose(new Templates(inv, rnd, this::scalar).all(), (int) Math.ceil(rest / 3.0), rnd, dropped);
        List<Suite.Item> items = worded(chosen, LexicalWording.of(inv, kg), rest, kept);
        items.addAll(predictive);
        return new Result(new GeneratedSuite(ws.dataset(), options, items, chats), kept, dropped, Map.copyOf(unread));
    }

    /**
     * Each draft's items in its three wordings, and a fourth ({@link Wordings#WORDNET}) when WordNet rewords it, until
     * there are {@code wanted} items; {@code kept} counts the drafts used, per template.
     */
    private static List<Suite.Item> worded(List<Draft> chosen, LexicalWording lexical, int wanted, Map<String, Integer> kept) {
        List<Suite.Item> items = new ArrayList<>();
        Map<String, Integer> numbers = new LinkedHashMap<>();
        for (Draft d : chosen) {
            if (items.size() >= wanted) {
                break;
            }
            int k = numbers.merge(d.template(), 1, Integer::sum);
            kept.merge(d.template(), 1, Integer::sum);
            List<String> texts = new ArrayList<>(d.wordings());
            List<String> labels = new ArrayList<>(Wordings.LABELS);
            String reworded = lexical.reword(d.wordings().get(0));
            if (reworded != null) {
                texts.add(reworded);
                labels.add(Wordings.WORDNET);
            }
            for (int w = 0; w < texts.size(); w++) {
                String id = String.format("%s-%02d-%s", d.template(), k, labels.get(w));
                items.add(new Suite.Item(id, d.tier(), texts.get(w), d.goldSql(), null, d.scoring(),
                        d.scoring() == Suite.Scoring.NUMERIC ? Suite.NUMERIC_TOLERANCE : Suite.ROW_SET_TOLERANCE, null,
                        d.template(), labels.get(w)));
            }
        }
        return items;
    }

    /** Round-robin over the templates (each list shuffled by the seed) until {@code wanted} drafts pass their checks. */
    private List<Draft> choose(List<List<Draft>> byTemplate, int wanted, Random rnd, Map<String, Integer> dropped)
            throws LlmException {
        List<List<Draft>> queues = new ArrayList<>();
        for (List<Draft> drafts : byTemplate) {
            List<Draft> q = new ArrayList<>(drafts);
            Collections.shuffle(q, rnd);
            queues.add(q);
        }
        List<Draft> out = new ArrayList<>();
        Set<String> golds = new HashSet<>();
        boolean progress = true;
        while (out.size() < wanted && progress) {
            progress = false;
            for (List<Draft> q : queues) {
                while (!q.isEmpty() && out.size() < wanted) {
                    Draft d = q.remove(0);
                    if (!golds.add(d.goldSql()) || !goldOk(d)) {
                        dropped.merge(d.template(), 1, Integer::sum);
                    } else if (readBack(d)) {
                        out.add(d);
                        progress = true;
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** Whether a draft's gold query runs and gives one clear answer. */
    boolean goldOk(Draft d) {
        try {
            QueryResult r = ws.trustedQuery(d.goldSql(), MAX_GOLD_ROWS + 1);
            if (r.rows().isEmpty() || r.rows().size() > MAX_GOLD_ROWS || allNull(r)) {
                return false;
            }
            if (d.scoring() == Suite.Scoring.NUMERIC && (r.rows().size() != 1 || r.columns().size() != 1
                    || ResultMatcher.number(r.rows().get(0).get(0)) == null)) {
                return false;
            }
            return d.tieCheck() == null || noTieAtCut(ws.trustedQuery(d.tieCheck(), MAX_GOLD_ROWS + 1));
        } catch (QueryException e) {
            return false;
        }
    }

    /**
     * Whether the round-trip model answers the draft's plain question from its gold result with every value of it
     * (true without the stage); a draft it cannot read back is counted in {@code unread}.
     */
    private boolean readBack(Draft d) throws LlmException {
        if (roundTrip == null) {
            return true;
        }
        try {
            if (roundTrip.readsBack(d.wordings().get(0), d.goldSql(), ws.trustedQuery(d.goldSql(), MAX_GOLD_ROWS))) {
                return true;
            }
        } catch (QueryException e) {
            return false; // it ran in goldOk a moment ago: only a timeout under load gets here
        }
        unread.merge(d.template(), 1, Integer::sum);
        return false;
    }

    /** A predictive item's gold (the entities to score) must run and list at least one entity. */
    boolean goldRuns(String sql) {
        try {
            return !ws.trustedQuery(sql, 1).rows().isEmpty();
        } catch (QueryException e) {
            return false;
        }
    }

    Object scalar(String sql) {
        try {
            QueryResult r = ws.trustedQuery(sql, 1);
            return r.rows().isEmpty() ? null : r.rows().get(0).get(0);
        } catch (QueryException e) {
            return null;
        }
    }

    private static boolean allNull(QueryResult r) {
        return r.rows().stream().allMatch(row -> row.stream().allMatch(Objects::isNull));
    }

    /** The last two values of the tie check differ: the row at the cut is not tied with the first row past it. */
    private static boolean noTieAtCut(QueryResult r) {
        int n = r.rows().size();
        if (n < 2) {
            return n == 1;
        }
        return !Objects.equals(r.rows().get(n - 1).get(0), r.rows().get(n - 2).get(0));
    }
}
