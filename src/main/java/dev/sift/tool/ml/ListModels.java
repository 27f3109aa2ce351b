package dev.sift.tool.ml;

import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.List;
import java.util.Set;

/** The session's models with their target, source, features and headline metric; the selected one is marked. */
public final class ListModels implements Tool<ListModels.Args> {

    public record Args(@Arg(value = "only models of this target column", required = false) String target) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("list_models", "List the models trained in this session with their metrics;"
                + " the selected one (used by default) is marked.", Args.class, "models", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) {
        List<TrainedModel> models = ctx.models().all().stream()
                .filter(m -> args.target() == null || m.target().equalsIgnoreCase(args.target())).toList();
        if (models.isEmpty()) {
            return ToolResult.ok(ctx.models().all().isEmpty() ? "No models trained in this session yet: call train_model."
                    : "No model of target '" + args.target() + "'. Targets: " + String.join(", ",
                    ctx.models().all().stream().map(TrainedModel::target).distinct().toList()) + ".", List.of());
        }
        String selected = ctx.models().selected().map(TrainedModel::id).orElse("");
        StringBuilder b = new StringBuilder(models.size() + " model" + (models.size() == 1 ? "" : "s") + ":");
        for (TrainedModel m : models) {
            b.append('\n').append(m.id().equals(selected) ? "* " : "  ").append(m.line());
        }
        b.append("\n(* = selected, used when model is omitted)");
        return ToolResult.ok(b.toString(), models.stream().map(TrainModel::payload).toList());
    }
}
