package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sift.data.FixableException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Embeddings;
import dev.sift.llm.LlmClient;
import dev.sift.llm.PromptTemplate;
import dev.sift.text.Evidence;
import dev.sift.text.ResultText;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Labels each row of a table or frame with one of a set of labels, each given with its meaning: the planner's model
 * reads the rows in batches (ids echoed and checked, labels outside the set sent back once), a random sample is
 * labelled a second time and the agreement reported, and answers are cached per model, instruction and row text.
 * Offline, the shipped embedding model labels by similarity to each meaning, said to be approximate. The labels are
 * frame {@code labels_<source>} ({@code id, label, confidence, margin, method}), which {@code run_sql} joins.
 */
public final class ClassifyRows implements Tool<ClassifyRows.Args> {
    static final int MAX_LABELS = 50;

    public record Args(
            @Arg(value = "table or frame whose rows are labelled", aliases = {"table"}, kind = Arg.Kind.SOURCE)
            String source,
            @Arg(value = "the text column(s) the label is read from", aliases = {"text", "column"},
                    kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "the labels, each with a one-line meaning: {\"billing\": \"about charges, invoices or"
                    + " refunds\", …}") JsonNode labels,
            @Arg(value = "column identifying each row (default: the one named id or *_id)", required = false,
                    kind = Arg.Kind.COLUMN) String id,
            @Arg(value = "SQL condition choosing the rows, e.g. \"year = 2023\"", required = false, aliases = {"where"})
            String filter,
            @Arg(value = "extra guidance for the model, one or two sentences", required = false) String instruction,
            @Arg(value = "refuse when more rows match (default 2000, at most 20000)", required = false) Integer max_rows) {
    }

    /** What a labelling did: rows, labels counted, and what it cost. */
    public record Result(String source, int rows, Map<String, Long> counts, int unlabelled, String method, int requests,
                         long tokens, int fromCache, int retried, int checked, int agreed, String estimate, String frame) { }

    private final RowCache cache;

    /** @param cacheDir where answers are kept across runs; null keeps them for this instance only */
    public ClassifyRows(Path cacheDir) {
        this.cache = new RowCache(cacheDir);
    }

    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("classify_rows", "Label each row by its text with one of your labels (each with its"
                + " meaning), read by the model in batches: for topics, sentiment, categories no column holds. Cost"
                + " estimate, a row bound (max_rows), cached reruns and a consistency check. Kept as frame"
                + " labels_<source> (id, label, confidence): join it to count or filter by label.", Args.class,
                "label per row", Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        Map<String, String> labels = labels(args.labels());
        List<ModelRows.Row> rows = ModelRows.read(ws, t, args.id(), args.columns(), args.filter(), args.max_rows(),
                "classify_rows");
        String idCol = ModelRows.idColumn(t, args.id());
        String frame = RowsFrame.label("labels", t.name());
        Result r;
        if (ctx.llm().isEmpty()) {
            r = offline(ws, t, idCol, labels, rows, frame, ctx);
        } else {
            r = withModel(ws, t, idCol, labels, rows, frame, args.instruction(), ctx);
        }
        QueryResult counts = ws.trustedQuery("SELECT label, count(*) AS n FROM frames." + Sql.quoteIdent(frame)
                + " GROUP BY label ORDER BY n DESC, label", MAX_LABELS + 2);
        ctx.addEvidence(Evidence.of(counts, frame));
        String caveat = r.method().startsWith("model")
                ? "The labels came from the language model reading each row (" + r.method().substring(6) + "), not from"
                + " a column of the data."
                : "The labels are approximate: assigned by embedding similarity to each label's meaning (no language"
                + " model configured), not read by a model.";
        return ToolResult.ok(summary(r, t, idCol, counts, args.columns()), r,
                ToolResult.withCaveat(Map.of("model_requests", r.requests(), "model_tokens", r.tokens()),
                        java.util.Optional.of(caveat)));
    }

