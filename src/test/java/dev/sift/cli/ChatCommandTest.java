package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift chat}: turns that refer to earlier ones, commands, and resuming a saved session. */
class ChatCommandTest {
    @TempDir
    static java.nio.file.Path home;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
        CliHarness.assumeOffline();
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @AfterEach
    void noInput() {
        ChatCommand.testInput = null;
    }

    private static List<String> prompts = new ArrayList<>();

    private static void input(String... lines) {
        Deque<String> q = new ArrayDeque<>(List.of(lines));
        prompts = new ArrayList<>();
        ChatCommand.testInput = prompt -> {
            prompts.add(prompt);
            return q.poll();
        };
    }

    @Test
    void follow_up_refers_to_the_earlier_question_and_the_session_can_be_resumed() {
        input("How many cards are there?", "How many of those are gold?", "/quit");
        String out = ok("chat").out();
        assertThat(out).contains("  · run_sql · ran · ", "(refine: How many cards are there that are gold?)",
                "Evidence: SELECT count(*) AS \"n_card\" FROM \"card\" WHERE \"type\" = 'gold'",
                "[answer · rule_based · 1 steps · ");
        Matcher m = Pattern.compile("resume with: sift chat --session ([0-9a-f-]{36})").matcher(out);
        assertThat(m.find()).isTrue();
        String id = m.group(1);

        input("/sessions", "What about loans?");
        String again = ok("chat", "--session", id).out();
        assertThat(again).contains(id + "  bank      2 turns  How many cards are there?",
                "(refine: How many loans are there that are gold?)");
        assertThat(prompts).containsExactly("sift> ", "sift> ", "sift> ");
    }

    @Test
    void unknown_command_and_unknown_session_are_explained() {
        input("/frobnicate", "/open 00000000-0000-0000-0000-000000000000");
        String out = ok("chat").out();
        assertThat(out).contains("Unknown command /frobnicate. " + ChatRepl.HELP,
                "No session '00000000-0000-0000-0000-000000000000'. See /sessions.");
        assertThat(CliHarness.usageError("chat", "--session", "nope")).isEqualTo("sift: error: No session 'nope'."
                + " List them in chat with /sessions, or start a new one without --session.");
    }
}
