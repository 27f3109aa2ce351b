package dev.sift.data;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/** Closest-name suggestions for error messages ("did you mean …?"). Never used to coerce a call. */
public final class Names {
    private Names() { }

    public static Optional<String> closest(String wanted, Collection<String> candidates) {
        String w = wanted.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, w.length() / 3);
        return candidates.stream()
                .filter(c -> similar(w, c.toLowerCase(Locale.ROOT), limit) || overlaps(w, c.toLowerCase(Locale.ROOT)))
                .min(Comparator.comparingInt(c -> distance(w, c.toLowerCase(Locale.ROOT))));
    }

    public static String didYouMean(String wanted, Collection<String> candidates) {
        return closest(wanted, candidates).map(c -> " Did you mean '" + c + "'?").orElse("");
    }

    /** Within the edit limit, but not a rewrite of every character ("id" is not close to "A1"). */
    private static boolean similar(String a, String b, int limit) {
        int d = distance(a, b);
        return d <= limit && d < Math.max(a.length(), b.length());
    }

    /** One name inside the other ("loan_status" and "status"), ignoring very short names. */
    private static boolean overlaps(String a, String b) {
        return Math.min(a.length(), b.length()) >= 3 && (a.contains(b) || b.contains(a));
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
