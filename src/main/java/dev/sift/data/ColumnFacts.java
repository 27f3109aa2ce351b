package dev.sift.data;

import java.util.ArrayList;
import java.util.List;

/**
 * What a query would trip on in one column, read once when a dataset's tables are described: how many values are
 * null, how many numbers are negative where {@link NegativeValues} says that is suspect, values written several ways (case, spacing or
 * a near-duplicate spelling: {@code 'Retail'/'retail'}), the formats of dates stored as text, each with its
 * row count, and the shape of documents a column holds ({@code documents}: JSON keys, Python-literal dicts or lists
 * stored as text, see {@link DocumentShape}; null when none). Nulls and negatives count every row; variants, formats
 * and documents the first {@code sampled} rows of a large table (0: all rows). {@code manyValues} says the variants
 * were found among many distinct values (a name or free-text column: 'Brian'/'brian' may be two people), not among a
 * few codes ('Web'/'web' is one channel). {@link #NONE} when nothing was looked at (frames, live engines).
 */
public record ColumnFacts(long nulls, long negatives, List<String> variants, List<String> dateFormats, String documents,
                          long sampled, boolean manyValues) {
    public static final ColumnFacts NONE = new ColumnFacts(0, 0, List.of(), List.of(), 0);

    public ColumnFacts {
        variants = List.copyOf(variants);
        dateFormats = List.copyOf(dateFormats);
    }

    /** Facts of a column that holds no documents and has few distinct values. */
    public ColumnFacts(long nulls, long negatives, List<String> variants, List<String> dateFormats, long sampled) {
        this(nulls, negatives, variants, dateFormats, null, sampled, false);
    }

    /** The same facts without the look-alike values. */
    public ColumnFacts withoutVariants() {
        return new ColumnFacts(nulls, negatives, List.of(), dateFormats, documents, sampled, false);
    }

    /** Whether a text value looks like a date written as text ('2017-04-01 12:15', 'April 01, 2017 at 12:15 PM'). */
    public static boolean dateLike(String sample) {
        return sample != null && ColumnFactsReader.DATE_LIKE.matcher(sample.strip()).matches();
    }

    public boolean isEmpty() {
        return nulls == 0 && negatives == 0 && variants.isEmpty() && dateFormats.isEmpty() && documents == null;
    }

    /** {@code 44 null; variants 'Web'/'web'; text dates YYYY-MM-DD (412, 82%), DD/MM/YYYY (88, 18%)}, or "" when none. */
    public String render() {
        List<String> parts = new ArrayList<>();
        if (nulls > 0) {
            parts.add(nulls + " null");
        }
        if (negatives > 0) {
            parts.add(negatives + " negative");
        }
        if (!variants.isEmpty()) {
            parts.add("variants " + String.join(", ", variants));
        }
        if (!dateFormats.isEmpty()) {
            parts.add("text dates " + String.join(", ", dateFormats));
        }
        if (documents != null) {
            parts.add(documents);
        }
        if (sampled > 0 && (!variants.isEmpty() || !dateFormats.isEmpty() || documents != null)) {
            parts.add("variants and formats from the first " + sampled + " rows");
        }
        return String.join("; ", parts);
    }
}
