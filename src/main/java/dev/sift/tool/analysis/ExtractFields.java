package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.data.FixableException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
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
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pulls typed fields out of each row's text with the planner's model, in batches like {@link ClassifyRows}: ids echoed
 * and checked, a value not of its field's type sent back once, a sample read twice and the agreement reported,
 * answers cached per model, instruction and text. The fields are frame {@code fields_<source>} ({@code id} and one
 * typed column per field, NULL where the text does not say). Needs a model: offline it says so.
 */
public final class ExtractFields implements Tool<ExtractFields.Args> {
    static final int MAX_FIELDS = 20;
    static final Map<String, String> TYPES = Map.of("text", "VARCHAR", "integer", "BIGINT", "number", "DOUBLE",
            "date", "DATE", "boolean", "BOOLEAN");

    public record Args(
            @Arg(value = "table or frame whose rows are read", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "the text column(s) the fields are read from", aliases = {"text", "column"},
                    kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "the fields: {\"amount\": \"number: the amount charged\", \"due\": \"date: when payment is"
                    + " due\"}; types text, integer, number, date, boolean") JsonNode fields,
            @Arg(value = "column identifying each row (default: the one named id or *_id)", required = false,
                    kind = Arg.Kind.COLUMN) String id,
            @Arg(value = "SQL condition choosing the rows", required = false, aliases = {"where"}) String filter,
            @Arg(value = "extra guidance for the model, one or two sentences", required = false) String instruction,
            @Arg(value = "refuse when more rows match (default 2000, at most 20000)", required = false) Integer max_rows) {
    }

    /** One field to pull: its name, type (a key of {@link #TYPES}) and what it means. */
    record Field(String name, String type, String description) { }

    /** What an extraction did. */
    public record Result(String source, int rows, List<String> fields, Map<String, Integer> filled, int requests,
                         long tokens, int fromCache, int retried, int checked, int agreed, String estimate, String frame) { }

    private final RowCache cache;

    /** @param cacheDir where answers are kept across runs; null keeps them for this instance only */
    public ExtractFields(Path cacheDir) {
        this.cache = new RowCache(cacheDir);
    }

    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("extract_fields", "Pull typed fields (amounts, dates, names, yes/no) out of each row's free"
                + " text with the model, in batches, NULL where the text does not say. Cost estimate, a row bound"
                + " (max_rows), cached reruns and a consistency check. Kept as frame fields_<source> (id and one column"
                + " per field).", Args.class, "fields per row", Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        List<Field> fields = fields(args.fields());
        LlmClient llm = ctx.llm().orElseThrow(() -> new ToolCallException("extract_fields needs a language model (set"
                + " SIFT_LLM_PROVIDER and its model); without one no field can be read from free text. Use run_sql with"
                + " the text macros (word_date, text_list, bare_id) or regexp_extract where the text has a fixed form, or"
                + " say the fields cannot be read offline."));
        List<ModelRows.Row> rows = ModelRows.read(ws, t, args.id(), args.columns(), args.filter(), args.max_rows(),
                "extract_fields");
        String idCol = ModelRows.idColumn(t, args.id());
        StringBuilder list = new StringBuilder();
        fields.forEach(f -> list.append("- ").append(f.name()).append(", ").append(f.type()).append(": ")
                .append(f.description()).append('\n'));
        String system = PromptTemplate.load("extract_fields").render(Map.of("fields", list.toString().strip(),
                "instruction", args.instruction() == null || args.instruction().isBlank() ? ""
                        : "\n" + args.instruction().strip()));
        RowModelCalls.Passes read = RowModelCalls.read(llm, cache, system, e -> check(fields, e), ctx.progress(),
                "extract_fields: rows read", rows, "fields", fields.stream().map(Field::name).toList());
        RowModelCalls.Outcome main = read.main();
        String frame = RowsFrame.label("fields", t.name());
        Map<String, Integer> filled = write(ws, t, idCol, frame, fields, rows, main);
        Result r = new Result(t.name(), rows.size(), fields.stream().map(Field::name).toList(), filled,
                read.requests(), read.tokens(), main.fromCache(), main.retried(), read.checked(), read.agreed(),
                read.estimate(), frame);
        QueryResult shown = ws.trustedQuery("SELECT * FROM frames." + Sql.quoteIdent(frame) + " LIMIT " + Evidence.MAX_ROWS,
                Evidence.MAX_ROWS);
        ctx.addEvidence(Evidence.of(shown, frame));
        return ToolResult.ok(summary(r, t, idCol, llm, shown), r, ToolResult.withCaveat(Map.of("model_requests",
                r.requests(), "model_tokens", r.tokens()), Optional.of("The fields came from the language model reading"
                + " each row (" + llm.label() + "), not from columns of the data.")));
    }

