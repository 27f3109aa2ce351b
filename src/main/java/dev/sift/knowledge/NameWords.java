package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How people say the names that exports give tables and columns. A name is split into words on spaces,
 * underscores, punctuation, case changes and letter–digit boundaries ("IMDB Rating", "Weight_in_lbs", "bodyMass");
 * a unit at its end is a unit ("Body Mass (g)", "Speed IAS in knots", "Running Time min"), stated in answers and
 * not needed in a question; abbreviations read both ways ("temp_max" is also "maximum temperature", "mpg" finds
 * Miles_per_Gallon); a two-word name reads in either order ("Cost Repair" is "repair cost"); a table drops a size or
 * version suffix ("flights_20k", "sales_v2", "orders_2024"). The word lists are the resource {@code names.yaml}.
 */
public final class NameWords {
    private static final Vocabulary N = Vocabulary.load("/names.yaml");
    private static final Pattern BRACKETED_UNIT = Pattern.compile("\\s*[(\\[]\\s*([^()\\[\\]]{1,16}?)\\s*[)\\]]\\s*$");
    private static final Pattern TABLE_SUFFIX = Pattern.compile("(?i)[_\\- .]*(\\d+(\\.\\d+)?[kmb]|v\\d+|(19|20)\\d\\d|\\d+)$");
    /** A code rather than a name: "A12", "x1", "Q3". */
    private static final Pattern CODE = Pattern.compile("[A-Za-z]{1,2}\\d+");
    private static final int MAX_WORDS = 6;

    private NameWords() { }

    /** A column name as read: its words without the unit (lower case), and the unit spelled out, or null. */
    public record Read(List<String> words, String unit) { }