    private Result withModel(Workspace ws, TableInfo t, String idCol, Map<String, String> labels, List<ModelRows.Row> rows,
                             String frame, String instruction, ToolContext ctx) throws FixableException, InterruptedException {
        LlmClient llm = ctx.llm().orElseThrow();
        StringBuilder list = new StringBuilder();
        labels.forEach((k, v) -> list.append("- ").append(k).append(": ").append(v).append('\n'));
        String system = PromptTemplate.load("classify_rows").render(Map.of("labels", list.toString().strip(),
                "instruction", instruction == null || instruction.isBlank() ? "" : "\n" + instruction.strip()));
        RowModelCalls.EntryCheck check = e -> {
            String label = e.path("label").asText("").strip();
            String known = labels.keySet().stream().filter(l -> l.equalsIgnoreCase(label)).findFirst().orElse(null);
            if (known == null) {
                return RowModelCalls.Checked.bad("label '" + label + "' is not one of " + String.join(", ", labels.keySet()));
            }
            double conf = e.path("confidence").isNumber() ? Math.max(0, Math.min(1, e.path("confidence").asDouble())) : -1;
            return RowModelCalls.Checked.ok(JsonNodeFactory.instance.objectNode().put("label", known)
                    .put("confidence", conf));
        };
        RowModelCalls.Passes read = RowModelCalls.read(llm, cache, system, check, ctx.progress(), "classify_rows: rows"
                + " labelled", rows, "label", List.of("label"));
        RowModelCalls.Outcome main = read.main();
        List<Object[]> out = new ArrayList<>();
        for (ModelRows.Row row : rows) {
            JsonNode v = main.values().get(row.id());
            double conf = v == null ? -1 : v.path("confidence").asDouble(-1);
            out.add(new Object[] {idValue(t, idCol, row.id()), v == null ? null : v.path("label").asText(),
                    conf < 0 ? null : conf, null, "model"});
        }
        write(ws, t, idCol, frame, out);
        return new Result(t.name(), rows.size(), counts(out), (int) out.stream().filter(o -> o[1] == null).count(),
                "model " + llm.label(), read.requests(), read.tokens(), main.fromCache(), main.retried(), read.checked(),
                read.agreed(), read.estimate(), frame);
    }

    private static Result offline(Workspace ws, TableInfo t, String idCol, Map<String, String> labels,
                                  List<ModelRows.Row> rows, String frame, ToolContext ctx) throws FixableException {
        Embeddings model = Embeddings.load();
        if (model == null) {
            throw new ToolCallException("classify_rows needs a language model (set SIFT_LLM_PROVIDER and its model) or"
                    + " the embedding add-on (a build with 'mvn -Pembeddings package'); neither is available, so the rows"
                    + " cannot be labelled. Answer from columns that hold the category, or say what is missing.");
        }
        Map<String, EmbeddingLabels.Labelled> got = EmbeddingLabels.label(model, labels, rows, ctx.progress());
        List<Object[]> out = new ArrayList<>();
        for (ModelRows.Row row : rows) {
            EmbeddingLabels.Labelled l = got.get(row.id());
            out.add(new Object[] {idValue(t, idCol, row.id()), l.label(), l.similarity(), l.margin(),
                    "embedding similarity (approximate)"});
        }
        write(ws, t, idCol, frame, out);
        return new Result(t.name(), rows.size(), counts(out), 0, "embedding similarity (approximate)", 0, 0, 0, 0, 0, 0,
                String.format(Locale.ROOT, "%,d rows, no model requests", rows.size()), frame);
    }

