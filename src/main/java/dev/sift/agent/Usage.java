package dev.sift.agent;

/**
 * Model tokens spent: prompt (input) and completion (output), and of the prompt's tokens those the provider read
 * from its prompt cache ({@code cached}, 0 when it reports none).
 */
public record Usage(long input, long output, long cached) {
    public static final Usage NONE = new Usage(0, 0, 0);

    public Usage(long input, long output) {
        this(input, output, 0);
    }

    public Usage plus(long in, long out) {
        return plus(in, out, 0);
    }

    public Usage plus(long in, long out, long cachedIn) {
        return new Usage(input + in, output + out, cached + cachedIn);
    }

    public Usage minus(Usage earlier) {
        return new Usage(input - earlier.input, output - earlier.output, cached - earlier.cached);
    }
}
