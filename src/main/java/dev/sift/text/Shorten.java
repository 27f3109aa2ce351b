package dev.sift.text;

import dev.sift.data.Clip;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shortens an observation to its cap without losing its structure. The lines a planner acts on — the headline,
 * a table's column header, row counts, frame names ("Saved as frame …"), warnings, errors and "Next:" lines —
 * are always kept; only data lines (table rows, list items) are cut: first long ones are shortened, then the
 * data lines past what fits are replaced by one line stating the window shown ("[… showing data lines 1–8 of 20;
 * 12 cut to fit]"). Only when the kept lines alone exceed the cap is text cut mid-line, at a word, and that is marked too.
 */
public final class Shorten {
    /** A data line longer than this is shortened before any line is dropped. */
    static final int LONG_LINE = 240;
    private static final Pattern KEEP = Pattern.compile("(?i)^(next|warning|unreliable|error|caveat|note|held-out|quality|cross-validated|baseline|point in time"
            + "|saved|skipped|dropped|overall|showing|features|the frame|top \\d+|result|more than \\d+ rows"
            + "|\\d[\\d,]* rows?\\b|\\d[\\d,]* of \\d[\\d,]* rows).*");
    private static final Pattern FRAME = Pattern.compile("(?i)(saved as frame|frames\\.[a-z_])");
    private static final Pattern LIST_ITEM = Pattern.compile("^(- |\\* |\\d+\\. ).*");
    /** A labelled line of prose ("Columns: loan_id (entity), …"), shortened rather than dropped as a data line. */
    private static final Pattern LABELLED = Pattern.compile("^[A-Z][\\w ()-]{0,40}: [^|]*$");

    private Shorten() { }

    /** {@code text} when it fits {@code cap} characters, else the shortened text (never longer than the cap). */
    public static String fit(String text, int cap) {
        if (text == null || text.length() <= cap) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        boolean[] keep = structure(lines);
        for (int i = 0; i < lines.length; i++) {
            if (!keep[i] && lines[i].length() > LONG_LINE) {
                lines[i] = Clip.words(lines[i], LONG_LINE);
            }
        }
        String joined = String.join("\n", lines);
        if (joined.length() <= cap) {
            return joined;
        }
        return dropData(lines, keep, cap);
    }

    /** Which lines carry the structure: headline, last line, table headers, counts, frames, warnings, next steps. */
    static boolean[] structure(String[] lines) {
        boolean[] keep = new boolean[lines.length];
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            boolean header = l.contains(" | ") && (i == 0 || !lines[i - 1].contains(" | "));
            boolean data = !header && (l.contains(" | ") || LIST_ITEM.matcher(l).matches());
            keep[i] = i == 0 || l.isEmpty() || header || (!data && (KEEP.matcher(l).matches() || FRAME.matcher(l).find()))
                    || (!data && i == lines.length - 1);
        }
        return keep;
    }

    /** Least room a line of prose is shortened into rather than dropped. */
    static final int PROSE_MIN = 60;

    private static String dropData(String[] lines, boolean[] keep, int cap) {
        int kept = 0;
        int dataLines = 0;
        boolean[] data = new boolean[lines.length];
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            data[i] = !keep[i] && !LABELLED.matcher(l).matches();
            if (keep[i]) {
                kept += lines[i].length() + 1;
            } else {
                dataLines++;
            }
        }
        int marker = 80;
        int budget = cap - kept - marker;
        List<String> out = new ArrayList<>();
        int shown = 0;
        int markerAt = -1;
        boolean full = false;
        for (int i = 0; i < lines.length; i++) {
            if (keep[i]) {
                out.add(lines[i]);
            } else if (!full && !data[i] && budget > PROSE_MIN) {
                // a labelled line of prose ("Columns: …") is no data line: shortened to the room left, never counted as rows
                String line = Clip.words(lines[i], budget - 1);
                out.add(line);
                budget -= line.length() + 1;
                dataLines--;
            } else if (!full && lines[i].length() + 1 <= budget) {
                out.add(lines[i]);
                budget -= lines[i].length() + 1;
                shown++;
            } else {
                full = true;
                if (markerAt < 0) {
                    markerAt = out.size();
                }
            }
        }
        int cut = dataLines - shown;
        if (cut > 0) {
            out.add(markerAt, shown > 0 ? "[… showing data lines 1–" + shown + " of " + dataLines + "; " + cut
                    + " cut to fit]" : "[… " + (dataLines == 1 ? "the one data line" : "all " + dataLines + " data lines")
                    + " cut to fit]");
        }
        String result = String.join("\n", out);
        return result.length() <= cap ? result : hardCut(out, cap);
    }

    /** The kept lines alone are too long: cut each long line, then the text's middle, and say so. */
    private static String hardCut(List<String> lines, int cap) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(Clip.words(l, LONG_LINE));
        }
        String text = String.join("\n", out);
        if (text.length() <= cap) {
            return text;
        }
        String mark = "\n[… " + "%d characters cut from the middle to fit]\n";
        int room = cap - mark.length() - 8;
        if (room < 20) {
            return text.substring(0, cap);
        }
        String head = Clip.words(text, room * 2 / 3);
        head = head.substring(0, head.length() - Clip.MARK.length());
        int from = text.length() - (room - head.length());
        for (int i = from; i < text.length() && i < from + (room - head.length()) / 2; i++) {
            if (Character.isWhitespace(text.charAt(i))) { // the kept end starts at a word too
                from = i + 1;
                break;
            }
        }
        return head + String.format(mark, from - head.length()) + text.substring(from);
    }
}
