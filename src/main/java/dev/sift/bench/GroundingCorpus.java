package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerReplay;
import dev.sift.agent.TraceStore;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Claim;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A labelled corpus for the answer check: {@code real/*.json} are traces of real runs, whose answers are right and
 * must pass (an unsupported number there is a false alarm); {@code mutations.jsonl} holds, per real answer, variants
 * with one invented number (a number changed, a number added, two digits swapped, a wrong unit), which must be
 * caught: the check must name a claim inside the invented span. The mutations are made from the real answers by
 * {@link Mutations}, deterministically, so the file can be written again and compared.
 */
public final class GroundingCorpus {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A real run of the corpus, by its file name. */
    public record Real(String name, AgentRun run) { }

    /** What the corpus measured. */
    public record Figures(int real, List<String> falseAlarms, int mutations, int caught, Map<String, int[]> byKind,
                          List<String> missed, int derived, int unsupportedValues, double p50, double p99) {
        public double falseAlarmRate() {
            return real == 0 ? 0 : (double) falseAlarms.size() / real;
        }

        public double catchRate() {
            return mutations == 0 ? 0 : (double) caught / mutations;
        }
    }

    private final List<Real> reals;
    private final List<Mutations.Mutation> mutations;

    private GroundingCorpus(List<Real> reals, List<Mutations.Mutation> mutations) {
        this.reals = reals;
        this.mutations = mutations;
    }

    /** Reads {@code dir/real/*.json} and {@code dir/mutations.jsonl}; a corpus without mutations makes them. */
    public static GroundingCorpus load(Path dir) throws IOException {
        Path realDir = dir.resolve("real");
        if (!Files.isDirectory(realDir)) {
            throw new IllegalArgumentException("No corpus at " + dir + ": expected " + realDir + " with trace files"
                    + " (*.json), as in bench/grounding.");
        }
        TraceStore store = new TraceStore(realDir);
        List<Real> reals = new ArrayList<>();
        try (Stream<Path> files = Files.list(realDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                reals.add(new Real(f.getFileName().toString(), store.load(f)));
            }
        }
        Path m = dir.resolve("mutations.jsonl");
        List<Mutations.Mutation> muts = new ArrayList<>();
        if (Files.exists(m)) {
            for (String line : Files.readAllLines(m)) {
                if (!line.isBlank()) {
                    muts.add(JSON.readValue(line, Mutations.Mutation.class));
                }
            }
        } else {
            reals.forEach(r -> muts.addAll(Mutations.of(r)));
        }
        return new GroundingCorpus(List.copyOf(reals), List.copyOf(muts));
    }

    public List<Real> reals() {
        return reals;
    }

    /** The mutations the generator makes from this corpus's real answers, one JSON object a line. */
    public String generatedMutations() throws IOException {
        StringBuilder b = new StringBuilder();
        for (Real r : reals) {
            for (Mutations.Mutation m : Mutations.of(r)) {
                b.append(JSON.writeValueAsString(m)).append('\n');
            }
        }
        return b.toString();
    }

    /** Checks every real answer and every mutation {@code rounds} times, after a round to warm up (untimed). */
    public Figures measure(int rounds) {
        Map<String, AgentRun> byName = new LinkedHashMap<>();
        reals.forEach(r -> byName.put(r.name(), r.run()));
        reals.forEach(r -> AnswerReplay.check(r.run()));
        mutations.forEach(m -> AnswerReplay.check(Mutations.apply(byName.get(m.trace()), m.answer())));
        List<String> alarms = new ArrayList<>();
        int derived = 0;
        int values = 0;
        double[] ms = new double[rounds * (reals.size() + mutations.size())];
        int t = 0;
        for (Real r : reals) {
            long t0 = System.nanoTime();
            AnswerCheck.Result res = AnswerReplay.check(r.run());
            ms[t++] = (System.nanoTime() - t0) / 1e6;
            if (!res.grounded()) {
                alarms.add(r.name() + ": " + res.unsupportedText());
            }
            derived += res.derived().size();
            values += res.unsupportedValues().size();
        }
        Map<String, int[]> byKind = new LinkedHashMap<>();
        List<String> missed = new ArrayList<>();
        int caught = 0;
        for (Mutations.Mutation m : mutations) {
            AgentRun run = Mutations.apply(byName.get(m.trace()), m.answer());
            long t0 = System.nanoTime();
            AnswerCheck.Result res = AnswerReplay.check(run);
            ms[t++] = (System.nanoTime() - t0) / 1e6;
            boolean hit = res.unsupported().stream().anyMatch(c -> c.at() < m.to() && c.at() + c.text().length() > m.from());
            int[] k = byKind.computeIfAbsent(m.kind(), x -> new int[2]);
            k[0]++;
            if (hit) {
                k[1]++;
                caught++;
            } else {
                missed.add(m.trace() + " [" + m.kind() + "] " + m.answer().substring(m.from(), m.to()));
            }
        }
        for (int round = 1; round < rounds; round++) {
            for (Real r : reals) {
                long t0 = System.nanoTime();
                AnswerReplay.check(r.run());
                ms[t++] = (System.nanoTime() - t0) / 1e6;
            }
            for (Mutations.Mutation m : mutations) {
                AgentRun run = Mutations.apply(byName.get(m.trace()), m.answer());
                long t0 = System.nanoTime();
                AnswerReplay.check(run);
                ms[t++] = (System.nanoTime() - t0) / 1e6;
            }
        }
        double[] done = Arrays.copyOf(ms, t);
        Arrays.sort(done);
        return new Figures(reals.size(), alarms, mutations.size(), caught, byKind, missed, derived, values,
                pct(done, 0.5), pct(done, 0.99));
    }

    public static void print(Path dir, Figures f, PrintWriter out) {
        out.printf(Locale.ROOT, "Corpus %s: %d real answers, %d mutated (one invented number each)%n", dir, f.real(),
                f.mutations());
        out.printf(Locale.ROOT, "false alarms: %d of %d real answers (%.1f%%)%n", f.falseAlarms().size(), f.real(),
                100 * f.falseAlarmRate());
        f.falseAlarms().forEach(a -> out.println("  false alarm  " + a));
        out.printf(Locale.ROOT, "caught: %d of %d invented numbers (%.1f%%)%n", f.caught(), f.mutations(),
                100 * f.catchRate());
        f.byKind().forEach((k, v) -> out.printf(Locale.ROOT, "  %-12s %d of %d%n", k, v[1], v[0]));
        f.missed().forEach(m -> out.println("  missed  " + m));
        out.printf(Locale.ROOT, "derived numbers in real answers: %d; quoted values found nowhere: %d%n", f.derived(),
                f.unsupportedValues());
        out.printf(Locale.ROOT, "check cost per answer (index + check, from the trace): p50 %.3f ms, p99 %.3f ms%n",
                f.p50(), f.p99());
        out.flush();
    }

    private static double pct(double[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.ceil(p * (sorted.length - 1))];
    }

    static List<Claim> numbers(AgentRun run) {
        return AnswerReplay.check(run).claims().stream().filter(Claim::numeric).toList();
    }
}
