package dev.sift.data.source;

import dev.sift.data.Sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A type the user gives a column on load, written {@code table.column=kind[:format|format…]}:
 * {@code orders.order_date=date:%d/%m/%Y}, {@code events.at=timestamp:%d/%m/%Y %H:%M|%Y-%m-%d %H:%M},
 * {@code products.price=number}, {@code customers.zip=text}. Formats are DuckDB strptime formats; a value
 * may match any of them.
 */
public record ColumnType(String table, String column, String kind, List<String> formats) {
    static final List<String> KINDS = List.of("date", "timestamp", "number", "text");

    /** Parses one {@code --types} entry; the message shows the form expected. */
    public static ColumnType parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        int eq = s.indexOf('=');
        int dot = s.indexOf('.');
        if (eq < 0 || dot < 0 || dot > eq) {
            throw new IllegalArgumentException("--types '" + spec + "' is not table.column=kind[:format]; e.g."
                    + " orders.order_date=date:%d/%m/%Y (kinds: " + String.join(", ", KINDS) + ")");
        }
        String table = s.substring(0, dot).trim();
        String column = s.substring(dot + 1, eq).trim();
        String rest = s.substring(eq + 1).trim();
        int colon = rest.indexOf(':');
        String kind = (colon < 0 ? rest : rest.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("--types '" + spec + "': unknown kind '" + kind + "'; use one of "
                    + String.join(", ", KINDS));
        }
        List<String> formats = colon < 0 ? List.of() : Arrays.stream(rest.substring(colon + 1).split("\\|"))
                .map(String::trim).filter(f -> !f.isEmpty()).toList();
        if ((kind.equals("date") || kind.equals("timestamp")) && formats.isEmpty()) {
            throw new IllegalArgumentException("--types '" + spec + "': a " + kind + " needs its format, e.g. "
                    + table + "." + column + "=" + kind + ":%d/%m/%Y");
        }
        if (table.isEmpty() || column.isEmpty()) {
            throw new IllegalArgumentException("--types '" + spec + "' is not table.column=kind[:format]");
        }
        return new ColumnType(table, column, kind, formats);
    }

    /**
     * Parses several entries (each argument may hold several, comma-separated; a comma inside a format, as in
     * {@code date:%b %d, %Y}, is part of it: only a comma before the next {@code table.column=} separates entries).
     */
    public static List<ColumnType> parseAll(List<String> specs) {
        List<ColumnType> out = new ArrayList<>();
        for (String s : specs == null ? List.<String>of() : specs) {
            for (String one : s.split(",(?=[^,=%|]+\\.[^,=%|]+=)")) {
                if (!one.isBlank()) {
                    out.add(parse(one));
                }
            }
        }
        return out;
    }

    /** As written on the command line. */
    public String spec() {
        return table + "." + column + "=" + kind + (formats.isEmpty() ? "" : ":" + String.join("|", formats));
    }

    /** The SQL turning the text column {@code q} into this type (NULL where a value does not fit). */
    String expression(String q) {
        return switch (kind) {
            case "number" -> "TRY_CAST(replace(regexp_replace(trim(" + q + "), '[£$€\\s]', '', 'g'), ',', '') AS DOUBLE)";
            case "text" -> q;
            default -> "CAST(try_strptime(trim(" + q + "), [" + String.join(", ", formats.stream().map(Sql::quoteString)
                    .toList()) + "]) AS " + kind.toUpperCase(Locale.ROOT) + ")";
        };
    }
}
