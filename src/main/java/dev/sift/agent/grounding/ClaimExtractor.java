package dev.sift.agent.grounding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds what a text states: numbers as people write them (thousands separators of several locales —
 * "151,410.2", "151.410,2", "151 410,2", "151'410.2" —, decimals, percentages, currency signs, "1.2 million",
 * "about 150,000"), dates (ISO, "15.03.1998", "03/15/1998", "March 15, 1998", "March 1998"), ids ("L1234",
 * "C-0042") and quoted values. Dates, ids and quoted values are read first, so their digits are not
 * counted again as numbers. Fenced code and SQL CASE expressions are skipped: they are SQL or data the answer
 * shows, not a claim.
 */
public final class ClaimExtractor {
    /** Whole numbers up to this, written plainly, count an answer's own items ("the 3 largest"); not checked. */
    public static final int SMALL = 10;

    private static final String MONTH = "(January|February|March|April|May|June|July|August|September|October"
            + "|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)";
    private static final Pattern FENCE = Pattern.compile("```.*?(```|$)", Pattern.DOTALL);
    /** An SQL CASE expression quoted in prose ("avg(CASE WHEN … THEN 1.0 ELSE 0.0 END)"): code, not a claim. */
    private static final Pattern CASE_EXPRESSION = Pattern.compile("\\bCASE\\s+WHEN\\b.{1,400}?\\bEND\\b", Pattern.DOTALL);
    private static final Pattern ISO_DATE = Pattern.compile(
            "(?<![\\d-])(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[T ]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?(?![\\d-])");
    private static final Pattern ISO_MONTH = Pattern.compile("(?<![\\d-])(\\d{4})-(\\d{2})(?![\\d-])");
    private static final Pattern NUMERIC_DATE = Pattern.compile(
            "(?<![\\d./])(\\d{1,2})([./])(\\d{1,2})\\2(\\d{4})(?![\\d])");
    /** A month name's start: the look-ahead lets a scan pass other words without trying twelve names. */
    private static final String MONTH_START = "\\b(?=[ADFJMNOS])";
    private static final Pattern MONTH_DAY_YEAR = Pattern.compile(
            MONTH_START + MONTH + "\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b");
    private static final Pattern DAY_MONTH_YEAR = Pattern.compile(
            "\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?" + MONTH + "\\.?,?\\s+(\\d{4})\\b");
    private static final Pattern MONTH_YEAR = Pattern.compile(MONTH_START + MONTH + "\\.?,?\\s+(\\d{4})\\b");
    private static final Pattern QUOTED = Pattern.compile(
            "(?<![\\p{L}\\p{N}])([\"“'‘`])([^\"“”'‘’`\\n]{1,60}?)([\"”'’`])(?![\\p{L}\\p{N}])");
    private static final Pattern ID = Pattern.compile(
            "(?<![\\p{L}\\p{N}_-])([A-Z][A-Za-z]{0,5}[-_]?\\d{3,}[A-Za-z0-9]*)(?![\\p{L}\\p{N}_])");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}_.,'’])([-−–](?=[.,]?\\d))?("
            + "\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?"
            + "|\\d{1,3}(?:\\.\\d{3})+(?:,\\d+)?"
            + "|\\d{1,3}(?:['’]\\d{3})+(?:[.,]\\d+)?"
            + "|\\d{1,3}(?:[\\u00A0\\u202F\\u2009]\\d{3})+(?:[.,]\\d+)?"
            + "|\\d{1,3}(?: \\d{3}){2,}(?:,\\d+)?"
            + "|\\d{1,3}(?: \\d{3})+,\\d+"
            + "|\\d+(?:[.,]\\d+)?"
            + "|[.,]\\d+)(?!\\p{N}|[.,]\\d|_)");
    private static final Pattern PERCENT = Pattern.compile(
            "^\\s?(%|percent\\b|per cent\\b|pp\\b|percentage points?\\b)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SCALE_WORD = Pattern.compile(
            "^\\s?(thousand|million|billion|trillion|bn|mn|k)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern SCALE_LETTER = Pattern.compile("^(M|B)\\b");
    /** The rest of a range after its first number ("–83 million" of "81–83 million"): the scale is said once, at its end. */
    private static final Pattern RANGE_TAIL = Pattern.compile("^\\s?(?:[-–—]|to)\\s?[\\d.,]*\\d");
    /** The start of a range before its second number ("81–" of "about 81–83"): the hedge is said once, before it. */
    private static final Pattern RANGE_HEAD = Pattern.compile("(\\d[\\d.,]*)\\s?(?:[-–—]|to)\\s?$");
    private static final Pattern GROUPED_COMMA = Pattern.compile("\\d{1,3},\\d{3}");
    private static final Pattern GROUPED_DOT = Pattern.compile("\\d{1,3}\\.\\d{3}");

    private ClaimExtractor() { }

    /** The claims of an answer: numbers worth checking (small plain counts are left out), dates, ids and values. */
    public static List<Claim> claims(String text) {
        return extract(text, false);
    }

    /** Every number and date in a text, small ones included: what a piece of evidence states. */
    public static List<Claim> facts(String text) {
        return extract(text, true);
    }

    private static List<Claim> extract(String text, boolean all) {
        List<Claim> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        boolean words = NumberWords.mayHold(text);
        if (!hasDigit(text) && (all || !hasQuote(text)) && !words) {
            return out; // nothing to claim: the common case for cells and prose, without running a pattern
        }
        char[] s = text.toCharArray();
        if (!all && text.contains("```")) {
            blank(s, FENCE.matcher(text));
        }
        if (!all && text.contains("CASE")) {
            blank(s, CASE_EXPRESSION.matcher(new String(s)));
        }
        if (hasDigit(text)) {
            dates(s, text, out);
        }
        if (!all && hasQuote(text)) {
            Matcher q = QUOTED.matcher(new String(s));
            while (q.find()) {
                String inner = q.group(2).trim();
                if (!inner.isEmpty() && !isNumberOnly(inner) && !isPattern(inner)) {
                    out.add(Claim.named(q.group(), Claim.Kind.VALUE, inner, q.start()));
                    mask(s, q.start(), q.end());
                }
            }
        }
        if (!all && hasDigit(text)) {
            Matcher id = ID.matcher(new String(s));
            while (id.find()) {
                out.add(Claim.named(id.group(1), Claim.Kind.ID, id.group(1), id.start(1)));
                mask(s, id.start(1), id.end(1));
            }
        }
        String rest = new String(s);
        char decimal = all ? 0 : decimalMark(rest);
        if (words) {
            NumberWords.each(rest, SMALL + 1, (from, to, v) -> out.add(spelled(rest, from, to, v)));
        }
        Matcher m = NUMBER.matcher(rest);
        while (m.find()) {
            Claim c = number(rest, m, all, decimal);
            if (c != null) {
                out.add(c);
            }
        }
        out.sort(java.util.Comparator.comparingInt(Claim::at));
        return out;
    }

    /** Each date form is tried only when the text has what it needs (a dash, a dot or slash, a month name). */
    private static void dates(char[] s, String text, List<Claim> out) {
        Matcher m;
        boolean dash = text.indexOf('-') >= 0;
        if (dash) {
            m = ISO_DATE.matcher(new String(s));
            while (m.find()) {
                addDate(out, s, m, iso(m.group(1), m.group(2), m.group(3)));
            }
        }
        m = NUMERIC_DATE.matcher(new String(s));
        while ((text.indexOf('.') >= 0 || text.indexOf('/') >= 0) && m.find()) {
            List<String> readings = new ArrayList<>();
            String dmy = iso(m.group(4), m.group(3), m.group(1));
            String mdy = m.group(2).equals("/") ? iso(m.group(4), m.group(1), m.group(3)) : null;
            if (dmy != null) {
                readings.add(dmy);
            }
            if (mdy != null && !mdy.equals(dmy)) {
                readings.add(mdy);
            }
            addDate(out, s, m, readings);
        }
        if (hasMonthName(text)) {
            m = MONTH_DAY_YEAR.matcher(new String(s));
            while (m.find()) {
                addDate(out, s, m, iso(m.group(3), month(m.group(1)), m.group(2)));
            }
            m = DAY_MONTH_YEAR.matcher(new String(s));
            while (m.find()) {
                addDate(out, s, m, iso(m.group(3), month(m.group(2)), m.group(1)));
            }
            m = MONTH_YEAR.matcher(new String(s));
            while (m.find()) {
                addDate(out, s, m, yearMonth(m.group(2), month(m.group(1))));
            }
        }
        if (dash) {
            m = ISO_MONTH.matcher(new String(s));
            while (m.find()) {
                addDate(out, s, m, yearMonth(m.group(1), m.group(2)));
            }
        }
    }

    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private static boolean hasMonthName(String text) {
        for (String m : MONTHS) {
            if (text.contains(m)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDigit(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    private static boolean hasQuote(String text) {
        for (int i = 0; i < text.length(); i++) {
            switch (text.charAt(i)) {
                case '"', '\'', '`', '“', '‘' -> {
                    return true;
                }
                default -> { }
            }
        }
        return false;
    }

    /** A hedge word ("about", "roughly", "~") right before a number widens its tolerance to its last nonzero digit. */
    private static boolean hedged(String text, int at) {
        int end = at;
        while (end > 0 && " $€£¥\u00A0".indexOf(text.charAt(end - 1)) >= 0) {
            end--;
        }
        String before = text.substring(Math.max(0, end - 14), end).toLowerCase(java.util.Locale.ROOT);
        for (String h : HEDGES) {
            if (before.endsWith(h) && (before.length() == h.length() || !Character.isLetter(before.charAt(
                    before.length() - h.length() - 1)) || h.length() == 1)) {
                return true;
            }
        }
        return false;
    }

    /** Where the range a number ends starts ("81" of "about 81–83"), or the number's own start. */
    private static int rangeStart(String text, int at) {
        Matcher head = RANGE_HEAD.matcher(text.substring(Math.max(0, at - 16), at));
        return head.find() ? at - (head.end() - head.start(1)) : at;
    }

    private static final String[] HEDGES = {"about", "approximately", "approx.", "approx", "around", "roughly",
        "nearly", "almost", "some", "over", "under", "close to", "more than", "less than", "fewer than", "at least",
        "at most", "circa", "ca.", "~", "≈"};

    private static void addDate(List<Claim> out, char[] s, Matcher m, String iso) {
        addDate(out, s, m, iso == null ? List.of() : List.of(iso));
    }

    private static void addDate(List<Claim> out, char[] s, Matcher m, List<String> iso) {
        if (!iso.isEmpty()) {
            out.add(Claim.date(m.group(), iso, m.start()));
            mask(s, m.start(), m.end());
        }
    }

    private static Claim number(String text, Matcher m, boolean all, char decimal) {
        String body = m.group(2);
        String after = text.substring(m.end(), Math.min(text.length(), m.end() + 24));
        Matcher tail = RANGE_TAIL.matcher(after);
        if (tail.find()) { // "81–83 million": the first number has the scale of the last
            after = after.substring(tail.end()) + text.substring(Math.min(text.length(), m.end() + 24),
                    Math.min(text.length(), m.end() + 24 + tail.end()));
        }
        boolean percent = PERCENT.matcher(after).find();
        double scale = 1;
        Matcher sw = SCALE_WORD.matcher(after);
        Matcher sl = SCALE_LETTER.matcher(after);
        boolean word = false;
        String unit = ""; // the scale as written, part of the claim's text: "6.91 thousand"
        if (!percent && sw.find()) {
            word = true;
            scale = scale(sw.group(1));
            unit = sw.group();
        } else if (!percent && sl.find()) {
            scale = sl.group(1).equals("M") ? 1e6 : 1e9;
            unit = sl.group();
        }
        boolean hedged = hedged(text, rangeStart(text, m.start()));
        List<Claim.Reading> readings = new ArrayList<>();
        boolean englishScale = word && GROUPED_COMMA.matcher(body).matches();
        for (String[] parts : splits(body, decimal)) {
            if (englishScale && !parts[1].isEmpty()) {
                continue; // "5,357 thousand" groups its digits: a decimal comma is not read before an English scale word
            }
            double v = Double.parseDouble((parts[0].isEmpty() ? "0" : parts[0]) + (parts[1].isEmpty() ? "" : "." + parts[1]));
            double tol = 0.5 * Math.pow(10, -parts[1].length());
            if (hedged && parts[1].isEmpty()) {
                tol = Math.max(tol, 0.5 * Math.pow(10, trailingZeros(parts[0])));
            }
            v *= scale;
            tol *= scale;
            readings.add(new Claim.Reading(v, tol, percent ? Claim.Scale.POINTS : Claim.Scale.PLAIN));
            if (percent) {
                readings.add(new Claim.Reading(v / 100, tol / 100, Claim.Scale.SHARE));
            } else if (!parts[1].isEmpty() && v <= 1) {
                readings.add(new Claim.Reading(v * 100, tol * 100, Claim.Scale.POINTS));
            }
        }
        if (!all && !percent && scale == 1 && readings.size() == 1 && digits(body).length() == body.length()
                && readings.get(0).value() <= SMALL) {
            return null;
        }
        String written = text.substring(m.start(), m.end()) + unit + (percent ? "%" : "");
        return Claim.number(written.trim(), percent, readings, m.start());
    }

    /** A number written in words ("four thousand eight hundred and twelve", "twenty percent"). */
    private static Claim spelled(String text, int from, int to, long v) {
        boolean percent = PERCENT.matcher(text.substring(to, Math.min(text.length(), to + 24))).find();
        double tol = hedged(text, from) ? 0.5 * Math.pow(10, trailingZeros(Long.toString(v))) : 0.5;
        List<Claim.Reading> readings = percent ? List.of(new Claim.Reading(v, tol, Claim.Scale.POINTS),
                new Claim.Reading(v / 100.0, tol / 100, Claim.Scale.SHARE))
                : List.of(new Claim.Reading(v, tol));
        return Claim.number(text.substring(from, to) + (percent ? "%" : ""), percent, readings, from);
    }

    /**
     * The decimal mark an answer uses, when a number in it shows one beyond doubt ("12.5", "151,410.2", "1,204,822"
     * for '.'; "12,5", "151.410,2" for ','), so its "1,519" is one number, not two readings; 0 when none or both do.
     */
    static char decimalMark(String text) {
        boolean dot = DOT_DECIMAL.matcher(text).find();
        boolean comma = COMMA_DECIMAL.matcher(text).find();
        return dot == comma ? 0 : dot ? '.' : ',';
    }

    private static final Pattern DOT_DECIMAL = Pattern.compile("(?<![\\d.,])\\d+\\.(?:\\d{1,2}|\\d{4,})(?![\\d.,])"
            + "|\\d{1,3}(?:,\\d{3})+\\.\\d|\\d{1,3}(?:,\\d{3}){2,}(?![\\d.,])");
    private static final Pattern COMMA_DECIMAL = Pattern.compile("(?<![\\d.,])\\d+,(?:\\d{1,2}|\\d{4,})(?![\\d.,])"
            + "|\\d{1,3}(?:\\.\\d{3})+,\\d|\\d{1,3}(?:\\.\\d{3}){2,}(?![\\d.,])");

    /**
     * Each way to read the digits: {integer digits, fraction digits}. "1,234" is 1234 or 1.234, unless the answer's
     * {@code decimal} mark (or 0) says which.
     */
    private static List<String[]> splits(String body, char decimal) {
        int comma = body.lastIndexOf(',');
        int dot = body.lastIndexOf('.');
        List<String[]> out = new ArrayList<>(2);
        if (comma >= 0 && dot >= 0) {
            int dec = Math.max(comma, dot);
            out.add(new String[] {digits(body.substring(0, dec)), body.substring(dec + 1)});
        } else if (comma >= 0 || dot >= 0) {
            int sep = Math.max(comma, dot);
            char c = body.charAt(sep);
            boolean grouped = body.indexOf(c) != sep || spaced(body);
            boolean ambiguous = (c == ',' ? GROUPED_COMMA : GROUPED_DOT).matcher(body).matches();
            if (grouped && body.indexOf(c) != sep || ambiguous && decimal != 0 && c != decimal) {
                out.add(new String[] {digits(body), ""});
            } else {
                out.add(new String[] {digits(body.substring(0, sep)), body.substring(sep + 1)});
                if (ambiguous && decimal == 0) {
                    out.add(new String[] {digits(body), ""});
                }
            }
        } else {
            out.add(new String[] {digits(body), ""});
        }
        return out;
    }

    private static boolean spaced(String body) {
        for (int i = 0; i < body.length(); i++) {
            if (" '’\u00A0\u202F\u2009".indexOf(body.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static String digits(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static int trailingZeros(String digits) {
        int n = 0;
        for (int i = digits.length() - 1; i > 0 && digits.charAt(i) == '0'; i--) {
            n++;
        }
        return n;
    }

    private static double scale(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "thousand", "k" -> 1e3;
            case "million", "mn" -> 1e6;
            case "billion", "bn" -> 1e9;
            default -> 1e12;
        };
    }

    /** Placeholders people write when they describe a format or a key's shape ('Mon DD, YYYY', 'CL-n', 'City, ST'). */
    private static final Pattern PLACEHOLDER = Pattern.compile("(?<![\\p{L}\\p{N}])(YYYY|YY|MM|DD|HH|hh|mm|ss|Mon|Month"
            + "|City|State|ST|Name|N|n|X|x|#+)(?![\\p{L}\\p{N}])");

    /** A quoted format or shape, not a value: a placeholder beside punctuation that separates its parts. */
    static boolean isPattern(String s) {
        return PLACEHOLDER.matcher(s).find() && s.matches(".*[-,/:.#_ ].*") && s.length() <= 40;
    }

    private static boolean isNumberOnly(String s) {
        return s.matches("[-−$€£¥]?\\s?[\\d.,'’ ]+\\s?%?");
    }

    private static String iso(String y, String m, String d) {
        int mm = Integer.parseInt(m);
        int dd = Integer.parseInt(d);
        if (mm < 1 || mm > 12 || dd < 1 || dd > 31) {
            return null;
        }
        return y + "-" + two(mm) + "-" + two(dd);
    }

    private static String yearMonth(String y, String m) {
        int mm = Integer.parseInt(m);
        return mm < 1 || mm > 12 ? null : y + "-" + two(mm);
    }

    private static String month(String name) {
        String n = name.substring(0, 3).toLowerCase(Locale.ROOT);
        int i = "janfebmaraprmayjunjulaugsepoctnovdec".indexOf(n) / 3 + 1;
        return Integer.toString(i);
    }

    private static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }

    private static void blank(char[] s, Matcher m) {
        while (m.find()) {
            mask(s, m.start(), m.end());
        }
    }

    private static void mask(char[] s, int from, int to) {
        for (int i = from; i < to; i++) {
            s[i] = ' ';
        }
    }
}
