package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.session.Conversation;
import dev.sift.session.Sessions;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "chat", description = "A multi-turn conversation in the terminal (history, follow-up questions).")
final class ChatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset name (default: ${DEFAULT-VALUE})")
    String dataset;

    @picocli.CommandLine.Mixin
    KgFileOption kg = new KgFileOption();

    @Option(names = "--session", paramLabel = "ID", description = "resume a saved session")
    String session;

    @Option(names = "--max-steps", defaultValue = "12", description = "step budget per question (default: ${DEFAULT-VALUE})")
    int maxSteps;

    /** Tests replace the terminal with a list of lines. */
    static ChatRepl.LineSource testInput;

    @Override
    public Integer call() throws Exception {
        Sift sift = Runtime.sift();
        kg.apply(sift, dataset);
        sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        try (Sessions sessions = sift.sessions(4)) {
            Conversation start = session == null ? sessions.create(dataset) : sessions.get(session)
                    .orElseThrow(() -> new IllegalArgumentException("No session '" + session + "'. List them in chat"
                            + " with /sessions, or start a new one without --session."));
            sift.lastDataset().used(start.session().dataset());
            AgentConfig config = AgentConfig.defaults().withMaxSteps(maxSteps);
            if (testInput != null) {
                new ChatRepl(sessions, sift.engine(), config, testInput, spec.commandLine().getOut(), dataset, start).run();
                return 0;
            }
            try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
                LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("sift")
                        .variable(LineReader.HISTORY_FILE, Runtime.config().home().resolve("chat_history"))
                        .build();
                ChatRepl.LineSource lines = prompt -> {
                    try {
                        return reader.readLine(prompt);
                    } catch (UserInterruptException e) {
                        return "";
                    } catch (EndOfFileException e) {
                        return null;
                    }
                };
                new ChatRepl(sessions, sift.engine(), config, lines, new java.io.PrintWriter(terminal.writer(), true),
                        dataset, start).run();
            }
        }
        return 0;
    }
}
