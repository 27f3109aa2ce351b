package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sift.data.Workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads curated knowledge-graph YAML ({@code <dataset>.kg.yaml}) and overlays it on the automatic graph.
 *
 * <p>Format (every section optional):
 * <pre>
 * description: text
 * include: other.kg.yaml            # a bundled file whose content comes first (e.g. pkdd includes bank)
 * tables:
 *   loan:
 *     description: text
 *     synonyms: [credit, credits]
 *     columns:
 *       status: {description: text, unit: CZK, synonyms: [...], codes: {A: "finished, paid", ...}}
 * concepts:        [{name, description, synonyms, table | column: t.c | expression + table}]
 * metrics:         [{name, description, synonyms, expression, grain, tables: [...], unit}]
 * join_paths:      [{name, from: t.c, to: t.c, meaning, synonyms, cardinality, coverage}]
 * disambiguations: [{name, synonyms, text, prefer}]
 * value_aliases:   [{name, synonyms, table, column, value, note}]
 * predictions:     [{name, description, triggers, entity: t.c, label: {name, expression},
 *                    history: {filter, description}, current: {filter, description, phrases}, features: SELECT …,
 *                    as_of: t.c (the moment of the prediction; see {@link PointInTime})}]
 * </pre>
 * Structural problems ({@link #parse}) and schema problems ({@link #overlay}) throw {@link KgException}
 * listing every problem with the file and the entry, e.g. {@code concepts[lives_in]}.
 */
public final class KgLoader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final String RESOURCE_DIR = "/kg/";

    private KgLoader() { }

    /** The bundled curated file for a dataset name ({@code kg/<name>.kg.yaml} on the class path), if any. */
    public static Optional<CuratedKg> bundled(String dataset) {
        String name = dataset + ".kg.yaml";
        return Optional.ofNullable(resource(name)).map(text -> parse(text, "kg/" + name));
    }

    /**
     * The user's own knowledge file of a dataset: {@code kg/<name>.kg.yaml} in the Sift home that holds the
     * dataset store ({@code $SIFT_HOME/datasets/<name>.duckdb} → {@code $SIFT_HOME/kg/<name>.kg.yaml}), when it exists.
     */
    public static Optional<java.nio.file.Path> userFile(dev.sift.data.Dataset ds) {
        return Optional.ofNullable(userPath(ds)).filter(java.nio.file.Files::isRegularFile);
    }

    /** Where the user's knowledge file of a dataset goes (whether or not it exists); null for an in-memory dataset. */
    public static java.nio.file.Path userPath(dev.sift.data.Dataset ds) {
        if (ds.file() == null || ds.file().getParent() == null || ds.file().getParent().getParent() == null) {
            return null;
        }
        return ds.file().toAbsolutePath().getParent().getParent().resolve("kg").resolve(ds.name() + ".kg.yaml");
    }

    /** Reads and parses a knowledge file; errors name the file. */
    public static CuratedKg read(java.nio.file.Path file) {
        try {
            return parse(java.nio.file.Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new KgException(file + ": could not be read: " + e.getMessage());
        }
    }

    /** Changes whenever the file does (size and modification time). */
    static String stamp(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.size(file) + ":" + java.nio.file.Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return "unreadable";
        }
    }

    private static String resource(String name) {
        try (InputStream in = KgLoader.class.getResourceAsStream(RESOURCE_DIR + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new KgException("kg/" + name + ": could not be read: " + e.getMessage());
        }
    }

    /** Parses curated YAML; {@code source} names the file in error messages. */
    public static CuratedKg parse(String yaml, String source) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (IOException e) {
            throw new KgException(source + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new KgException(source + ": expected a mapping with sections tables, concepts, metrics, join_paths,"
                    + " disambiguations, value_aliases");
        }
        List<String> problems = new ArrayList<>();
        Map<String, CuratedKg.TableNote> tables = new LinkedHashMap<>();
        List<KgEntry> entries = new ArrayList<>();
        List<PredictionTask> predictions = new ArrayList<>();
        if (root.hasNonNull("include")) {
            String inc = root.get("include").asText();
            String text = resource(inc);
            if (text == null) {
                problems.add(source + ": include: no bundled knowledge graph named " + inc);
            } else {
                CuratedKg base = parse(text, "kg/" + inc);
                tables.putAll(base.tables());
                entries.addAll(base.entries());
                predictions.addAll(base.predictions());
            }
        }
        unknownSections(root, source, problems);
        tables.putAll(tables(root.path("tables")));
        Section section = new Section(source, problems, entries);
        section.each(root, "concepts", KgLoader::concept);
        section.each(root, "metrics", KgLoader::metric);
        section.each(root, "join_paths", KgLoader::join);
        section.each(root, "disambiguations", KgLoader::disambiguation);
        section.each(root, "value_aliases", KgLoader::valueAlias);
        for (JsonNode n : root.path("predictions")) {
            String name = name(n, "predictions", source, problems);
            if (name != null) {
                PredictionTask p = prediction(n, name, source, problems);
                if (p != null) {
                    predictions.removeIf(x -> x.name().equals(name));
                    predictions.add(p);
                }
            }
        }
        List<VerifiedExample> examples = examples(root.path("examples"), source, problems);
        Map<String, String> types = new LinkedHashMap<>();
        root.path("types").fields().forEachRemaining(e -> types.put(e.getKey(), e.getValue().asText()));
        if (!problems.isEmpty()) {
            throw new KgException(problems);
        }
        return new CuratedKg(source, text(root, "description"), tables, entries, predictions, List.copyOf(examples),
                Map.copyOf(types), digest(source + "\n" + yaml));
    }

    private static void unknownSections(JsonNode root, String source, List<String> problems) {
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!List.of("dataset", "description", "include", "tables", "concepts", "metrics", "join_paths",
                    "disambiguations", "value_aliases", "predictions", "examples", "types").contains(f)) {
                problems.add(source + ": unknown section '" + f + "'; sections are tables, concepts, metrics,"
                        + " join_paths, disambiguations, value_aliases, predictions, examples, types");
            }
        }
    }

    /** Reads one named entry of a section: the entry, or null after adding what is wrong to {@code problems}. */
    @FunctionalInterface
    private interface EntryReader {
        KgEntry read(JsonNode n, String name, String where, List<String> problems);
    }

    /** The sections of named entries: each entry needs a name, then its section's reader says what else it needs. */
    private record Section(String source, List<String> problems, List<KgEntry> entries) {
        void each(JsonNode root, String section, EntryReader reader) {
            for (JsonNode n : root.path(section)) {
                String name = name(n, section, source, problems);
                if (name != null) {
                    KgEntry e = reader.read(n, name, source + ": " + section + "[" + name + "]", problems);
                    if (e != null) {
                        entries.add(e);
                    }
                }
            }
        }
    }

    private static Map<String, CuratedKg.TableNote> tables(JsonNode t) {
        Map<String, CuratedKg.TableNote> tables = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode n = e.getValue();
            Map<String, CuratedKg.ColumnNote> cols = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> ci = n.path("columns").fields(); ci.hasNext(); ) {
                Map.Entry<String, JsonNode> c = ci.next();
                Map<String, String> codes = new LinkedHashMap<>();
                c.getValue().path("codes").fields().forEachRemaining(k -> codes.put(k.getKey(), k.getValue().asText()));
                cols.put(c.getKey(), new CuratedKg.ColumnNote(text(c.getValue(), "description"),
                        text(c.getValue(), "unit"), codes, list(c.getValue(), "synonyms")));
            }
            tables.put(e.getKey(), new CuratedKg.TableNote(text(n, "description"), list(n, "synonyms"), cols));
        }
        return tables;
    }

    private static KgEntry concept(JsonNode n, String name, String where, List<String> problems) {
        if (text(n, "table") == null && text(n, "column") == null) {
            problems.add(where + ": needs 'table', 'column' (table.column) or 'expression' with 'table'");
        }
        return new KgEntry.Concept(name, text(n, "description"), phrases(n, name),
                text(n, "table") != null ? text(n, "table") : tableOf(text(n, "column")), text(n, "column"),
                text(n, "expression"), true);
    }

    private static KgEntry metric(JsonNode n, String name, String where, List<String> problems) {
        String expr = text(n, "expression");
        String grain = text(n, "grain");
        if (expr == null || grain == null) {
            problems.add(where + ": needs 'expression' and 'grain'");
            return null;
        }
        List<String> tbl = new ArrayList<>(List.of(grain));
        list(n, "tables").stream().filter(x -> !tbl.contains(x)).forEach(tbl::add);
        return new KgEntry.Metric(name, text(n, "description"), phrases(n, name), expr, grain, List.copyOf(tbl),
                text(n, "unit"), true);
    }

    private static KgEntry join(JsonNode n, String name, String where, List<String> problems) {
        List<String> from = list(n, "from");
        List<String> to = list(n, "to");
        if (from.isEmpty() || to.isEmpty() || from.stream().anyMatch(c -> !c.contains("."))
                || to.stream().anyMatch(c -> !c.contains("."))) {
            problems.add(where + ": needs 'from' and 'to' as table.column (or, for a join on several columns, lists of"
                    + " table.column of one table each, paired in order)");
            return null;
        }
        String several = severalProblem(from, to);
        if (several != null) {
            problems.add(where + ": " + several);
            return null;
        }
        // cardinality and coverage: what the data showed when the join was approved in the app (JoinCheck)
        JsonNode cov = n.path("coverage");
        if (!cov.isMissingNode() && !cov.isNull() && (!cov.isNumber() || cov.asDouble() < 0 || cov.asDouble() > 1)) {
            problems.add(where + ": coverage '" + cov.asText() + "' is not a share from 0 to 1 (e.g. 0.998)");
            return null;
        }
        double coverage = cov.isNumber() ? cov.asDouble() : 1.0;
        List<KgEntry.Join.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < from.size(); i++) {
            pairs.add(new KgEntry.Join.Pair(columnOf(from.get(i)), columnOf(to.get(i))));
        }
        return KgEntry.Join.on(name, tableOf(from.get(0)), tableOf(to.get(0)), pairs, text(n, "meaning"),
                list(n, "synonyms"), true, true, text(n, "cardinality"), coverage);
    }

    /** What is wrong with the sides of a join on several columns (null when nothing is, or for one column). */
    static String severalProblem(List<String> from, List<String> to) {
        if (from.size() != to.size()) {
            return "'from' names " + from.size() + " column(s) and 'to' " + to.size() + "; a join on several columns"
                    + " pairs them in order, so both lists need the same length";
        }
        for (List<String> side : List.of(from, to)) {
            if (side.stream().map(c -> tableOf(c).toLowerCase(java.util.Locale.ROOT)).distinct().count() > 1) {
                return "the columns " + side + " are in different tables; each side of a join names columns of one table";
            }
            if (side.stream().map(c -> c.toLowerCase(java.util.Locale.ROOT)).distinct().count() < side.size()) {
                return "the columns " + side + " repeat one; each pair names a column once";
            }
        }
        return null;
    }

    private static KgEntry disambiguation(JsonNode n, String name, String where, List<String> problems) {
        if (text(n, "text") == null) {
            problems.add(where + ": needs 'text'");
            return null;
        }
        return new KgEntry.Disambiguation(name, list(n, "synonyms"), text(n, "text"), text(n, "prefer"), true);
    }

    private static KgEntry valueAlias(JsonNode n, String name, String where, List<String> problems) {
        if (text(n, "table") == null || text(n, "column") == null || text(n, "value") == null) {
            problems.add(where + ": needs 'table', 'column' and 'value'");
            return null;
        }
        return new KgEntry.ValueAlias(name, phrases(n, name), text(n, "table"), text(n, "column"),
                text(n, "value"), text(n, "note"), true);
    }

    private static List<VerifiedExample> examples(JsonNode section, String source, List<String> problems) {
        List<VerifiedExample> examples = new ArrayList<>();
        int at = 0;
        for (JsonNode n : section) {
            at++;
            if (text(n, "question") == null || text(n, "sql") == null || text(n, "question").isBlank()) {
                problems.add(source + ": examples[" + at + "]: needs 'question' and 'sql'");
                continue;
            }
            examples.add(new VerifiedExample(text(n, "question"), text(n, "sql"), source));
        }
        return examples;
    }

    /** A SHA-256 of {@code text}, in hex. */
    static String digest(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java", e);
        }
    }

    /**
     * The automatic graph with the curated file laid over it: table/column descriptions, codes and synonyms
     * merged in, curated entries added, and an inferred join replaced by an approved one on the same columns.
     * The curated file is validated against {@code ws} first ({@link KgValidator}).
     */
    public static KnowledgeGraph overlay(KnowledgeGraph auto, CuratedKg curated, Workspace ws) {
        KgValidator.validate(curated, auto, ws);
        return merge(auto, curated);
    }

    /** {@link #overlay} of a curated file already validated against this data ({@link KgValidity}). */
    static KnowledgeGraph merge(KnowledgeGraph auto, CuratedKg curated) {
        List<KgEntry> out = new ArrayList<>();
        List<KgEntry.Join> approved = curated.entries().stream().filter(e -> e instanceof KgEntry.Join)
                .map(e -> (KgEntry.Join) e).toList();
        for (KgEntry e : auto.entries()) {
            if (e instanceof KgEntry.Table t) {
                CuratedKg.TableNote note = note(curated.tables(), t.name());
                out.add(note == null ? t : new KgEntry.Table(t.name(), note.description(), t.rows(), note.synonyms(), true));
            } else if (e instanceof KgEntry.Column c) {
                CuratedKg.TableNote tn = note(curated.tables(), c.table());
                CuratedKg.ColumnNote cn = tn == null ? null : note(tn.columns(), c.name());
                out.add(cn == null ? c : c.withCuration(cn.description(), cn.unit(), cn.codes(), cn.synonyms()));
            } else if (e instanceof KgEntry.Join j && approved.stream().anyMatch(a -> sameJoin(a, j))) {
                continue;
            } else {
                out.add(e);
            }
        }
        out.addAll(curated.entries());
        return new KnowledgeGraph(auto.dataset(), curated.source(), out, curated.predictions(), curated.examples());
    }

    private static PredictionTask prediction(JsonNode n, String name, String source, List<String> problems) {
        String where = source + ": predictions[" + name + "]: ";
        List<String> missing = new ArrayList<>();
        for (String f : List.of("entity", "features")) {
            if (text(n, f) == null) {
                missing.add(f);
            }
        }
        if (text(n.path("label"), "name") == null || text(n.path("label"), "expression") == null) {
            missing.add("label {name, expression}");
        }
        for (String f : List.of("history", "current")) {
            if (text(n.path(f), "filter") == null) {
                missing.add(f + " {filter, description}");
            }
        }
        if (list(n, "triggers").isEmpty()) {
            missing.add("triggers");
        }
        if (list(n.path("current"), "phrases").isEmpty()) {
            missing.add("current.phrases");
        }
        if (!missing.isEmpty()) {
            problems.add(where + "needs " + String.join(", ", missing));
            return null;
        }
        if (!text(n, "entity").contains(".")) {
            problems.add(where + "entity '" + text(n, "entity") + "' must be written table.column, e.g. loan.loan_id");
            return null;
        }
        String asOf = text(n, "as_of");
        if (asOf != null && !tableOf(asOf).equalsIgnoreCase(tableOf(text(n, "entity")))) {
            problems.add(where + "as_of '" + asOf + "' must be a date column of the entity table, written "
                    + tableOf(text(n, "entity")) + ".<column>, e.g. loan.date");
            return null;
        }
        return new PredictionTask(name, text(n, "description"), list(n, "triggers"), text(n, "entity"),
                text(n.path("label"), "name"), text(n.path("label"), "expression"),
                new PredictionTask.Subset(text(n.path("history"), "filter"), text(n.path("history"), "description"),
                        list(n.path("history"), "phrases")),
                new PredictionTask.Subset(text(n.path("current"), "filter"), text(n.path("current"), "description"),
                        list(n.path("current"), "phrases")),
                text(n, "features"), text(n, "as_of"));
    }

    private static boolean sameJoin(KgEntry.Join a, KgEntry.Join b) {
        return (a.fromTable().equalsIgnoreCase(b.fromTable()) && a.toTable().equalsIgnoreCase(b.toTable())
                && same(a.fromColumns(), b.fromColumns()) && same(a.toColumns(), b.toColumns()))
                || (a.fromTable().equalsIgnoreCase(b.toTable()) && a.toTable().equalsIgnoreCase(b.fromTable())
                && same(a.fromColumns(), b.toColumns()) && same(a.toColumns(), b.fromColumns()));
    }

    private static boolean same(List<String> a, List<String> b) {
        return a.size() == b.size() && java.util.stream.IntStream.range(0, a.size()).allMatch(i -> a.get(i).equalsIgnoreCase(b.get(i)));
    }

    private static <T> T note(Map<String, T> notes, String name) {
        return notes.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    private static String name(JsonNode n, String section, String source, List<String> problems) {
        String name = text(n, "name");
        if (name == null || !name.matches("[a-z0-9_]+")) {
            problems.add(source + ": " + section + ": an entry has " + (name == null ? "no 'name'" : "name '" + name
                    + "'") + "; names are lowercase words joined by '_', e.g. default_rate (entry: "
                    + n.toString().substring(0, Math.min(80, n.toString().length())) + ")");
            return null;
        }
        return name;
    }

    /** The name in words plus the synonyms (and trigger phrases) of an entry. */
    private static List<String> phrases(JsonNode n, String name) {
        Map<String, String> byKey = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(List.of(name.replace('_', ' ')));
        all.addAll(list(n, "synonyms"));
        all.addAll(list(n, "triggers"));
        all.forEach(p -> byKey.putIfAbsent(Phrases.key(p), p));
        return List.copyOf(byKey.values());
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static List<String> list(JsonNode n, String field) {
        List<String> out = new ArrayList<>();
        JsonNode v = n.get(field);
        if (v != null && v.isArray()) {
            v.forEach(x -> out.add(x.asText()));
        } else if (v != null && !v.isNull()) {
            out.add(v.asText());
        }
        return List.copyOf(out);
    }

    static String tableOf(String qualified) {
        if (qualified == null) {
            return null;
        }
        int dot = qualified.indexOf('.');
        return dot < 0 ? qualified : qualified.substring(0, dot).replace("\"", "");
    }

    static String columnOf(String qualified) {
        int dot = qualified.indexOf('.');
        return qualified.substring(dot + 1).replace("\"", "");
    }
}
