package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeGraph;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dataset's knowledge graph as the app shows it, and what a person teaches it there: a synonym, an approved join,
 * a metric, an answer marked right. Every change goes into the dataset's knowledge file through the same editor as
 * {@code sift ask --save} (comments kept; written only when the edited file still fits the live data, else 400 naming
 * the entry and the fix).
 */
final class KnowledgeRoutes {
    private final WebContext web;

    KnowledgeRoutes(WebContext web) {
        this.web = web;
    }

    void register(RoutesConfig r) {
        r.get("/api/datasets/{name}/kg", this::show);
        r.post("/api/datasets/{name}/kg/synonyms", this::addSynonym);
        r.post("/api/datasets/{name}/kg/joins", this::approveJoin);
        r.post("/api/datasets/{name}/kg/metrics", this::addMetric);
        r.post("/api/runs/{id}/save", this::save);
    }

    private Dataset dataset(Context ctx) throws Exception {
        return dataset(ctx.pathParam("name"));
    }

    private Dataset dataset(String name) throws Exception {
        java.util.Optional<Dataset> d = web.sift().store().find(name);
        if (d.isEmpty()) {
            throw web.noDataset(name);
        }
        return d.get();
    }

    private void show(Context ctx) throws Exception {
        Dataset d = dataset(ctx);
        Path file = web.sift().knowledge().userPath(d);
        try (Workspace ws = web.sift().open(d)) {
            KnowledgeGraph g = web.sift().knowledge().of(ws).graph();
            ctx.json(KgView.of(g, file == null ? null : file.toString(), file != null && Files.isRegularFile(file)));
        }
    }

    /** {"phrase": "buyers", "table": "customers"} or {"phrase": "price", "column": "products.unit_price"}. */
    private void addSynonym(Context ctx) throws Exception {
        Dataset d = dataset(ctx);
        JsonNode b = Requests.object(ctx);
        String phrase = required(b, "phrase", "{\"phrase\": \"buyers\", \"table\": \"customers\"}");
        String table = text(b, "table");
        String column = text(b, "column");
        if ((table == null) == (column == null)) {
            throw ApiError.badRequest("Name what '" + phrase + "' means: either \"table\" (e.g. \"customers\") or \"column\""
                    + " as table.column (e.g. \"products.unit_price\"), not both.");
        }
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", name(phrase));
        item.put("synonyms", List.of(phrase));
        item.put(table != null ? "table" : "column", table != null ? table : column);
        added(ctx, d, "concepts", item);
    }

    /**
     * {"from": "orders.customer_id", "to": "customers.customer_id", "meaning"?: "…"}, or lists of table.column for a
     * join on several columns ({"from": ["deps.system", "deps.name"], "to": ["packages.system", "packages.name"]});
     * refused when the data does not fit it.
     */
    private void approveJoin(Context ctx) throws Exception {
        Dataset d = dataset(ctx);
        JsonNode b = Requests.object(ctx);
        String example = "{\"from\": \"orders.customer_id\", \"to\": \"customers.customer_id\"}";
        List<String> fromCols = side(b, "from", example);
        List<String> toCols = side(b, "to", example);
        String from = fromCols.get(0);
        String to = toCols.get(0);
        String qualified = "[^.\\s]+(\\.[^.\\s]+)+";
        if (fromCols.size() == 1 && toCols.size() == 1 && (!from.matches(qualified) || !to.matches(qualified))) {
            throw ApiError.badRequest("A join needs \"from\" and \"to\" as table.column, e.g. " + example + "; got '" + from
                    + "' and '" + to + "'.");
        }
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", name(text(b, "name") != null ? text(b, "name") : from.replace('.', '_') + "_" + table(to)));
        item.put("from", fromCols.size() == 1 ? from : fromCols);
        item.put("to", toCols.size() == 1 ? to : toCols);
        if (text(b, "meaning") != null) {
            item.put("meaning", text(b, "meaning"));
        }
        Path file = web.sift().approveJoin(d, item); // measured on the data first; the entry records what was found
        ctx.status(201).json(new KgView.Saved(file.toString(), "join_paths", item));
    }