    /** Writes the frame (id and a typed column per field); returns how many rows have each field. */
    private static Map<String, Integer> write(Workspace ws, TableInfo t, String idCol, String frame, List<Field> fields,
                                              List<ModelRows.Row> rows, RowModelCalls.Outcome main) throws FixableException {
        List<QueryResult.Column> cols = new ArrayList<>();
        cols.add(new QueryResult.Column("id", ClassifyRows.idValue(t, idCol, "0") instanceof Long ? "BIGINT" : "VARCHAR"));
        fields.forEach(f -> cols.add(new QueryResult.Column(f.name(), TYPES.get(f.type()))));
        List<Object[]> out = new ArrayList<>();
        Map<String, Integer> filled = new java.util.LinkedHashMap<>();
        fields.forEach(f -> filled.put(f.name(), 0));
        for (ModelRows.Row row : rows) {
            Object[] o = new Object[fields.size() + 1];
            o[0] = ClassifyRows.idValue(t, idCol, row.id());
            JsonNode v = main.values().get(row.id());
            for (int i = 0; i < fields.size(); i++) {
                o[i + 1] = v == null ? null : value(fields.get(i), v.path(fields.get(i).name()));
                if (o[i + 1] != null) {
                    filled.merge(fields.get(i).name(), 1, Integer::sum);
                }
            }
            out.add(o);
        }
        ws.writeFrame(frame, cols, out);
        return filled;
    }

    /** The fields argument: an object {name: "type: description"} or a list of {name, type, description}. */
    static List<Field> fields(JsonNode given) throws ToolCallException {
        List<Field> out = new ArrayList<>();
        if (given != null && given.isObject()) {
            for (var it = given.fields(); it.hasNext(); ) {
                var f = it.next();
                String spec = f.getValue().asText("");
                int colon = spec.indexOf(':');
                out.add(new Field(f.getKey().strip(), (colon < 0 ? "text" : spec.substring(0, colon)).strip()
                        .toLowerCase(Locale.ROOT), (colon < 0 ? spec : spec.substring(colon + 1)).strip()));
            }
        } else if (given != null && given.isArray()) {
            for (JsonNode n : given) {
                out.add(new Field(n.path("name").asText("").strip(), n.path("type").asText("text").strip()
                        .toLowerCase(Locale.ROOT), n.path("description").asText("").strip()));
            }
        }
        if (out.isEmpty() || out.size() > MAX_FIELDS) {
            throw new ToolCallException("fields: give 1 to " + MAX_FIELDS + " fields, e.g. {\"amount\": \"number: the"
                    + " amount charged\", \"due\": \"date: when payment is due\"}; got " + out.size() + ".");
        }
        for (Field f : out) {
            if (!f.name().matches("[A-Za-z_][A-Za-z0-9_]*") || f.name().equalsIgnoreCase("id")) {
                throw new ToolCallException("fields: '" + f.name() + "' is not a usable column name (letters, digits and"
                        + " '_', not 'id').");
            }
            if (!TYPES.containsKey(f.type())) {
                throw new ToolCallException("fields: type '" + f.type() + "' of " + f.name() + " is not one of "
                        + String.join(", ", new java.util.TreeSet<>(TYPES.keySet())) + ".");
            }
        }
        return out;
    }

    private static RowModelCalls.Checked check(List<Field> fields, JsonNode entry) {
        ObjectNode kept = JsonNodeFactory.instance.objectNode();
        for (Field f : fields) {
            JsonNode v = entry.path(f.name());
            if (v.isMissingNode() || v.isNull()) {
                kept.putNull(f.name());
            } else if (value(f, v) == null) {
                return RowModelCalls.Checked.bad(f.name() + " " + v + " is not a " + f.type() + (f.type().equals("date")
                        ? " written YYYY-MM-DD" : "") + " (or null)");
            } else {
                kept.set(f.name(), v);
            }
        }
        return RowModelCalls.Checked.ok(kept);
    }

    /** The JSON value as its field's type; null when it is null or not of that type. */
    static Object value(Field f, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        String s = v.asText().strip();
        try {
            return switch (f.type()) {
                case "integer" -> v.isIntegralNumber() ? (Object) v.asLong()
                        : v.isNumber() && v.asDouble() == Math.rint(v.asDouble()) ? (Object) (long) v.asDouble()
                        : Long.valueOf(s.replace(",", ""));
                case "number" -> v.isNumber() ? v.asDouble() : Double.valueOf(s.replace(",", ""));
                case "date" -> LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s);
                case "boolean" -> v.isBoolean() ? v.asBoolean() : s.equalsIgnoreCase("true") ? Boolean.TRUE
                        : s.equalsIgnoreCase("false") ? Boolean.FALSE : null;
                default -> s.isEmpty() ? null : s;
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            return null;
        }
    }

    private static String summary(Result r, TableInfo t, String idCol, LlmClient llm, QueryResult shown) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "Read %s from %,d rows of %s with the model %s."
                + " Estimate: %s; made %,d requests (%,d tokens), %,d rows from the cache, %,d rows sent again.",
                String.join(", ", r.fields()), r.rows(), t.name(), llm.label(), r.estimate(), r.requests(), r.tokens(),
                r.fromCache(), r.retried()));
        b.append(" Filled:");
        r.filled().forEach((k, v) -> b.append(' ').append(k).append(' ').append(v).append(',').append(""));
        b.setLength(b.length() - 1);
        b.append(" of ").append(r.rows()).append('.');
        b.append(r.checked() == 0 ? " Consistency: too few rows to re-check." : String.format(Locale.ROOT,
                " Consistency: %d field values read again, %d agree (%.0f%%).", r.checked(), r.agreed(),
                100.0 * r.agreed() / r.checked()));
        b.append('\n').append(ResultText.render(shown, 8));
        return b.append("\nKept as frames.").append(r.frame()).append(" (id, ").append(String.join(", ", r.fields()))
                .append("); join ").append(t.name()).append('.').append(idCol).append(" = id. Say in the answer that the"
                        + " fields came from the model.").toString();
    }
}
