package dev.sift.agent.grounding;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.TemporalAccessor;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a run's evidence states, indexed for the answer check: every number (sorted absolute values, so a
 * lookup is a binary search), every date (ISO day and month), the text of cells, column names, SQL and
 * observations (for ids and quoted values), and a small pool of values for derivations (row counts and
 * column sums), which {@link AnswerCheck} combines with the numbers an answer cites. Numbers inside names
 * ({@code unemployment_1996}, {@code sales2023}) are kept apart: an answer that writes "1996" of that feature
 * names it. Names known beyond the run (the knowledge graph's labels, aliases and code meanings) are read only
 * when a quoted value is found nowhere else. The lazily made parts are immutable values set once, so a Facts
 * read by two threads (a {@link ReferenceIndex} made on a background thread) may make them twice but never reads one
 * half made.
 */
public final class Facts {
    /** Digits inside a name: a letter or underscore next to three or more digits. */
    /** A year standing alone in a question or SQL ("1983", '2024'), not inside a longer number or a name. */
    private static final Pattern LITERAL_YEAR = Pattern.compile("(?<![\\p{L}\\p{N}_.,-])((?:18|19|20|21)\\d\\d)(?![\\p{N}_]|[.,]\\d|-\\d)");
    private static final Pattern NAME_NUMBER = Pattern.compile(
            "(?<=[\\p{L}_])(\\d{3,})(?!\\d)|(?<![\\p{L}\\p{N}])(\\d{3,})(?=_)");

    private final double[] numbers;
    private final double[] pool;
    private final double[] nameNumbers;
    /** The values of computed fractions ({@link FractionColumns}): no support for a number written before "%". */
    private final double[] fractions;
    private final Set<String> dates;
    /** Days that bound what the run asked for ({@link Builder#literal}): a year's first and last, an exclusive bound's eve. */
    private final Set<String> bounds;
    private final String text;
    private final Supplier<String> names;
    /**
     * Text read only when a claim is found nowhere else (the prompt's dataset section: long, rarely needed), indexed
     * once per prompt by its owner.
     */
    private final ReferenceIndex later;
    private List<Facts> more;
    private String words;
    private String nameWords;

    private Facts(double[] numbers, double[] pool, double[] nameNumbers, double[] fractions, Set<String> dates,
                  Set<String> bounds, String text, Supplier<String> names, ReferenceIndex later) {
        this.bounds = bounds;
        this.fractions = fractions;
        this.later = later;
        this.numbers = numbers;
        this.pool = pool;
        this.nameNumbers = nameNumbers;
        this.dates = dates;
        this.text = text;
        this.names = names;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when some stated number lies within the reading's rounding of it. */
    public boolean supports(Claim.Reading r) {
        return within(numbers, r.points() ? fractions : NONE, Math.abs(r.value()), r.tolerance())
                || more().stream().anyMatch(f -> f.supports(r));
    }

    private static final double[] NONE = {};

    /**
     * True when a sorted number lies within {@code [v - tol, v + 2 tol]}, counting none that is (a rendering of) one of
     * {@code except}; a whole number written as such ({@code tol} 0.5) is supported by no other whole number, so "75"
     * is not 76, though it may be 75.3 rounded or 75.9 cut short.
     */
    static boolean within(double[] sorted, double[] except, double v, double tol) {
        double lo = v - tol * (1 + 1e-9) - 1e-12;
        double hi = v + 2 * tol * (1 + 1e-9) + 1e-12;
        boolean whole = tol == 0.5 && v == Math.rint(v);
        int i = Arrays.binarySearch(sorted, lo);
        for (i = i < 0 ? -i - 1 : i; i < sorted.length && sorted[i] <= hi; i++) {
            double x = sorted[i];
            if ((!whole || x == v || x != Math.rint(x)) && (except.length == 0 || !near(except, x))) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code x} is one of the sorted {@code values} or prints as one (a cell shown to ten digits). */
    private static boolean near(double[] values, double x) {
        int i = Arrays.binarySearch(values, x);
        if (i >= 0) {
            return true;
        }
        i = -i - 1;
        double eps = 1e-8 * Math.abs(x) + 1e-15;
        return i < values.length && values[i] - x <= eps || i > 0 && x - values[i - 1] <= eps;
    }

    private List<Facts> more() {
        if (more == null) {
            more = later.facts();
        }
        return more;
    }

    /** The evidence number within the reading's rounding, or NaN. */
    double find(Claim.Reading r) {
        double lo = Math.abs(r.value()) - r.tolerance() * (1 + 1e-9) - 1e-12;
        int i = Arrays.binarySearch(numbers, lo);
        i = i < 0 ? -i - 1 : i;
        return i < numbers.length && within(numbers, NONE, Math.abs(r.value()), r.tolerance()) ? numbers[i] : Double.NaN;
    }

    /** True when a whole number is the number inside a name the evidence uses ("1996" of unemployment_1996). */
    public boolean namesNumber(double v) {
        return v == Math.rint(v) && Arrays.binarySearch(nameNumbers, Math.abs(v)) >= 0
                || more().stream().anyMatch(f -> f.namesNumber(v));
    }

    /**
     * True when a quoted value is, word for word, in the evidence's text, the question or the names known for the
     * dataset: compared ignoring case, punctuation and spacing, so 'Hl.m. Praha' is "hl m praha" in either.
     */
    public boolean mentionsValue(String value) {
        String v = " " + words(value) + " ";
        if (v.isBlank()) {
            return true;
        }
        if (words == null) {
            words = " " + words(text) + " ";
        }
        if (words.contains(v) || more().stream().anyMatch(f -> f.mentionsValue(value))) {
            return true;
        }
        if (nameWords == null) {
            String n = names == null ? null : names.get();
            nameWords = n == null ? "" : " " + words(n) + " ";
        }
        return nameWords.contains(v);
    }

    /** Lower-case letters and digits, every other run of characters one space. */
    static String words(String s) {
        StringBuilder b = new StringBuilder(s.length());
        boolean gap = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                if (gap && b.length() > 0) {
                    b.append(' ');
                }
                b.append(Character.toLowerCase(c));
                gap = false;
            } else {
                gap = true;
            }
        }
        return b.toString();
    }

    public boolean hasDate(String iso) {
        return dates.contains(iso) || bounds.contains(iso) || more().stream().anyMatch(f -> f.hasDate(iso));
    }

    /** True when the evidence's text (cells, names, SQL, observations) contains {@code value}, ignoring case. */
    public boolean mentions(String value) {
        return text.contains(value.toLowerCase(Locale.ROOT)) || more().stream().anyMatch(f -> f.mentions(value));
    }

    /** Row counts and column sums: the evidence's own values that derivations may start from. */
    double[] pool() {
        return pool;
    }

    public int size() {
        return numbers.length;
    }

    /** Collects evidence; {@link #build()} sorts it once. */
    public static final class Builder {
        private double[] numbers = new double[256];
        private int n;
        private double[] pool = new double[32];
        private int p;
        private final Set<String> dates = new HashSet<>();
        private final Set<String> bounds = new HashSet<>();
        private final Set<Double> nameNumbers = new HashSet<>();
        private double[] fractions = new double[0];
        private int f;
        private final StringBuilder text = new StringBuilder();
        private Supplier<String> names;
        private ReferenceIndex later = ReferenceIndex.NONE;

        private Builder() { }

        public Builder number(double v) {
            if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                if (n == numbers.length) {
                    numbers = Arrays.copyOf(numbers, n * 2);
                }
                numbers[n++] = Math.abs(v);
            }
            return this;
        }

        /** A value the evidence computes over (a row count, a column's sum): also a start for derivations. */
        public Builder derived(double v) {
            number(v);
            if (p == pool.length) {
                pool = Arrays.copyOf(pool, p * 2);
            }
            pool[p++] = Math.abs(v);
            return this;
        }

        /** Free text the planner was shown (an observation, SQL, the question): its numbers, dates and words. */
        public Builder text(String s) {
            if (s == null || s.isEmpty()) {
                return this;
            }
            text.append(s.toLowerCase(Locale.ROOT)).append('\n');
            nameNumbers(s);
            for (Claim c : ClaimExtractor.facts(s)) {
                if (c.kind() == Claim.Kind.DATE) {
                    c.date().forEach(this::date);
                    number(Integer.parseInt(c.date().get(0).substring(0, 4))); // "June 30, 2016" states the year 2016
                } else {
                    c.readings().forEach(r -> number(r.value()));
                }
            }
            return this;
        }

        /**
         * A text whose literals bound what the run asked for (the question, the run's SQL and call arguments): besides
         * what {@link #text} reads, a year it names ({@code BETWEEN 1983 AND 1987}, "the end of 2024") supports that
         * year's first and last day, a month its first and last, and a date the day before it (an exclusive bound,
         * {@code < '1998-01-01'}, restated as "to 1997-12-31"). A year that is only a result's cell bounds nothing: a
         * "last date" the run never queried is still caught.
         */
        public Builder literal(String s) {
            if (s == null || s.isEmpty()) {
                return this;
            }
            text(s);
            Matcher y = LITERAL_YEAR.matcher(s);
            while (y.find()) {
                int year = Integer.parseInt(y.group(1));
                bounds.add(LocalDate.of(year, 1, 1).toString());
                bounds.add(LocalDate.of(year, 12, 31).toString());
            }
            for (Claim c : ClaimExtractor.facts(s)) {
                for (String d : c.kind() == Claim.Kind.DATE ? c.date() : List.<String>of()) {
                    bound(d);
                }
            }
            return this;
        }

        private void bound(String iso) {
            try {
                if (iso.length() == 7) {
                    YearMonth m = YearMonth.parse(iso);
                    bounds.add(m.atDay(1).toString());
                    bounds.add(m.atEndOfMonth().toString());
                } else if (iso.length() == 10) {
                    bounds.add(LocalDate.parse(iso).minusDays(1).toString());
                }
            } catch (DateTimeException e) {
                // "1998-02-31" names no day: it bounds nothing
            }
        }

        /**
         * One result: its column names, cells, row count, and each numeric column's sum and mean (an
         * answer may state a total or an average of what it was shown).
         */
        public Builder table(List<String> columns, List<List<Object>> rows, long rowCount) {
            return table(null, columns, rows, rowCount);
        }

        /** As above, for the result of {@code sql}, which tells which columns are computed fractions. */
        public Builder table(String sql, List<String> columns, List<List<Object>> rows, long rowCount) {
            columns.forEach(c -> {
                text.append(c.toLowerCase(Locale.ROOT)).append('\n');
                nameNumbers(c);
            });
            derived(rowCount);
            number(rows.size());
            int width = columns.size();
            double[] sums = new double[width];
            int[] counts = new int[width];
            for (List<Object> row : rows) {
                for (int i = 0; i < row.size() && i < width; i++) {
                    double v = cell(row.get(i));
                    if (!Double.isNaN(v)) {
                        sums[i] += v;
                        counts[i]++;
                    }
                }
            }
            for (int i = 0; i < width; i++) {
                if (counts[i] > 1) {
                    derived(sums[i]);
                    number(sums[i] / counts[i]);
                }
                if (counts[i] > 0 && FractionColumns.computedFraction(sql, columns.get(i), rows, i)) {
                    fractions(rows, i);
                }
            }
            return this;
        }

        private void fractions(List<List<Object>> rows, int column) {
            for (List<Object> row : rows) {
                if (column < row.size() && row.get(column) instanceof Number num) {
                    if (f == fractions.length) {
                        fractions = Arrays.copyOf(fractions, Math.max(16, f * 2));
                    }
                    fractions[f++] = Math.abs(num.doubleValue());
                }
            }
        }

        /** Indexes one cell; returns its numeric value, or NaN when it is not a number. */
        private double cell(Object v) {
            if (v == null || v instanceof Boolean) {
                return Double.NaN;
            }
            if (v instanceof Number num) {
                double d = num.doubleValue();
                number(d);
                return d;
            }
            String s = v.toString();
            if (v instanceof java.util.Date || v instanceof TemporalAccessor || looksLikeDate(s)) {
                if (s.length() >= 7) {
                    date(s.substring(0, 7));
                    number(Integer.parseInt(s.substring(0, 4)));
                }
                if (s.length() >= 10) {
                    date(s.substring(0, 10));
                }
                text.append(s).append('\n');
                return Double.NaN;
            }
            text.append(s.toLowerCase(Locale.ROOT)).append('\n');
            double d = plainNumber(s);
            if (!Double.isNaN(d)) {
                number(d);
            } else if (s.length() < 200) {
                text(s);
            }
            return d;
        }

        /** Text the planner was shown that is read only if a claim is found nowhere else, indexed by its owner. */
        public Builder later(ReferenceIndex reference) {
            this.later = reference;
            return this;
        }

        /** Names known for the dataset beyond what the run showed (knowledge-graph labels), read only if needed. */
        public Builder names(Supplier<String> names) {
            this.names = names;
            return this;
        }

        private void nameNumbers(String s) {
            if (s.indexOf('_') < 0 && !hasLetterDigit(s)) {
                return;
            }
            Matcher m = NAME_NUMBER.matcher(s);
            while (m.find()) {
                String d = m.group(1) != null ? m.group(1) : m.group(2);
                if (d.length() < 16) {
                    nameNumbers.add((double) Long.parseLong(d));
                }
            }
        }

        private static boolean hasLetterDigit(String s) {
            for (int i = 1; i < s.length(); i++) {
                if (Character.isDigit(s.charAt(i)) && Character.isLetter(s.charAt(i - 1))) {
                    return true;
                }
            }
            return false;
        }

        private void date(String iso) {
            dates.add(iso);
            if (iso.length() >= 7) {
                dates.add(iso.substring(0, 7));
            }
        }

        public Facts build() {
            double[] sorted = Arrays.copyOf(numbers, n);
            Arrays.sort(sorted);
            double[] named = nameNumbers.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] fracs = Arrays.copyOf(fractions, f);
            Arrays.sort(fracs);
            return new Facts(sorted, Arrays.copyOf(pool, p), named, fracs, Set.copyOf(dates), Set.copyOf(bounds),
                    text.toString(), names, later);
        }

        private static boolean looksLikeDate(String s) {
            return s.length() >= 7 && s.charAt(4) == '-' && Character.isDigit(s.charAt(0))
                    && Character.isDigit(s.charAt(3)) && Character.isDigit(s.charAt(5)) && Character.isDigit(s.charAt(6))
                    && Character.isDigit(s.charAt(1)) && Character.isDigit(s.charAt(2));
        }

        /** A cell holding a plain number ("151410.2", "-3e5"); NaN otherwise, without an exception's cost. */
        static double plainNumber(String s) {
            String t = s.trim();
            if (t.isEmpty() || t.length() > 40) {
                return Double.NaN;
            }
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                if (!(Character.isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                    return Double.NaN;
                }
            }
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
    }
}