    /** The labels argument as label → meaning: an object, or a list of "label: meaning" strings. */
    static Map<String, String> labels(JsonNode given) throws ToolCallException {
        Map<String, String> out = new LinkedHashMap<>();
        if (given != null && given.isObject()) {
            given.fields().forEachRemaining(f -> out.put(f.getKey().strip(), f.getValue().asText("").strip()));
        } else if (given != null && given.isArray()) {
            for (JsonNode n : given) {
                String s = n.asText("");
                int colon = s.indexOf(':');
                out.put((colon < 0 ? s : s.substring(0, colon)).strip(), colon < 0 ? "" : s.substring(colon + 1).strip());
            }
        }
        out.remove("");
        if (out.size() < 2 || out.size() > MAX_LABELS) {
            throw new ToolCallException("labels: give 2 to " + MAX_LABELS + " labels, each with a one-line meaning, e.g."
                    + " {\"billing\": \"charges, invoices, refunds\", \"bug\": \"something does not work\"}; got "
                    + out.size() + ".");
        }
        if (out.keySet().stream().anyMatch(EmbeddingLabels.UNCERTAIN::equalsIgnoreCase)) {
            throw new ToolCallException("labels: 'uncertain' is kept for rows no label fits clearly; name the label"
                    + " otherwise.");
        }
        return out;
    }

    static Object idValue(TableInfo t, String idCol, String id) {
        return integerId(t, idCol) ? Long.valueOf(id) : id;
    }

    private static boolean integerId(TableInfo t, String idCol) {
        String type = t.column(idCol).orElseThrow().type().toUpperCase(Locale.ROOT);
        return Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER").contains(type);
    }

    private static void write(Workspace ws, TableInfo t, String idCol, String frame, List<Object[]> rows)
            throws FixableException {
        ws.writeFrame(frame, List.of(new QueryResult.Column("id", integerId(t, idCol) ? "BIGINT" : "VARCHAR"),
                new QueryResult.Column("label", "VARCHAR"), new QueryResult.Column("confidence", "DOUBLE"),
                new QueryResult.Column("margin", "DOUBLE"), new QueryResult.Column("method", "VARCHAR")), rows);
    }

    private static Map<String, Long> counts(List<Object[]> rows) {
        Map<String, Long> out = new LinkedHashMap<>();
        rows.forEach(r -> out.merge(r[1] == null ? "(none)" : (String) r[1], 1L, Long::sum));
        return out;
    }

    private static String summary(Result r, TableInfo t, String idCol, QueryResult counts, List<String> cols) {
        StringBuilder b = new StringBuilder();
        boolean model = r.method().startsWith("model");
        b.append(String.format(Locale.ROOT, "Labelled %,d rows of %s (%s) by %s.", r.rows(), t.name(),
                String.join(", ", cols), r.method()));
        if (model) {
            b.append(String.format(Locale.ROOT, " Estimate: %s; made %,d requests (%,d tokens), %,d rows from the cache,"
                    + " %,d rows sent again (missing or a label outside the set), %,d left unlabelled.", r.estimate(),
                    r.requests(), r.tokens(), r.fromCache(), r.retried(), r.unlabelled()));
            b.append(r.checked() == 0 ? " Consistency: too few rows to re-check."
                    : String.format(Locale.ROOT, " Consistency: %d sampled rows labelled again, %d agree (%.0f%%).",
                    r.checked(), r.agreed(), 100.0 * r.agreed() / r.checked()));
        } else {
            b.append(" Approximate: each row took the label whose meaning is most similar to its text; rows whose best"
                    + " label beats the runner-up by less than ").append(EmbeddingLabels.UNCERTAIN_MARGIN)
                    .append(" similarity are 'uncertain' (margin column).");
        }
        b.append("\n").append(ResultText.render(counts, MAX_LABELS + 2));
        b.append("\nKept as frames.").append(r.frame()).append(" (id, label, confidence, margin, method); join ")
                .append(t.name()).append('.').append(idCol).append(" = id. ")
                .append(model ? "Say in the answer that the labels came from the model."
                        : "Say in the answer that the labels are approximate (embedding similarity).");
        return b.toString();
    }
}
