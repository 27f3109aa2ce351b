package dev.sift.planner.rules;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Requests the offline planner declines outright: changes to the data, SQL or shell fragments, attempts to
 * rewrite the assistant's instructions, and questions that are not about the data at all. Checked before any
 * parsing; the reason is said in the answer.
 */
public final class Guard {
    private record Rule(Pattern pattern, String reason) { }

    private static final List<Rule> RULES = List.of(
            new Rule(Pattern.compile(";|--|/\\*|\\bselect\\b.*\\bfrom\\b"), "it contains SQL or statement separators"),
            new Rule(Pattern.compile("\\b(delete|drop|insert|update|truncate|alter|create|revoke|overwrite|erase|wipe"
                    + "|remove|modify|rename|attach|detach|pragma|install)s?\\b|\\bgrant\\s+(select|all|usage|insert"
                    + "|update|delete|execute)\\b"), "it asks to change the data, and Sift never changes it"),
            new Rule(Pattern.compile("^\\s*(set|change|make)\\b.*\\bto\\b"), "it asks to change the data, and Sift never changes it"),
            new Rule(Pattern.compile("\\b(export|save|write|copy|dump|upload|send|email)\\b.*(\\bto\\b|/|\\\\|\\.csv|\\.json|file)"),
                    "it asks to write data out of the session, which Sift does not do"),
            new Rule(Pattern.compile("\\bignore\\b.*\\b(instruction|instructions|rules|prompt|above|previous)\\b|system prompt"
                    + "|\\byou are now\\b|\\bpretend\\b|\\bjailbreak\\b|\\breveal\\b.*\\b(prompt|instructions)\\b"
                    + "|\\bdeveloper mode\\b"), "it tries to change Sift's instructions"),
            new Rule(Pattern.compile("meaning of life|\\bpoem\\b|\\bpoetry\\b|\\bjoke\\b|\\bsong\\b|\\bstory\\b|\\brecipe\\b"
                    + "|\\bweather\\b|\\bhoroscope\\b|\\btranslate\\b|\\bessay\\b|\\bwho are you\\b|\\bstock price\\b"
                    + "|\\bpresident\\b|\\bwrite me\\b"), "it is not a question about this dataset"));

    private Guard() { }

    /** Why the request is declined, or empty when it may be parsed. */
    public static Optional<String> check(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        for (Rule r : RULES) {
            if (r.pattern().matcher(q).find()) {
                return Optional.of(r.reason());
            }
        }
        return Optional.empty();
    }
}
