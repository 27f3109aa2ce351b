package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

/**
 * Notices a planner going round in circles: the same failing call twice. Then the next observation
 * carries a re-plan directive instead of letting it try a third time.
 */
final class LoopGuard {
    private final Map<String, Integer> failures = new HashMap<>();
    private int triggers;

    /** How many re-plan directives this run has had. */
    int triggers() {
        return triggers;
    }

    /** Failures of one exact call after which the run stops instead of spending its budget on it. */
    static final int STOP_AFTER = 3;

    /** How often this exact call has failed so far. */
    int failures(String tool, JsonNode args) {
        return failures.getOrDefault(tool + " " + args, 0);
    }

    /** Records a failed call; returns a directive when this exact call has now failed twice. */
    String failed(String tool, JsonNode args, String error) {
        int n = failures.merge(tool + " " + args, 1, Integer::sum);
        if (n < 2) {
            return null;
        }
        triggers++;
        return "You have made this exact " + tool + " call " + n + " times and it failed each time with: " + error
                + " Do not repeat it. Change the approach (check the schema with inspect_data, or use other columns)"
                + " or give the final answer with what you know and say what is missing.";
    }
}
