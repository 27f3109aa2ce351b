package dev.sift.bench;

import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerReplay;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Claim;
import dev.sift.agent.grounding.ClaimExtractor;

import java.util.ArrayList;
import java.util.List;

/**
 * Invented numbers made from a real answer, one per variant: a number changed (its leading digit raised), a number
 * added (a sentence stating a new one), two adjacent digits swapped, a wrong unit ("thousand" after a plain
 * count or amount), and a percentage written as its own fraction ("0.111%" for 11.1%). Which number is mutated
 * follows from the trace's name, so the variants are the same every time; a variant whose new number is no claim
 * (a count up to ten) or one the evidence states is not made, and the next number is mutated instead.
 */
final class Mutations {
    /** One variant: the answer with one invented number, at characters {@code [from, to)}. */
    public record Mutation(String trace, String kind, String answer, int from, int to) { }

    private Mutations() { }

    static List<Mutation> of(GroundingCorpus.Real real) {
        String answer = real.run().answer();
        List<Claim> numbers = GroundingCorpus.numbers(real.run()).stream()
                .filter(c -> c.readings().stream().anyMatch(r -> r.value() > ClaimExtractor.SMALL)).toList();
        List<Mutation> out = new ArrayList<>();
        if (answer == null || numbers.isEmpty()) {
            return out;
        }
        int seed = Math.floorMod(real.name().hashCode(), 1 << 16);
        first(real, numbers, seed, c -> changed(real, answer, c)).ifPresent(out::add);
        first(real, numbers, seed + 1, c -> swapped(real, answer, c)).ifPresent(out::add);
        first(real, numbers, seed + 2, c -> added(real, answer, c)).ifPresent(out::add);
        first(real, numbers, seed + 3, c -> wrongUnit(real, answer, c)).ifPresent(out::add);
        first(real, numbers, 0, c -> ownPercent(real, answer, c)).ifPresent(out::add);
        return out;
    }

    /**
     * The first variant, trying the numbers from {@code start} on, whose new number is an invented claim: a claim
     * (not a count up to ten, which is none) that the evidence does not state. A number the evidence states
     * elsewhere would be a misattribution, which the check does not claim to catch.
     */
    private static java.util.Optional<Mutation> first(GroundingCorpus.Real real, List<Claim> numbers, int start,
                                                      java.util.function.Function<Claim, Mutation> make) {
        for (int k = 0; k < numbers.size(); k++) {
            Mutation m = make.apply(numbers.get((start + k) % numbers.size()));
            if (m != null && invented(real, m)) {
                return java.util.Optional.of(m);
            }
        }
        return java.util.Optional.empty();
    }

    private static boolean invented(GroundingCorpus.Real real, Mutation m) {
        AnswerCheck.Result r = AnswerReplay.check(apply(real.run(), m.answer()));
        List<Claim> at = r.claims().stream().filter(c -> c.at() < m.to() && c.at() + c.text().length() > m.from()).toList();
        return !at.isEmpty() && at.stream().anyMatch(c -> r.unsupported().contains(c)
                || r.derived().stream().anyMatch(d -> d.claim().equals(c.text())));
    }

    private static Mutation changed(GroundingCorpus.Real real, String answer, Claim c) {
        int from = c.at();
        int to = end(answer, from);
        int lead = firstDigit(answer, from, to);
        if (lead < 0) {
            return null;
        }
        char d = answer.charAt(lead);
        char raised = d == '9' ? '7' : (char) (d + 1);
        return mutation(real, "changed", answer.substring(0, lead) + raised + answer.substring(lead + 1), from, to);
    }

    private static Mutation swapped(GroundingCorpus.Real real, String answer, Claim c) {
        int from = c.at();
        int to = end(answer, from);
        for (int i = from; i + 1 < to; i++) {
            char a = answer.charAt(i);
            char b = answer.charAt(i + 1);
            if (Character.isDigit(a) && Character.isDigit(b) && a != b) {
                return mutation(real, "digit_swap", answer.substring(0, i) + b + a + answer.substring(i + 2), from, to);
            }
        }
        return null;
    }

    private static Mutation added(GroundingCorpus.Real real, String answer, Claim c) {
        double v = c.readings().stream().mapToDouble(Claim.Reading::value).max().orElse(0) * 1.37 + 13;
        String added = String.format(java.util.Locale.US, v >= 1000 ? "%,.0f" : "%.0f", v);
        String prefix = answer.endsWith("\n") ? answer : answer + " ";
        return mutation(real, "added", prefix + "A further " + added + " were left out.", prefix.length() + 10,
                prefix.length() + 10 + added.length());
    }

    private static Mutation wrongUnit(GroundingCorpus.Real real, String answer, Claim c) {
        int end = end(answer, c.at());
        if (c.kind() != Claim.Kind.NUMBER || !plainAfter(answer, end)) {
            return null;
        }
        return mutation(real, "wrong_unit", answer.substring(0, end) + " thousand" + answer.substring(end), c.at(), end);
    }

    /** A percentage written as its own fraction with the percent sign kept ("11.1%" → "0.111%"): 100 times too small. */
    private static Mutation ownPercent(GroundingCorpus.Real real, String answer, Claim c) {
        int end = end(answer, c.at());
        String written = answer.substring(c.at(), end);
        if (c.kind() != Claim.Kind.PERCENT || !written.matches("-?\\d+(\\.\\d+)?")) {
            return null;
        }
        String fraction = new java.math.BigDecimal(written).movePointLeft(2).toPlainString();
        return mutation(real, "own_percent", answer.substring(0, c.at()) + fraction + answer.substring(end), c.at(),
                c.at() + fraction.length());
    }

    private static Mutation mutation(GroundingCorpus.Real real, String kind, String answer, int from, int to) {
        return new Mutation(real.name(), kind, answer, from, to);
    }

    /** The end of the number written at {@code at}: digits and the separators between them. */
    private static int end(String s, int at) {
        int i = at;
        while (i < s.length() && !Character.isDigit(s.charAt(i))) {
            i++;
        }
        while (i < s.length() && (Character.isDigit(s.charAt(i))
                || ".,'\u00A0\u202F ".indexOf(s.charAt(i)) >= 0 && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
            i++;
        }
        return i;
    }

    private static int firstDigit(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
                return i;
            }
        }
        return -1;
    }

    /** No unit or scale follows already ("691 loans", "145,068.67."), so "thousand" makes the unit wrong. */
    private static boolean plainAfter(String s, int end) {
        String after = s.substring(end, Math.min(s.length(), end + 12)).toLowerCase(java.util.Locale.ROOT);
        return !after.matches("^\\s?(%|percent|pp|thousand|million|billion|k\\b|m\\b|bn|x\\b|times).*");
    }

    /** The run with another answer, all else as it was. */
    static AgentRun apply(AgentRun r, String answer) {
        return new AgentRun(r.runId(), r.question(), r.dataset(), r.planner(), answer, r.kind(), r.status(), r.evidence(),
                r.steps(), r.notes(), r.startedAt(), r.millis(), r.tokens(), r.toolsShown(), r.grounding(), r.signals());
    }
}
