package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerReplay;
import dev.sift.agent.TraceStore;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Claim;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code sift grounding check TRACE.json…}: the deterministic answer check again, on saved traces. */
@Command(name = "grounding", description = "The deterministic answer check on saved runs.",
        subcommands = GroundingCommand.Check.class)
public final class GroundingCommand implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Re-checks each trace's answer against the evidence it holds; exit 1 only when a trace cannot be read. */
    @Command(name = "check", description = "Re-run the answer check on saved traces ($SIFT_HOME/traces/*.json):"
            + " the verdict, each unsupported or derived claim, and totals.")
    static final class Check implements Callable<Integer> {
        private static final ObjectMapper JSON = new ObjectMapper();

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "TRACE.json", description = "saved traces")
        List<Path> traces;

        @Option(names = "--json", description = "one JSON object per trace and line: file, verdict, claims,"
                + " unsupported, unsupported_values, derived [{claim, formula}], recorded_unsupported")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            TraceStore store = new TraceStore(Path.of("."));
            int read = 0;
            int failed = 0;
            int unsupported = 0;
            int derived = 0;
            int values = 0;
            for (Path file : traces) {
                AgentRun run;
                try {
                    run = store.load(file);
                } catch (Exception e) {
                    failed++;
                    err.println("sift: error: " + file + " is not a readable trace: " + oneLine(e.getMessage()));
                    continue;
                }
                read++;
                AnswerCheck.Result r = AnswerReplay.check(run);
                unsupported += r.grounded() ? 0 : 1;
                derived += r.derived().size();
                values += r.unsupportedValues().size();
                if (json) {
                    out.println(json(file, run, r));
                } else {
                    text(file, r, out);
                }
            }
            if (!json) {
                out.printf("%d trace%s checked: %d with unsupported numbers, %d derived number%s, %d unsupported"
                        + " value%s%s%n", read, read == 1 ? "" : "s", unsupported, derived, derived == 1 ? "" : "s",
                        values, values == 1 ? "" : "s", failed == 0 ? "" : "; " + failed + " could not be read");
            }
            out.flush();
            return failed == 0 ? 0 : 1;
        }

        private static void text(Path file, AnswerCheck.Result r, PrintWriter out) {
            out.println(file + ": " + (r.grounded() ? "grounded" : "unsupported numbers") + " (" + r.claims().size()
                    + " claims)");
            r.unsupported().forEach(c -> out.println("  unsupported  " + c.text()));
            r.derived().forEach(d -> out.println("  derived      " + d.claim() + " = " + d.formula()));
            r.unsupportedValues().forEach(c -> out.println("  value not found  " + c.text()));
        }

        private static String json(Path file, AgentRun run, AnswerCheck.Result r) {
            ObjectNode o = JSON.createObjectNode();
            o.put("file", file.toString());
            o.put("verdict", r.grounded() ? "grounded" : "unsupported");
            o.put("claims", r.claims().size());
            ArrayNode u = o.putArray("unsupported");
            r.unsupported().stream().map(Claim::text).distinct().forEach(u::add);
            ArrayNode v = o.putArray("unsupported_values");
            r.unsupportedValues().stream().map(Claim::text).distinct().forEach(v::add);
            ArrayNode d = o.putArray("derived");
            r.derived().forEach(x -> d.addObject().put("claim", x.claim()).put("formula", x.formula()));
            o.set("recorded_unsupported", JSON.valueToTree(run.grounding().unsupported()));
            return o.toString();
        }

        private static String oneLine(String s) {
            return s == null ? "" : s.replaceAll("\\s+", " ");
        }
    }
}
