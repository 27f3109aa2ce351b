package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.bench.datagen.Datagen;
import dev.sift.cli.Runtime;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "datagen", description = {
        "Writes a question suite generated from a dataset: questions from templates filled with the data's own values,",
        "each with a gold query run on the data, three or four wordings each, follow-up conversations and predictive items.",
        "  sift bench datagen --dataset NAME --out FILE.yaml [--n N] [--seed S] [--round-trip];",
        "  then: sift bench run --suite FILE.yaml"})
final class DatagenCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dataset", required = true, description = "the dataset to generate questions for")
    String dataset;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the suite file to write (YAML)")
    Path out;

    @Option(names = "--n", defaultValue = "120", description = "about how many scored questions (default: ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--seed", defaultValue = "7", description = "the seed: the same seed gives the same file (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--round-trip", description = "keep only questions the configured model answers with every value"
            + " of their gold result when given that result alone (one model call per kept question)")
    boolean roundTrip;

    @picocli.CommandLine.Mixin
    dev.sift.cli.KgFileOption kg = new dev.sift.cli.KgFileOption();

    @Override
    public Integer call() throws Exception {
        Datagen.Options options = new Datagen.Options(n, seed);
        PrintWriter o = spec.commandLine().getOut();
        Sift sift = Runtime.sift();
        kg.apply(sift, dataset);
        Dataset ds = SuiteRun.dataset(sift, dataset, spec.commandLine().getErr()).orElseThrow(() ->
                new IllegalArgumentException("no dataset '" + dataset + "' in " + sift.store().root()
                        + "; build it first (./sift load " + dataset + " FILE…) or list them with ./sift datasets"));
        LlmClient model = roundTrip ? sift.llm().orElseThrow(() -> new IllegalArgumentException("--round-trip asks a"
                + " model to answer each question from its gold result, but no model is configured: configure one"
                + " (docs/configuration.md) or leave --round-trip out")) : null;
        Datagen.Result r;
        try (Workspace ws = sift.open(ds)) {
            r = new Datagen(ws, sift.knowledge().of(ws).graph(), model).generate(options);
        } catch (LlmException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("sift: error: the round-trip model (" + model.label() + ") failed, so " + out + " was not written: "
                    + e.getMessage());
            err.flush();
            return 1;
        }
        r.suite().write(out);
        o.printf("Wrote %s: %d scored questions (%d items, %d conversations with %d turns) on dataset %s (fingerprint %s)%n",
                out, r.suite().size(), r.suite().items().size(), r.suite().conversations().size(), r.suite().turns(),
                ds.name(), ds.fingerprint());
        o.println("  template         kept dropped" + (roundTrip ? " unread" : ""));
        for (Map.Entry<String, Integer> e : r.kept().entrySet()) {
            o.printf("  %-16s %4d %7d%s%n", e.getKey(), e.getValue(), r.dropped().getOrDefault(e.getKey(), 0),
                    roundTrip ? String.format("%7d", r.unread().getOrDefault(e.getKey(), 0)) : "");
        }
        o.println("Run it: ./sift bench run --suite " + out);
        o.flush();
        return 0;
    }
}
