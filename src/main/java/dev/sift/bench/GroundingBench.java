package dev.sift.bench;

import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Grounding;
import dev.sift.text.Evidence;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What the deterministic answer check costs per answer: answers of 1 to 20 numbers (written in several
 * locales, rounded, as percentages; one in five invented) against 50 rows × 10 columns of evidence. Each
 * measurement indexes the evidence and checks the answer, as a run's end does. Seeded, so runs compare.
 */
public final class GroundingBench {
    public static final int ROWS = 50;
    public static final int COLUMNS = 10;
    public static final int[] SIZES = {1, 5, 10, 20};
    static final double TARGET_P99_MS = 2.0;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final int repeat;

    public GroundingBench(int repeat) {
        this.repeat = repeat;
    }

    /**
     * Per answer size: wall-clock p50/p99 and the thread's CPU time p50/p99 in milliseconds (on a shared,
     * loaded machine wall time mostly measures waiting for a core), and the share of claims found supported.
     */
    public record Row(int numbers, double p50, double p99, double cpuP50, double cpuP99, double supported) { }

    public List<Row> run() {
        Random rnd = new Random(13);
        Evidence evidence = evidence(rnd);
        List<String> texts = List.of("What are the loan figures per district?", evidence.sql());
        List<Row> rows = new ArrayList<>();
        for (int warm = 0; warm < 2000; warm++) {
            Grounding.CHECK_ONLY.check(answer(rnd, evidence, 1 + warm % 20), List.of(evidence), texts);
        }
        for (int n : SIZES) {
            double[] ms = new double[repeat];
            double[] cpu = new double[repeat];
            long claims = 0;
            long unsupported = 0;
            for (int i = 0; i < repeat; i++) {
                String answer = answer(rnd, evidence, n);
                long c0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                AnswerCheck.Result r = Grounding.CHECK_ONLY.check(answer, List.of(evidence), texts);
                ms[i] = (System.nanoTime() - t0) / 1e6;
                cpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                claims += r.claims().size();
                unsupported += r.unsupported().size();
            }
            rows.add(new Row(n, pct(ms, 0.5), pct(ms, 0.99), pct(cpu, 0.5), pct(cpu, 0.99),
                    claims == 0 ? 0 : 1 - (double) unsupported / claims));
        }
        return rows;
    }

    public void print(List<Row> rows, PrintWriter out) {
        out.printf("Answer check cost (%d answers per size, evidence %d rows × %d columns; index + check)%n", repeat,
                ROWS, COLUMNS);
        out.printf("%-8s %9s %9s %11s %11s %10s%n", "numbers", "p50 ms", "p99 ms", "cpu p50 ms", "cpu p99 ms",
                "supported");
        double worst = 0;
        double worstCpu = 0;
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-8d %9.3f %9.3f %11.3f %11.3f %9.0f%%%n", r.numbers(), r.p50(), r.p99(), r.cpuP50(),
                    r.cpuP99(), 100 * r.supported());
            worst = Math.max(worst, r.p99());
            worstCpu = Math.max(worstCpu, r.cpuP99());
        }
        out.printf(Locale.ROOT, "target p99 < %.0f ms: wall %s (worst p99 %.3f ms), cpu %s (worst p99 %.3f ms);"
                        + " load average %.1f on %d cores%n", TARGET_P99_MS, worst < TARGET_P99_MS ? "met" : "MISSED", worst,
                worstCpu < TARGET_P99_MS ? "met" : "MISSED", worstCpu,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                java.lang.Runtime.getRuntime().availableProcessors());
        out.flush();
    }

    private static double pct(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(p * (sorted.length - 1))];
    }

    /** Ten columns: ids, districts, counts, amounts, rates, dates and more numbers. */
    static Evidence evidence(Random rnd) {
        List<String> cols = List.of("district_id", "district", "loans", "amount", "avg_amount", "default_rate",
                "first_loan", "accounts", "balance", "share_pct");
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(List.of(i + 1, "District " + (char) ('A' + i % 26) + i, 20 + rnd.nextInt(900),
                    BigDecimal.valueOf(rnd.nextInt(90_000_000), 2), 100_000 + rnd.nextDouble() * 300_000,
                    rnd.nextDouble() * 0.3, LocalDate.of(1993, 1, 1).plusDays(rnd.nextInt(2000)),
                    (long) rnd.nextInt(5000), rnd.nextGaussian() * 50_000, rnd.nextDouble() * 100));
        }
        return new Evidence("SELECT * FROM district_loans ORDER BY district_id", cols, rows, ROWS, "district_loans");
    }

    /** An answer stating {@code n} numbers, most taken from the evidence and written as a person might. */
    static String answer(Random rnd, Evidence e, int n) {
        StringBuilder b = new StringBuilder("Here is what the results show.");
        for (int i = 0; i < n; i++) {
            List<Object> row = e.rows().get(rnd.nextInt(e.rows().size()));
            int col = 2 + rnd.nextInt(8);
            Object v = row.get(col);
            String stated;
            if (rnd.nextInt(5) == 0) {
                stated = String.format(Locale.ROOT, "%,d", 10_000 + rnd.nextInt(900_000));
            } else if (v instanceof LocalDate d) {
                stated = d.toString();
            } else {
                double x = ((Number) v).doubleValue();
                stated = switch (rnd.nextInt(4)) {
                    case 0 -> String.format(Locale.US, "%,.1f", x);
                    case 1 -> String.format(Locale.GERMANY, "%,.2f", x);
                    case 2 -> col == 5 ? String.format(Locale.ROOT, "%.1f%%", x * 100) : String.format(Locale.FRANCE, "%,.0f", x);
                    default -> new BigDecimal(x).setScale(2, RoundingMode.HALF_UP).toPlainString();
                };
            }
            b.append(" In ").append(row.get(1)).append(" the ").append(e.columns().get(col)).append(" is ").append(stated)
                    .append('.');
        }
        return b.toString();
    }
}
