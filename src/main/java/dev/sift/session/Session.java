package dev.sift.session;

import java.util.ArrayList;
import java.util.List;

/**
 * A conversation over one dataset: its turns and the frames they made. Immutable; every change is a new
 * value that {@link SessionStore#save} writes atomically.
 */
public record Session(String id, String dataset, String datasetFingerprint, String title, String createdAt,
                      String updatedAt, List<Turn> turns, List<SavedFrame> frames) {

    public Session {
        turns = turns == null ? List.of() : List.copyOf(turns);
        frames = frames == null ? List.of() : List.copyOf(frames);
    }

    /** The session with one more turn and the frames it made (a frame made again replaces the older one). */
    public Session withTurn(Turn turn, List<SavedFrame> made, String now) {
        List<Turn> t = new ArrayList<>(turns);
        t.add(turn);
        List<SavedFrame> f = new ArrayList<>(frames);
        for (SavedFrame m : made) {
            f.removeIf(x -> x.label().equals(m.label()));
            f.add(m);
        }
        String newTitle = title == null || title.isBlank() ? shorten(turn.asked()) : title;
        return new Session(id, dataset, datasetFingerprint, newTitle, createdAt, now, t, f);
    }

    /**
     * The session on another dataset ({@code connect_source} switched to it): later turns and a reopened session use
     * it. The frames saved so far are left out, since their SQL names the other dataset's tables.
     */
    public Session withDataset(String name, String fingerprint) {
        return new Session(id, name, fingerprint, title, createdAt, updatedAt, turns, List.of());
    }

    /** The turns the next question may refer to: those since the last abandon (that one included). */
    public List<Turn> thread() {
        int from = 0;
        for (int i = 0; i < turns.size(); i++) {
            if (turns.get(i).kind() == TurnKind.ABANDON) {
                from = i;
            }
        }
        return turns.subList(from, turns.size());
    }

    public Turn lastTurn() {
        return turns.isEmpty() ? null : turns.get(turns.size() - 1);
    }

    private static String shorten(String s) {
        String one = s == null ? "" : s.replaceAll("\\s+", " ").trim();
        return one.length() > 60 ? one.substring(0, 59) + "…" : one;
    }
}
