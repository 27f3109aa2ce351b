package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelCard;
import dev.sift.ml.ModelRegistry;
import dev.sift.ml.ModelStore;
import dev.sift.ml.TrainedModel;
import dev.sift.text.ResultText;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code sift models list|show|score|rm}: the models saved under {@code $SIFT_HOME/models}. */
@Command(name = "models", description = "List, show, score with and remove the models saved under $SIFT_HOME/models.",
        subcommands = {ModelsCommand.ListModels.class, ModelsCommand.Show.class, ModelsCommand.Score.class,
                ModelsCommand.Remove.class})
final class ModelsCommand implements Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static ModelStore store() {
        Sift sift = Runtime.offline();
        return sift.models();
    }

    @Command(name = "list", description = "List the saved models (of one dataset with --dataset), damaged ones marked.")
    static final class ListModels implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--dataset", description = "only this dataset's models")
        String dataset;

        @Override
        public Integer call() {
            ModelStore store = store();
            PrintWriter out = spec.commandLine().getOut();
            List<String> datasets = dataset == null ? store.datasets() : List.of(dataset);
            boolean any = false;
            for (String ds : datasets) {
                List<ModelStore.Entry> entries = store.list(ds);
                if (entries.isEmpty()) {
                    continue;
                }
                any = true;
                out.println(ds + ":");
                for (ModelStore.Entry e : entries) {
                    out.println("  " + line(e));
                }
            }
            if (!any) {
                out.println("No saved models" + (dataset == null ? "" : " for dataset '" + dataset + "'") + " in "
                        + store.root() + ". A model is saved whenever one is trained ('./sift ask' with a predictive question).");
            }
            out.flush();
            return 0;
        }

        static String line(ModelStore.Entry e) {
            if (!e.usable()) {
                return e.id() + "  damaged, not used: " + e.problem();
            }
            ModelCard c = e.card();
            return e.id() + "  " + c.task() + " of " + c.target() + " on " + c.source() + ", " + c.features().size()
                    + " columns, " + (c.evaluation() == null ? "no cross-validated metrics" : c.evaluation().headline())
                    + ", saved " + c.createdAt();
        }
    }

    @Command(name = "show", description = "Print a saved model's card (JSON); a damaged model is one error.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        ModelRef ref = new ModelRef();

        @Override
        public Integer call() throws Exception {
            ModelStore.Loaded l = load(store(), ref.dataset, ref.id);
            PrintWriter out = spec.commandLine().getOut();
            out.println(new String(l.card().toJson(), java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
            return 0;
        }
    }

    @Command(name = "score", description = "Score rows with a saved model: a table (--table) or a query (--sql), or,"
            + " for a model of a knowledge-graph prediction task, that task's rows to score. Prints the scores, highest first.")
    static final class Score implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        ModelRef ref = new ModelRef();

        @Option(names = "--table", description = "table to score (it needs the model's columns)")
        String table;

        @Option(names = "--sql", description = "SELECT giving the rows to score (with the model's columns)")
        String sql;

        @Option(names = "--max-rows", defaultValue = "20", description = "rows to print at most (default: ${DEFAULT-VALUE})")
        int maxRows;

        @Override
        public Integer call() throws Exception {
            if (table != null && sql != null) {
                throw new IllegalArgumentException("Give --table or --sql, not both.");
            }
            Sift sift = Runtime.offline();
            Dataset ds = sift.dataset(ref.dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + ref.dataset + "'"));
            load(sift.models(), ref.dataset, ref.id); // one clear error for a damaged model, before any work
            try (Workspace ws = sift.open(ds)) {
                ModelRegistry models = sift.models(ws);
                TrainedModel m = models.select(ref.id);
                ToolRegistry tools = sift.tools();
                ToolContext ctx = new ToolContext(ws, null, "score with " + ref.id, models, sift.knowledge().lazy(ws));
                String source = source(tools, ctx, models.card(m.id()).orElseThrow());
                ToolResult r = run(tools, ctx, "predict", JSON.createObjectNode().put("source", source).put("model", m.id()));
                models.stale(m).ifPresent(w -> spec.commandLine().getErr().println("sift: " + w));
                QueryResult rows = ws.trustedQuery("SELECT * FROM frames.predictions ORDER BY "
                        + (m.positiveClass() == null ? "prediction" : "probability") + " DESC LIMIT " + maxRows, maxRows);
                PrintWriter out = spec.commandLine().getOut();
                out.println(r.summary().lines().findFirst().orElse(""));
                out.println(ResultText.render(rows, maxRows));
                out.flush();
            }
            return 0;
        }

        private String source(ToolRegistry tools, ToolContext ctx, ModelCard card) throws Exception {
            if (table != null) {
                return table;
            }
            if (sql != null) {
                ctx.workspace().saveFrame("rows_to_score", sql);
                return "rows_to_score";
            }
            if (card.predictionTask() == null) {
                throw new IllegalArgumentException("Model " + card.id() + " was trained on " + card.source() + ", not on a"
                        + " prediction task's frames: name the rows to score with --table or --sql.");
            }
            run(tools, ctx, "prediction_frames", JSON.createObjectNode().put("task", card.predictionTask()));
            return card.predictionTask() + "_current";
        }

        private static ToolResult run(ToolRegistry tools, ToolContext ctx, String tool, ObjectNode args) throws Exception {
            ToolResult r = tools.run(tools.prepare(tool, args, ctx.workspace()), ctx);
            if (!r.ok()) {
                throw new IllegalArgumentException(r.error());
            }
            return r;
        }
    }

    @Command(name = "rm", description = "Remove a saved model (a damaged one too).")
    static final class Remove implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        ModelRef ref = new ModelRef();

        @Override
        public Integer call() throws Exception {
            ModelStore store = store();
            boolean removed;
            try {
                removed = store.remove(ref.dataset, ref.id);
            } catch (MlException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            if (!removed) {
                throw new IllegalArgumentException("No saved model '" + ref.id + "' for dataset '" + ref.dataset + "'. Saved models: "
                        + ModelStore.describe(store.list(ref.dataset)) + ".");
            }
            spec.commandLine().getOut().println("Removed model " + ref.id + " of dataset '" + ref.dataset + "'.");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** A saved model named on the command line: its id and its dataset (shared by show, score and rm). */
    static final class ModelRef {
        @Parameters(index = "0", paramLabel = "ID", description = "model id, e.g. m1")
        String id;

        @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset name (default: ${DEFAULT-VALUE})")
        String dataset;
    }

    static ModelStore.Loaded load(ModelStore store, String dataset, String id) {
        try {
            return store.load(dataset, id);
        } catch (MlException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
