package dev.sift.knowledge;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The meanings of a whole-number sex column's codes by ISO/IEC 5218 (0 = not known, 1 = male, 2 = female, 9 = not
 * applicable; the US Census and IPUMS code sex the same way), when every stored value is one of them and both 1 and 2
 * occur. A column the file leaves unlabelled then answers "women" ({@code sex = 2}), and the answer says whose codes
 * it read; a column with any other code (a 0/1 flag) keeps no meanings, so "women" is asked about.
 */
final class SexCodes {
    private static final Logger LOG = LoggerFactory.getLogger(SexCodes.class);
    private static final Vocabulary N = Vocabulary.load("/names.yaml");
    /** The column's description, said with each reading of a code so nobody takes it for the file's own label. */
    static final String READ_AS = "codes read as ISO/IEC 5218 sex codes";

    private SexCodes() { }

    /** The code → meaning map of column {@code c} of {@code t}, or an empty map when it is no such column. */
    static Map<String, String> of(Workspace ws, TableInfo t, ColumnInfo c) {
        if (!c.type().toUpperCase(Locale.ROOT).matches("(TINY|SMALL|BIG|HUGE|U)?INT.*|INTEGER")
                || !N.list("sex_columns").contains(Phrases.key(c.name())) || t.rows() == 0) {
            return Map.of();
        }
        try {
            List<String> codes = ws.stats().fewValues(t, List.of(c), 10).getOrDefault(c.name(), List.of());
            Map<String, String> meanings = N.map("sex_codes");
            if (!meanings.keySet().containsAll(codes) || !codes.contains("1") || !codes.contains("2")) {
                return Map.of();
            }
            Map<String, String> out = new LinkedHashMap<>();
            codes.forEach(code -> out.put(code, meanings.get(code)));
            return java.util.Collections.unmodifiableMap(out);
        } catch (QueryException e) {
            LOG.warn("Could not read the codes of {}.{}: {}", t.name(), c.name(), e.getMessage());
            return Map.of();
        }
    }
}
