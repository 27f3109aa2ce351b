package dev.sift.planner;

import dev.sift.agent.Planner;
import dev.sift.planner.llm.ToolSelector;

import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.planner.llm.DecisionParser;
import dev.sift.agent.RunState;
import dev.sift.agent.UnreadableReplyException;
import dev.sift.agent.Step;
import dev.sift.agent.ToolsShown;
import dev.sift.tool.ToolRegistry;
import dev.sift.agent.Usage;
import dev.sift.planner.llm.PromptBuilder;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Asks a language model for one JSON decision at a time. The conversation is the system prompt, the
 * question, then each step's reply and observation. An unreadable reply gets one correction. The system
 * prompt shows the tools {@link ToolSelector} picks for the question and the knowledge relevant to it.
 */
public final class LlmPlanner implements Planner {
    static final int MAX_TOKENS = 1500;
    static final String CORRECTION = "Your last reply could not be used: %s Reply again with exactly one JSON"
            + " object: {\"thought\": \"…\", \"tool\": \"…\", \"args\": {…}} or {\"thought\": \"…\", \"final_answer\": \"…\"}.";
    static final String FORCE_FINAL = "The step budget is spent: no more tool calls. Reply now with"
            + " {\"thought\": \"…\", \"final_answer\": \"…\"} using only the results above, and say what is missing.";

    private final LlmClient llm;
    private Usage usage = Usage.NONE;
    /** Built once per run (the run's step list identifies it), so frames made in earlier runs show up. */
    private String system;
    private List<Step> systemFor;
    private ToolSelector selector;
    private ToolRegistry selectorFor;
    private ToolsShown shown;

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
    public Decision next(RunState state) throws Exception {
        return ask(conversation(state));
    }

    @Override
    public Decision forceFinal(RunState state) throws Exception {
        List<LlmMessage> messages = conversation(state);
        messages.add(LlmMessage.user(FORCE_FINAL));
        Decision d = ask(messages);
        return d.isFinal() ? d : Decision.answer(d.thought(), "The model did not give a final answer within the step"
                + " budget.", AnswerKind.ERROR, d.raw());
    }

    private Decision ask(List<LlmMessage> messages) throws Exception {
        String reply = complete(messages);
        try {
            return DecisionParser.parse(reply);
        } catch (UnreadableReplyException first) {
            messages.add(LlmMessage.assistant(reply));
            messages.add(LlmMessage.user(String.format(CORRECTION, first.getMessage())));
            return DecisionParser.parse(complete(messages));
        }
    }

    private String complete(List<LlmMessage> messages) throws Exception {
        LlmResponse r = llm.complete(new LlmRequest(messages, 0.0, MAX_TOKENS, false));
        usage = usage.plus(r.inputTokens(), r.outputTokens());
        return r.text();
    }

    @Override
    public Optional<ToolsShown> toolsShown() {
        return Optional.ofNullable(shown);
    }

    @Override
    public Usage usage() {
        return usage;
    }

    private List<LlmMessage> conversation(RunState state) {
        if (systemFor != state.steps()) {
            systemFor = state.steps();
            if (selectorFor != state.tools()) {
                selectorFor = state.tools();
                selector = new ToolSelector(state.tools());
            }
            shown = selector.select(state.question());
            system = PromptBuilder.system(state.workspace(), PromptBuilder.shownTools(state.tools(), shown),
                    state.question());
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
