package dev.sift.knowledge;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The nouns a question counts a table's rows by when no name in the data carries them: what a row is, read from
 * its columns. Rows with two or more attributes of a person (names, age, gender, race) are people, so "victims",
 * "patients" and "people" count them; rows of a table with a date column are occurrences, so "matches", "games",
 * "deaths" and "incidents" count them — a noun for an outcome or a part of one ("wins", "draws", "goals") does not.
 * WordNet decides what a noun is a kind of; the words of each kind are the resource {@code names.yaml}.
 */
public final class RowNouns {
    private static final Vocabulary N = Vocabulary.load("/names.yaml");
    /** Steps up WordNet's hypernyms a noun may be from its kind ("match" → contest is one; "death" → happening two). */
    private static final int DEPTH = 3;
    private static final int PERSON_ATTRIBUTES = 2;

    /** What a row may be. */
    public enum Kind { PERSON, OCCURRENCE }

    private RowNouns() { }

    /** The kinds of row a table's columns show (empty when they show none). */
    public static Set<Kind> kinds(List<KgEntry.Column> columns) {
        Set<Kind> out = EnumSet.noneOf(Kind.class);
        Set<String> personal = N.list("person_columns");
        long attributes = columns.stream().filter(c -> personal.contains(String.join(" ", NameWords.split(c.name())))).count();
        if (attributes >= PERSON_ATTRIBUTES) {
            out.add(Kind.PERSON);
        }
        if (columns.stream().anyMatch(RowNouns::dated)) {
            out.add(Kind.OCCURRENCE);
        }
        return out;
    }

    /**
     * The occurrence a table's rows record when its date column says so: "death" for death_date, "order" for
     * order_time; in comparable form ({@link Phrases#stem}). Such a noun names the rows even where it is also one
     * category of a column (type = 'Death' among 'Homicide' and others).
     */
    public static Set<String> occurrences(List<KgEntry.Column> columns) {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (KgEntry.Column c : columns) {
            List<String> w = NameWords.split(c.name());
            if (w.size() == 2 && dated(c) && N.list("date_words").contains(w.get(1)) && w.get(0).chars().allMatch(Character::isLetter)) {
                out.add(Phrases.stem(w.get(0)));
            }
        }
        return out;
    }

    /**
     * What a table's rows are, as its columns name them: its {@link #occurrences} and the thing its key column
     * identifies ("candidate" for a unique Candidate_Identification, "order" for order_id), in comparable form.
     */
    public static Set<String> rowNouns(List<KgEntry.Column> columns) {
        Set<String> out = new java.util.LinkedHashSet<>(occurrences(columns));
        for (KgEntry.Column c : columns) {
            List<String> w = NameWords.split(c.name());
            if (c.key() && w.size() == 2 && identifier(c.name()) && w.get(0).chars().allMatch(Character::isLetter)) {
                out.add(Phrases.stem(w.get(0)));
            }
        }
        return out;
    }

    /**
     * The one place column of a table's columns: a text column named for a place ({@code place_columns}: place, country,
     * city …) or holding mostly state or country names ({@link Equivalents#kindOf}); empty when none or several.
     */
    public static java.util.Optional<KgEntry.Column> place(List<KgEntry.Column> columns) {
        List<KgEntry.Column> places = columns.stream().filter(c -> c.type() != null && c.type().startsWith("VARCHAR")).filter(c -> {
            List<String> w = NameWords.split(c.name());
            return !w.isEmpty() && N.list("place_columns").contains(w.get(w.size() - 1))
                    || Equivalents.kindOf("country", c.values()).isPresent() || Equivalents.kindOf("state", c.values()).isPresent();
        }).toList();
        return places.size() == 1 ? java.util.Optional.of(places.get(0)) : java.util.Optional.empty();
    }

    /**
     * The number columns a title is written from, read from the sample values (one row's): those whose value is one of
     * its words ("M 2.0 - 4km W of Castaic, CA" carries mag). People asking for such a row want the number itself.
     */
    public static List<KgEntry.Column> titleNumbers(List<KgEntry.Column> columns, KgEntry.Column title) {
        String t = title.sample();
        if (t == null) {
            return List.of();
        }
        return columns.stream().filter(c -> c != title && c.type() != null && c.type().matches("DOUBLE|FLOAT|REAL|DECIMAL.*|BIGINT|INTEGER")
                && c.sample() != null && c.sample().strip().length() >= 2 && java.util.regex.Pattern.compile("(?<![\\w.])"
                + java.util.regex.Pattern.quote(c.sample().strip()) + "(?![\\w.])").matcher(t).find()).toList();
    }