    /** One side of a join: table.column, or a list of them for several columns (each checked here). */
    private static List<String> side(JsonNode b, String field, String example) {
        JsonNode v = b.get(field);
        if (v == null || !v.isArray()) {
            return List.of(required(b, field, example));
        }
        List<String> out = new ArrayList<>();
        v.forEach(x -> out.add(x.asText()));
        if (out.isEmpty() || out.stream().anyMatch(c -> !c.matches("[^.\\s]+(\\.[^.\\s]+)+"))) {
            throw ApiError.badRequest("A join on several columns needs \"" + field + "\" as a list of table.column, e.g."
                    + " {\"from\": [\"deps.system\", \"deps.name\"], \"to\": [\"packages.system\", \"packages.name\"]};"
                    + " got " + v + ".");
        }
        return out;
    }

    /** {"name", "expression", "grain", "tables"?, "description"?, "synonyms"?, "unit"?}. */
    private void addMetric(Context ctx) throws Exception {
        Dataset d = dataset(ctx);
        JsonNode b = Requests.object(ctx);
        String example = "{\"name\": \"revenue\", \"expression\": \"sum(orders.quantity * products.unit_price)\", \"grain\":"
                + " \"orders\", \"tables\": [\"orders\", \"products\"]}";
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", name(required(b, "name", example)));
        for (String field : List.of("description", "expression", "grain", "unit")) {
            String v = field.equals("expression") || field.equals("grain") ? required(b, field, example) : text(b, field);
            if (v != null) {
                item.put(field, v);
            }
        }
        for (String field : List.of("tables", "synonyms")) {
            List<String> v = list(b, field);
            if (!v.isEmpty()) {
                item.put(field, v);
            }
        }
        added(ctx, d, "metrics", item);
    }

    /** Marks a finished run's answer right: its question and SQL become a verified example (as {@code ask --save}). */
    private void save(Context ctx) throws Exception {
        RunHandle h = web.runs().require(ctx.pathParam("id"));
        if (!h.done()) {
            throw new ApiError(409, "Run '" + h.id() + "' has not finished; mark its answer right once it has answered.");
        }
        RunHandle.Answered a = h.answered().orElseThrow(() -> new ApiError(409, "Run '" + h.id() + "' ended in an error;"
                + " there is no answer to save."));
        Dataset d = dataset(a.dataset());
        Path file = web.sift().saveExample(d, a.question(), a.run());
        String sql = a.run().evidence().get(a.run().evidence().size() - 1).sql();
        ctx.status(201).json(new KgView.Saved(file.toString(), "examples", Map.of("question", a.question(), "sql", sql)));
    }

    private void added(Context ctx, Dataset d, String section, Map<String, Object> item) {
        Path file = web.sift().addKnowledge(d, section, item);
        ctx.status(201).json(new KgView.Saved(file.toString(), section, item));
    }

    /** An entry's name from a person's words: "Total revenue" → total_revenue. */
    static String name(String words) {
        String n = words.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (n.isEmpty()) {
            throw ApiError.badRequest("'" + words + "' gives no name: use letters or digits, e.g. total_revenue.");
        }
        return n;
    }

    private static String table(String qualified) {
        return qualified.substring(0, qualified.lastIndexOf('.'));
    }

    private static String text(JsonNode b, String field) {
        JsonNode v = b.get(field);
        return v == null || v.isNull() || !v.isValueNode() || v.asText().isBlank() ? null : v.asText().trim();
    }

    private static String required(JsonNode b, String field, String example) {
        String v = text(b, field);
        if (v == null) {
            throw ApiError.badRequest("'" + field + "' is missing: send e.g. " + example + ".");
        }
        return v;
    }

    private static List<String> list(JsonNode b, String field) {
        List<String> out = new ArrayList<>();
        JsonNode v = b.get(field);
        if (v != null && v.isArray()) {
            v.forEach(x -> {
                if (x.isValueNode() && !x.asText().isBlank()) {
                    out.add(x.asText().trim());
                }
            });
        } else if (text(b, field) != null) {
            out.add(text(b, field));
        }
        return out;
    }
}
