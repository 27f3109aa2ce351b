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

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "also write a standalone HTML report of the answer (tables, charts, steps)")
    java.nio.file.Path report;

    @Override
    public Integer call() throws Exception {
        if (question.isBlank()) {
            throw new IllegalArgumentException("The question is empty: ask something, e.g. ./sift ask \"How many loans are there?\"");
        }
        AgentConfig config = AgentConfig.defaults().withMaxSteps(maxSteps);
        Sift sift = Runtime.sift();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        RunCharts charts = new RunCharts(StepListener.NONE);
        Sift.Answered a = sift.ask(question, ds, config, charts);
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
