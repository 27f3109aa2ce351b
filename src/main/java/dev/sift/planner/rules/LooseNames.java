package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.ValueIndex;

import java.util.List;
import java.util.Optional;

/**
 * The entries a phrase names when no entry's own phrase is the phrase, read as people shorten, join or lengthen names:
 * "bird strikes" for the table birdstrikes (and the other way round), "life expectancy" for life_expect (the name's
 * words cut short), "fertility rate" and "death toll" for the number columns fertility and Deaths (a general noun for
 * a number added). Empty when none reads it, or several do.
 */
final class LooseNames {
    private LooseNames() { }

    static List<KgEntry> entries(KnowledgeGraph kg, String key) {
        if (key.length() >= 5) {
            List<KgEntry> joined = kg.lookupJoined(key.replace(" ", ""));
            if (!joined.isEmpty()) {
                return joined;
            }
            List<KgEntry.Column> cut = kg.lookupCut(key);
            if (!cut.isEmpty()) {
                return List.copyOf(cut);
            }
        }
        if (!kg.lookupSole(key).isEmpty()) {
            return kg.lookupSole(key); // "habitat" of habitat_yearround_pct
        }
        if (NameWords.placeWord(key)) { // "Top 5 locations": the dataset's one place column (earthquakes.place)
            Optional<KgEntry.Column> place = RowNouns.place(kg.entries(KgEntry.Column.class));
            if (place.isPresent()) {
                return List.of(place.get());
            }
        }
        List<String> words = List.of(key.split(" "));
        if (words.size() >= 2 && NameWords.measureNoun(words.get(words.size() - 1))) {
            List<KgEntry> head = kg.lookup(String.join(" ", words.subList(0, words.size() - 1))).stream()
                    .filter(e -> e instanceof KgEntry.Column c && Lexicon.attr(c).numeric()).toList();
            return head.size() == 1 ? head : List.of();
        }
        return List.of();
    }

    /**
     * The listed values the phrase is a run of words of ({@link ValueIndex#resolvePart}); one word of English only as a
     * value's first word ("nuclear" → 'Nuclear Energy', never "league" → 'English Premier League'), or as the last word
     * of one name alone ("robin" → 'American Robin' of common_name; "energy" is never 'Nuclear Energy' of source).
     */
    static List<ValueIndex.Match> valueParts(ValueIndex values, String key) {
        List<ValueIndex.Match> parts = values.resolvePart(key);
        List<ValueIndex.Match> heads = parts.stream().filter(m -> Phrases.key(m.value()).endsWith(" " + key)).toList();
        if (!key.contains(" ") && heads.size() == 1 && TableNouns.namesThings(heads.get(0).column())) { // "the robin": 'American Robin'
            return heads;
        }
        return parts.stream().filter(m -> key.contains(" ") || !Thesaurus.known(key)
                || Phrases.key(m.value()).startsWith(key + " ")).toList();
    }

    /**
     * The column a phrase names with a general noun after its name: a noun for a number after a number column ("CO2
     * level", "CO2 reading"), a noun for groups after any column ("age group"); null otherwise.
     */
    static Sense generalNounAfter(List<String> words, java.util.function.Function<List<String>, Sense> resolve) {
        String last = words.get(words.size() - 1);
        if (words.size() < 2 || !NameWords.measureNoun(last) && !NameWords.groupNoun(last)) {
            return null;
        }
        Sense head = resolve.apply(words.subList(0, words.size() - 1));
        return head instanceof Sense.Attr a && (a.numeric() || NameWords.groupNoun(last)) ? head : null;
    }

