package dev.sift.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Cold start as a user meets it: fresh processes of the launcher ({@code ./sift}), alternating a bare
 * {@code --help} with a one-shot offline {@code ask} on the demo data, so both see the same machine. Reports
 * the median wall time of each and their ratio (target: ask ≤ 1.8 × --help), with class data sharing on and off.
 */
public final class StartupBench {
    public static final String QUESTION = "How many loans are there?";
    public static final double TARGET_RATIO = 1.8;

    /** Medians in milliseconds. */
    public record Result(String mode, double helpMs, double askMs) {
        public double ratio() {
            return askMs / helpMs;
        }
    }

    private final Path launcher;
    private final int runs;

    public StartupBench(Path launcher, int runs) {
        if (!Files.isExecutable(launcher)) {
            throw new IllegalArgumentException("The launcher " + launcher + " is not there or not executable: run the"
                    + " startup bench from a checkout (./sift bench startup).");
        }
        this.launcher = launcher;
        this.runs = runs;
    }

    /** The {@code sift} launcher beside the folder that holds the running jar ({@code <checkout>/target/sift.jar}). */
    public static Path launcherOfThisJar() {
        try {
            Path jar = Path.of(StartupBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.toAbsolutePath().getParent().getParent().resolve("sift");
        } catch (Exception e) {
            throw new IllegalStateException("Cannot tell where the running jar is: " + e.getMessage(), e);
        }
    }

    public List<Result> run() throws IOException, InterruptedException {
        List<Result> out = new ArrayList<>();
        for (String cds : List.of("on", "off")) {
            time(List.of("ask", QUESTION), cds); // warm the file cache, build the archive and the demo if needed
            List<Double> help = new ArrayList<>();
            List<Double> ask = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                help.add(time(List.of("--help"), cds));
                ask.add(time(List.of("ask", QUESTION), cds));
            }
            out.add(new Result("class data sharing " + cds, median(help), median(ask)));
        }
        return out;
    }

    private double time(List<String> args, String cds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.put("SIFT_CDS", cds);
        env.put("SIFT_LLM_PROVIDER", "none"); // the offline planner: the bench measures start-up, not a model
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 120 s");
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue());
        }
        return ms;
    }

    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    public void print(List<Result> results, PrintWriter out) {
        out.printf("Startup bench: %d fresh processes each of '%s --help' and '%s ask \"%s\"' (offline, demo data)%n",
                runs, launcher.getFileName(), launcher.getFileName(), QUESTION);
        for (Result r : results) {
            out.printf(Locale.ROOT, "  %-22s --help %6.0f ms   ask %6.0f ms   ratio %.2f (target <= %.1f: %s)%n", r.mode(),
                    r.helpMs(), r.askMs(), r.ratio(), TARGET_RATIO, r.ratio() <= TARGET_RATIO ? "met" : "not met");
        }
        out.flush();
    }

}
