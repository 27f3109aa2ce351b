package dev.sift.planner.rules;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calendar periods of a date or timestamp column as groups: the decade (1970), the year, the quarter ("2024-Q1"), the
 * month ("2024-03") and the weekday ("Monday"). A period is a {@link Sense.Attr} named for its grain whose SQL is written here, so the
 * query builder can tell a period from a column: to name months and quarters without their year when the rows span one
 * year ("March", "Q1"), to put weekdays and month names in calendar order, and to say which periods the data covers only
 * in part.
 */
final class Periods {
    /** The grains, each with the SQL of its groups over a date {@code %s}, and its form within one year (or null). */
    enum Grain {
        YEAR("year", "year(%s)", "BIGINT", null, null),
        QUARTER("quarter", "strftime(%s, '%%Y') || '-Q' || quarter(%s)", "VARCHAR", "'Q' || quarter(%s)", null),
        MONTH("month", "strftime(%s, '%%Y-%%m')", "VARCHAR", "monthname(%s)", "month"),
        WEEKDAY("weekday", "dayname(%s)", "VARCHAR", null, "isodow"),
        DAY("day", "CAST(%s AS DATE)", "DATE", null, null),
        /** The hour of the day (0–23) of a timestamp: it recurs each day, as a weekday recurs each week. */
        HOUR("hour", "hour(%s)", "BIGINT", null, null),
        /** The decade as the year it starts (1970 for 1970–1979), as the data's own decade columns write it. */
        DECADE("decade", "(year(%s) // 10 * 10)", "BIGINT", null, null);

        final String word;
        private final String sql;
        private final String type;
        private final String withinYear;
        /** The function whose least value orders the groups when their names do not sort in calendar order. */
        private final String order;

        Grain(String word, String sql, String type, String withinYear, String order) {
            this.word = word;
            this.sql = sql;
            this.type = type;
            this.withinYear = withinYear;
            this.order = order;
        }

        /** Whether successive groups follow each other in time (a weekday recurs; it is no period of a timeline). */
        boolean timeline() {
            return this != WEEKDAY && this != HOUR;
        }

        /** The SQL of {@code form} as a pattern whose groups are the date. */
        private static Pattern pattern(String form) {
            String[] parts = form.split("%s", -1);
            StringBuilder b = new StringBuilder("^");
            for (int k = 0; k < parts.length; k++) {
                b.append(k > 0 ? "(.+)" : "").append(Pattern.quote(parts[k].replace("%%", "%")));
            }
            return Pattern.compile(b.append('$').toString());
        }
    }

    private Periods() { }

    /** The period {@code grain} of {@code date} as a group: "month" → strftime(date, '%Y-%m'). */
    static Sense.Attr of(Grain grain, Sense.Attr date) {
        String d = date.sql();
        return new Sense.Attr(date.table(), grain.word, String.format(grain.sql, d, d), grain.type);
    }

    /** The decade of a whole-number year column ("Year" 1973 → 1970): a group, not a period of a date. */
    static Sense.Attr decadeOf(Sense.Attr year) {
        return new Sense.Attr(year.table(), Grain.DECADE.word, "(" + year.sql() + " // 10 * 10)", "BIGINT");
    }

    /** Whether a column is a period of a date made by {@link #of} (named by its grain: "month", "year"). */
    static boolean named(Sense.Attr a) {
        return java.util.Arrays.stream(Grain.values()).anyMatch(g -> g.word.equals(a.name()));
    }

    /**
     * The word of the periods whose totals one figure is over: its grain for a period of a date ("month"), "year" for a
     * whole-number year column.
     */
    static String word(Sense.Attr period) {
        return named(period) ? period.name() : !period.numeric() && !period.date()
                ? period.column().toLowerCase(java.util.Locale.ROOT) : "year";
    }

    /** The adjective of the totals one figure is over: "yearly", "daily"; "per-job" for a text column ("the average per job"). */
    static String each(Sense.Attr period) {
        String w = word(period);
        return !named(period) && !period.numeric() && !period.date() ? "per-" + w : w.equals("day") ? "daily" : w + "ly";
    }

    /** The grain a word names ("month", "monthly", "quarters", "weekday"), or null. */
    static Grain grain(String word) {
        String g = dev.sift.knowledge.Vocabulary.WORDS.map("periods").get(word);
        return g == null ? null : Grain.valueOf(g.toUpperCase(java.util.Locale.ROOT));
    }

    /** What a group is, when it is a period of a date: its grain and the date's SQL. */
    record Of(Grain grain, String date, boolean withinYear) { }

    /** The period a group is, or empty when it is a column or a whole-number year. */
    static Optional<Of> read(Sense.Attr group) {
        if (group == null) {
            return Optional.empty();
        }
        for (Grain g : Grain.values()) {
            if (!g.word.equals(group.name())) {
                continue;
            }
            for (String form : g.withinYear == null ? new String[] {g.sql} : new String[] {g.sql, g.withinYear}) {
                Matcher m = Grain.pattern(form).matcher(group.sql());
                if (m.matches() && (m.groupCount() == 1 || m.group(1).equals(m.group(2)))) {
                    return Optional.of(new Of(g, m.group(1), form.equals(g.withinYear)));
                }
            }
        }
        return Optional.empty();
    }

    /** The same period named without its year ("March", "Q1"), for rows that span one year; empty when there is none. */
    static Optional<Sense.Attr> withinYear(Sense.Attr group) {
        return read(group).filter(p -> !p.withinYear() && p.grain().withinYear != null).map(p -> new Sense.Attr(group.table(),
                group.name(), String.format(p.grain().withinYear, p.date()), group.type()));
    }

    /** What a grouped query orders its groups by: calendar order for names ("Monday", "March"), else the group itself. */
    static String order(Sense.Attr group) {
        Optional<Of> p = read(group);
        if (p.isEmpty() || p.get().grain().order == null || p.get().grain() == Grain.MONTH && !p.get().withinYear()) {
            return "1";
        }
        return "min(" + p.get().grain().order + "(" + p.get().date() + "))";
    }
}
