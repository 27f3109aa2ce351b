package dev.sift.tool.ml;

import dev.sift.ml.ModelStore;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.List;
import java.util.Set;

/** The dataset's models (this session's and saved ones) with target, source, features and headline metric; the selected one is marked. */
public final class ListModels implements Tool<ListModels.Args> {

    public record Args(@Arg(value = "only models of this target column", required = false) String target) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("list_models", "List the models of this dataset, trained in this session or saved by"
                + " earlier ones (under $SIFT_HOME/models), with their metrics; the selected one (used by default) is"
                + " marked. A saved model whose files are damaged is listed as such and cannot be used.", Args.class,
                "models", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) {
        List<TrainedModel> all = ctx.models().all();
        List<TrainedModel> models = all.stream()
                .filter(m -> args.target() == null || m.target().equalsIgnoreCase(args.target())).toList();
        List<ModelStore.Entry> damaged = ctx.models().saved().stream().filter(e -> !e.usable()).toList();
        if (models.isEmpty()) {
            String none = all.isEmpty() ? "No models trained or saved for this dataset yet: call train_model."
                    : "No model of target '" + args.target() + "'. Targets: " + String.join(", ",
                    all.stream().map(TrainedModel::target).distinct().toList()) + ".";
            return ToolResult.ok(none + damaged(damaged), List.of());
        }
        String selected = ctx.models().selected().map(TrainedModel::id).orElse("");
        StringBuilder b = new StringBuilder(models.size() + " model" + (models.size() == 1 ? "" : "s") + ":");
        for (TrainedModel m : models) {
            b.append('\n').append(m.id().equals(selected) ? "* " : "  ").append(m.line());
            ctx.models().card(m.id()).ifPresent(c -> b.append(", saved ").append(c.createdAt()));
            ctx.models().stale(m).ifPresent(w -> b.append(" (trained on another build of the dataset)"));
        }
        b.append("\n(* = selected, used when model is omitted").append(selected.isEmpty()
                ? "; none is selected yet: select_model(model=<id>) picks a saved one)" : ")").append(damaged(damaged));
        return ToolResult.ok(b.toString(), models.stream().map(TrainModel::payload).toList());
    }

    private static String damaged(List<ModelStore.Entry> damaged) {
        StringBuilder b = new StringBuilder();
        for (ModelStore.Entry e : damaged) {
            b.append("\nDamaged, not used: ").append(e.id()).append(": ").append(e.problem()).append('.');
        }
        return b.toString();
    }
}
