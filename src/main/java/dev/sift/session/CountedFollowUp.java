package dev.sift.session;

import dev.sift.knowledge.Patterns;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "Of those, how many were deeper than 50 km?" after "List the quakes of magnitude 5.5 or more": the rows the listing
 * named, counted with the follow-up's condition ("How many quakes of magnitude 5.5 or more were deeper than 50 km?").
 * Merged as a plain continuation, the listing's own "list" or "which" would still ask for rows and the count would be
 * refused as a different question.
 */
final class CountedFollowUp {
    private static final Pattern COUNT_ASKED = Patterns.ALL.get("follow_up.count_asked");
    private static final Pattern LISTING = Patterns.ALL.get("follow_up.listing_frame");
    private static final Pattern EXTRA = Patterns.ALL.get("follow_up.listing_extra");

    private CountedFollowUp() { }

    /**
     * The count question, or empty when {@code remainder} (the follow-up without its reference phrase) asks no count or
     * {@code stem} (the question before) is no listing.
     */
    static Optional<String> counted(String remainder, String stem) {
        Matcher how = COUNT_ASKED.matcher(remainder);
        Matcher frame = LISTING.matcher(stem);
        if (!how.matches() || !frame.lookingAt() || frame.end() == stem.length()) {
            return Optional.empty();
        }
        String rows = EXTRA.matcher(stem.substring(frame.end())).replaceFirst("").trim();
        String rest = how.group(1).trim();
        String noun = rows.split("\\s+")[0].toLowerCase(Locale.ROOT);
        // "how many quakes were …" after "List the quakes …": the rows are named once
        rest = rest.replaceFirst("(?i)^" + Pattern.quote(noun) + "\\s+", "");
        return Optional.of("How many " + rows + " " + rest);
    }
}
