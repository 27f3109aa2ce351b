package dev.sift.session;

import java.util.Locale;

/** How a turn relates to the conversation so far. */
public enum TurnKind {
    /** A question of its own. */
    NEW,
    /** Builds on the previous turn ("how many of those are gold?", "what about accounts?"). */
    REFINE,
    /** Answers the question back of the turn before; merged into the question it clarifies. */
    REPLY,
    /** Drops the earlier thread ("never mind — …"); earlier turns are no longer referred to. */
    ABANDON,
    /** Leans on an earlier turn, but could lean on more than one ("their" after two turns): asked back, not run. */
    AMBIGUOUS,
    /**
     * Leans on an earlier turn ("and their average depth?") when no earlier turn of the thread was answered: nothing runs,
     * the person is asked for the whole question (a clarified or refused turn is no context).
     */
    UNANCHORED,
    /** Repeats the question of an earlier turn, not always the last, with what the message changes ("And in south Moravia?"). */
    SAME;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TurnKind parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
}
