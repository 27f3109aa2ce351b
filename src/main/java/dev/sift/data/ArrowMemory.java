package dev.sift.data;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Arrow's memory for one read or load: a root allocator, with the one start-up failure users can fix named. */
public final class ArrowMemory {
    private ArrowMemory() { }

    public static BufferAllocator allocator() {
        try {
            return new RootAllocator();
        } catch (RuntimeException | LinkageError e) {
            // Arrow reads buffer addresses reflectively; the launcher and the jar's manifest open java.nio for it
            throw new IllegalStateException("Arrow could not start (" + e + "): run Java with"
                    + " --add-opens=java.base/java.nio=ALL-UNNAMED, as ./sift and java -jar sift.jar do", e);
        }
    }
}
