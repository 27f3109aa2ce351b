package dev.sift.knowledge;

import dev.sift.data.Containment;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Key pairs found by their values where the names do not tell: columns of two tables that no join reads, whose
 * sampled values share a code's shape ({@code patients.home_clinic} and {@code appointments.clinic_ref}, both
 * {@code CL-17}) or carry the same number in different formats ({@code orders.store_num} 5 and {@code stores.store_id}
 * {@code ST005}; {@code item_no} {@code ITM-1001} and {@code product_id} 1001). Each pair is measured like any join
 * (the share of one side's values found in the other) and, from {@link KgBuilder#CANDIDATE_COVERAGE}, proposed as a
 * candidate join with that share: never approved, so a planner is told and decides, and people can approve it.
 */
final class KeyPairs {
    private static final Logger LOG = LoggerFactory.getLogger(KeyPairs.class);
    /** Pairs measured at most per dataset: a wide schema is not scanned pair by pair. */
    static final int MAX_CHECKS = 60;
    /** A code: letters, an optional separator, digits ({@code CL-17}, {@code ST005}, {@code ITM-1001}). */
    private static final Pattern CODE = Pattern.compile("[A-Za-z]{1,6}[-_ ]?\\d{1,12}");
    /** A name that may hold a key: an id-like ending, or a number's ({@code store_num}). */
    private static final Pattern KEYISH = Pattern.compile("(?i).+?_?(id|ref|key|code|no|num|number|nr)$");

    private KeyPairs() { }

    /**
     * Candidate joins between tables {@code joined} does not already link, each with its measured share. Both
     * directions are measured: most of one side's values must be in the other ({@link KgBuilder#CANDIDATE_COVERAGE}),
     * and a good share of the other's back ({@link #BACK}), so a code that merely falls inside a long run of ids
     * ({@code ITM-1001} among customer ids 1–5000) is not a pair; of several, a column keeps the one matched best back.
     */
    static List<KgEntry.Join> find(Workspace ws, List<KgEntry.Column> columns, List<KgEntry.Join> joined) {
        Set<String> linked = new HashSet<>(); // columns a join already reads: they point somewhere
        joined.forEach(j -> {
            j.fromColumns().forEach(c -> linked.add(j.fromTable() + "." + c));
            j.toColumns().forEach(c -> linked.add(j.toTable() + "." + c));
        });
        List<KgEntry.Column> keyish = columns.stream().filter(KeyPairs::keyish).toList();
        java.util.Map<String, KgEntry.Join> best = new java.util.LinkedHashMap<>();
        java.util.Map<String, Double> bestBack = new java.util.HashMap<>();
        int checks = 0;
        for (int i = 0; i < keyish.size() && checks < MAX_CHECKS; i++) {
            for (int j = 0; j < keyish.size() && checks < MAX_CHECKS; j++) {
                KgEntry.Column a = keyish.get(i);
                KgEntry.Column b = keyish.get(j);
                // a refers to b: b is the key side when one is (two keys are not a pair); each other pair once
                if (a.table().equals(b.table()) || linked.contains(a.qualified()) || a.key() || (!b.key() && i > j)
                        || (!b.key() && linked.contains(b.qualified()))) {
                    continue;
                }
                boolean sameShape = shape(a.sample()).equals(shape(b.sample())) && CODE.matcher(a.sample().strip()).matches();
                // a number in another format pairs only columns named like keys ('P1' of a name is no store code)
                if (!sameShape && !(KeyFormats.codes(a.sample(), b.sample()) && plain(a) != plain(b)
                        && KEYISH.matcher(a.name()).matches() && KEYISH.matcher(b.name()).matches())) {
                    continue;
                }
                checks++;
                Containment there = measure(ws, a, b, sameShape);
                Containment back = there == null || there.coverage() < KgBuilder.CANDIDATE_COVERAGE ? null
                        : measure(ws, b, a, sameShape);
                String from = a.qualified();
                if (back == null || back.coverage() < BACK || back.coverage() <= bestBack.getOrDefault(from, 0.0)) {
                    continue;
                }
                String on = sameShape ? null : KeyFormats.condition(KgSql.column(a.table(), a.name()),
                        KgSql.column(b.table(), b.name()));
                best.put(from, new KgEntry.Join(a.table() + "_" + a.name() + "_" + b.table(), a.table(), a.name(),
                        b.table(), b.name(), null, List.of(), false, false,
                        there.unique() ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE, there.coverage(), on));
                bestBack.put(from, back.coverage());
            }
        }
        return List.copyOf(best.values());
    }

    /** Share of the referred side's values an unnamed pair needs back. */
    static final double BACK = 0.2;

    private static boolean plain(KgEntry.Column c) {
        return c.sample().strip().matches("\\d{1,12}");
    }

    /** A column whose sample is a code, or an integer column with a key's name. */
    private static boolean keyish(KgEntry.Column c) {
        if (c.sample() == null || c.sample().isBlank()) {
            return false;
        }
        String s = c.sample().strip();
        if (CODE.matcher(s).matches()) {
            return true;
        }
        return KEYISH.matcher(c.name()).matches() && s.matches("\\d{1,12}");
    }

    /** The value with its digits as one placeholder: {@code CL-17} and {@code CL-230} are both {@code CL-#}. */
    static String shape(String value) {
        return value == null ? "" : value.strip().toUpperCase(java.util.Locale.ROOT).replaceAll("\\d+", "#");
    }

    private static Containment measure(Workspace ws, KgEntry.Column a, KgEntry.Column b, boolean plain) {
        Containment.Pair p = plain ? Containment.Pair.plain(a.table(), a.name(), b.table(), b.name())
                : new Containment.Pair(a.table(), a.name(), b.table(), b.name(), KeyFormats::normalise);
        try {
            return ws.stats().containment(p);
        } catch (QueryException e) {
            LOG.warn("Could not compare {}.{} with {}.{}: {}", a.table(), a.name(), b.table(), b.name(), e.getMessage());
            return null;
        }
    }

}
