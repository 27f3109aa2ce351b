package dev.sift.session;

/**
 * A frame a session made: its label, the SQL that made it and the turn it came from. Frames are re-created
 * from this SQL when a session is reopened (datasets never change after they are built, so the same SQL
 * gives the same rows).
 */
public record SavedFrame(String label, String sql, int turn) { }
