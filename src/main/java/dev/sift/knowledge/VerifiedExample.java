package dev.sift.knowledge;

/**
 * A question a user marked as answered right, with the SQL that answered it (section {@code examples} of a
 * knowledge file): the offline planner answers the same question with this SQL, a model sees it as an example.
 *
 * @param question the question as it was asked
 * @param sql      the read-only SQL whose result answered it (bound against the data when the file is loaded)
 * @param source   the file it came from
 */
public record VerifiedExample(String question, String sql, String source) {
    /** The question in comparable words (case, punctuation and plurals folded), for finding the same question again. */
    public String key() {
        return Phrases.key(question);
    }
}
