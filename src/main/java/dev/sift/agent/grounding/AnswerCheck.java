package dev.sift.agent.grounding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The deterministic groundedness check. Claims come in two kinds. Numeric claims (numbers, percentages, dates,
 * ids) must be found in the evidence — a number within its written rounding (percentages also as fractions, and
 * back), a date or id in the evidence's text — or be derived from evidence numbers ({@link Derivations}); those
 * that are neither are unsupported, and send a model's answer back once. Value claims (quoted text) must be
 * evidence values or words of the question, the schema, the knowledge graph or the dataset facts the planner was
 * shown; one that is not is reported apart and sends nothing back. A number inside a name ("1996" of
 * unemployment_1996) is not a claim, nor is anything a clarifying question or a decline only proposes.
 */
public final class AnswerCheck {

    /** A number the evidence does not state but yields by {@code formula} ("218 + 1804"). */
    public record Derived(String claim, String formula) { }

    /**
     * The claims an answer makes; the numeric ones no evidence supports; the quoted values found nowhere; and the
     * numbers accepted as derived, with their formulas.
     */
    public record Result(List<Claim> claims, List<Claim> unsupported, List<Claim> unsupportedValues,
                         List<Derived> derived) {
        public Result(List<Claim> claims, List<Claim> unsupported) {
            this(claims, unsupported, List.of(), List.of());
        }

        public boolean grounded() {
            return unsupported.isEmpty();
        }

        /** "4,812, 12.5%" — the unsupported numeric claims as written, for notes and the repair message. */
        public String unsupportedText() {
            return unsupported.stream().map(Claim::text).distinct().collect(Collectors.joining(", "));
        }
    }

    private AnswerCheck() { }

    public static Result check(String answer, Facts facts) {
        return check(answer, facts, false);
    }

    /** As above; {@code proposes}: the answer is a clarifying question or a decline, so only its statements count. */
    public static Result check(String answer, Facts facts, boolean proposes) {
        List<Claim> claims = ClaimExtractor.claims(answer);
        if (proposes && !claims.isEmpty()) {
            List<int[]> spans = Proposals.spans(answer);
            claims = claims.stream().filter(c -> !Proposals.inside(spans, c.at())).toList();
        }
        List<Claim> open = new ArrayList<>();
        List<Claim> values = new ArrayList<>();
        Operands cited = new Operands(answer);
        for (Claim claim : claims) {
            if (claim.kind() == Claim.Kind.VALUE) {
                if (!facts.mentionsValue(claim.value())) {
                    values.add(claim);
                }
                continue;
            }
            List<Claim.Reading> hits = claim.numeric() ? direct(claim, facts) : List.of();
            hits.forEach(h -> cited.add(h, claim.at())); // "2,000" may be 2000 and 2.0: both are operands
            if (hits.isEmpty() && (!claim.numeric() ? !supported(claim, facts)
                    : !facts.namesNumber(claim.readings().get(0).value()))) {
                open.add(claim);
            }
        }
        List<Claim> unsupported = new ArrayList<>();
        List<Derived> derived = new ArrayList<>();
        if (!open.isEmpty()) {
            smallOperands(answer, facts, cited);
        }
        for (Claim claim : open) {
            Derivations.Derivation d = !claim.numeric() ? null
                    : Derivations.derive(claim, cited.nearest(claim.at()), facts.pool());
            if (d == null && claim.numeric()) {
                d = Derivations.rounded(claim, facts);
            }
            if (d == null) {
                unsupported.add(claim);
            } else {
                derived.add(new Derived(claim.text(), d.formula()));
                cited.add(d.value(), claim.at()); // a derived number may be an operand too
            }
        }
        valueNumbers(values, facts, unsupported);
        return new Result(List.copyOf(claims), List.copyOf(unsupported), List.copyOf(values), List.copyOf(derived));
    }

    /** Small counts are no claims but may be operands: "10 finished and 26 running, 36 in all" (at most 16). */
    private static void smallOperands(String answer, Facts facts, Operands cited) {
        int added = 0;
        for (Claim small : ClaimExtractor.facts(answer)) {
            if (small.readings().isEmpty() || added == 16) {
                continue;
            }
            Claim.Reading r = small.readings().get(0);
            if (r.value() <= ClaimExtractor.SMALL && r.value() == Math.rint(r.value()) && facts.supports(r)) {
                cited.add(r, small.at());
                added++;
            }
        }
    }

    /**
     * The numbers an answer cites (and derives), with where each stands in the text. A claim is derived only from
     * numbers of its own sentence and the two before (a reader redoes arithmetic on what was just said).
     */
    private static final class Operands {
        private final List<Derivations.Operand> values = new ArrayList<>();
        private final List<Integer> at = new ArrayList<>();
        private final int[] sentence;

        Operands(String answer) {
            sentence = new int[answer.length() + 1];
            int n = 0;
            for (int i = 0; i < answer.length(); i++) {
                sentence[i] = n;
                char c = answer.charAt(i);
                boolean end = c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';')
                        && (i + 1 == answer.length() || Character.isWhitespace(answer.charAt(i + 1)));
                if (end) {
                    n++;
                }
            }
            sentence[answer.length()] = n;
        }

        void add(Claim.Reading r, int where) {
            add(new Derivations.Operand(Math.abs(r.value()), r.scale()), where);
        }

        void add(Derivations.Operand x, int where) {
            values.add(x);
            at.add(where);
        }

        /** The numbers of the sentence at {@code from} and the two before, nearest first. */
        List<Derivations.Operand> nearest(int from) {
            int here = sentence[Math.min(from, sentence.length - 1)];
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                int s = sentence[Math.min(at.get(i), sentence.length - 1)];
                if (s <= here && s >= here - 2) {
                    order.add(i);
                }
            }
            order.sort(java.util.Comparator.comparingInt(i -> Math.abs(at.get(i) - from)));
            List<Derivations.Operand> out = new ArrayList<>(order.size());
            for (Integer i : order) {
                out.add(values.get(i));
            }
            return out;
        }
    }

    /** A quoted value found nowhere that holds numbers: its numbers are still checked as numbers. */
    private static void valueNumbers(List<Claim> values, Facts facts, List<Claim> unsupported) {
        for (Claim v : values) {
            for (Claim n : ClaimExtractor.claims(v.value())) {
                if (n.numeric() && direct(n, facts).isEmpty() && !facts.namesNumber(n.readings().get(0).value())) {
                    unsupported.add(new Claim(n.text(), n.kind(), n.readings(), n.date(), n.value(), v.at() + n.at()));
                } else if (n.kind() == Claim.Kind.DATE && !supported(n, facts)) {
                    unsupported.add(n);
                }
            }
        }
    }

    private static boolean supported(Claim claim, Facts facts) {
        return switch (claim.kind()) {
            case DATE -> claim.date().stream().anyMatch(d -> facts.hasDate(d) || facts.mentions(d));
            case ID -> facts.mentions(claim.value()) || idDigitsStated(claim.value(), facts);
            default -> false;
        };
    }

    /** The readings of a claim the evidence states. */
    private static List<Claim.Reading> direct(Claim claim, Facts facts) {
        List<Claim.Reading> out = new ArrayList<>(2);
        for (Claim.Reading r : claim.readings()) {
            if (facts.supports(r)) {
                out.add(r);
            }
        }
        return out;
    }

    private static boolean idDigitsStated(String id, Facts facts) {
        String digits = id.replaceAll("\\D+", "");
        return !digits.isEmpty() && digits.length() < 16 && facts.supports(new Claim.Reading(Long.parseLong(digits), 0));
    }
}
