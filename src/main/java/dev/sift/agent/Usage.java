package dev.sift.agent;

/** Model tokens spent: prompt (input) and completion (output). */
public record Usage(long input, long output) {
    public static final Usage NONE = new Usage(0, 0);

    public Usage plus(long in, long out) {
        return new Usage(input + in, output + out);
    }

    public Usage minus(Usage earlier) {
        return new Usage(input - earlier.input, output - earlier.output);
    }
}