    /** The words of a name, lower case, in order: "IMDB Rating" → [imdb, rating], "bodyMassG" → [body, mass, g]. */
    public static List<String> split(String name) {
        String s = name.replace("%", " % ").replace("$", " $ ")
                .replaceAll("(\\p{Ll})(\\p{Lu})", "$1 $2")
                .replaceAll("(\\p{Lu}+)(\\p{Lu}\\p{Ll})", "$1 $2")
                .replaceAll("(\\p{L})(\\p{N})", "$1 $2")
                .replaceAll("(\\p{N})(\\p{L})", "$1 $2");
        List<String> out = new ArrayList<>();
        for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}%$]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** A column's name read, or empty for a code name ("A12") or a name of no words. */
    public static Optional<Read> column(String name) {
        if (name == null || CODE.matcher(name.trim()).matches()) {
            return Optional.empty();
        }
        String rest = name;
        String unit = null;
        Matcher m = BRACKETED_UNIT.matcher(rest);
        if (m.find() && m.start() > 0) {
            String inner = m.group(1).trim();
            unit = N.map("units").getOrDefault(inner.toLowerCase(Locale.ROOT), inner);
            rest = rest.substring(0, m.start());
        }
        List<String> words = new ArrayList<>(split(rest));
        if (words.isEmpty()) {
            return Optional.empty();
        }
        int n = words.size();
        if (unit == null && n >= 3 && words.get(n - 2).equals("in") && unitWord(words.get(n - 1)) != null) {
            unit = unitWord(words.get(n - 1));
            words = words.subList(0, n - 2);
        } else if (unit == null && n >= 2 && trailingUnit(words.get(n - 1), words.get(n - 2)) != null) {
            unit = trailingUnit(words.get(n - 1), words.get(n - 2));
            words = words.subList(0, n - 1);
        }
        return Optional.of(new Read(List.copyOf(words), unit));
    }

    /** The unit a column's name states ("Body Mass (g)" → grams), or null. */
    public static String unit(String column) {
        return column(column).map(Read::unit).orElse(null);
    }

    /**
     * The phrases a column is called by: its words whole ("weight in lbs"), without the unit ("weight"), with
     * abbreviations spelled out or abbreviated ("maximum temperature", "mpg"), and a two-word name in either order.
     */
    public static List<String> columnPhrases(String name) {
        Optional<Read> r = column(name);
        if (r.isEmpty()) {
            return List.of();
        }
        Set<String> out = new LinkedHashSet<>();
        out.add(String.join(" ", split(name)));
        variants(r.get().words(), out);
        if ("percent".equals(r.get().unit())) { // habitat_yearround_pct is the "year round habitat share"
            for (String p : List.copyOf(out)) {
                N.list("share_words").forEach(s -> out.add(p + " " + s));
            }
        }
        out.removeIf(p -> p.isBlank() || p.split(" ").length > MAX_WORDS);
        return List.copyOf(out);
    }

    /**
     * What a table's name says its rows are broken down by ("industries" of unemployment_across_industries, "region" of
     * sales_by_region), or empty.
     */
    public static Optional<String> breakdown(String tableName) {
        List<String> words = split(TABLE_SUFFIX.matcher(tableName).replaceAll(""));
        int split = breakdownAt(words);
        return split > 0 && split < words.size() - 1 ? Optional.of(String.join(" ", words.subList(split + 1, words.size())))
                : Optional.empty();
    }

    private static int breakdownAt(List<String> words) {
        for (int i = 1; i < words.size(); i++) {
            if (N.has(words.get(i), "breakdown_words")) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The last word of a column's name of two words or more, without its unit ("rating" for "IMDB Rating", "gross" for
     * "Worldwide Gross"): what a person says when the table has one such column. Empty for one-word names and for a
     * last word that is an abbreviation or a word the planner reads itself ("max" of temp_max).
     */
    public static Optional<String> head(String name) {
        return column(name).filter(r -> r.words().size() >= 2).map(r -> r.words().get(r.words().size() - 1))
                .filter(w -> w.length() >= 3 && w.chars().allMatch(Character::isLetter) && !N.map("abbreviations").containsKey(w)
                        && !Vocabulary.WORDS.allWords().contains(w)); // "max" of temp_max is no name: the parser's word
    }

    /**
     * Whether a word of a column's name may name the column alone where no other name holds it ("habitat" of
     * habitat_yearround_pct): four letters or more, no abbreviation, unit or word the planner reads itself, and no verb
     * form ("owed", "ending").
     */
    public static boolean soleWord(String w) {
        return w.length() >= 4 && w.chars().allMatch(Character::isLetter) && !N.map("abbreviations").containsKey(w)
                && !unitName(w) && !Vocabulary.WORDS.allWords().contains(w) && !w.endsWith("ing") && !w.endsWith("ed");
    }

    /**
     * The runs of two words or more inside a name's words, short of the whole, that neither begin nor end in a function
     * word: "individual contributions" of [total, individual, contributions].
     */
    public static List<String> runs(List<String> words) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            for (int j = i + 2; j <= words.size(); j++) {
                if (j - i < words.size() && !function(words.get(i)) && !function(words.get(j - 1))) {
                    out.add(String.join(" ", words.subList(i, j)));
                }
            }
        }
        return out;
    }

    private static boolean function(String w) {
        return Vocabulary.WORDS.has(w, "filler.stop"); // "to" of Refunds_to_Individuals; "individual" is content here
    }

    /** How a sole word names its column: the word, and for a share column also "habitat share", "habitat percentage". */
    public static List<String> soleForms(String column, String word) {
        List<String> out = new ArrayList<>(List.of(word));
        if ("percent".equals(unit(column))) {
            N.list("share_words").forEach(s -> out.add(word + " " + s));
        }
        return out;
    }

    /**
     * The phrases a table is called by: its words ("seattle weather"), without a size or version suffix ("flights" for
     * flights_20k), in either order for two words.
     */
    public static List<String> tablePhrases(String name) {
        Set<String> out = new LinkedHashSet<>();
        List<String> words = split(name);
        out.add(String.join(" ", words));
        String bare = TABLE_SUFFIX.matcher(name).replaceAll("");
        if (!bare.isBlank() && !bare.equals(name)) {
            List<String> b = split(bare);
            if (!b.isEmpty()) {
                variants(b, out);
            }
        }
        int split = breakdownAt(words);
        if (split > 0) { // "unemployment across industries" is also "unemployment"
            out.add(String.join(" ", words.subList(0, split)));
        }
        out.removeIf(p -> p.isBlank() || p.split(" ").length > MAX_WORDS);
        return List.copyOf(out);
    }

    /**
     * The words of a table's name of two words ("seattle" and "weather" of seattle_weather, "employment" of
     * us_employment), after its suffix is dropped: a question may say either of the whole table ("in Seattle", "the
     * employment figures"). Empty for other names, whose words may be anything; words under three letters are left out.
     */
    public static List<String> tableWords(String name) {
        List<String> b = split(TABLE_SUFFIX.matcher(name).replaceAll(""));
        return b.size() != 2 ? List.of() : b.stream().filter(w -> w.length() >= 3 && w.chars().allMatch(Character::isLetter)).toList();
    }

    /**
     * The nouns of the amounts a verb of money moves, in the order to try them ({@code money_verbs}: "spent" →
     * disbursements, "owes" → debts, "sold" → sales), for the first of {@code forms} (the word and its base forms)
     * the list holds; empty for any other word.
     */
    /** Whether a column's name says it holds money ({@code money_columns}: Ending_Cash, Debts_Owed_By). */
    public static boolean moneyColumn(String column) {
        return split(column).stream().anyMatch(w -> N.list("money_columns").contains(w.toLowerCase(java.util.Locale.ROOT)));
    }

    public static List<String> moneyNouns(List<String> forms) {
        return forms.stream().map(f -> N.map("money_verbs").get(f)).filter(java.util.Objects::nonNull).findFirst()
                .map(nouns -> List.of(nouns.split(",\\s*"))).orElse(List.of());
    }

    /** Whether more of what a word names is worse ({@code bad_measures}: deaths, cost) or better ({@code good_measures}). */
    public static boolean badMeasure(String word) {
        return N.has(word, "bad_measures");
    }

    /** See {@link #badMeasure}. */
    public static boolean goodMeasure(String word) {
        return N.has(word, "good_measures");
    }

    /** Whether a word names a number in general ("rate", "toll", "level"), so "fertility rate" may be the column fertility. */
    public static boolean measureNoun(String word) {
        return N.has(word, "measure_nouns");
    }

    /** Whether a word names the kinds of a table's rows ("type", "kind", "category"). */
    public static boolean typeNoun(String word) {
        return N.has(word, "type_nouns");
    }

    /** Whether a word names the groups of a column's values ("group", "bracket"), so "age group" may be the column age. */
    public static boolean groupNoun(String word) {
        return N.has(word, "group_nouns");
    }

    /** Whether a column's name says only that it is a share: "perc", "pct", "share", "percent of total". */
    public static boolean share(String columnName) {
        List<String> words = split(columnName).stream().map(w -> N.map("abbreviations").getOrDefault(w, w))
                .filter(w -> !w.equals("of") && !w.equals("total")).toList();
        return words.size() == 1 && (N.has(words.get(0), "share_words") || words.get(0).equals("%"));
    }

    /** Whether a number column's values add up across rows: no word of its name says a rate, share or level. */
    public static boolean totals(String columnName) {
        return split(columnName).stream().noneMatch(w -> N.has(w, "not_totals"));
    }

    /** The words for the rows of any table ("records", "entries", "data"). */
    public static Set<String> rowWords() {
        return N.list("row_words");
    }

    /**
     * Whether a date column's name says when the record was kept rather than when its event happened ("updated",
     * "last_modified", "loaded_at"): with one other date, the other is the rows' date.
     */
    public static boolean bookkeeping(String name) {
        return split(name.substring(name.indexOf('.') + 1)).stream().anyMatch(w -> N.has(w, "bookkeeping_dates"));
    }

    /** Whether a word (compared by {@link Phrases#key}) names places in general ({@code place_words}: "locations"). */
    public static boolean placeWord(String word) {
        return N.list("place_words").stream().anyMatch(w -> Phrases.key(w).equals(word));
    }

    /** Whether a name ends in "year" ("Year", "model_year", "fiscal year"): its values are years. */
    public static boolean namesYear(String name) {
        List<String> w = split(name);
        return !w.isEmpty() && w.get(w.size() - 1).equals("year");
    }

    /** The unit a word names, spelled out ("ppm" → parts per million, "pounds" → pounds), or null. */
    public static String unitOf(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        return N.map("units").containsKey(w) ? N.map("units").get(w) : N.map("units").containsValue(w) ? w : null;
    }

    /** Whether a word is a unit or spells one out ("lbs", "pounds", "knots"). */
    public static boolean unitName(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        return N.map("units").containsKey(w) || N.map("units").containsValue(w);
    }

    private static void variants(List<String> words, Set<String> out) {
        Map<String, String> abbr = N.map("abbreviations");
        String core = String.join(" ", words);
        List<String> spelled = new ArrayList<>();
        for (String w : words) {
            spelled.add(abbr.getOrDefault(w, w));
        }
        List<String> forms = new ArrayList<>(List.of(core, String.join(" ", spelled)));
        if (words.size() == 2 && words.stream().noneMatch(w -> Vocabulary.WORDS.has(w, "filler.function", "filler.stop"))) {
            // "Cost Repair" is "repair cost"; "account_to" is no "to account"
            forms.add(words.get(1) + " " + words.get(0));
            forms.add(spelled.get(1) + " " + spelled.get(0));
        }
        for (String f : forms) {
            out.add(f);
            for (Map.Entry<String, String> a : abbr.entrySet()) { // "miles per gallon" → "mpg"
                String e = a.getValue();
                if (e.contains(" ") && (" " + f + " ").contains(" " + e + " ")) {
                    out.add((" " + f + " ").replace(" " + e + " ", " " + a.getKey() + " ").trim());
                }
            }
        }
    }

    private static String unitWord(String w) {
        return N.map("units").get(w);
    }

    /** The unit a name's last word states, given the word before it: "min" is minutes only after a time word. */
    private static String trailingUnit(String last, String before) {
        String unit = unitWord(last);
        if (unit == null || last.length() == 1) {
            return null;
        }
        String spelled = N.map("abbreviations").get(last);
        if (spelled != null && !spelled.equals(unit) && !N.list("time_words").contains(before)) {
            return null;
        }
        return unit;
    }
}
