package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The check before any offline answer: does the query answer the question that was asked? From the question, what
 * is asked for — "who" / "which X" → the rows' names or ids, "how many" / "average" / "what share" → a number (one,
 * or one per group); from the {@link QuerySpec}, what its SQL returns. A mismatch ("who is the owner of the account
 * with the largest loan?" read as the largest amount), or a word that asks for a shape the reading did not use
 * ("average" in "the average number of loans per account" read as a count per account; "highest" in a plain
 * listing), ends in a clarification that names the words, never in an answer to another question.
 */
public final class AnswerShape {
    private static final Vocabulary V = Vocabulary.WORDS;
    /** Aggregate words that name a computation ("total", "average"), not an end of an order ("highest"). */
    private static final Set<String> PURE_AGGREGATES = V.map("aggregates").keySet().stream()
            .filter(w -> !V.list("extremes").contains(w)).collect(Collectors.toUnmodifiableSet());
    private static final Set<String> EXTREMES = V.list("extremes");
    private static final Set<String> NUMBER_SHAPES = Set.of(QuerySpec.Shape.COUNT.name(), QuerySpec.Shape.AGG.name(),
            QuerySpec.Shape.METRIC.name(), QuerySpec.Shape.SHARE.name(), QuerySpec.Shape.TOP_GROUPS.name(),
            QuerySpec.Shape.CHANGE.name(), QuerySpec.Shape.PERCENT_CHANGE.name(),
            QuerySpec.Shape.PERIOD_TOTALS.name());

    private AnswerShape() { }

    /** Why the spec does not answer the question as asked, or empty when it does. */
    public static Optional<String> mismatch(List<Tok> toks, QuerySpec spec) {
        String described = AnswerPhraser.describe(spec);
        String what = Character.toLowerCase(described.charAt(0)) + described.substring(1);
        Optional<String> asked = asked(toks);
        boolean rows = spec.shape() == QuerySpec.Shape.LIST || spec.shape() == QuerySpec.Shape.TOP_ROWS
                || spec.shape() == QuerySpec.Shape.TOP_GROUPS || spec.shape() == QuerySpec.Shape.COLUMNS
                || spec.group() != null && (spec.shape() == QuerySpec.Shape.CHANGE || spec.shape() == QuerySpec.Shape.PERCENT_CHANGE);
        if (asked.isPresent() && asked.get().startsWith("who") && !rows) {
            return Optional.of("the question asks " + asked.get() + ", but the only reading I can build gives " + what
                    + ", which is not who or which; I will not answer a different question");
        }
        if (asked.isPresent() && asked.get().startsWith("which") && !rows) {
            return Optional.of("the question asks " + asked.get() + ", but the only reading I can build gives " + what
                    + "; I will not answer a different question");
        }
        if (asked.isPresent() && asked.get().startsWith("for a number") && !NUMBER_SHAPES.contains(spec.shape().name())) {
            return Optional.of("the question asks " + asked.get() + ", but the only reading I can build lists rows ("
                    + what + "); I will not answer a different question");
        }
        // "where and when was the lowest fertility recorded?" asks for a place and a time, not the lowest value
        boolean where = toks.stream().limit(3).anyMatch(t -> t.is("where") && t.sense() == null);
        boolean when = toks.stream().limit(3).anyMatch(t -> t.is("when") && t.sense() == null);
        boolean dated = spec.measure() != null && spec.measure().date();
        if (!rows && (where || when && !dated)) {
            return Optional.of("the question asks " + (where && when ? "where and when" : where ? "where" : "when")
                    + ", but the only reading I can build gives " + what + "; I will not answer a different question");
        }
        Optional<String> head = headMismatch(toks, spec);
        if (head.isPresent()) {
            return head;
        }
        List<String> unused = unused(toks, spec);
        if (!unused.isEmpty()) {
            return Optional.of("my reading (" + what + ") does not use " + String.join(", ", unused.stream()
                    .map(w -> "'" + w + "'").toList()) + ", so it would answer a different question; I will not guess what "
                    + (unused.size() == 1 ? "it means" : "they mean") + " here");
        }
        return Optional.empty();
    }

    /**
     * The table the question counts or lists, named right after "how many" or "list / show the" (and the table after
     * a possessive: "account 16's loans" lists loans), against the reading's subject: "in Prague, how many accounts"
     * read as a count of districts is another question.
     */
    static Optional<String> headMismatch(List<Tok> toks, QuerySpec spec) {
        if (spec.shape() != QuerySpec.Shape.COUNT && spec.shape() != QuerySpec.Shape.LIST) {
            return Optional.empty();
        }
        Optional<Tok> head = head(toks);
        if (head.isEmpty() || ((Sense.Entity) head.get().sense()).table().equals(spec.subject())) {
            return Optional.empty();
        }
        return Optional.of("the question " + (spec.shape() == QuerySpec.Shape.COUNT ? "counts" : "lists") + " '"
                + head.get().text() + "' (table " + ((Sense.Entity) head.get().sense()).table() + "), but the only reading I"
                + " can build " + (spec.shape() == QuerySpec.Shape.COUNT ? "counts" : "lists") + " the rows of table "
                + spec.subject() + "; I will not answer a different question");
    }

    /** The entity token after "how many (of the)" or "list / show (me) (the)", or empty. */
    static Optional<Tok> head(List<Tok> toks) {
        for (int i = 0; i + 1 < toks.size(); i++) {
            Tok t = toks.get(i);
            int j = t.is("how") && toks.get(i + 1).is("many") ? i + 2 : t.is("show", "list", "give", "find") ? i + 1 : -1;
            if (j < 0) {
                continue;
            }
            while (j < toks.size() && toks.get(j).is("me", "u", "us", "all", "the", "a", "an", "each", "of")) {
                j++;
            }
            if (j < toks.size() && toks.get(j).sense() instanceof Sense.Entity) {
                int k = j + 1 < toks.size() && toks.get(j + 1).number() ? j + 2 : j + 1;
                boolean possessive = k + 1 < toks.size() && toks.get(k).is("s") && toks.get(k + 1).sense() instanceof Sense.Entity;
                return Optional.of(toks.get(possessive ? k + 1 : j));
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** What the question asks for, from its question words; empty when they do not say. */
    static Optional<String> asked(List<Tok> toks) {
        for (int i = 0; i < toks.size(); i++) {
            Tok t = toks.get(i);
            if (t.is("who", "whom") || t.is("whose") && i == 0) { // "accounts whose owner …" asks for no person
                return Optional.of("who ('" + t.text() + "')");
            }
            if (t.is("show", "list", "give", "find")) { // "show (me) (all) the accounts …": rows
                int j = i + 1;
                while (j < toks.size() && toks.get(j).is("me", "u", "us", "all", "the", "a", "an", "each")) {
                    j++;
                }
                if (j < toks.size() && toks.get(j).sense() instanceof Sense.Entity) {
                    return Optional.of("which rows ('" + t.text() + " … " + toks.get(j).text() + "')");
                }
            }
            if (t.is("what") && i == 0 && Ranking.whatTable(toks)) { // "what is the district with …": a row
                return Optional.of("which rows ('" + t.text() + " … " + toks.stream().filter(k -> k.sense() instanceof Sense.Entity)
                        .findFirst().orElseThrow().text() + "')");
            }
            if (t.is("which", "what") && i + 1 < toks.size()) {
                Tok next = toks.get(i + 1).number() && i + 2 < toks.size() ? toks.get(i + 2) : toks.get(i + 1);
                if (next.sense() instanceof Sense.Entity || t.is("which") && next.sense() instanceof Sense.Attr) {
                    return Optional.of("which rows ('" + t.text() + " " + next.text() + "')");
                }
                if (next.plain() && (Periods.grain(next.word()) != null || next.is("year", "day"))) {
                    return Optional.of("which " + next.text() + " ('" + t.text() + " " + next.text() + "')"); // "in which month"
                }
            }
        }
        for (int i = 0; i < toks.size(); i++) {
            Tok t = toks.get(i);
            if (t.is("how") && i + 1 < toks.size() && toks.get(i + 1).is("many")
                    || t.plain() && (PURE_AGGREGATES.contains(t.word()) || V.has(t.word(), "share"))) {
                return Optional.of("for a number ('" + t.text() + (t.is("how") ? " many" : "") + "')");
            }
        }
        return Optional.empty();
    }

    /** Shape words of the question ("average", "highest", "breakdown", "percentage") that the spec does not use. */
    static List<String> unused(List<Tok> toks, QuerySpec spec) {
        List<String> out = new ArrayList<>();
        String agg = spec.aggFn() != null ? spec.aggFn()
                : spec.metric() != null ? spec.metric().expression().trim().replaceAll("(?s)^(\\w+)\\(.*", "$1").toLowerCase(Locale.ROOT)
                : spec.shape() == QuerySpec.Shape.COUNT ? "count" : "";
        for (int i = 0; i < toks.size(); i++) {
            Tok t = toks.get(i);
            if (!t.plain()) {
                continue;
            }
            String w = t.word();
            Tok before = i > 0 ? toks.get(i - 1) : null;
            boolean used = true;
            if (PURE_AGGREGATES.contains(w)) {
                String fn = V.map("aggregates").get(w);
                used = fn.equals(agg) || fn.equals("sum") && (agg.equals("count") || spec.shape() == QuerySpec.Shape.PERIOD_TOTALS);
            } else if (EXTREMES.contains(w)) {
                String fn = V.map("aggregates").get(w);
                // "the largest loan" is no latest date: only the words of time order apply to a date
                boolean ofDate = spec.measure() != null && spec.measure().date() && !V.has(w, "time_order");
                used = spec.limit() != null || fn.equals(agg) && !ofDate;
            } else if (V.has(w, "descending", "ascending")) {
                used = spec.limit() != null;
            } else if (V.has(w, "distribution")) {
                used = spec.group() != null;
            } else if (V.has(w, "share")) { // after a number it is the number's unit ("above 5 percent")
                used = spec.shape() == QuerySpec.Shape.SHARE || spec.shape() == QuerySpec.Shape.PERCENT_CHANGE || spec.metric() != null
                        || before != null && (before.number() || before.sense() instanceof Sense.Compare);
            }
            if (!used && !out.contains(t.text())) {
                out.add(t.text());
            }
        }
        // "how many … and what is their average amount": a count asked for beside another aggregate, which is all the
        // reading computes
        if (List.of("avg", "min", "max", "median").contains(agg) && countAsked(toks, spec) && spec.shape() != QuerySpec.Shape.PERIOD_TOTALS
                && !(spec.shape() == QuerySpec.Shape.TOP_GROUPS && howManyThere(toks))) { // "when did it peak, and how many were there": the value shown
            out.add("how many");
        }
        return out;
    }

    /** Whether the question ends "and how many were there" (or "was there"): the ranked value, asked again. */
    private static boolean howManyThere(List<Tok> toks) {
        int n = toks.size();
        return n >= 5 && toks.get(n - 5).is("and") && toks.get(n - 4).is("how") && toks.get(n - 3).is("many")
                && toks.get(n - 2).is("were", "was") && toks.get(n - 1).is("there");
    }

    /** Whether "how many" asks for a count, not for the number column named right after it ("on average, how many stations (nst)"). */
    private static boolean countAsked(List<Tok> toks, QuerySpec spec) {
        for (int i = 0; i + 1 < toks.size(); i++) {
            if (toks.get(i).is("how") && toks.get(i + 1).is("many") && !(i + 2 < toks.size() && spec.measure() != null
                    && spec.measure().equals(toks.get(i + 2).sense()) && spec.measure().type().matches("(?i).*INT.*"))) {
                return true;
            }
        }
        return false;
    }
}
