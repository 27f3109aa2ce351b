package dev.sift.web;

import java.util.List;

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled; NULL is empty. */
public final class Csv {
    private Csv() { }

    public static String of(List<String> columns, List<List<Object>> rows) {
        StringBuilder b = new StringBuilder();
        line(b, columns.stream().map(c -> (Object) c).toList());
        rows.forEach(r -> line(b, r));
        return b.toString();
    }

    private static void line(StringBuilder b, List<Object> values) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            Object v = values.get(i);
            String s = v == null ? "" : v.toString();
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                b.append('"').append(s.replace("\"", "\"\"")).append('"');
            } else {
                b.append(s);
            }
        }
        b.append("\r\n");
    }
}
