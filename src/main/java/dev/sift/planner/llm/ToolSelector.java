package dev.sift.planner.llm;

import dev.sift.agent.ToolsShown;
import dev.sift.knowledge.SearchIndex;
import dev.sift.tool.Arg;
import dev.sift.tool.ArgsBinder;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses which tools a model planner sees for a question: the core tools always, plus each {@link ToolGroups group}
 * whose phrases the question uses ("likely" shows the predictive chain, "correlated" correlation_analysis), whole;
 * a tool in no group (one added to the registry beside Sift's own) is found by its description (BM25 over name,
 * description and argument descriptions, the same {@link SearchIndex} as the knowledge graph). A simple lookup is
 * shown the core tools only. A catalogue of at most {@link #SMALL_CATALOGUE} tools is shown whole. Dispatch is
 * unaffected: any registered tool may still be called. The choice and its reasons go into the run's trace
 * ({@link ToolsShown}); {@code bench tools} measures how often a question's tools are shown.
 */
public final class ToolSelector {
    /** Tools every question may need; clarify is always offered because the reply rules name it. */
    public static final Set<String> CORE = Set.of("inspect_data", "sample_values", "run_sql", "query_kg", "show_frame",
            "clarify");
    /** At most this many tools: all shown. */
    public static final int SMALL_CATALOGUE = 8;
    /** Tools outside Sift's groups shown for one question in a large catalogue, found by their descriptions. */
    public static final int MAX_EXTRA = 4;

    private final ToolRegistry tools;
    private final SearchIndex index;
    private final ToolGroups groups;

    public ToolSelector(ToolRegistry tools) {
        this(tools, ToolGroups.load());
    }

    public ToolSelector(ToolRegistry tools, ToolGroups groups) {
        this.tools = tools;
        this.groups = groups;
        List<SearchIndex.Doc> docs = new ArrayList<>();
        for (Tool<?> t : tools.tools()) {
            if (!CORE.contains(t.spec().name()) && groups.groupOf(t.spec().name()).isEmpty()) {
                docs.add(doc(t));
            }
        }
        this.index = new SearchIndex(docs, null);
    }

    static SearchIndex.Doc doc(Tool<?> t) {
        StringBuilder text = new StringBuilder(t.spec().description()).append(' ').append(t.spec().returns());
        for (RecordComponent c : t.spec().args().getRecordComponents()) {
            Arg a = ArgsBinder.arg(c);
            text.append(' ').append(c.getName()).append(' ').append(a.value());
        }
        return new SearchIndex.Doc(t.spec().name(), "tool", t.spec().name() + " " + String.join(" ", t.spec().groups()),
                text.toString());
    }

    public ToolGroups groups() {
        return groups;
    }

    /** The tools to show for {@code question}, core first, then by relevance, each with its reason. */
    public ToolsShown select(String question) {
        return select(question, Map.of());
    }

    /**
     * As {@link #select(String)}, plus {@code required} tools (name → reason) the planner knows the question needs,
     * e.g. the flow of a prediction task the question triggers; names not registered are ignored.
     */
    public ToolsShown select(String question, Map<String, String> required) {
        Map<String, String> why = new LinkedHashMap<>();
        List<String> chosen = new ArrayList<>();
        required.forEach((name, reason) -> {
            if (tools.names().contains(name)) {
                why.put(name, reason);
                chosen.add(name);
            }
        });
        for (String name : tools.names()) {
            if (CORE.contains(name)) {
                why.putIfAbsent(name, "core tool");
            }
        }
        if (tools.names().size() <= SMALL_CATALOGUE) {
            for (String name : tools.names()) {
                why.putIfAbsent(name, "small catalogue (" + tools.names().size() + " tools): all shown");
            }
        } else {
            for (ToolGroups.Group g : groups.groups()) {
                g.wantedBy(question).ifPresent(phrase -> g.tools().stream().filter(tools.names()::contains).forEach(t -> {
                    why.putIfAbsent(t, "the question says '" + phrase + "' (group " + g.name() + ")");
                    chosen.add(t);
                }));
            }
            for (SearchIndex.Hit h : index.search(question, MAX_EXTRA)) {
                if (!h.matched().isEmpty()) {
                    why.putIfAbsent(h.doc().id(), "matched " + String.join(", ", h.matched().stream().map(w -> "'" + w
                            + "'").toList()) + (h.how().equals("bm25") ? "" : " (" + h.how() + ")"));
                    chosen.add(h.doc().id());
                }
            }
        }
        for (String m : chosen) { // a group is shown whole: predict never without train_model
            groups.groupOf(m).ifPresent(g -> groups.withGroup(m, tools.names())
                    .forEach(member -> why.putIfAbsent(member, "shown with " + m + " (group " + g.name() + ")")));
        }
        List<ToolsShown.Shown> shown = new ArrayList<>();
        for (String name : tools.names()) { // registry order keeps the prompt stable
            if (why.containsKey(name)) {
                shown.add(new ToolsShown.Shown(name, why.get(name)));
            }
        }
        List<String> hidden = tools.names().stream().filter(n -> !why.containsKey(n)).toList();
        return new ToolsShown(tools.names().size(), List.copyOf(shown), hidden);
    }
}