    /** Whether a column's name ends in a word for an identifier or code ({@code id_words}: Party_Code, order_id). */
    public static boolean identifier(String column) {
        List<String> w = NameWords.split(column);
        return !w.isEmpty() && N.list("id_words").contains(w.get(w.size() - 1));
    }

    /** Whether a noun names what the table's key column identifies ({@link #rowNouns}), not an occurrence. */
    public static boolean identified(String key, List<KgEntry.Column> columns) {
        return rowNouns(columns).contains(key) && !occurrences(columns).contains(key);
    }

    private static boolean dated(KgEntry.Column c) {
        return c.type() != null && c.type().toUpperCase(Locale.ROOT).matches("DATE|TIMESTAMP.*");
    }

    /** Whether a noun (one word, any inflection) names a row of one of the kinds. */
    public static boolean names(String noun, Set<Kind> kinds) {
        String w = noun.toLowerCase(Locale.ROOT);
        if (kinds.isEmpty() || w.length() < 3 || !w.chars().allMatch(Character::isLetter)) {
            return false;
        }
        Set<String> stops = N.list("outcome_senses");
        for (Kind k : kinds) {
            if (k == Kind.PERSON && N.list("person_plurals").contains(w)
                    || Thesaurus.under(w, N.list("row_kinds." + k.name().toLowerCase(Locale.ROOT)), stops, DEPTH)) {
                return true;
            }
        }
        return false;
    }

    /** The column of a table of people that records sex ({@code sex_columns}), when a noun of one sex is asked. */
    public static java.util.Optional<KgEntry.Column> sexColumn(String noun, List<KgEntry.Column> columns) {
        if (!sexNoun(noun)) {
            return java.util.Optional.empty();
        }
        return sexColumn(columns);
    }

    /** The column recording each row's sex ("sex", "gender"), if the table has one. */
    public static java.util.Optional<KgEntry.Column> sexColumn(List<KgEntry.Column> columns) {
        return columns.stream().filter(c -> N.list("sex_columns").contains(Phrases.key(c.name()))).findFirst();
    }

    /** Whether a word names a count of people ("census"), which a table of headcounts or populations already is. */
    public static boolean census(String word) {
        return N.list("census_words").contains(word.toLowerCase(Locale.ROOT));
    }

    /** Whether a column is named as the list {@code list} of {@code names.yaml} says ("first_names": first_name, forename). */
    public static boolean personName(String column, String list) {
        return N.list(list).contains(Phrases.key(String.join(" ", NameWords.split(column))));
    }

    /** Whether a noun names people of one sex ("women", "males"). */
    public static boolean sexNoun(String noun) {
        return N.list("sex_nouns").contains(noun.toLowerCase(Locale.ROOT));
    }

    /** The whole-number column of a table of people that says how many people each row stands for, if one does. */
    public static java.util.Optional<KgEntry.Column> headcount(List<KgEntry.Column> columns) {
        if (!kinds(columns).contains(Kind.PERSON)) {
            return java.util.Optional.empty();
        }
        return wholeNumberNamed(columns, "headcount_columns");
    }

    /**
     * The column counting people that "people" or "employees" names where no column is named so: the headcount of a table
     * of people, else the tally ("count") of a table with a sex column (counts of people by sex and year).
     */
    public static java.util.Optional<KgEntry.Column> peopleCount(List<KgEntry.Column> columns) {
        return headcount(columns).or(() -> sexColumn(columns).isPresent() ? tally(columns) : java.util.Optional.empty());
    }

    /** The one whole-number column giving how many people live in each row's place ("pop", "population"), or empty. */
    public static java.util.Optional<KgEntry.Column> population(List<KgEntry.Column> columns) {
        return wholeNumberNamed(columns, "population_columns");
    }

    /** The one whole-number column of a table of counts that tallies what each row stands for ("count"), or empty. */
    public static java.util.Optional<KgEntry.Column> tally(List<KgEntry.Column> columns) {
        return wholeNumberNamed(columns, "tally_columns");
    }

    /** The one whole-number column whose name is a word of the list {@code names} of {@code names.yaml}, or empty. */
    private static java.util.Optional<KgEntry.Column> wholeNumberNamed(List<KgEntry.Column> columns, String names) {
        List<KgEntry.Column> counts = columns.stream().filter(c -> c.type() != null && c.type().toUpperCase(Locale.ROOT)
                .matches("(TINY|SMALL|BIG|HUGE|U)?INT.*|INTEGER") && N.list(names).contains(Phrases.key(c.name()))).toList();
        return counts.size() == 1 ? java.util.Optional.of(counts.get(0)) : java.util.Optional.empty();
    }

    /** Whether a word is a plural for people in general ("people", "persons"), which no name of a column need carry. */
    public static boolean people(String word) {
        return N.list("person_plurals").contains(word.toLowerCase(java.util.Locale.ROOT));
    }
}
