package dev.sift.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.FixableException;
import dev.sift.data.Names;
import dev.sift.data.EngineUnreachableException;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.text.Shorten;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The closed set of tools a planner may call. Every spec is checked when the registry is built (unique
 * snake_case names, a description, an argument record whose every component is described and of a
 * supported type), so a broken tool fails at start-up, not on its first call.
 */
public final class ToolRegistry {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
    /** Default cap on the summary the planner sees (about 300 tokens); the payload keeps everything. */
    public static final int SUMMARY_CHARS = 1200;

    /** A call that bound and validated: ready to run. */
    public record PreparedCall(Tool<Record> tool, Record args) {
        public String name() {
            return tool.spec().name();
        }
    }

    /** What became of a planner's call: it could not be made (the reason, for the planner), or it ran. */
    public sealed interface Outcome {
        /** The call does not bind or validate against the live schema; nothing ran. */
        record Invalid(String error) implements Outcome { }

        /** The call ran; a failure the planner can fix is an error result. */
        record Ran(ToolResult result) implements Outcome { }
    }

    private final Map<String, Tool<Record>> tools = new LinkedHashMap<>();
    /** Each tool's argument binder, made on the tool's first call (its record's reflection once, not per call). */
    private final Map<String, ArgsBinder> binders = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    public ToolRegistry(Collection<? extends Tool<?>> all) {
        for (Tool<?> t : all) {
            ToolSpec spec = t.spec();
            checkSpec(spec);
            if (tools.put(spec.name(), (Tool<Record>) t) != null) {
                throw new IllegalStateException("Two tools are named '" + spec.name() + "'");
            }
        }
    }

