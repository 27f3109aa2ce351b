package dev.sift.agent.grounding;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cardinal numbers written in English words ("four thousand eight hundred and twelve", "twenty-five", "two
 * million"), so a number an answer spells out is checked like one written in digits. Vague plurals ("thousands of
 * rows") and a bare scale word ("a hundred times") name no number and are not read.
 */
final class NumberWords {
    private static final Map<String, Integer> SMALL = Map.ofEntries(Map.entry("zero", 0), Map.entry("one", 1),
            Map.entry("two", 2), Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6),
            Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
            Map.entry("eleven", 11), Map.entry("twelve", 12), Map.entry("thirteen", 13), Map.entry("fourteen", 14),
            Map.entry("fifteen", 15), Map.entry("sixteen", 16), Map.entry("seventeen", 17), Map.entry("eighteen", 18),
            Map.entry("nineteen", 19), Map.entry("twenty", 20), Map.entry("thirty", 30), Map.entry("forty", 40),
            Map.entry("fifty", 50), Map.entry("sixty", 60), Map.entry("seventy", 70), Map.entry("eighty", 80),
            Map.entry("ninety", 90));
    private static final Map<String, Long> SCALES = Map.of("thousand", 1_000L, "million", 1_000_000L,
            "billion", 1_000_000_000L);
    private static final String WORD = "(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
            + "|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
            + "|eighty|ninety|hundred|thousand|million|billion)";
    /** Number words joined by spaces, hyphens or "and", starting with a count (not a scale word). */
    static final Pattern PHRASE = Pattern.compile("(?<![\\p{L}\\p{N}-])(?!(?:hundred|thousand|million|billion)\\b)"
            + WORD + "(?:(?:[ -]|\\s+and\\s+)" + WORD + ")*(?![\\p{L}\\p{N}]|-\\p{L})", Pattern.CASE_INSENSITIVE);
    /** Every number word above ten holds one of these. */
    private static final String[] STEMS = {"eleven", "twelve", "teen", "twenty", "thirty", "forty", "fifty", "sixty",
        "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion"};

    private NumberWords() { }

    /** A cheap test that the text may hold a number word above ten, before any pattern runs. */
    static boolean mayHold(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (String s : STEMS) {
            if (lower.contains(s)) {
                return true;
            }
        }
        return false;
    }

    /** The value of a phrase {@link #PHRASE} matched, or -1 when its words make no one number ("five four"). */
    static long value(String phrase) {
        long total = 0;
        long current = -1; // the group before the next scale word; -1 while it is empty
        long lastScale = Long.MAX_VALUE;
        for (String w : phrase.toLowerCase(Locale.ROOT).split("[\\s-]+")) {
            Integer small = SMALL.get(w);
            if (w.equals("and")) {
                continue;
            } else if (small != null) {
                boolean follows = current < 0 || current > 0 && current % 100 == 0
                        || current % 100 >= 20 && current % 10 == 0 && small > 0 && small < 10;
                if (!follows) {
                    return -1;
                }
                current = Math.max(current, 0) + small;
            } else if (w.equals("hundred")) {
                if (current < 1 || current > 99) {
                    return -1;
                }
                current *= 100;
            } else {
                long scale = SCALES.get(w);
                if (current < 1 || scale >= lastScale) {
                    return -1;
                }
                total += current * scale;
                current = -1;
                lastScale = scale;
            }
        }
        return total + Math.max(current, 0);
    }

    /** Each number phrase of the text whose value is {@code min} or more: start, end and value. */
    static void each(String text, long min, Found found) {
        Matcher m = PHRASE.matcher(text);
        while (m.find()) {
            long v = value(m.group());
            if (v >= min) {
                found.at(m.start(), m.end(), v);
            }
        }
    }

    /** Receives one number phrase. */
    interface Found {
        void at(int start, int end, long value);
    }
}
