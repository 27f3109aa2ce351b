package dev.sift.planner.rules;

import dev.sift.knowledge.Patterns;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Requests the offline planner declines outright: changes to the data, SQL or shell fragments, attempts to
 * rewrite the assistant's instructions, and questions that are not about the data at all. Checked before any
 * parsing; the reason is said in the answer. The patterns are the {@code guard} group of {@code patterns.yaml}.
 */
public final class Guard {
    private record Rule(Pattern pattern, String reason) { }

    private static final Rule CHANGE = rule("change", "it asks to change the data, and Sift never changes it");
    private static final Rule OFF_TOPIC = rule("off_topic", "it is not a question about this dataset");
    private static final Rule WRITE_OUT = rule("write_out", "it asks to write data out of the session, which Sift does not do");
    private static final List<Rule> RULES = List.of(rule("sql", "it contains SQL or statement separators"), CHANGE,
            WRITE_OUT, rule("instructions", "it tries to change Sift's instructions"),
            OFF_TOPIC);

    private Guard() { }

    private static Rule rule(String name, String reason) {
        return new Rule(Patterns.ALL.get("guard." + name), reason);
    }

    /**
     * Why the request is declined, or empty when it may be parsed. A word that is off the topic of data in general
     * ("weather") is not when the data holds it ({@code inData}: a value 'Extreme weather').
     */
    public static Optional<String> check(String question, java.util.function.Predicate<String> inData) {
        String q = question.toLowerCase(Locale.ROOT);
        for (Rule r : RULES) {
            java.util.regex.Matcher m = r.pattern().matcher(q);
            if (m.find() && !(r == OFF_TOPIC && m.reset().results().allMatch(x -> inData.test(x.group().trim())))) {
                return Optional.of(r.reason());
            }
        }
        return Optional.empty();
    }

    /** Why the request is declined whatever the data holds, or empty. */
    public static Optional<String> check(String question) {
        return check(question, word -> false);
    }

    /** Whether the request asks to change the data or write it out: declined whatever it refers to. */
    public static boolean asksToChange(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        return CHANGE.pattern().matcher(q).find() || WRITE_OUT.pattern().matcher(q).find();
    }
}
