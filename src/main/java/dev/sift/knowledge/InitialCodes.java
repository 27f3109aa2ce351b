package dev.sift.knowledge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The meanings of one-letter codes that are the initials of the words of their column's name: a column
 * {@code Incumbent_Challenger_Status} holding 'I', 'C' and 'O' codes 'I' as incumbent and 'C' as challenger ('O' is
 * left unread: no word of the name begins with it). Read only where every stored value is one capital letter, two
 * letters at least are read, and no two words share an initial; the answer says whose reading it is.
 */
final class InitialCodes {
    private static final Vocabulary N = Vocabulary.load("/names.yaml");
    /** The column's description, said with each reading of a code. */
    static final String READ_AS = "codes read as the initials of the column's name";

    private InitialCodes() { }

    /** The code → meaning map of a column named {@code name} holding {@code values}, or an empty map. */
    static Map<String, String> of(String name, List<String> values) {
        List<String> codes = values.stream().filter(v -> v != null && !v.isBlank()).toList();
        if (codes.size() < 2 || !codes.stream().allMatch(v -> v.matches("\\p{Lu}"))) {
            return Map.of();
        }
        Map<String, String> byInitial = new LinkedHashMap<>();
        for (String w : NameWords.split(name)) {
            if (w.length() < 3 || N.has(w, "type_nouns") || N.has(w, "code_nouns")) {
                continue; // "status", "type", "code" name the column, not a code
            }
            String initial = w.substring(0, 1).toUpperCase(Locale.ROOT);
            if (byInitial.containsKey(initial)) {
                return Map.of(); // two words, one initial: neither can be read
            }
            byInitial.put(initial, w);
        }
        Map<String, String> out = new LinkedHashMap<>();
        codes.forEach(c -> {
            if (byInitial.containsKey(c)) {
                out.put(c, byInitial.get(c));
            }
        });
        return out.size() >= 2 ? java.util.Collections.unmodifiableMap(out) : Map.of();
    }
}
