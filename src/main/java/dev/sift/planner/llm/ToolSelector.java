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
 * Chooses which tools a model planner sees for a question: the core tools always, plus the tools whose
 * descriptions match the question (BM25 over name, description, argument descriptions and groups, the same
 * {@link SearchIndex} as the knowledge graph), each with the rest of its {@link ToolGroups group}. A catalogue of at most {@link #SMALL_CATALOGUE} tools is shown
 * whole. Dispatch is unaffected: any registered tool may still be called. The choice and its reasons go into
 * the run's trace ({@link ToolsShown}).
 */
public final class ToolSelector {
    /** Tools every question may need. */
    public static final Set<String> CORE = Set.of("inspect_data", "sample_values", "run_sql", "query_kg", "show_frame");
    /** At most this many tools: all shown. */
    public static final int SMALL_CATALOGUE = 8;
    /** Non-core tools shown for one question in a large catalogue. */
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
            if (!CORE.contains(t.spec().name())) {
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
