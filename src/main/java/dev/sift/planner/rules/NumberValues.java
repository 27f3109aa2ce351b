package dev.sift.planner.rules;

import dev.sift.knowledge.ValueIndex;

import java.util.List;
import java.util.Optional;

/**
 * A number no column claims that is a stored value of one text column: a ZIP code ("Which state is 90210 in?" is
 * zip_code = '90210'), a flight or product code. Read only as a last resort, for a number nothing else reads, and
 * only when exactly one column holds it as written.
 */
final class NumberValues {
    private NumberValues() { }

    /** The condition the number spells as a stored text value, or empty when no column or several hold it. */
    static Optional<Sense.Cond> of(Lexicon lexicon, String number) {
        if (!number.matches("\\d{2,}")) {
            return Optional.empty();
        }
        List<ValueIndex.Match> held = java.util.stream.Stream.concat(lexicon.values().resolve(number).stream(),
                lexicon.values().resolveMany(number).stream()).filter(m -> m.via() == ValueIndex.Via.DATA
                && m.value().trim().equals(number)).toList();
        if (held.stream().map(m -> m.table() + "." + m.column()).distinct().count() != 1) {
            return Optional.empty();
        }
        return Optional.of(Lexicon.cond(held.get(0)));
    }
}
