package dev.sift.agent;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.text.Evidence;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A question that names a currency the data is not in ("in USD", "$") gets a caveat saying so: the knowledge
 * graph states each measure's unit (loan.amount in CZK), and an answer read from such a column gives CZK, not a
 * converted figure. The answer carries the caveat unless it names the data's currency itself.
 */
final class UnitCaveat {
    /** The currencies a question may name, with the words that name them. */
    private static final Map<String, Pattern> CURRENCIES = new LinkedHashMap<>();

    static {
        CURRENCIES.put("USD", Pattern.compile("\\$|\\bUSD\\b|\\bUS dollars?\\b|\\bdollars?\\b", Pattern.CASE_INSENSITIVE));
        CURRENCIES.put("EUR", Pattern.compile("€|\\bEUR\\b|\\beuros?\\b", Pattern.CASE_INSENSITIVE));
        CURRENCIES.put("GBP", Pattern.compile("£|\\bGBP\\b|\\bpounds? sterling\\b", Pattern.CASE_INSENSITIVE));
        CURRENCIES.put("CZK", Pattern.compile("\\bCZK\\b|Kč|\\bkorun[ay]?\\b|\\bCzech crowns?\\b", Pattern.CASE_INSENSITIVE));
    }

    /** The caveat and the data's currency, which an answer that states it needs no caveat for. */
    record Caveat(String text, String dataCurrency) {
        /** The answer with the caveat in front, unless it names the data's currency already. */
        String onto(String answer) {
            return answer == null || answer.contains(dataCurrency) ? answer : text + "\n\n" + answer;
        }
    }

    private UnitCaveat() { }

    /** The caveat for {@code question} when a column the evidence reads is in a currency other than the one it names. */
    static Optional<Caveat> of(String question, List<Evidence> evidence, KnowledgeGraph kg) {
        if (question == null || evidence.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> asked = CURRENCIES.entrySet().stream().filter(e -> e.getValue().matcher(question).find())
                .map(Map.Entry::getKey).findFirst();
        if (asked.isEmpty()) {
            return Optional.empty();
        }
        String sql = String.join("\n", evidence.stream().map(Evidence::sql).toList()).toLowerCase(Locale.ROOT);
        for (KgEntry.Column c : kg.entries(KgEntry.Column.class)) {
            String currency = currency(c.unit());
            if (currency != null && !currency.equals(asked.get()) && reads(sql, c)) {
                return Optional.of(new Caveat("Note: the question asks in " + asked.get() + ", but " + c.qualified()
                        + " is in " + currency + "; the figures are in " + currency + ", not converted.", currency));
            }
        }
        return Optional.empty();
    }

    /** The currency code a unit starts with ("CZK per month" → CZK), or null for other units. */
    private static String currency(String unit) {
        if (unit == null) {
            return null;
        }
        String code = unit.strip().split("\\s+")[0];
        return code.matches("[A-Z]{3}") && !code.equals("PER") ? code : null;
    }

    /** Whether the SQL reads the column's table (after FROM or JOIN) and names the column, as words. */
    private static boolean reads(String sql, KgEntry.Column c) {
        String table = Pattern.quote(c.table().toLowerCase(Locale.ROOT));
        return Pattern.compile("\\b(from|join)\\s+(\\w+\\.)?\"?" + table + "\"?(?![a-z0-9_])").matcher(sql).find()
                && Pattern.compile("(?<![a-z0-9_])" + Pattern.quote(c.name().toLowerCase(Locale.ROOT)) + "(?![a-z0-9_])")
                .matcher(sql).find();
    }
}
