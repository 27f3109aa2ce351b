package dev.sift.planner;

import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.FinalAnswers;
import dev.sift.agent.Planner;
import dev.sift.agent.RunState;
import dev.sift.agent.Step;
import dev.sift.agent.ToolsShown;
import dev.sift.agent.UnreadableReplyException;
import dev.sift.agent.Usage;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;
import dev.sift.llm.ToolCalling;
import dev.sift.llm.ToolDefinition;
import dev.sift.planner.llm.DecisionParser;
import dev.sift.planner.llm.NativeCalls;
import dev.sift.planner.llm.OlderObservations;
import dev.sift.planner.llm.PromptBuilder;
import dev.sift.planner.llm.ToolSelector;
import dev.sift.tool.ToolRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Asks a language model for one decision at a time: a JSON object, or a native tool call when the model calls
 * tools natively ({@link ToolCalling}; both are read into the same {@link Decision}, which the registry validates). The conversation is the system prompt, the
 * question, then each step's reply and observation. An unreadable reply gets one correction. The system
 * prompt shows the tools {@link ToolSelector} picks for the question and the knowledge relevant to it; it is
 * built once when a run begins, so frames made in earlier runs show up.
 */
public final class LlmPlanner implements Planner {
    static final int MAX_TOKENS = 1500;
    static final String CORRECTION = "Your last reply could not be used: %s Reply again with exactly one JSON"
            + " object: {\"thought\": \"…\", \"tool\": \"…\", \"args\": {…}} or {\"thought\": \"…\", \"final_answer\": \"…\"}.";
    static final String FORCE_FINAL = "The step budget is spent: no more tool calls. Reply now with"
            + " {\"thought\": \"…\", \"final_answer\": \"…\"} using only the results above, and say what is missing.";
    static final String NATIVE_CORRECTION = "Your last reply could not be used: %s";
    static final String NATIVE_FORCE_FINAL = "The step budget is spent: no more tool calls. Call final_answer now,"
            + " using only the results above, and say what is missing.";

    private final LlmClient llm;
    private final ToolCalling calling;
    /** The selector for the registry last planned with: it indexes the tool descriptions once, not per run. */
    private volatile Selector selector;

    private record Selector(ToolRegistry tools, ToolSelector select) { }

    /** A planner whose model replies with JSON objects. */
    public LlmPlanner(LlmClient llm) {
        this(llm, ToolCalling.JSON);
    }

    /** A planner whose model calls tools {@code calling}: JSON replies or the provider's native tool calling. */
    public LlmPlanner(LlmClient llm, ToolCalling calling) {
        this.llm = llm;
        this.calling = calling;
    }

    @Override
    public String name() {
        return llm.label(); // the provider and model: runs and answers never carry the endpoint's address
    }

    @Override
    public boolean offline() {
        return false;
    }

    @Override
    public Planner.Run begin(RunState state) {
        Selector s = selector;
        if (s == null || s.tools() != state.tools()) {
            s = new Selector(state.tools(), new ToolSelector(state.tools()));
            selector = s;
        }
        Map<String, String> required = new java.util.LinkedHashMap<>(PromptBuilder.taskTools(state.knowledge(),
                state.question()));
        if (!dev.sift.data.TableFamilies.of(state.workspace().datasetTables()).isEmpty()) {
            required.put("union_family", "the dataset has families of same-shape tables");
        }
        ToolsShown shown = s.select().select(state.question(), required);
        return new Conversation(state, shown);
    }

    private PromptBuilder.Prompt prompt(RunState state, ToolsShown shown) {
        return PromptBuilder.prompt(state.workspace(), state.knowledge(), PromptBuilder.shownTools(state.tools(), shown),
                state.question(), calling);
    }