    /**
     * The kind of a table's rows: "type of disaster", "disaster type", "kinds of disaster" name the one text column of the
     * table the noun names by its own name whose values are listed (few), not its key; null when it has none or several,
     * or a column of its own is named for a type ("type of card" is card.type).
     */
    static Sense typeOf(KnowledgeGraph kg, List<String> words, java.util.function.Function<List<String>, Sense> resolve) {
        List<String> noun = words.size() == 3 && NameWords.typeNoun(words.get(0)) && words.get(1).equals("of") ? words.subList(2, 3)
                : words.size() == 2 && NameWords.typeNoun(words.get(1)) ? words.subList(0, 1) : null;
        if (noun == null || !(resolve.apply(noun) instanceof Sense.Entity e) || !Phrases.key(e.table()).equals(noun.get(0))
                || kg.columns(e.table()).stream().anyMatch(c -> NameWords.split(c.name()).stream().anyMatch(NameWords::typeNoun))) {
            return null; // the table by its own name ("credit" is no loan here), and no column of its says "type" itself
        }
        List<KgEntry.Column> kinds = kg.columns(e.table()).stream().filter(c -> c.type().startsWith("VARCHAR") && !c.key()
                && !c.values().isEmpty()).toList();
        return kinds.size() == 1 ? Lexicon.attr(kinds.get(0)) : null;
    }

    /**
     * The many-valued column matches of a one-word phrase, less the plural names a common English word only stems to:
     * "town" is no county 'Towns', while "Springfield" is the city 'Springfield' and "Williams" (no common word) the
     * last name 'Williams'.
     */
    static List<ValueIndex.Match> asWritten(String key, List<ValueIndex.Match> matches) {
        if (key.contains(" ") || key.endsWith("s") || !Thesaurus.known(key)) {
            return matches;
        }
        return matches.stream().filter(m -> !m.value().trim().toLowerCase(java.util.Locale.ROOT).endsWith("s")).toList();
    }

    /**
     * The rows of the one many-valued column whose values begin with the phrase's words, when two or more do ("How many
     * Fords are there?": every name beginning 'ford '), or null. The condition is on the stored spelling, in lower case.
     */
    static Sense ledBy(String key, List<ValueIndex.Match> matches) {
        if (matches.stream().map(m -> m.table() + "." + m.column()).distinct().count() != 1
                || matches.stream().map(ValueIndex.Match::value).distinct().count() < 2) {
            return null;
        }
        ValueIndex.Match m = matches.get(0);
        String[] words = m.value().trim().split("\\s+");
        String lead = String.join(" ", java.util.Arrays.asList(words).subList(0, Math.min(key.split(" ").length, words.length)))
                .toLowerCase(java.util.Locale.ROOT);
        String column = dev.sift.knowledge.KgSql.column(m.table(), m.column());
        return new Sense.Cond(m.table(), "lower(" + column + ") LIKE " + dev.sift.data.Sql.quoteString(lead.replace("%", "\\%")
                .replace("_", "\\_") + " %") + " ESCAPE '\\'", m.table() + "." + m.column() + " begins with '" + lead + " '");
    }

    /**
     * The rows of a many-valued text column whose values mention a name among their words ("quakes in Alaska": place
     * '5km SW of Anchorage, Alaska'): a name (four letters or more, no common English word) that no value is whole, in
     * one column or in the one place column of several (place, not title). The condition is on the stored spelling, in lower case. A name the
     * same column also writes another way ('California' and 'CA') is asked about, since a match on one form would miss
     * the other's rows. Null when no column mentions it.
     */
    static Sense mentioned(String key, ValueIndex values, KnowledgeGraph kg) {
        if (key.contains(" ") || key.length() < 4 || !key.chars().allMatch(Character::isLetter) || Thesaurus.common(key)) {
            return null; // "model", "town": common words, not names
        }
        List<ValueIndex.Match> all = values.resolveWord(key);
        List<ValueIndex.Match> in = all.size() <= 1 ? all : RowNouns.place(all.stream().map(m -> kg.column(m.table(), m.column()))
                .flatMap(Optional::stream).toList()).map(p -> all.stream().filter(m -> m.column().equals(p.name())
                && m.table().equals(p.table())).toList()).orElse(List.of());
        if (in.size() != 1) {
            return null;
        }
        ValueIndex.Match m = in.get(0);
        String word = java.util.Arrays.stream(m.value().split("[^\\p{L}\\p{N}]+")).filter(w -> Phrases.key(w).equals(key))
                .findFirst().orElse(key).toLowerCase(java.util.Locale.ROOT);
        for (String other : dev.sift.knowledge.Equivalents.of(key)) {
            if (values.resolveWord(other).stream().anyMatch(o -> o.table().equals(m.table()) && o.column().equals(m.column()))) {
                return new Sense.Ambiguous("'" + word + "' is written both '" + word + "' and '" + other + "' in " + m.table() + "."
                        + m.column() + "; say which form to look for");
            }
        }
        String column = dev.sift.knowledge.KgSql.column(m.table(), m.column());
        return new Sense.Cond(m.table(), "lower(" + column + ") LIKE " + dev.sift.data.Sql.quoteString("%" + word + "%"),
                m.table() + "." + m.column() + " mentions '" + word + "'");
    }