    private static void checkSpec(ToolSpec spec) {
        if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
            throw new IllegalStateException("Tool name '" + spec.name() + "' is not snake_case");
        }
        if (spec.description() == null || spec.description().isBlank()) {
            throw new IllegalStateException("Tool " + spec.name() + " has no description");
        }
        if (spec.args() == null || !spec.args().isRecord()) {
            throw new IllegalStateException("Tool " + spec.name() + " needs a record of arguments");
        }
        int sources = 0;
        boolean columns = false;
        for (RecordComponent c : spec.args().getRecordComponents()) {
            Arg a = ArgsBinder.arg(c);
            ArgsBinder.typeName(c); // throws for an unsupported type
            if (a.value().isBlank()) {
                throw new IllegalStateException("Argument " + c.getName() + " of " + spec.name() + " has no description");
            }
            sources += a.kind() == Arg.Kind.SOURCE ? 1 : 0;
            columns |= a.kind() == Arg.Kind.COLUMN || a.kind() == Arg.Kind.COLUMNS;
        }
        if (sources > 1 || (columns && sources == 0)) {
            throw new IllegalStateException("Tool " + spec.name() + " must have one SOURCE argument for its columns");
        }
        JsonSchemas.of(spec.args()); // the schema must be derivable
    }

    public List<Tool<Record>> tools() {
        return List.copyOf(tools.values());
    }

    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    /**
     * Binds, validates and runs a planner's call: the one place where what a tool or a check throws for the planner
     * becomes what the planner sees.
     */
    public Outcome call(String name, JsonNode args, ToolContext ctx) throws InterruptedException {
        PreparedCall prepared;
        try {
            prepared = prepare(name, args, ctx.workspace());
        } catch (ToolCallException e) {
            return new Outcome.Invalid(e.getMessage());
        }
        return new Outcome.Ran(run(prepared, ctx));
    }

    /** Binds and validates a planner's call against the live schema; the exception text is for the planner. */
    public PreparedCall prepare(String name, JsonNode args, Workspace ws) throws ToolCallException {
        Tool<Record> tool = tools.get(name);
        if (tool == null) {
            throw new ToolCallException("Unknown tool '" + name + "'. Available tools: " + String.join(", ", tools.keySet())
                    + "." + Names.didYouMean(String.valueOf(name), tools.keySet()));
        }
        ArgsBinder binder = binders.computeIfAbsent(name, n -> new ArgsBinder(tool.spec()));
        Record bound = binder.bind(args);
        validate(binder, bound, ws);
        return new PreparedCall(tool, bound);
    }

    private static void validate(ArgsBinder binder, Record args, Workspace ws) throws ToolCallException {
        TableInfo source = null;
        for (int i = 0; i < binder.size(); i++) {
            if (binder.arg(i).kind() == Arg.Kind.SOURCE && binder.value(args, i) instanceof String s) {
                source = ws.table(s).orElseThrow(() -> new ToolCallException(unknownSource(s, ws)));
            }
        }
        for (int i = 0; i < binder.size(); i++) {
            Object v = binder.value(args, i);
            if (v == null) {
                continue;
            }
            switch (binder.arg(i).kind()) {
                case COLUMN -> checkColumn(source, (String) v);
                case COLUMNS -> {
                    for (Object col : (List<?>) v) {
                        checkColumn(source, (String) col);
                    }
                }
                case SQL -> {
                    try {
                        ws.check((String) v);
                    } catch (QueryException e) {
                        EngineUnreachableException.throwIfUnreachable(e, () -> ws.dataset().name());
                        throw new ToolCallException(e.getMessage());
                    }
                }
                default -> { }
            }
        }
    }

    private static void checkColumn(TableInfo source, String column) throws ToolCallException {
        if (source == null) {
            throw new ToolCallException("Column '" + column + "' was given without a source table: name the table too.");
        }
        if (source.column(column).isEmpty()) {
            String kind = source.kind() == TableInfo.Kind.FRAME ? "Frame " : "Table ";
            throw new ToolCallException(kind + source.name() + " has no column '" + column + "'. " + kind + source.name()
                    + " has columns: " + String.join(", ", source.columnNames()) + "."
                    + Names.didYouMean(column, source.columnNames()));
        }
    }

    static String unknownSource(String name, Workspace ws) {
        List<String> tables = new ArrayList<>();
        List<String> frames = new ArrayList<>();
        for (TableInfo t : ws.tables()) {
            (t.kind() == TableInfo.Kind.FRAME ? frames : tables).add(t.name());
        }
        List<String> all = new ArrayList<>(tables);
        all.addAll(frames);
        return "Unknown source '" + name + "'. Tables: " + String.join(", ", tables) + ". Frames: "
                + (frames.isEmpty() ? "none yet (run_sql with a label makes one)" : String.join(", ", frames)) + "."
                + Names.didYouMean(name, all);
    }

    static Object value(RecordComponent c, Record r) {
        try {
            c.getAccessor().setAccessible(true);
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs a prepared call; the summary is capped keeping its structure ({@link Shorten}). A failure the planner can fix ({@link FixableException})
     * becomes an error result; any other exception from a tool is a bug of ours and propagates.
     */
    public ToolResult run(PreparedCall call, ToolContext ctx) throws InterruptedException {
        ToolResult r = runTool(call.tool(), call.args(), ctx);
        if (r == null) {
            throw new IllegalStateException("Tool " + call.name() + " returned no result");
        }
        String summary = r.summary() == null ? "" : r.summary();
        int cap = call.tool().summaryCap();
        return summary.length() <= cap ? r : new ToolResult(r.ok(), Shorten.fit(summary, cap), r.payload(), r.error(),
                r.meta());
    }

    /** Whether a tool runs SQL the planner wrote (an SQL argument): then every query problem is the planner's to fix. */
    private static boolean runsPlannersSql(ToolSpec spec) {
        for (RecordComponent c : spec.args().getRecordComponents()) {
            if (ArgsBinder.arg(c).kind() == Arg.Kind.SQL) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a tool: the one place where a planner-fixable failure becomes an error result (see {@link #run}).
     * Tools that compose others call them through here.
     */
    public static <A extends Record> ToolResult runTool(Tool<A> tool, A args, ToolContext ctx) throws InterruptedException {
        try {
            EngineSample<A> sample = tool.computesLocally() ? EngineSample.of(tool, args, ctx.workspace()) : null;
            if (sample == null) {
                return tool.run(args, ctx);
            }
            ToolResult r = tool.run(sample.args(), ctx);
            return r.ok() ? r.noted(sample.note()) : r;
        } catch (FixableException e) {
            EngineUnreachableException.throwIfUnreachable(e, () -> ctx.workspace().dataset().name());
            if (!e.fixable() && !(e instanceof QueryException && runsPlannersSql(tool.spec()))) {
                throw new IllegalStateException("Tool " + tool.spec().name() + " failed: " + e.getMessage(), e);
            }
            return ToolResult.error(e.getMessage());
        }
    }
}
