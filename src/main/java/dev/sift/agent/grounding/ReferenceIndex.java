package dev.sift.agent.grounding;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The indexed facts of texts a process shows again and again — a dataset's section of the planner's prompt, its
 * knowledge section — kept by content, so every answer check of every run on that dataset reuses one index
 * instead of scanning the same kilobytes anew. Bounded: the {@value #ENTRIES} texts used last, each at most
 * {@value #MAX_CHARS} characters (a longer text is indexed each time and not kept).
 */
public final class ReferenceIndex {
    static final int ENTRIES = 32;
    static final int MAX_CHARS = 64 * 1024;

    private static final Map<String, Facts> KEPT = new LinkedHashMap<>(ENTRIES * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Facts> eldest) {
            return size() > ENTRIES;
        }
    };

    private ReferenceIndex() { }

    static Facts of(String text) {
        if (text.length() > MAX_CHARS) {
            return Facts.builder().text(text).build();
        }
        synchronized (KEPT) {
            Facts kept = KEPT.get(text);
            if (kept != null) {
                return kept;
            }
        }
        Facts built = Facts.builder().text(text).build(); // outside the lock: runs on other datasets do not wait
        synchronized (KEPT) {
            KEPT.putIfAbsent(text, built);
            return KEPT.get(text);
        }
    }

    /** Forgets every kept index (a bench that measures the first check of a text). */
    public static void clear() {
        synchronized (KEPT) {
            KEPT.clear();
        }
    }
}
