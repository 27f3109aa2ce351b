package dev.sift.planner.rules;

/** Why a rule of the parser cannot read the question; the message is said to the user (lower case, no full stop). */
final class Unreadable extends Exception {
    Unreadable(String reason) {
        super(reason, null, false, false);
    }
}
