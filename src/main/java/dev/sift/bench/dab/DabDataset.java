package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One dataset of DataAgentBench in the benchmark's own layout: {@code <dataset>/db_config.yaml},
 * {@code db_description.txt}, {@code db_description_withhint.txt} (optional) and {@code queryN/} folders each
 * holding {@code query.json} (the question: a JSON string, or an object with {@code query}), {@code validate.py}
 * and {@code ground_truth.csv}. Reading refuses a folder that is not laid out so, naming the missing file.
 */
public record DabDataset(String name, Path dir, Path dbConfig, String description, String hintDescription,
                         List<DabTask> tasks) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern QUERY_DIR = Pattern.compile("query(\\d+)");

    /**
     * The description the question is composed with: with hints asked for and present, the description followed by
     * the hints ({@code db_description_withhint.txt} holds only the hints; one that repeats the description is used
     * as it is).
     */
    public String description(boolean hints) {
        if (!hints || hintDescription == null || hintDescription.isBlank()) {
            return description;
        }
        return hintDescription.contains(description.strip()) ? hintDescription
                : description.strip() + "\n\n" + hintDescription.strip();
    }

    /** The datasets under {@code root} (folders with a {@code db_config.yaml}), by name. */
    public static List<String> names(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("DataAgentBench root " + root + " is not a folder: pass --root DIR, the"
                    + " folder that holds one folder per dataset (e.g. yelp/db_config.yaml).");
        }
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("db_config.yaml")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        }
    }

    /** The {@code db_type}s a {@code db_config.yaml} names, sorted ("postgresql" read as "postgres", "mongodb" as "mongo"). */
    public static java.util.Set<String> dbTypes(Path config) throws IOException {
        Object doc;
        try (java.io.Reader r = Files.newBufferedReader(config)) {
            doc = new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(
                    new org.yaml.snakeyaml.LoaderOptions())).load(r);
        }
        java.util.Set<String> out = new java.util.TreeSet<>();
        if (doc instanceof java.util.Map<?, ?> m && m.get("db_clients") instanceof java.util.Map<?, ?> clients) {
            for (Object client : clients.values()) {
                if (client instanceof java.util.Map<?, ?> c && c.get("db_type") != null) {
                    String t = c.get("db_type").toString().toLowerCase(java.util.Locale.ROOT);
                    out.add(t.equals("postgresql") ? "postgres" : t.equals("mongodb") ? "mongo" : t);
                }
            }
        }
        return out;
    }

    public static DabDataset read(Path root, String name) throws IOException {
        Path dir = root.resolve(name);
        Path config = dir.resolve("db_config.yaml");
        if (!Files.isRegularFile(config)) {
            throw new IllegalArgumentException("Dataset '" + name + "' has no " + config
                    + "; datasets under " + root + ": " + String.join(", ", names(root)) + ".");
        }
        Path desc = dir.resolve("db_description.txt");
        if (!Files.isRegularFile(desc)) {
            throw new IllegalArgumentException("Dataset '" + name + "' has no db_description.txt in " + dir + ".");
        }
        Path hint = dir.resolve("db_description_withhint.txt");
        List<DabTask> tasks = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(dir)) {
            for (Path q : dirs.filter(Files::isDirectory).filter(d -> QUERY_DIR.matcher(d.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(DabDataset::queryNumber)).toList()) {
                tasks.add(task(name, q));
            }
        }
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("Dataset '" + name + "' has no queryN folders in " + dir + ".");
        }
        return new DabDataset(name, dir, config, Files.readString(desc),
                Files.isRegularFile(hint) ? Files.readString(hint) : null, List.copyOf(tasks));
    }

    private static DabTask task(String dataset, Path q) throws IOException {
        Path query = q.resolve("query.json");
        Path validator = q.resolve("validate.py");
        for (Path p : List.of(query, validator)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("Task " + dataset + "/" + q.getFileName() + " has no " + p.getFileName() + ".");
            }
        }
        JsonNode node;
        try {
            node = JSON.readTree(query.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(query + " is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        String question = node == null ? null : node.isTextual() ? node.asText()
                : node.hasNonNull("query") ? node.get("query").asText()
                : node.hasNonNull("question") ? node.get("question").asText() : null;
        if (question == null || question.isBlank()) {
            throw new IllegalArgumentException(query + " holds no question: expected a JSON string or an object with \"query\".");
        }
        return new DabTask(dataset, q.getFileName().toString(), q, question.strip(), validator);
    }

    private static int queryNumber(Path dir) {
        Matcher m = QUERY_DIR.matcher(dir.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
    }

    /** The question as the benchmark poses it: the dataset description, then the question. */
    public String compose(DabTask task, boolean hints) {
        return description(hints).strip() + "\n\nQuestion: " + task.question();
    }
}
