package dev.sift.tool.ml;

import dev.sift.ml.MlException;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.Set;

/** Makes a model the session's default for predict and explain_prediction. */
public final class SelectModel implements Tool<SelectModel.Args> {

    public record Args(@Arg(value = "model id, e.g. m2", aliases = {"model_id", "id"}) String model) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("select_model", "Select the model that later predictions and explanations use by default:"
                + " one trained in this session or one saved for this dataset by an earlier session (list_models shows"
                + " them).", Args.class, "selected model", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws MlException {
        TrainedModel m = ctx.models().select(args.model());
        return ToolResult.ok("Selected " + m.line() + "." + ctx.models().stale(m).map(w -> " " + w).orElse(""),
                TrainModel.payload(m), ToolResult.withCaveat(java.util.Map.of("model", m.id()), ctx.models().caveat(m)));
    }
}
