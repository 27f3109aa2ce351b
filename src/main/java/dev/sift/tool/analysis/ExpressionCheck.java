package dev.sift.tool.analysis;

/**
 * A planner-written SQL fragment (an expression or a WHERE condition) must stay one fragment once it is
 * embedded in a statement: no ';', no comments, and balanced parentheses outside string literals and quoted
 * names, so it cannot close the surrounding parentheses or swallow the rest of the statement. The guard then
 * parses and binds the whole statement.
 */
public final class ExpressionCheck {
    private ExpressionCheck() { }

    /** Null when the fragment is acceptable; otherwise what is wrong with it. */
    public static String problem(String fragment) {
        if (fragment == null || fragment.isBlank()) {
            return "is empty";
        }
        int depth = 0;
        int n = fragment.length();
        for (int i = 0; i < n; i++) {
            char c = fragment.charAt(i);
            if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n && !(fragment.charAt(j) == c && (j + 1 >= n || fragment.charAt(j + 1) != c))) {
                    j += fragment.charAt(j) == c ? 2 : 1;
                }
                if (j >= n) {
                    return "has an unterminated " + (c == '\'' ? "string literal" : "quoted name");
                }
                i = j;
                continue;
            }
            if (c == ';') {
                return "contains ';' (only one expression may be given, not statements)";
            }
            if (fragment.startsWith("--", i) || fragment.startsWith("/*", i)) {
                return "contains a comment";
            }
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return "closes a parenthesis it did not open";
            }
        }
        return depth == 0 ? null : "has an unclosed parenthesis";
    }
}
