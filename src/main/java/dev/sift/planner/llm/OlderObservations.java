package dev.sift.planner.llm;

/**
 * Each step of a run re-sends the conversation so far, so a long result seen several steps ago is paid for again at
 * every step. Once {@link #KEEP_WHOLE} later steps have followed it, a result longer than {@link #LONG} characters is
 * sent shortened: its first lines, cut at a line, and a note saying how to see it whole again. The shortened text is
 * the same at every later step, so the conversation's prefix stays identical for providers' prompt caches. The
 * run's evidence keeps every row whatever the prompt shows.
 */
public final class OlderObservations {
    /** The latest results are sent whole. */
    public static final int KEEP_WHOLE = 2;
    /** A result up to this long is always sent whole. */
    static final int LONG = 600;
    /** What an older long result keeps. */
    static final int HEAD = 300;
    static final String NOTE = "[… shortened; repeat the call to see it whole]";

    private OlderObservations() { }

    /** The observation of step {@code index} (0-based) as sent when the run has {@code steps} steps. */
    public static String as(String observation, int index, int steps) {
        if (observation == null || index >= steps - KEEP_WHOLE || observation.length() <= LONG) {
            return observation;
        }
        int cut = observation.lastIndexOf('\n', HEAD);
        return observation.substring(0, cut > 0 ? cut : HEAD).stripTrailing() + "\n" + NOTE;
    }
}
