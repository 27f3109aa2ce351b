package dev.sift.text;

/**
 * Text from the user's data made safe for where it goes: a prompt (one line, control characters visible, so a
 * value cannot start a line like "## Rules"), a terminal (no escape sequences that clear the screen or retitle
 * the window) and a {@code <script>} element (no {@code </script} or {@code <!--} that ends or bends it).
 */
public final class SafeText {
    private SafeText() { }

    /** Newlines, tabs and other control characters as visible escapes ({@code \n}, {@code \x1B}). */
    public static String oneLine(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String esc = switch (c) {
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\u2028', '\u2029' -> String.format("\\u%04X", (int) c);
                default -> Character.isISOControl(c) ? String.format("\\x%02X", (int) c) : null;
            };
            if (esc != null && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (esc != null) {
                    b.append(esc);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    /** A value quoted for a prompt: {@code 'it''s'} style quotes, control characters escaped. */
    public static String quoted(String s) {
        return "'" + oneLine(s).replace("'", "''") + "'";
    }

    /** Terminal output: escape sequences and other control characters visible; line breaks and tabs kept. */
    public static String terminal(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\t' || !Character.isISOControl(c)) {
                b.append(c);
            } else {
                b.append(String.format("\\x%02X", (int) c));
            }
        }
        return b.toString();
    }

    /** JSON to embed in a {@code <script>} element: every {@code <}, {@code >} and {@code &} as a JSON escape. */
    public static String scriptJson(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
