package dev.sift.bench;

import dev.sift.agent.AgentRun;
import dev.sift.agent.grounding.Claim;
import dev.sift.agent.grounding.ClaimExtractor;

import java.util.ArrayList;
import java.util.List;

/**
 * Invented numbers made from a real answer, one per variant: a number changed (its leading digit raised), a number
 * added (a sentence stating a new one), two adjacent digits swapped, a wrong unit ("thousand" after a plain
 * count or amount), and a percentage written as its own fraction ("0.111%" for 11.1%). Which number is mutated
 * follows from the trace's name, so the variants are the same every time.
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
        Claim changed = numbers.get(seed % numbers.size());
        int from = changed.at();
        int to = end(answer, from);
        int lead = firstDigit(answer, from, to);
        if (lead >= 0) {
            char d = answer.charAt(lead);
            char raised = d == '9' ? '7' : (char) (d + 1);
            out.add(mutation(real, "changed", answer.substring(0, lead) + raised + answer.substring(lead + 1), from, to));
        }
        Claim swapped = numbers.get((seed + 1) % numbers.size());
        from = swapped.at();
        to = end(answer, from);
        for (int i = from; i + 1 < to; i++) {
            char a = answer.charAt(i);
            char b = answer.charAt(i + 1);
            if (Character.isDigit(a) && Character.isDigit(b) && a != b) {
                out.add(mutation(real, "digit_swap", answer.substring(0, i) + b + a + answer.substring(i + 2), from, to));
                break;
            }
        }
        double v = numbers.get((seed + 2) % numbers.size()).readings().stream()
                .mapToDouble(Claim.Reading::value).max().orElse(0) * 1.37 + 13;
        String added = String.format(java.util.Locale.US, v >= 1000 ? "%,.0f" : "%.0f", v);
        String prefix = answer.endsWith("\n") ? answer : answer + " ";
        String extra = prefix + "A further " + added + " were left out.";
        out.add(mutation(real, "added", extra, prefix.length() + 10, prefix.length() + 10 + added.length()));
        for (int k = 0; k < numbers.size(); k++) {
            Claim c = numbers.get((seed + 3 + k) % numbers.size());
            int end = end(answer, c.at());
            if (c.kind() == Claim.Kind.NUMBER && plainAfter(answer, end)) {
                out.add(mutation(real, "wrong_unit", answer.substring(0, end) + " thousand" + answer.substring(end),
                        c.at(), end));
                break;
            }
        }
        ownPercent(real, answer, numbers).ifPresent(out::add);
        return out;
    }

    /** A percentage written as its own fraction with the percent sign kept ("11.1%" → "0.111%"): 100 times too small. */
    private static java.util.Optional<Mutation> ownPercent(GroundingCorpus.Real real, String answer, List<Claim> numbers) {
        for (Claim c : numbers) {
            int end = end(answer, c.at());
            String written = answer.substring(c.at(), end);
            if (c.kind() == Claim.Kind.PERCENT && written.matches("-?\\d+(\\.\\d+)?")) {
                String fraction = new java.math.BigDecimal(written).movePointLeft(2).toPlainString();
                return java.util.Optional.of(mutation(real, "own_percent", answer.substring(0, c.at()) + fraction
                        + answer.substring(end), c.at(), c.at() + fraction.length()));
            }
        }
        return java.util.Optional.empty();
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
