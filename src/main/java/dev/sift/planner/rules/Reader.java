package dev.sift.planner.rules;

import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Vocabulary;

import java.text.Normalizer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The tokenizer and phrase matcher: splits a question into words (compared as {@link Phrases#words}), matches
 * the longest phrases the {@link Lexicon} knows (up to {@link KnowledgeGraph#MAX_PHRASE_WORDS} words, not
 * overlapping), then reads dates ("in 1997", "between 1995 and 1996", "after March 1997", "before 1994") and
 * numeric comparisons ("over 100000", "at least 3") among the words left. Deterministic.
 */
public final class Reader {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    /** What separates words; a point between digits does not ("5.5" is one number). */
    private static final Pattern NON_WORD = Pattern.compile("(?:[^\\p{L}\\p{N}.]|(?<!\\d)\\.|\\.(?!\\d))+");
    private static final Pattern YEAR = Pattern.compile("1[89]\\d\\d|20\\d\\d");
    private static final Pattern DECADE = Pattern.compile("(1[89]\\d0|20\\d0)s");
    private static final Vocabulary V = Vocabulary.WORDS;

    private final Lexicon lexicon;
    private List<String> links = List.of();
    /** The question being read, as its words were split from it. */
    private String plain = "";

    public Reader(Lexicon lexicon) {
        this.lexicon = lexicon;
    }

    /** A spelling read as the planner's own words ({@code spelled} of {@code patterns.yaml}). */
    private record Spelled(Pattern pattern, String by) { }

    private static final List<Spelled> SPELLED = dev.sift.knowledge.Patterns.ALL.names().stream()
            .filter(n -> n.startsWith("spelled.") && n.endsWith(".pattern"))
            .map(n -> new Spelled(dev.sift.knowledge.Patterns.ALL.get(n),
                    dev.sift.knowledge.Patterns.ALL.replacement(n.substring(0, n.length() - ".pattern".length()) + ".by"))).toList();

    private static final Pattern SCALED = Pattern.compile("(?i)\\b(\\d+(?:\\.\\d+)?|an?)\\s*(thousand|million|billion)\\b");

    /** "100 million" → "100000000", "1.5 thousand" → "1500", "a million" → "1000000": a number with a scale word. */
    static String scaled(String text) {
        java.util.regex.Matcher m = SCALED.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int zeros = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "thousand" -> 3;
                case "million" -> 6;
                default -> 9;
            };
            String n = m.group(1).matches("(?i)an?") ? "1" : m.group(1);
            m.appendReplacement(out, new java.math.BigDecimal(n).movePointRight(zeros).stripTrailingZeros().toPlainString());
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The tokens of a question, in order. */
    public List<Tok> read(String question) {
        String text = question;
        for (Spelled s : SPELLED) {
            text = s.pattern().matcher(text).replaceAll(s.by());
        }
        text = scaled(text);
        List<String> moved = new ArrayList<>();
        text = Glosses.columnNamed(Glosses.read(text, lexicon, moved), lexicon, moved); // "… (county ids beginning with 48)", "stations (nst)"
        String plain = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
        this.plain = plain;
        List<String> shown = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (String w : NON_WORD.split(plain)) {
            if (!w.isEmpty()) {
                String lower = w.toLowerCase(Locale.ROOT);
                shown.add(w);
                words.add(Phrases.stem(V.map("number_words").getOrDefault(lower, lower.equals("every") ? "each" : lower)));
            }
        }
        superlatives(words, shown, moved);
        ComparedWords.read(words, shown, moved, lexicon);
        Polarity.read(words, shown, moved);
        this.links = moved;
        Tok[] at = new Tok[words.size()];
        int[] span = new int[words.size()];
        match(words, shown, at, span);
        ColumnWordsApart.absorb(words, shown, at, span); // "coverage periods ended": Coverage_End_Date
        LexicalLinks links = new LexicalLinks(lexicon);
        links.amounts(words, shown, at, span); // "spent" (also a shop's verb), "owes": an amount column
        if (open(words, span).findAny().isPresent()) {
            links.relate(words, shown, at, span, this::match);
        }
        moved.addAll(links.readings());
        List<Tok> toks = new ArrayList<>();
        for (int i = 0; i < words.size(); ) {
            if (at[i] != null) {
                toks.add(at[i]);
                i += span[i];
            } else {
                toks.add(new Tok(shown.get(i), List.of(words.get(i)), null));
                i++;
            }
        }
        // "spent more than they raised", "counties whose id starts with 48", "jobs with zero women", "candidates who lent money",
        // "debts owed by party"
        return ValuesCompared.merge(EveryValue.merge(MoneyMoved.merge(ZeroCounted.merge(ColumnPrefix.merge(ColumnsCompared.merge(missingValues(
                numbersBeforeColumns(valuesAfterColumns(ShareWords.askedBeforeOf(ShareOfWhole.merge(ChoiceByVerb.merge(ByInName.merge(WordColumns.merge(patterns(toks), lexicon))), lexicon))))))), lexicon)), lexicon), lexicon);
    }

    /**
     * A superlative the dataset does not name, of an adjective whose attribute names one column ("heaviest" → weight,
     * "longest" → length, through WordNet), is read as "highest" or "lowest" of that column, in place.
     */
    private void superlatives(List<String> words, List<String> shown, List<String> moved) {
        for (int i = words.size() - 1; i >= 0; i--) {
            String w = shown.get(i).toLowerCase(Locale.ROOT);
            String compass = V.map("compass_superlatives").getOrDefault(w, V.map("degree_superlatives").get(w)); // "northernmost": the highest latitude
            String most = i > 0 ? shown.get(i - 1).toLowerCase(Locale.ROOT) : "";
            if (compass == null && V.map("most_adjectives").containsKey(w) && (most.equals("most") || most.equals("least"))) {
                compass = (most.equals("most") ? "highest " : "lowest ") + V.map("most_adjectives").get(w); // "most populous"
                words.remove(i - 1);
                shown.remove(i - 1);
                w = most + " " + w;
                i--;
            }
            if ((!w.endsWith("est") || w.length() < 6 || !LexicalLinks.open(w)) && compass == null
                    || lexicon.sense(List.of(words.get(i))).isPresent()) {
                continue;
            }
            List<String> named = new ArrayList<>();
            Sense.Attr found = null;
            for (String noun : compass != null ? List.of(compass.substring(compass.indexOf(' ') + 1))
                    : dev.sift.knowledge.Thesaurus.attributesOf(w)) {
                Optional<Sense> s = lexicon.sense(Phrases.words(noun));
                if (s.isPresent() && s.get() instanceof Sense.Attr a && a.numeric() && (found == null || found.equals(a))) {
                    found = a;
                    named.add(noun);
                } else if (s.isPresent()) {
                    found = null;
                    named.clear();
                    break;
                }
            }
            if (found == null) {
                continue;
            }
            boolean low = compass != null ? compass.startsWith("lowest")
                    : dev.sift.knowledge.Thesaurus.lemmas(w).stream().anyMatch(V.list("low_adjectives")::contains);
            List<String> reading = new ArrayList<>(List.of(low ? "lowest" : "highest"));
            Sense.Attr column = found;
            boolean saidAfter = i + 1 < words.size() && lexicon.sense(List.of(words.get(i + 1))).filter(column::equals).isPresent();
            if (!saidAfter) { // "the strongest magnitude": the column said once
                reading.addAll(Phrases.words(named.get(0)));
            }
            String said = shown.get(i);
            words.remove(i);
            shown.remove(i);
            int at = i;
            int key = rowsNamed(words, i);
            boolean columnAsked = words.get(0).equals("where") || words.size() > 1 && words.get(0).matches("which|what")
                    && lexicon.sense(List.of(words.get(1))).filter(Sense.Attr.class::isInstance).isPresent(); // "which place had the deepest quake"
            if (key > 0 && !columnAsked) {
                at = i + key; // "the 5 lightest cars" is "the 5 cars with the lowest weight", "the northernmost zip code" too
                reading.add(0, "with");
            }
            words.addAll(at, reading);
            for (int k = 0; k < reading.size(); k++) {
                shown.add(at, said);
            }
            moved.add("'" + said + "' read as the " + (low ? "lowest" : "highest") + " " + named.get(0)
                    + (compass != null ? "" : " (its attribute in WordNet 3.1)"));
        }
    }

    /**
     * How many words from {@code i} name the rows or values a superlative ranks: a table ("cars"), its key column ("zip
     * code") or a text column ("the 5 most populous countries"); 0 when they name none.
     */
    private int rowsNamed(List<String> words, int i) {
        for (int n = Math.min(2, words.size() - i); n >= 1; n--) {
            Optional<Sense> s = lexicon.sense(words.subList(i, i + n));
            if (s.filter(Sense.Entity.class::isInstance).isPresent() || s.filter(Sense.Attr.class::isInstance).map(Sense.Attr.class::cast)
                    .filter(a -> a.type().startsWith("VARCHAR") || lexicon.key(a.table()).filter(k -> a.name().equals(k.qualified()))
                            .isPresent()).isPresent()) {
                return n;
            }
        }
        return 0;
    }

    /** "the mpg is missing", "with an unknown age": a column said to have no value is the condition that it is null. */
    private static List<Tok> missingValues(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i < out.size(); i++) {
            if (!(out.get(i).sense() instanceof Sense.Attr a)) {
                continue;
            }
            int after = i + 1;
            while (after < out.size() && out.get(after).is("is", "are", "was", "were")) {
                after++;
            }
            int at = after < out.size() && missing(out.get(after)) ? after : i > 0 && missing(out.get(i - 1)) ? i - 1 : -1;
            if (at < 0) {
                continue;
            }
            int from = Math.min(i, at);
            int to = Math.max(i, at);
            List<String> text = new ArrayList<>();
            List<String> ws = new ArrayList<>();
            for (int k = from; k <= to; k++) {
                text.add(out.get(k).text());
                ws.addAll(out.get(k).words());
            }
            Tok merged = new Tok(String.join(" ", text), List.copyOf(ws), new Sense.Cond(a.table(), a.sql() + " IS NULL",
                    a.name() + " is missing (NULL)"));
            out.subList(from, to + 1).clear();
            out.add(from, merged);
            i = from;
        }
        return out;
    }

    private static boolean missing(Tok t) {
        return t.plain() && V.has(t.word(), "missing_words");
    }

    /** "8 cylinders", "more than 6 cylinders": a number before a numeric column of whole numbers is that column's value. */
    private static List<Tok> numbersBeforeColumns(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 1 < out.size(); i++) {
            Tok n = out.get(i);
            if (!(out.get(i + 1).sense() instanceof Sense.Attr a) || !a.numeric() || a.date() || !a.type().matches("(?i).*INT.*")
                    || i > 0 && out.get(i - 1).is("top", "bottom", "first", "last", "the")) {
                continue;
            }
            String cond = n.number() && n.plain() && !YEAR.matcher(n.word()).matches() ? "= " + n.word()
                    : n.sense() instanceof Sense.Compare c ? c.op() + " " + c.value() : null;
            if (cond == null) {
                continue;
            }
            Tok col = out.get(i + 1);
            List<String> ws = new ArrayList<>(n.words());
            ws.addAll(col.words());
            out.set(i, new Tok(n.text() + " " + col.text(), List.copyOf(ws), new Sense.Cond(a.table(), a.sql() + " " + cond,
                    a.name() + " " + cond)));
            out.remove(i + 1);
        }
        return out;
    }

    /**
     * A value right after its column ("region Prague", "whose status is D", "bank YZ") is that column's value, even when
     * the words alone name another column's value or several: the column said which.
     */
    private List<Tok> valuesAfterColumns(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 1 < out.size(); i++) {
            if (!(out.get(i).sense() instanceof Sense.Attr a)) {
                continue;
            }
            int j = i + 1;
            while (j + 1 < out.size() && out.get(j).is("is", "are", "was", "were", "equals", "equal", "to", "being")) {
                j++;
            }
            Tok v = out.get(j);
            if (v.sense() instanceof Sense.Attr || v.sense() instanceof Sense.Entity || v.sense() instanceof Sense.Dates
                    || v.sense() instanceof Sense.Compare || v.number()) {
                continue;
            }
            Optional<Sense.Cond> value = lexicon.valueOf(a, v.text());
            if (value.isPresent() && !value.get().equals(v.sense())) {
                out.set(j, new Tok(v.text(), v.words(), value.get()));
            }
        }
        return ValueLists.afterValue(out, lexicon);
    }

    /** How words the dataset does not name were related to its words (base forms, synonyms), for "Read as". */
    public List<String> links() {
        return links;
    }

    /** Positions of words no phrase matched that no word list of the planner knows either. */
    static java.util.stream.IntStream open(List<String> words, int[] span) {
        return java.util.stream.IntStream.range(0, words.size()).filter(i -> span[i] == 0 && LexicalLinks.open(words.get(i)));
    }

    /** The longest phrases the lexicon knows, not overlapping: {@code at[i]} the token starting at i, {@code span} its length. */
    void match(List<String> words, List<String> shown, Tok[] at, int[] span) {
        java.util.Arrays.fill(at, null);
        java.util.Arrays.fill(span, 0);
        for (int n = Math.min(KnowledgeGraph.MAX_PHRASE_WORDS, words.size()); n >= 1; n--) {
            for (int i = 0; i + n <= words.size(); i++) {
                boolean free = true;
                for (int j = i; j < i + n; j++) {
                    free &= span[j] == 0;
                }
                if (!free) {
                    continue;
                }
                Optional<Sense> found = lexicon.sense(words.subList(i, i + n));
                if (n > 1 && found.isPresent() && words.get(i).matches("the|a|an")
                        && found.equals(lexicon.sense(words.subList(i + 1, i + n)))) {
                    continue; // "the CO2" reads as "CO2" does: the word after stays free for a longer phrase ("CO2 level")
                }
                Optional<Sense> s = found.isPresent() && found.get() instanceof Sense.Ambiguous
                        ? lexicon.exactValue(String.join(" ", shown.subList(i, i + n)), words.subList(i, i + n)).or(() -> found)
                        : found;
                if (s.isPresent() && n > 1 && !(s.get() instanceof Sense.Cond c && c.sql().contains(", ")) && acrossComma(shown.subList(i, i + n))) {
                    continue; // "same for ci, and nn?": two values said apart, not the one value ',ci,nn,'
                }
                if (s.isPresent()) {
                    at[i] = new Tok(String.join(" ", shown.subList(i, i + n)), List.copyOf(words.subList(i, i + n)), s.get());
                    for (int j = i; j < i + n; j++) {
                        span[j] = n;
                    }
                }
            }
        }
    }

    /** Whether words said one after the other are parted by a comma in the question ("ci, nn"). */
    private boolean acrossComma(List<String> said) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)" + String.join("[^\\p{L}\\p{N}]+",
                said.stream().map(java.util.regex.Pattern::quote).toList())).matcher(plain);
        return m.find() && m.group().contains(",");
    }

    /** A date or comparison read at a word: its sense and how many tokens it spans. */
    private record Read(Sense sense, int used) { }

    /** Dates and comparisons among the plain words. */
    private static List<Tok> patterns(List<Tok> in) {
        List<Tok> out = new ArrayList<>();
        for (int i = 0; i < in.size(); ) {
            Tok t = in.get(i);
            Optional<Read> p = Optional.empty();
            if (t.plain()) {
                int at = i;
                p = yearRange(in, at).or(() -> dayRange(in, at)).or(() -> dayPoint(in, at)).or(() -> datePoint(in, at)).or(() -> numberRange(in, at)).or(() -> decade(in, at)).or(() -> decadeOfYears(in, at)).or(() -> comparator(in, at))
                        .or(() -> trailing(in, at)).or(() -> numbersTo(in, at));
            }
            if (p.isPresent()) {
                List<String> text = new ArrayList<>();
                List<String> ws = new ArrayList<>();
                for (int j = i; j < i + p.get().used(); j++) {
                    text.add(in.get(j).text());
                    ws.addAll(in.get(j).words());
                }
                out.add(new Tok(String.join(" ", text), List.copyOf(ws), p.get().sense()));
                i += p.get().used();
            } else {
                out.add(t);
                i++;
            }
        }
        return out;
    }

    /** "between 1995 and 1996", "from 1995 to 1996". */
    private static Optional<Read> yearRange(List<Tok> in, int i) {
        if (!in.get(i).is("between", "from") || !year(in, i + 1) || i + 3 >= in.size() || !in.get(i + 2).is("and", "to")
                || !year(in, i + 3)) {
            return Optional.empty();
        }
        int a = Integer.parseInt(in.get(i + 1).word());
        int b = Integer.parseInt(in.get(i + 3).word());
        return Optional.of(new Read(new Sense.Dates("between", LocalDate.of(Math.min(a, b), 1, 1),
                LocalDate.of(Math.max(a, b) + 1, 1, 1), Math.min(a, b), Math.max(a, b)), 4));
    }

    /** A day and how many tokens name it: "1992-04-30", "April 30, 1992", "April 30th 1992", "20 December 2015". */
    private record Day(LocalDate date, int used) { }

    /** The day written at {@code i}, with its year, or (with {@code year} > 0) without one ("April 29" of "… and May 1, 1992"). */
    private static Optional<Day> day(List<Tok> in, int i, int year) {
        if (i >= in.size() || !in.get(i).plain()) {
            return Optional.empty();
        }
        int n = in.size();
        try {
            if (year(in, i) && i + 2 < n && in.get(i + 1).word().matches("\\d{1,2}") && in.get(i + 2).word().matches("\\d{1,2}")) {
                return Optional.of(new Day(LocalDate.of(Integer.parseInt(in.get(i).word()), Integer.parseInt(in.get(i + 1).word()),
                        Integer.parseInt(in.get(i + 2).word())), 3)); // 1992-04-30
            }
            int m = month(in.get(i).word());
            if (m > 0 && i + 1 < n && dayOfMonth(in.get(i + 1)) > 0) { // April 30, 1992
                return withYear(in, i + 2, year).map(y -> new Day(LocalDate.of(y, m, dayOfMonth(in.get(i + 1))), year(in, i + 2) ? 3 : 2));
            }
            int d = dayOfMonth(in.get(i));
            int of = i + 1 < n && in.get(i + 1).is("of") ? 1 : 0;
            int m2 = d > 0 && i + 1 + of < n && in.get(i + 1 + of).plain() ? month(in.get(i + 1 + of).word()) : 0;
            if (m2 > 0) { // 20 December 2015, the 20th of December 2015
                return withYear(in, i + 2 + of, year).map(y -> new Day(LocalDate.of(y, m2, d), (year(in, i + 2 + of) ? 3 : 2) + of));
            }
        } catch (java.time.DateTimeException e) {
            return Optional.empty(); // no such day (April 31): not a date
        }
        return Optional.empty();
    }

    private static Optional<Integer> withYear(List<Tok> in, int i, int year) {
        return year(in, i) ? Optional.of(Integer.parseInt(in.get(i).word())) : year > 0 ? Optional.of(year) : Optional.empty();
    }

    /** The day of the month a word is ("30", "30th"), or 0. */
    private static int dayOfMonth(Tok t) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,2})(st|nd|rd|th)?").matcher(t.word());
        int d = t.plain() && m.matches() ? Integer.parseInt(m.group(1)) : 0;
        return d <= 31 ? d : 0;
    }

    /** "on April 30, 1992", "after 1992-05-01", "20 December 2015": one day, or the days before, after or since it. */
    private static Optional<Read> dayPoint(List<Tok> in, int i) {
        boolean prep = in.get(i).is("on", "in", "during", "after", "since", "before", "until", "from");
        Optional<Day> d = day(in, prep ? i + 1 : i, 0);
        if (d.isEmpty() || d.get().used() < 3 && !year(in, (prep ? i + 1 : i) + d.get().used() - 1)) {
            return Optional.empty();
        }
        LocalDate day = d.get().date();
        Sense.Dates s = switch (prep ? in.get(i).word() : "on") {
            case "after" -> new Sense.Dates("after", day.plusDays(1), null, 0, 0);
            case "since", "from" -> new Sense.Dates("since", day, null, 0, 0);
            case "before", "until" -> new Sense.Dates("before", null, day, 0, 0);
            default -> new Sense.Dates("in", day, day.plusDays(1), 0, 0);
        };
        return Optional.of(new Read(s, d.get().used() + (prep ? 1 : 0)));
    }

    /** "between April 29 and May 1, 1992", "from 2015-12-01 to 2015-12-24": both days counted. */
    private static Optional<Read> dayRange(List<Tok> in, int i) {
        if (!in.get(i).is("between", "from")) {
            return Optional.empty();
        }
        Optional<Day> second = Optional.empty();
        Optional<Day> first = day(in, i + 1, 0);
        int join = i + 1 + first.map(Day::used).orElse(0);
        if (first.isEmpty()) { // the year only once, at the end
            for (int j = i + 2; j < Math.min(in.size(), i + 5) && second.isEmpty(); j++) {
                if (in.get(j).is("and", "to")) {
                    second = day(in, j + 1, 0);
                    int y = second.map(s -> s.date().getYear()).orElse(0);
                    int gap = j - i - 1;
                    first = y > 0 ? day(in, i + 1, y).filter(f -> f.used() == gap) : Optional.empty();
                    join = j;
                }
            }
        } else if (join < in.size() && in.get(join).is("and", "to")) {
            second = day(in, join + 1, first.get().date().getYear());
        }
        if (first.isEmpty() || second.isEmpty() || join >= in.size() || !in.get(join).is("and", "to")) {
            return Optional.empty();
        }
        LocalDate a = first.get().date();
        LocalDate b = second.get().date();
        return Optional.of(new Read(new Sense.Dates("between", a.isBefore(b) ? a : b, (a.isBefore(b) ? b : a).plusDays(1), 0, 0),
                join - i + 1 + second.get().used()));
    }

    /** "in 1997", "during March 1997", "after 1996", "since 1995", "before 1994", "until May 1998", "for 2000" at the end. */
    private static Optional<Read> datePoint(List<Tok> in, int i) {
        String w = in.get(i).word();
        if (!in.get(i).is("in", "during", "after", "since", "before", "until", "from", "for")) {
            return Optional.empty();
        }
        int month = i + 1 < in.size() && in.get(i + 1).plain() ? month(in.get(i + 1).word()) : 0;
        int y = month > 0 ? i + 2 : i + 1;
        if (!year(in, y) || w.equals("for") && y + 1 < in.size() && !in.get(y + 1).is("and", "only", "alone")) {
            return Optional.empty(); // "the readings for 2000" is a year; "loans for 2000 clients" is not
        }
        int year = Integer.parseInt(in.get(y).word());
        LocalDate start = LocalDate.of(year, month > 0 ? month : 1, 1);
        LocalDate end = month > 0 ? start.plusMonths(1) : start.plusYears(1);
        Sense.Dates d = switch (w) {
            case "after" -> new Sense.Dates("after", end, null, 0, 0);
            case "since" -> new Sense.Dates("since", start, null, 0, 0);
            case "before", "until" -> new Sense.Dates("before", null, start, 0, 0);
            default -> month > 0 ? new Sense.Dates("in", start, end, 0, 0) : new Sense.Dates("in", start, end, year, year);
        };
        return Optional.of(new Read(d, y - i + 1));
    }

    /**
     * "between 100000 and 200000"; "between 20% and 40%" reads up to the second number, whose "percent" is then read as
     * the unit of both ({@link NumberUnits}).
     */
    private static Optional<Read> numberRange(List<Tok> in, int i) {
        int and = i + 2 < in.size() && NumberUnits.percent(in.get(i + 2)) && i + 5 < in.size() && NumberUnits.percent(in.get(i + 5))
                ? i + 3 : i + 2;
        if (!in.get(i).is("between") || and + 1 >= in.size() || !in.get(i + 1).number() || !in.get(and).is("and")
                || !in.get(and + 1).number()) {
            return Optional.empty();
        }
        return Optional.of(new Read(new Sense.Compare("BETWEEN", in.get(i + 1).word() + " AND " + in.get(and + 1).word()), and + 2 - i));
    }

    /** "90 or older", "85 and over": the vocabulary's comparators after a number. */
    private static Optional<Read> trailing(List<Tok> in, int i) {
        if (!in.get(i).number() || i + 2 >= in.size()) {
            return Optional.empty();
        }
        String op = V.map("trailing_comparators").get(in.get(i + 1).word() + " " + in.get(i + 2).word());
        return op == null ? Optional.empty() : Optional.of(new Read(new Sense.Compare(op, in.get(i).word()), 3));
    }

    /** "aged 15 to 19": two numbers that are not years, as a range. */
    private static Optional<Read> numbersTo(List<Tok> in, int i) {
        if (!in.get(i).number() || year(in, i) || i + 2 >= in.size() || !in.get(i + 1).is("to") || !in.get(i + 2).number()
                || year(in, i + 2) || i > 0 && in.get(i - 1).is("from", "between")) {
            return Optional.empty();
        }
        return Optional.of(new Read(new Sense.Compare("BETWEEN", in.get(i).word() + " AND " + in.get(i + 2).word()), 3));
    }

    /** "in their twenties": the ten years of an age (20 to 29). */
    private static Optional<Read> decade(List<Tok> in, int i) {
        if (!in.get(i).is("in") || i + 2 >= in.size() || !in.get(i + 1).is("their", "his", "her") || !in.get(i + 2).plain()) {
            return Optional.empty();
        }
        String from = V.map("decades").get(in.get(i + 2).word());
        return from == null ? Optional.empty() : Optional.of(new Read(new Sense.Compare("BETWEEN", from + " AND "
                + (Integer.parseInt(from) + 9)), 3));
    }

    /** "in the 1970s", "during the 1990's": the ten years from 1970 to 1979. */
    private static Optional<Read> decadeOfYears(List<Tok> in, int i) {
        int j = i + (in.get(i).is("in", "during", "over", "throughout") ? 1 : 0);
        j += j < in.size() && in.get(j).is("the") ? 1 : 0;
        if (j >= in.size() || !in.get(j).plain()) {
            return Optional.empty();
        }
        java.util.regex.Matcher m = DECADE.matcher(in.get(j).text());
        boolean apart = !m.matches() && j + 1 < in.size() && in.get(j + 1).text().equals("s"); // "1990's" splits at "'"
        if (!m.matches() && !(apart && (m = DECADE.matcher(in.get(j).text() + "s")).matches())) {
            return Optional.empty();
        }
        int from = Integer.parseInt(m.group(1));
        return Optional.of(new Read(new Sense.Dates("between", LocalDate.of(from, 1, 1), LocalDate.of(from + 10, 1, 1), from,
                from + 9), j - i + (apart ? 2 : 1)));
    }

    /** "over 100000", "at least 3", "exceeds 5": the vocabulary's comparators, before a number. */
    private static Optional<Read> comparator(List<Tok> in, int i) {
        for (Map.Entry<String, String> c : V.map("comparators").entrySet()) {
            List<String> ws = List.of(c.getKey().split(" "));
            int k = ws.size();
            if (i + k < in.size() && in.get(i + k).number() && matches(in, i, ws)) {
                return Optional.of(new Read(new Sense.Compare(c.getValue(), in.get(i + k).word()), k + 1));
            }
        }
        return Optional.empty();
    }

    /** The month a word names (1–12), or 0. */
    static int month(String word) {
        String m = V.map("months").get(word);
        return m == null ? 0 : Integer.parseInt(m);
    }

    private static boolean matches(List<Tok> in, int i, List<String> ws) {
        for (int k = 0; k < ws.size(); k++) {
            if (!in.get(i + k).is(ws.get(k))) {
                return false;
            }
        }
        return true;
    }

    private static boolean year(List<Tok> in, int i) {
        return i < in.size() && in.get(i).plain() && YEAR.matcher(in.get(i).word()).matches();
    }
}
