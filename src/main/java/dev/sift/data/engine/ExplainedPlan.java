package dev.sift.data.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the parsed logical plan out of Spark's {@code EXPLAIN EXTENDED} text, node by node. */
final class ExplainedPlan {
    /** A plan line: tree drawing ({@code +- :- :}), an optional {@code '} for unresolved, then the node's name. */
    private static final Pattern NODE = Pattern.compile("^[\\s:+|\\-]*'?([A-Za-z][A-Za-z0-9_]*)");

    private ExplainedPlan() { }

    /** The first node of the parsed plan that writes or is a command, or null when it only reads. */
    static String writer(String explained) {
        int start = explained.indexOf("== Parsed Logical Plan ==");
        if (start < 0) {
            return "no parsed plan"; // not an EXPLAIN of a statement Sift understands: refuse
        }
        int end = explained.indexOf("\n== ", start + 5);
        String parsed = explained.substring(start, end < 0 ? explained.length() : end);
        String[] lines = parsed.split("\n");
        for (int i = 1; i < lines.length; i++) {
            Matcher m = NODE.matcher(lines[i]);
            if (m.find() && SparkSqlEngine.WRITES.matcher(m.group(1)).matches()) {
                return m.group(1);
            }
        }
        return null;
    }
}
