package dev.sift.knowledge;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the line of a knowledge file a problem is about, from the entry the problem names ({@code metrics[margin]},
 * {@code examples[2]}, {@code types[orders.order_date]}, {@code tables.orders.columns.qty}), so that {@code sift kg
 * check} can say {@code shop.kg.yaml:14: …}. Reads the text, not the YAML tree (which keeps no lines); 0 when the
 * entry cannot be found.
 */
public final class KgLines {
    private static final Pattern ENTRY = Pattern.compile("^(\\w+)\\[([^\\]]+)\\]");
    private static final Pattern TABLES = Pattern.compile("^tables\\.([^.:\\s]+)(?:\\.columns\\.([^.:\\s]+))?");

    private KgLines() { }

    /** The 1-based line of the entry {@code problem} names (its text after the file name), or 0. */
    public static int locate(String text, String problem) {
        List<String> lines = text.lines().toList();
        Matcher t = TABLES.matcher(problem);
        if (t.find()) {
            int at = after(lines, 0, "^tables\\s*:");
            at = at == 0 ? 0 : after(lines, at, "^\\s+" + Pattern.quote(t.group(1)) + "\\s*:");
            return t.group(2) == null || at == 0 ? at : orElse(after(lines, at, "^\\s+" + Pattern.quote(t.group(2)) + "\\s*:"), at);
        }
        Matcher e = ENTRY.matcher(problem);
        if (!e.find()) {
            return 0;
        }
        int section = after(lines, 0, "^" + Pattern.quote(e.group(1)) + "\\s*:");
        if (section == 0) {
            return 0;
        }
        String name = e.group(2);
        if (e.group(1).equals("examples") && name.matches("\\d+")) {
            int at = section;
            for (int n = Integer.parseInt(name); n > 0 && at > 0; n--) {
                at = after(lines, at, "^\\s*-\\s");
            }
            return at;
        }
        if (e.group(1).equals("types")) {
            return orElse(after(lines, section, "^\\s+" + Pattern.quote(name) + "\\s*:"), section);
        }
        return orElse(after(lines, section, "name\\s*:\\s*[\"']?" + Pattern.quote(name) + "\\b"), section);
    }

    /** The first line after line {@code from} (1-based; 0 = from the start) matching {@code regex}, or 0. */
    private static int after(List<String> lines, int from, String regex) {
        Pattern p = Pattern.compile(regex);
        for (int i = from; i < lines.size(); i++) {
            if (!lines.get(i).trim().startsWith("#") && p.matcher(lines.get(i)).find()) {
                return i + 1;
            }
        }
        return 0;
    }

    private static int orElse(int line, int fallback) {
        return line == 0 ? fallback : line;
    }
}
