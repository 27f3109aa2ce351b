package dev.sift.bench;

import dev.sift.bench.dab.DabStyleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "dab-style", description = {
        "Writes pkgdesk, a DataAgentBench-style dataset of our own (DuckDB, SQLite and a MongoDB dump) whose nine",
        "questions each need a skill plain SQL lacks (labelling, extracting, matching, a chi-square test, text lists,",
        "dates in words, decorated ids, a table family, a three-column join).",
        "  sift bench dab-style --out DIR [--seed S];  then: sift bench dab --root DIR --dataset pkgdesk"})
final class DabStyleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "the benchmark folder to write pkgdesk into")
    Path out;

    @Option(names = "--seed", defaultValue = "" + DabStyleSet.SEED, description = "the seed: the same seed gives the same"
            + " files (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        List<DabStyleSet.Question> questions = DabStyleSet.write(out, seed);
        for (int i = 0; i < questions.size(); i++) {
            DabStyleSet.Question q = questions.get(i);
            o.printf("query%d  %-18s %-34s %s%n", i + 1, q.id(), q.skill(), q.truth());
        }
        o.println("Wrote " + out.resolve(DabStyleSet.NAME) + "; run it: sift bench dab --root " + out + " --dataset "
                + DabStyleSet.NAME);
        o.flush();
        return 0;
    }
}
