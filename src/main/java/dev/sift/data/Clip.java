package dev.sift.data;

/**
 * Shortens a text for a model or a person at a word boundary, never inside a word: "only the owner can issue…",
 * not "only the owner can issue permanent orders and…" cut at a fixed width. A text with no space in its first
 * half (a long code, a URL) is cut at the width, the only place there is.
 */
public final class Clip {
    /** The mark that ends a shortened text. */
    public static final String MARK = "…";

    private Clip() { }

    /** {@code text} when it has at most {@code max} characters, else its longest word-bounded start within it, then "…". */
    public static String words(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int cut = max;
        while (cut > max / 2 && !Character.isWhitespace(text.charAt(cut))) {
            cut--;
        }
        if (cut <= max / 2) {
            cut = max;
        }
        return text.substring(0, cut).stripTrailing() + MARK;
    }
}
