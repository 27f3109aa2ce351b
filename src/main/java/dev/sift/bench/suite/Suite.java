package dev.sift.bench.suite;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A benchmark suite: questions on one dataset, each with a gold query or an expected kind of answer.
 * Loaded from YAML and validated as a whole before anything runs (see docs/benchmarks.md).
 */
public record Suite(String name, String dataset, String description, String buildHint, Path file,
                    Map<String, Double> targets, List<Item> items, List<Dialogue> conversations, String fingerprint) {

    /** A suite of single questions only. */
    public Suite(String name, String dataset, String description, String buildHint, Path file,
                 Map<String, Double> targets, List<Item> items) {
        this(name, dataset, description, buildHint, file, targets, items, List.of(), null);
    }

    /**
     * A conversation: turns asked one after the other in one chat session, each later turn planned with the chat's
     * follow-up context. Each turn is an item (id {@code <conversation>.<n>}) scored like a single question.
     */
    public record Dialogue(String id, String note, List<Item> turns) { }

    /** Every scored question: the items, then the turns of each conversation in order. */
    public List<Item> allItems() {
        List<Item> all = new ArrayList<>(items);
        conversations.forEach(d -> all.addAll(d.turns()));
        return all;
    }

    public enum Tier {
        ANALYTIC, PREDICTIVE, ADVERSARIAL, CLARIFY;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What an item without a plain gold result expects: a refusal, a clarifying question, or predictions. */
    public enum Expect {
        DECLINE, CLARIFY, PREDICTIVE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Scoring {
        ROW_SET, NUMERIC;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Default relative tolerance of numbers in {@code row_set} scoring (absorbs float and decimal noise). */
    public static final double ROW_SET_TOLERANCE = 1e-6;
    /** Default relative tolerance of {@code numeric} scoring (absorbs rounding of averages, medians, rates). */
    public static final double NUMERIC_TOLERANCE = 1e-3;

    /**
     * One question. {@code goldSql} is set for analytic items (the expected result) and predictive items (the
     * entities to predict for); {@code expect} for everything but analytic items.
     */
    public record Item(String id, Tier tier, String question, String goldSql, Expect expect, Scoring scoring,
                       double tolerance, String note, String template, String wording, List<String> toolsNeeded,
                       List<String> toolsForbidden) {
        /** An item written by hand: no generator template or wording, no tools named. */
        public Item(String id, Tier tier, String question, String goldSql, Expect expect, Scoring scoring,
                    double tolerance, String note) {
            this(id, tier, question, goldSql, expect, scoring, tolerance, note, null, null);
        }

        /** An item that names no tools a run needs or must not use. */
        public Item(String id, Tier tier, String question, String goldSql, Expect expect, Scoring scoring,
                    double tolerance, String note, String template, String wording) {
            this(id, tier, question, goldSql, expect, scoring, tolerance, note, template, wording, List.of(), List.of());
        }

        /** Whether the item names tools its run needs or must not use (its plan is then scored). */
        public boolean namesTools() {
            return !toolsNeeded.isEmpty() || !toolsForbidden.isEmpty();
        }
    }

    /** Reads and validates a suite file; any problem is one {@link SuiteException} naming the file and the item. */
    public static Suite load(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such suite file");
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                    .readTree(file.toFile());
        } catch (IOException e) {
            throw new SuiteException(file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        return SuiteReader.parse(root, file);
    }

    /** A suite file that cannot be used; the message names the file and the item. */
    public static final class SuiteException extends IllegalArgumentException {
        public SuiteException(String message) {
            super(message);
        }
    }
}