    /**
     * A stored name said in the plural ("the Toyota Corollas") where longer names of its column begin with it ('toyota
     * corolla 1200'): that name and every name beginning with it. Where those longer names are kinds of it written after a
     * dash or a colon ('Engineer - Civil'), "engineers" may be the name alone or every kind too: that is read only when the
     * question says so ("all the apprentice jobs", "counting all the engineering specialties"), and asked otherwise. Any
     * other condition is returned as it is.
     */
    static Sense.Cond plural(ParseState w, int i, Tok t, Sense.Cond c, Lexicon lexicon) throws Unreadable {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\S+) = '((?:[^']|'')*)'$").matcher(c.sql());
        String said = t.text().toLowerCase(java.util.Locale.ROOT);
        boolean all = everyKindSaid(w, i, c);
        if (!m.matches() || !said.endsWith("s") && !all || said.equals(m.group(2).replace("''", "'").toLowerCase(java.util.Locale.ROOT))
                && !all) {
            return c;
        }
        String value = m.group(2).replace("''", "'");
        List<ValueIndex.Match> longer = lexicon.values().resolvePrefix(value).stream().filter(v -> c.table().equals(v.table())
                && m.group(1).equals(dev.sift.knowledge.KgSql.column(v.table(), v.column()))).toList();
        Sense led = longer.isEmpty() ? null : ledBy(Phrases.key(value), longer);
        if (!(led instanceof Sense.Cond l)) {
            return c;
        }
        boolean kinds = longer.stream().allMatch(v -> v.value().substring(Math.min(value.length(), v.value().length())).matches("\\s*[-:\u2013].*"));
        if (kinds && !all) {
            throw new Unreadable("'" + t.text() + "' may be " + c.describe() + " alone or every kind of it too (" + l.describe()
                    + ", e.g. '" + longer.get(0).value() + "'); say which (e.g. 'only " + value + "' or 'all " + value + " kinds')");
        }
        return new Sense.Cond(c.table(), "(" + c.sql() + " OR " + l.sql() + ")", c.describe() + " or " + l.describe());
    }

    /** "specialties", "categories", … as {@link Phrases#key} stems them. */
    private static final java.util.Set<String> KIND_WORDS = java.util.Set.of("specialty", "kind", "type", "category", "variety",
            "subcategory", "branch");

    /**
     * Whether a plain word of kinds ("specialties") was said of a name read with every kind of it ({@link #plural}): right
     * after it ("the professor categories") or before it ("kinds of professor"), the word names the column whose values
     * are those kinds, listed or counted, in a question that counts no people by sex.
     */
    static boolean kindWord(ParseState w, int i, Tok t, Lexicon lexicon) {
        if (!KIND_WORDS.contains(t.word())) {
            return false;
        }
        Tok family = i > 0 && w.toks.get(i - 1).sense() instanceof Sense.Cond ? w.toks.get(i - 1)
                : i + 2 < w.toks.size() && w.toks.get(i + 1).is("of") && w.toks.get(i + 2).sense() instanceof Sense.Cond ? w.toks.get(i + 2) : null;
        if (family == null) {
            return w.filters.stream().anyMatch(f -> f.describe().contains(" begins with '"));
        }
        Sense.Cond c = (Sense.Cond) family.sense();
        java.util.Optional<Sense.Attr> column = lexicon.columnOf(c.table(), c.column()).map(Lexicon::attr);
        if (column.isPresent() && w.columns.isEmpty() && w.measure == null && !TableNouns.bySex(w, lexicon, c.table())) {
            if (i >= 2 && w.toks.get(i - 1).is("many") && w.toks.get(i - 2).is("how")) {
                w.measure = column.get(); // "how many kinds of professor": the names of those kinds, counted
                w.measureTok = t;
            } else {
                w.columns.add(column.get()); // "list all the professor categories": the names of those kinds
            }
            w.readings.add("'" + t.text() + "' → the values of " + column.get().name());
        }
        return true;
    }

    /**
     * Whether the question asks for every kind of a name: the column's own noun in the plural or a word of kinds after
     * it ("all the apprentice jobs", "the professor categories"), or "all the … specialties/kinds/types/categories"
     * anywhere ("counting all the engineering specialties").
     */
    private static boolean everyKindSaid(ParseState w, int i, Sense.Cond c) {
        Tok next = i + 1 < w.toks.size() ? w.toks.get(i + 1) : null;
        boolean plural = next != null && next.text().toLowerCase(java.util.Locale.ROOT).endsWith("s");
        boolean nounAfter = next != null && (plural && (next.sense() instanceof Sense.Attr a && a.sql().equals(c.column())
                || next.sense() instanceof Sense.Entity e && e.table().equals(c.table())) || next.plain() && KIND_WORDS.contains(next.word()));
        boolean kindsOf = i >= 2 && w.toks.get(i - 1).is("of") && w.toks.get(i - 2).plain() && KIND_WORDS.contains(w.toks.get(i - 2).word());
        boolean allKinds = java.util.stream.IntStream.range(0, w.toks.size() - 1).anyMatch(k -> w.toks.get(k).is("all")
                && w.toks.subList(k + 1, Math.min(w.toks.size(), k + 5)).stream().anyMatch(x -> KIND_WORDS.contains(x.word())));
        return nounAfter || kindsOf || allKinds;
    }

    /** What one word no name carries stands for: a {@link #family}'s label, else the rows it counts ({@link #rowsNamed}). */
    static Sense oneWord(KnowledgeGraph kg, String key) {
        Sense family = family(kg, key);
        return family != null ? family : rowsNamed(kg, key);
    }

    /**
     * The label column of a family of columns the word begins ("party" of Party_Code and Party_Affiliation): its one
     * column that is no code or identifier, when that is text and the others all are codes; null otherwise.
     */
    static Sense family(KnowledgeGraph kg, String key) {
        List<List<KgEntry.Column>> families = kg.tables().stream().map(t -> kg.columns(t.name()).stream().filter(c -> {
            List<String> w = NameWords.split(c.name());
            return w.size() >= 2 && Phrases.key(w.get(0)).equals(key);
        }).toList()).filter(f -> f.size() >= 2).toList();
        if (families.size() != 1) {
            return null;
        }
        List<KgEntry.Column> labels = families.get(0).stream().filter(c -> !RowNouns.identifier(c.name())).toList();
        return labels.size() == 1 && labels.get(0).type() != null && labels.get(0).type().startsWith("VARCHAR")
                ? Lexicon.attr(labels.get(0)) : null; // home_team beside home_score: "home" is no thing of its own
    }

    /**
     * The dataset's one table when a noun no name carries counts its rows by what they are ({@link RowNouns}: "victims"
     * of a table of people, "matches" of a table of dated rows), or null.
     */
    static Sense rowsNamed(KnowledgeGraph kg, String noun) {
        List<KgEntry.Table> tables = kg.tables(); // among several tables a person may be any: "astronauts" are no clients
        if (tables.size() != 1 || !RowNouns.names(noun, RowNouns.kinds(kg.columns(tables.get(0).name())))) {
            return null;
        }
        Optional<KgEntry.Column> sex = RowNouns.sexColumn(noun, kg.columns(tables.get(0).name()));
        if (sex.isPresent()) { // no value of the sex column reads as "women" (codes 1 and 2): all rows would be a wrong answer
            return new Sense.Ambiguous("'" + noun + "' would pick rows by " + sex.get().qualified() + ", but none of its"
                    + " values says which sex it is; ask with one of its values instead");
        }
        return new Sense.Entity(tables.get(0).name());
    }
}
