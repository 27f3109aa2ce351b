package dev.sift.bench.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.bench.suite.Suite.Dialogue;
import dev.sift.bench.suite.Suite.Expect;
import dev.sift.bench.suite.Suite.Item;
import dev.sift.bench.suite.Suite.Scoring;
import dev.sift.bench.suite.Suite.SuiteException;
import dev.sift.bench.suite.Suite.Tier;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.sift.bench.suite.Suite.NUMERIC_TOLERANCE;
import static dev.sift.bench.suite.Suite.ROW_SET_TOLERANCE;

/**
 * Reads a suite from its parsed YAML and validates it as a whole: every problem is one {@link SuiteException} that
 * names the file, the item or conversation turn, the key, and what the key may hold.
 */
final class SuiteReader {
    static final Set<String> SUITE_KEYS = Set.of("suite", "dataset", "description", "build_hint", "targets", "items",
            "conversations", "fingerprint");
    static final Set<String> CONVERSATION_KEYS = Set.of("id", "note", "turns");
    /** A turn has an item's keys but its id (numbered in order); its tier follows from gold_sql / expect when omitted. */
    static final List<String> TURN_KEYS = List.of("tier", "question", "gold_sql", "expect", "scoring", "tolerance", "note",
            "template", "wording", "tools_needed", "tools_forbidden");
    static final List<String> ITEM_KEYS = List.of("id", "tier", "question", "gold_sql", "expect", "scoring",
            "tolerance", "note", "template", "wording", "tools_needed", "tools_forbidden");
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    static final Pattern TARGET = Pattern.compile("(overall|analytic|predictive|adversarial|clarify)\\."
            + "(precision|coverage|accuracy)|median_ms");

    private SuiteReader() { }

    static Suite parse(JsonNode root, Path file) {
        String where = file.toString();
        if (root == null || !root.isObject()) {
            throw new SuiteException(where + ": a suite is a mapping with keys " + sorted(SUITE_KEYS));
        }
        unknownKeys(root, SUITE_KEYS, where + ": ");
        String name = text(root, "suite", where + ": ", true);
        String dataset = text(root, "dataset", where + ": ", true);
        String description = text(root, "description", where + ": ", false);
        String buildHint = text(root, "build_hint", where + ": ", false);
        String fingerprint = text(root, "fingerprint", where + ": ", false);
        Map<String, Double> targets = targets(root.get("targets"), where);
        JsonNode items = root.get("items");
        JsonNode chats = root.get("conversations");
        if (items == null && chats == null) {
            throw new SuiteException(where + ": a suite needs 'items' (a non-empty list) or 'conversations'");
        }
        if (items != null && (!items.isArray() || items.isEmpty())) {
            throw new SuiteException(where + ": 'items' must be a non-empty list");
        }
        if (chats != null && (!chats.isArray() || chats.isEmpty())) {
            throw new SuiteException(where + ": 'conversations' must be a non-empty list");
        }
        Set<String> ids = new HashSet<>();
        List<Item> out = items(items, where, ids);
        List<Dialogue> dialogues = dialogues(chats, where, ids);
        return new Suite(name, dataset, description, buildHint, file, Map.copyOf(targets), out, dialogues, fingerprint);
    }

    /** The suite's targets, e.g. {@code {overall.precision: 0.98}}; absent: none. */
    private static Map<String, Double> targets(JsonNode t, String where) {
        Map<String, Double> targets = new LinkedHashMap<>();
        if (t == null) {
            return targets;
        }
        if (!t.isObject()) {
            throw new SuiteException(where + ": 'targets' must be a mapping like {overall.precision: 0.98}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!TARGET.matcher(e.getKey()).matches()) {
                throw new SuiteException(where + ": unknown target '" + e.getKey() + "' (targets are <scope>.<metric>"
                        + " with scope overall|analytic|predictive|adversarial|clarify and metric"
                        + " precision|coverage|accuracy, or median_ms)");
            }
            if (!e.getValue().isNumber()) {
                throw new SuiteException(where + ": target '" + e.getKey() + "' must be a number");
            }
            targets.put(e.getKey(), e.getValue().asDouble());
        }
        return targets;
    }

