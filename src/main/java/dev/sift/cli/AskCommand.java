package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.RunCharts;
import dev.sift.agent.RunJson;
import dev.sift.agent.StepListener;
import dev.sift.data.Dataset;
import dev.sift.text.Evidence;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

@Command(name = "ask", description = "Answer one question about a dataset.")
final class AskCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "QUESTION", description = "the question, in plain words")
    String question;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset name (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--json", description = "print one JSON object (answer, kind, status, evidence, steps, notes, run_id, trace, charts)")
    boolean json;

    @Option(names = "--max-steps", defaultValue = "12", description = "step budget (default: ${DEFAULT-VALUE})")
    int maxSteps;

    @Option(names = "--max-rows", paramLabel = "N", defaultValue = "" + dev.sift.text.Evidence.MAX_ROWS,
            description = "rows of each evidence in --json and --report (default: ${DEFAULT-VALUE}; 0 = all rows);"
                    + " evidence[].truncated says when rows were left out")
    int maxRows;

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "also write a standalone HTML report of the answer (tables, charts, steps)")
    java.nio.file.Path report;

    @picocli.CommandLine.Mixin
    KgFileOption kg = new KgFileOption();

    @Option(names = "--save", description = "the answer is right: save the question and its SQL as a verified example in"
            + " the dataset's knowledge file (the offline planner reuses it, a model sees it as an example)")
    boolean save;

    @Override
    public Integer call() throws Exception {
        if (question.isBlank()) {
            throw new IllegalArgumentException("The question is empty: ask something, e.g. ./sift ask \"How many loans are there?\"");
        }
        if (maxRows < 0) {
            throw new IllegalArgumentException("--max-rows " + maxRows + " is negative: give a number of rows, or 0 for all");
        }
        AgentConfig config = AgentConfig.defaults().withMaxSteps(maxSteps).withEvidenceRows(maxRows);
        Sift sift = Runtime.sift();
        kg.apply(sift, dataset);
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        ConsoleProgress progress = new ConsoleProgress(spec.commandLine().getErr(), "Running");
        RunCharts charts = new RunCharts(new StepListener() {
            @Override
            public void onStep(dev.sift.agent.Step step, dev.sift.tool.ToolResult result) { }

            @Override
            public void progress(String stage, long done, long total) {
                progress.report(stage, done, total);
            }
        });
        Sift.Answered a = sift.ask(question, ds, config, charts);
        sift.lastDataset().used(ds.name());
        PrintWriter out = spec.commandLine().getOut();
        var j = RunJson.of(a.run(), a.trace());
        j.set("charts", new ObjectMapper().valueToTree(charts.of(a.run())));
        if (report != null) {
            var r = j.deepCopy();
            r.put("question", question);
            java.nio.file.Files.writeString(report, dev.sift.web.Report.html(r));
        }
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(j));
        } else {
            print(out, a);
        }
        if (save) {
            java.nio.file.Path file = sift.saveExample(ds, question, a.run());
            spec.commandLine().getErr().println("Saved as a verified example in " + file);
        }
        out.flush();
        return a.run().kind() == AnswerKind.ERROR ? 1 : 0;
    }

    private static void print(PrintWriter out, Sift.Answered a) {
        var run = a.run();
        out.println(dev.sift.text.SafeText.terminal(run.answer()));
        for (Evidence e : run.evidence()) {
            out.println();
            out.println("Evidence: " + e.sql());
            out.println("  " + e.rowCount() + (e.rowCount() == 1 ? " row" : " rows")
                    + (e.frame() == null ? "" : ", saved as frames." + e.frame()));
        }
        if (!run.notes().isEmpty()) {
            out.println();
            out.println("Notes:");
            run.notes().forEach(n -> out.println("  - " + dev.sift.text.SafeText.terminal(n)));
        }
        out.println();
        out.printf("[%s · status %s · planner %s · %d steps · %d ms · trace %s]%n", run.kind().wire(),
                run.status().wire(), run.planner(), run.steps().size(), run.millis(), a.trace());
    }
}