    /**
     * One run's conversation with the model: its tool choice is fixed when it begins, and so is its system prompt
     * unless the run switches the session to another dataset ({@code connect_source}): then the schema shown is the
     * new dataset's.
     */
    private final class Conversation implements Planner.Run {
        private final ToolsShown shown;
        private PromptBuilder.Prompt prompt;
        private dev.sift.data.Dataset dataset;
        /** The tool definitions sent with every request when tools are called natively; empty for JSON replies. */
        private final List<ToolDefinition> definitions;
        private final Set<String> offered;
        /** The tokens spent so far. */
        private Usage spent = Usage.NONE;

        Conversation(RunState state, ToolsShown shown) {
            this.shown = shown;
            this.dataset = state.workspace().dataset();
            this.prompt = prompt(state, shown);
            this.definitions = calling == ToolCalling.NATIVE
                    ? NativeCalls.definitions(PromptBuilder.shownTools(state.tools(), shown)) : List.of();
            this.offered = definitions.stream().map(ToolDefinition::name).collect(Collectors.toSet());
        }

        private boolean nativeCalls() {
            return !definitions.isEmpty();
        }

        @Override
        public Decision next(RunState state) throws LlmException, UnreadableReplyException {
            return ask(messages(state));
        }

        @Override
        public Decision.Answer forceFinal(RunState state) throws LlmException, UnreadableReplyException {
            List<LlmMessage> messages = messages(state);
            messages.add(LlmMessage.user(nativeCalls() ? NATIVE_FORCE_FINAL : FORCE_FINAL));
            Decision d = ask(messages);
            return d instanceof Decision.Answer a ? a
                    : Decision.answer(d.thought(), FinalAnswers.noFinalFromModel(), AnswerKind.ERROR, d.raw());
        }

        @Override
        public Usage usage() {
            return spent;
        }

        @Override
        public Optional<ToolsShown> toolsShown() {
            return Optional.of(shown);
        }

        @Override
        public List<String> reference() {
            return PromptBuilder.shownData(prompt.whole());
        }

        private Decision ask(List<LlmMessage> messages) throws LlmException, UnreadableReplyException {
            LlmResponse reply = complete(messages);
            try {
                return read(reply);
            } catch (UnreadableReplyException first) {
                messages.add(LlmMessage.assistant(nativeCalls() ? NativeCalls.asText(reply) : reply.text()));
                messages.add(LlmMessage.user(String.format(nativeCalls() ? NATIVE_CORRECTION : CORRECTION,
                        first.getMessage())));
                return read(complete(messages));
            }
        }

        private Decision read(LlmResponse reply) throws UnreadableReplyException {
            return nativeCalls() ? NativeCalls.read(reply) : DecisionParser.parse(reply.text());
        }

        private LlmResponse complete(List<LlmMessage> messages) throws LlmException {
            LlmResponse r = llm.complete(new LlmRequest(messages, 0.0, MAX_TOKENS, false, definitions));
            spent = spent.plus(r.inputTokens(), r.outputTokens(), r.cachedTokens());
            return r;
        }

        private List<LlmMessage> messages(RunState state) {
            if (state.workspace().dataset() != dataset) {
                dataset = state.workspace().dataset();
                prompt = prompt(state, shown);
            }
            // the stable part first, as the system message; the question's part opens the first user message
            List<LlmMessage> messages = new ArrayList<>();
            messages.add(LlmMessage.system(prompt.stable()));
            messages.add(LlmMessage.user(prompt.question() + "\n\n" + (state.context().isEmpty() ? "" : state.context().render()
                    + "\n") + "Question: " + state.question()));
            List<Step> steps = state.steps();
            for (int i = 0; i < steps.size(); i++) {
                Step s = steps.get(i);
                String observation = OlderObservations.as(s.observation(), i, steps.size());
                if (nativeCalls()) {
                    NativeCalls.replay(s, observation, offered, messages);
                } else {
                    messages.add(LlmMessage.assistant(s.raw() == null ? "{}" : s.raw()));
                    messages.add(LlmMessage.user("Observation: " + observation));
                }
            }
            return messages;
        }
    }
}
