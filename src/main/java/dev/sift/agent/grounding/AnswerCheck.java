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
        double[] cited = new double[claims.size() * 2];
        int[] citedAt = new int[cited.length];
        int c = 0;
        for (Claim claim : claims) {
            if (claim.kind() == Claim.Kind.VALUE) {
                if (!facts.mentionsValue(claim.value())) {
                    values.add(claim);
                }
                continue;
            }
            Claim.Reading hit = claim.numeric() ? direct(claim, facts) : null;
            if (hit != null) {
                citedAt[c] = claim.at();
                cited[c++] = Math.abs(hit.value());
            } else if (!claim.numeric() ? !supported(claim, facts) : !facts.namesNumber(claim.readings().get(0).value())) {
                open.add(claim);
            }
        }
        List<Claim> unsupported = new ArrayList<>();
        List<Derived> derived = new ArrayList<>();
        if (!open.isEmpty()) { // small counts are no claims but may be operands: "10 finished and 26 running, 36 in all"
            cited = Arrays.copyOf(cited, cited.length + 16);
            citedAt = Arrays.copyOf(citedAt, cited.length);
            for (Claim small : ClaimExtractor.facts(answer)) {
                double v = small.readings().isEmpty() ? Double.NaN : small.readings().get(0).value();
                if (v <= ClaimExtractor.SMALL && c < cited.length - claims.size() && facts.supports(small.readings().get(0))) {
                    citedAt[c] = small.at();
                    cited[c++] = Math.abs(v);
                }
            }
        }
        for (Claim claim : open) {
            String formula = claim.numeric() ? Derivations.derive(claim, nearest(cited, citedAt, c, claim.at()),
                    facts.pool()) : null;
            if (formula == null && claim.numeric()) {
                formula = Derivations.rounded(claim, facts);
            }
            if (formula == null) {
                unsupported.add(claim);
            } else {
                derived.add(new Derived(claim.text(), formula));
                citedAt[c] = claim.at();
                cited[c++] = Math.abs(claim.readings().get(0).value()); // a derived number may be an operand too
            }
        }
        valueNumbers(values, facts, unsupported);
        return new Result(List.copyOf(claims), List.copyOf(unsupported), List.copyOf(values), List.copyOf(derived));
    }

    /** The cited numbers, nearest to {@code at} in the text first: a formula is looked for among neighbours first. */
    private static double[] nearest(double[] cited, int[] at, int n, int from) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, java.util.Comparator.comparingInt(i -> Math.abs(at[i] - from)));
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = cited[order[i]];
        }
        return out;
    }

    /** A quoted value found nowhere that holds numbers: its numbers are still checked as numbers. */
    private static void valueNumbers(List<Claim> values, Facts facts, List<Claim> unsupported) {
        for (Claim v : values) {
            for (Claim n : ClaimExtractor.claims(v.value())) {
                if (n.numeric() && direct(n, facts) == null && !facts.namesNumber(n.readings().get(0).value())) {
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

    private static Claim.Reading direct(Claim claim, Facts facts) {
        for (Claim.Reading r : claim.readings()) {
            if (facts.supports(r)) {
                return r;
            }
        }
        return null;
    }

    private static boolean idDigitsStated(String id, Facts facts) {
        String digits = id.replaceAll("\\D+", "");
        return !digits.isEmpty() && digits.length() < 16 && facts.supports(new Claim.Reading(Long.parseLong(digits), 0));
    }
}
