package dev.sift.planner.rules;

import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Phrases;

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
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Pattern YEAR = Pattern.compile("1[89]\\d\\d|20\\d\\d");
    private static final Map<String, String> NUMBER_WORDS = Map.of("one", "1", "two", "2", "three", "3", "four", "4",
            "five", "5", "six", "6", "seven", "7", "eight", "8", "nine", "9", "ten", "10");
    private static final List<String> MONTHS = List.of("january", "february", "march", "april", "may", "june", "july",
            "august", "september", "october", "november", "december");
    private static final List<Object[]> COMPARATORS = List.of(
            new Object[] {List.of("more", "than"), ">"}, new Object[] {List.of("greater", "than"), ">"},
            new Object[] {List.of("higher", "than"), ">"}, new Object[] {List.of("larger", "than"), ">"},
            new Object[] {List.of("bigger", "than"), ">"}, new Object[] {List.of("over"), ">"},
            new Object[] {List.of("above"), ">"}, new Object[] {List.of("exceeding"), ">"},
            new Object[] {List.of("at", "least"), ">="}, new Object[] {List.of("less", "than"), "<"},
            new Object[] {List.of("fewer", "than"), "<"}, new Object[] {List.of("lower", "than"), "<"},
            new Object[] {List.of("smaller", "than"), "<"}, new Object[] {List.of("under"), "<"},
            new Object[] {List.of("below"), "<"}, new Object[] {List.of("at", "most"), "<="},
            new Object[] {List.of("exactly"), "="}, new Object[] {List.of("equal", "to"), "="});

    private final Lexicon lexicon;
    private List<String> links = List.of();

    public Reader(Lexicon lexicon) {
        this.lexicon = lexicon;
    }

    /** The tokens of a question, in order. */
    public List<Tok> read(String question) {
        String text = question.replaceAll("(\\d),(\\d{3})", "$1$2");
        String plain = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
        List<String> shown = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (String w : NON_WORD.split(plain)) {
            if (!w.isEmpty()) {
                String lower = w.toLowerCase(Locale.ROOT);
                shown.add(w);
                words.add(Phrases.stem(NUMBER_WORDS.getOrDefault(lower, lower.equals("every") ? "each" : lower)));
            }
        }
        Tok[] at = new Tok[words.size()];
        int[] span = new int[words.size()];
        match(words, shown, at, span);
        if (open(words, span).findAny().isPresent()) {
            LexicalLinks links = new LexicalLinks(lexicon);
            links.relate(words, shown, at, span, this::match);
            this.links = links.readings();
        }
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
        return valuesAfterColumns(patterns(toks));
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
        return out;
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
                Optional<Sense> s = found.isPresent() && found.get() instanceof Sense.Ambiguous
                        ? lexicon.exactValue(String.join(" ", shown.subList(i, i + n)), words.subList(i, i + n)).or(() -> found)
                        : found;
                if (s.isPresent()) {
                    at[i] = new Tok(String.join(" ", shown.subList(i, i + n)), List.copyOf(words.subList(i, i + n)), s.get());
                    for (int j = i; j < i + n; j++) {
                        span[j] = n;
                    }
                }
            }
        }
    }

    /** Dates and comparisons among the plain words. */
    private static List<Tok> patterns(List<Tok> in) {
        List<Tok> out = new ArrayList<>();
        for (int i = 0; i < in.size(); ) {
            Tok t = in.get(i);
            int used = 0;
            Sense s = null;
            if (t.plain()) {
                String w = t.word();
                if ((w.equals("between") || w.equals("from")) && year(in, i + 1) && i + 3 < in.size()
                        && in.get(i + 2).is("and", "to") && year(in, i + 3)) {
                    int a = Integer.parseInt(in.get(i + 1).word());
                    int b = Integer.parseInt(in.get(i + 3).word());
                    s = new Sense.Dates("between", LocalDate.of(Math.min(a, b), 1, 1), LocalDate.of(Math.max(a, b) + 1, 1, 1),
                            Math.min(a, b), Math.max(a, b));
                    used = 4;
                } else if (w.equals("in") || w.equals("during") || w.equals("after") || w.equals("since")
                        || w.equals("before") || w.equals("until")) {
                    int month = i + 1 < in.size() && in.get(i + 1).plain() ? MONTHS.indexOf(in.get(i + 1).word()) + 1 : 0;
                    int y = month > 0 ? i + 2 : i + 1;
                    if (year(in, y)) {
                        int year = Integer.parseInt(in.get(y).word());
                        LocalDate start = LocalDate.of(year, month > 0 ? month : 1, 1);
                        LocalDate end = month > 0 ? start.plusMonths(1) : start.plusYears(1);
                        s = switch (w) {
                            case "after" -> new Sense.Dates("after", end, null, 0, 0);
                            case "since" -> new Sense.Dates("since", start, null, 0, 0);
                            case "before", "until" -> new Sense.Dates("before", null, start, 0, 0);
                            default -> month > 0 ? new Sense.Dates("in", start, end, 0, 0)
                                    : new Sense.Dates("in", start, end, year, year);
                        };
                        used = y - i + 1;
                    }
                }
                if (s == null && w.equals("between") && i + 3 < in.size() && in.get(i + 1).number() && in.get(i + 2).is("and")
                        && in.get(i + 3).number()) {
                    s = new Sense.Compare("BETWEEN", in.get(i + 1).word() + " AND " + in.get(i + 3).word());
                    used = 4;
                }
                if (s == null) {
                    for (Object[] c : COMPARATORS) {
                        @SuppressWarnings("unchecked") List<String> ws = (List<String>) c[0];
                        int k = ws.size();
                        if (i + k < in.size() && in.get(i + k).number() && matches(in, i, ws)) {
                            s = new Sense.Compare((String) c[1], in.get(i + k).word());
                            used = k + 1;
                            break;
                        }
                    }
                }
            }
            if (s != null) {
                List<String> text = new ArrayList<>();
                List<String> ws = new ArrayList<>();
                for (int j = i; j < i + used; j++) {
                    text.add(in.get(j).text());
                    ws.addAll(in.get(j).words());
                }
                out.add(new Tok(String.join(" ", text), List.copyOf(ws), s));
                i += used;
            } else {
                out.add(t);
                i++;
            }
        }
        return out;
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