    /** The single items, each id new to {@code ids}. */
    private static List<Item> items(JsonNode items, String where, Set<String> ids) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; items != null && i < items.size(); i++) {
            Item item = item(items.get(i), where, i + 1);
            if (!ids.add(item.id())) {
                throw new SuiteException(where + ": item '" + item.id() + "' (#" + (i + 1) + "): duplicate id");
            }
            out.add(item);
        }
        return List.copyOf(out);
    }

    /** The conversations, each turn's id new to {@code ids} (which holds the single items' ids). */
    private static List<Dialogue> dialogues(JsonNode chats, String where, Set<String> ids) {
        List<Dialogue> dialogues = new ArrayList<>();
        for (int i = 0; chats != null && i < chats.size(); i++) {
            Dialogue d = dialogue(chats.get(i), where, i + 1);
            for (Item turn : d.turns()) {
                if (!ids.add(turn.id())) {
                    throw new SuiteException(where + ": conversation '" + d.id() + "' (#" + (i + 1) + "): turn id '"
                            + turn.id() + "' is also an item's id");
                }
            }
            dialogues.add(d);
        }
        return List.copyOf(dialogues);
    }

    private static Dialogue dialogue(JsonNode n, String where, int index) {
        if (n == null || !n.isObject()) {
            throw new SuiteException(where + ": conversation #" + index + ": a conversation is a mapping with keys "
                    + sorted(CONVERSATION_KEYS));
        }
        JsonNode idNode = n.get("id");
        String at = where + ": conversation " + (idNode != null && idNode.isValueNode() ? "'" + idNode.asText() + "' " : "")
                + "(#" + index + "): ";
        unknownKeys(n, CONVERSATION_KEYS, at);
        String id = text(n, "id", at, true);
        if (!ID.matcher(id).matches()) {
            throw new SuiteException(at + "id must be letters, digits, '_', '.' or '-' (at most 64)");
        }
        JsonNode turns = n.get("turns");
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            throw new SuiteException(at + "'turns' must be a non-empty list");
        }
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            JsonNode t = turns.get(i);
            String turnAt = at + "turn " + (i + 1) + ": ";
            if (t == null || !t.isObject()) {
                throw new SuiteException(turnAt + "a turn is a mapping with keys " + TURN_KEYS);
            }
            for (Iterator<String> it = t.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!TURN_KEYS.contains(k)) {
                    throw new SuiteException(turnAt + "unknown key '" + k + "' (allowed: " + String.join(", ", TURN_KEYS) + ")");
                }
            }
            ObjectNode item = t.deepCopy();
            item.put("id", id + "." + (i + 1));
            if (!item.has("tier")) {
                String expect = item.path("expect").asText("");
                item.put("tier", expect.equalsIgnoreCase("decline") ? "adversarial" : expect.equalsIgnoreCase("clarify")
                        ? "clarify" : expect.equalsIgnoreCase("predictive") ? "predictive" : "analytic");
            }
            out.add(item(item, where + ": conversation '" + id + "' turn " + (i + 1), i + 1));
        }
        return new Dialogue(id, text(n, "note", at, false), List.copyOf(out));
    }

    private static Item item(JsonNode n, String where, int index) {
        if (n == null || !n.isObject()) {
            throw new SuiteException(where + ": item #" + index + ": an item is a mapping with keys " + ITEM_KEYS);
        }
        JsonNode idNode = n.get("id");
        String at = where + ": item " + (idNode != null && idNode.isValueNode() ? "'" + idNode.asText() + "' " : "")
                + "(#" + index + "): ";
        unknownKeys(n, Set.copyOf(ITEM_KEYS), at);
        String id = text(n, "id", at, true);
        if (!ID.matcher(id).matches()) {
            throw new SuiteException(at + "id must be letters, digits, '_', '.' or '-' (at most 64)");
        }
        Tier tier = choice(n, "tier", Tier.class, at, true);
        String question = text(n, "question", at, true);
        String gold = text(n, "gold_sql", at, false);
        Expect expect = choice(n, "expect", Expect.class, at, false);
        Scoring scoring = choice(n, "scoring", Scoring.class, at, false);
        String note = text(n, "note", at, false);
        requireWhatTheTierNeeds(tier, gold, expect, at);
        if ((scoring != null || n.has("tolerance")) && tier != Tier.ANALYTIC) {
            throw new SuiteException(at + "'scoring' and 'tolerance' apply to analytic items only");
        }
        if (scoring == null) {
            scoring = Scoring.ROW_SET;
        }
        double tolerance = tolerance(n.get("tolerance"), scoring, at);
        return new Item(id, tier, question, gold, expect, scoring, tolerance, note, text(n, "template", at, false),
                text(n, "wording", at, false), names(n, "tools_needed", at), names(n, "tools_forbidden", at));
    }

    /** An analytic item is scored by its gold query, a predictive one lists its entities, the others expect words. */
    private static void requireWhatTheTierNeeds(Tier tier, String gold, Expect expect, String at) {
        switch (tier) {
            case ANALYTIC -> {
                if (gold == null) {
                    throw new SuiteException(at + "an analytic item needs 'gold_sql'");
                }
                if (expect != null) {
                    throw new SuiteException(at + "an analytic item is scored by 'gold_sql'; remove 'expect'");
                }
            }
            case PREDICTIVE -> {
                if (expect != Expect.PREDICTIVE || gold == null) {
                    throw new SuiteException(at + "a predictive item needs 'expect: predictive' and 'gold_sql' listing"
                            + " the ids of the entities to predict for");
                }
            }
            case ADVERSARIAL, CLARIFY -> {
                if (expect != Expect.DECLINE && expect != Expect.CLARIFY) {
                    throw new SuiteException(at + "a" + (tier == Tier.ADVERSARIAL ? "n adversarial" : " clarify")
                            + " item needs 'expect: decline' or 'expect: clarify'");
                }
                if (gold != null) {
                    throw new SuiteException(at + "a" + (tier == Tier.ADVERSARIAL ? "n adversarial" : " clarify")
                            + " item has no 'gold_sql'");
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    /** The item's relative tolerance, else its scoring's default. */
    private static double tolerance(JsonNode tol, Scoring scoring, String at) {
        if (tol == null) {
            return scoring == Scoring.NUMERIC ? NUMERIC_TOLERANCE : ROW_SET_TOLERANCE;
        }
        if (!tol.isNumber() || tol.asDouble() < 0 || tol.asDouble() >= 1) {
            throw new SuiteException(at + "'tolerance' is a relative tolerance: a number in [0, 1), got " + tol);
        }
        return tol.asDouble();
    }

    /** A list of tool names, e.g. {@code tools_needed: [run_sql]}; absent: empty. */
    private static List<String> names(JsonNode n, String key, String at) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; v.isArray() && i < v.size(); i++) {
            if (v.get(i).isTextual() && !v.get(i).asText().isBlank()) {
                out.add(v.get(i).asText().strip());
            }
        }
        if (!v.isArray() || out.size() != v.size()) {
            throw new SuiteException(at + "'" + key + "' must be a list of tool names, e.g. [run_sql]");
        }
        return List.copyOf(out);
    }

    private static void unknownKeys(JsonNode n, Set<String> allowed, String at) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new SuiteException(at + "unknown key '" + k + "' (allowed: " + String.join(", ",
                        allowed.equals(Set.copyOf(ITEM_KEYS)) ? ITEM_KEYS : sorted(allowed)) + ")");
            }
        }
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    private static String text(JsonNode n, String key, String at, boolean required) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                throw new SuiteException(at + "missing '" + key + "'");
            }
            return null;
        }
        if (!v.isValueNode() || v.asText().isBlank()) {
            throw new SuiteException(at + "'" + key + "' must be non-empty text");
        }
        return v.asText().strip();
    }

    private static <E extends Enum<E>> E choice(JsonNode n, String key, Class<E> type, String at, boolean required) {
        String s = text(n, key, at, required);
        if (s == null) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(s)) {
                return e;
            }
        }
        List<String> allowed = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            allowed.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw new SuiteException(at + "'" + key + "' must be one of " + String.join("|", allowed) + ", got '" + s + "'");
    }

}
