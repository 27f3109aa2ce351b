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
import dev.sift.planner.llm.DecisionParser;
import dev.sift.planner.llm.PromptBuilder;
import dev.sift.planner.llm.ToolSelector;
import dev.sift.tool.ToolRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Asks a language model for one JSON decision at a time. The conversation is the system prompt, the
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

    private final LlmClient llm;
    /** The selector for the registry last planned with: it indexes the tool descriptions once, not per run. */
    private volatile Selector selector;

    private record Selector(ToolRegistry tools, ToolSelector select) { }

    public LlmPlanner(LlmClient llm) {
        this.llm = llm;
    }

    @Override
    public String name() {
        return llm.describe();
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
        ToolsShown shown = s.select().select(state.question(), PromptBuilder.taskTools(state.knowledge(), state.question()));
        return new Conversation(state, shown);
    }

    private static String system(RunState state, ToolsShown shown) {
        return PromptBuilder.system(state.workspace(), state.knowledge(), PromptBuilder.shownTools(state.tools(), shown),
                state.question());
    }

    /**
     * One run's conversation with the model: its tool choice is fixed when it begins, and so is its system prompt
     * unless the run switches the session to another dataset ({@code connect_source}): then the schema shown is the
     * new dataset's.
     */
    private final class Conversation implements Planner.Run {
        private final ToolsShown shown;
        private String system;
        private dev.sift.data.Dataset dataset;
        /** The tokens spent so far. */
        private Usage spent = Usage.NONE;

        Conversation(RunState state, ToolsShown shown) {
            this.shown = shown;
            this.dataset = state.workspace().dataset();
            this.system = system(state, shown);
        }

        @Override
        public Decision next(RunState state) throws LlmException, UnreadableReplyException {
            return ask(messages(state));
        }

        @Override
        public Decision.Answer forceFinal(RunState state) throws LlmException, UnreadableReplyException {
            List<LlmMessage> messages = messages(state);
            messages.add(LlmMessage.user(FORCE_FINAL));
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

        private Decision ask(List<LlmMessage> messages) throws LlmException, UnreadableReplyException {
            String reply = complete(messages);
            try {
                return DecisionParser.parse(reply);
            } catch (UnreadableReplyException first) {
                messages.add(LlmMessage.assistant(reply));
                messages.add(LlmMessage.user(String.format(CORRECTION, first.getMessage())));
                return DecisionParser.parse(complete(messages));
            }
        }

        private String complete(List<LlmMessage> messages) throws LlmException {
            LlmResponse r = llm.complete(new LlmRequest(messages, 0.0, MAX_TOKENS, false));
            spent = spent.plus(r.inputTokens(), r.outputTokens());
            return r.text();
        }

        private List<LlmMessage> messages(RunState state) {
            if (state.workspace().dataset() != dataset) {
                dataset = state.workspace().dataset();
                system = system(state, shown);
            }
            List<LlmMessage> messages = new ArrayList<>();
            messages.add(LlmMessage.system(system));
            messages.add(LlmMessage.user(state.context().isEmpty() ? "Question: " + state.question()
                    : state.context().render() + "\nQuestion: " + state.question()));
            for (Step s : state.steps()) {
                messages.add(LlmMessage.assistant(s.raw() == null ? "{}" : s.raw()));
                messages.add(LlmMessage.user("Observation: " + s.observation()));
            }
            return messages;
        }
    }
}
