package dev.sift.agent.grounding;

import java.util.List;

/**
 * Something an answer states that evidence must support: a number (every reading of how it was written —
 * "1.234" is 1.234 in English and 1234 in German), a date, or a named id/value.
 *
 * @param text     the claim as written in the answer ("151,410.2", "11 %", "1998-03-15", "'Hl.m. Praha'")
 * @param kind     what was stated
 * @param readings for numbers: each value the text can mean, with how close evidence must be
 * @param date     for dates: the ISO forms it can mean ("1998-03-15", or "1998-03" for a month)
 * @param value    for ids and quoted values: the name, as written
 * @param at       where the claim starts in the text
 */
public record Claim(String text, Kind kind, List<Reading> readings, List<String> date, String value, int at) {

    public enum Kind { NUMBER, PERCENT, DATE, ID, VALUE }

    /**
     * How a number reads: as written ({@code PLAIN}), as percentage points (the number before a percent sign, or a
     * share a hundred times: "11.1" of "11.1 %"), or as a share of one (0.111 of "11.1 %"). A computed fraction of
     * the evidence supports no points reading (0.11 there is 11 %), and derivations combine one scale at a time.
     */
    public enum Scale { PLAIN, POINTS, SHARE }

    /** One meaning of a written number: evidence within {@code [value - tolerance, value + 2 tolerance]} supports it. */
    public record Reading(double value, double tolerance, Scale scale) {
        public Reading(double value, double tolerance) {
            this(value, tolerance, Scale.PLAIN);
        }

        public boolean points() {
            return scale == Scale.POINTS;
        }
    }

    public static Claim number(String text, boolean percent, List<Reading> readings, int at) {
        return new Claim(text, percent ? Kind.PERCENT : Kind.NUMBER, List.copyOf(readings), List.of(), null, at);
    }

    public static Claim date(String text, List<String> iso, int at) {
        return new Claim(text, Kind.DATE, List.of(), List.copyOf(iso), null, at);
    }

    public static Claim named(String text, Kind kind, String value, int at) {
        return new Claim(text, kind, List.of(), List.of(), value, at);
    }

    public boolean numeric() {
        return kind == Kind.NUMBER || kind == Kind.PERCENT;
    }
}
