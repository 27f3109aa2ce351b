package dev.sift.agent;

import dev.sift.tool.ToolResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The warnings a run's tools said its final answer must carry ({@link ToolResult#caveat()}: a weak model). Each
 * becomes a note; an answer that does not state it in its own words (weak, unreliable, chance…) gets it put in
 * front, so no answer presents a weak model's predictions or drivers as meaningful. Deterministic, like the
 * number check.
 */
final class Caveats {
    /** Words by which an answer says a model's results are not to be trusted. */
    private static final Pattern STATED = Pattern.compile("\\b(weak|unreliable|not reliable|chance|no better than"
            + "|not meaningful|cannot be trusted|can't be trusted|not be trusted|untrustworthy|leak|leaks|leaked|leakage"
            // labels and fields a model read from rows (classify_rows, extract_fields)
            + "|approximate|approximately|(labell?ed|labels?|classified|extracted|read|fields?)( \\w+){0,3} (by|from) the"
            + " (language |embedding )?model|model[- ](assigned|labell?ed|derived))\\b");

    private final List<String> found = new ArrayList<>();

    void add(ToolResult r) {
        if (r != null) {
            r.caveat().filter(c -> !found.contains(c)).ifPresent(found::add);
        }
    }

    boolean isEmpty() {
        return found.isEmpty();
    }

    List<String> all() {
        return List.copyOf(found);
    }

    /** Whether the answer states, in any wording, that the model is not to be trusted. */
    static boolean stated(String answer) {
        return answer != null && STATED.matcher(answer.toLowerCase(Locale.ROOT)).find();
    }

    /** The answer with the warnings in front when it does not already say so; unchanged otherwise. */
    String enforce(String answer) {
        if (found.isEmpty() || stated(answer)) {
            return answer;
        }
        return String.join("\n", found) + (answer == null || answer.isBlank() ? "" : "\n\n" + answer);
    }
}
