package dev.sift.cli;

import dev.sift.agent.AgentConfig;
import dev.sift.session.Conversation;
import dev.sift.session.Session;
import dev.sift.session.Sessions;
import dev.sift.text.Evidence;

import java.io.PrintWriter;
import java.util.List;

/**
 * The terminal conversation: each line is a turn of one session (references resolved against earlier
 * turns, saved after every answer); lines starting with '/' are commands. A clarifying question from the
 * planner is asked right here; an empty reply takes the default.
 */
final class ChatRepl {
    /** Where lines come from: JLine at a terminal, a list in tests. Returns null at end of input. */
    interface LineSource {
        String readLine(String prompt);
    }

    static final String HELP = """
            Ask a question in plain words; follow-ups may refer to earlier answers ("how many of those are gold?").
            Commands: /new (start a new session)  /sessions (list them)  /open ID (resume one)  /help  /quit""";

    private final Sessions sessions;
    private final Conversation.Engine engine;
    private final AgentConfig config;
    private final LineSource in;
    private final PrintWriter out;
    private final String dataset;
    private Conversation current;

    ChatRepl(Sessions sessions, Conversation.Engine engine, AgentConfig config, LineSource in, PrintWriter out,
             String dataset, Conversation start) {
        this.sessions = sessions;
        this.engine = engine;
        this.config = config;
        this.in = in;
        this.out = out;
        this.dataset = dataset;
        this.current = start;
    }

    void run() throws Exception {
        out.println("Sift chat on dataset '" + current.session().dataset() + "' · session " + current.session().id());
        out.println("Type a question, /help for commands, /quit to leave.");
        out.flush();
        while (true) {
            String line = in.readLine("sift> ");
            if (line == null) {
                break;
            }
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("/")) {
                if (!command(line)) {
                    break;
                }
                continue;
            }
            try {
                turn(line);
            } catch (dev.sift.data.EngineUnreachableException e) { // the session stays: ask again once the engine is back
                out.println("Error: " + e.getMessage());
                out.flush();
            }
        }
        out.println("Session saved: " + current.session().id() + " (resume with: sift chat --session "
                + current.session().id() + ")");
        out.flush();
    }

    private boolean command(String line) throws Exception {
        String[] parts = line.split("\\s+", 2);
        switch (parts[0]) {
            case "/quit", "/exit", "/q" -> {
                return false;
            }
            case "/help", "/?" -> out.println(HELP);
            case "/new" -> {
                current = sessions.create(dataset);
                out.println("New session " + current.session().id() + " on '" + dataset + "'.");
            }
            case "/sessions" -> {
                List<Session> all = sessions.list();
                if (all.isEmpty()) {
                    out.println("No sessions yet.");
                }
                for (Session s : all) {
                    out.printf("%s  %-8s %2d turns  %s%n", s.id(), s.dataset(), s.turns().size(),
                            s.title() == null || s.title().isBlank() ? "(empty)" : s.title());
                }
            }
            case "/open" -> {
                if (parts.length < 2) {
                    out.println("Usage: /open SESSION_ID (see /sessions)");
                } else {
                    var c = sessions.get(parts[1].trim());
                    if (c.isEmpty()) {
                        out.println("No session '" + parts[1].trim() + "'. See /sessions.");
                    } else {
                        current = c.get();
                        out.println("Resumed session " + current.session().id() + " (" + current.session().turns().size()
                                + " turns).");
                    }
                }
            }
            default -> out.println("Unknown command " + parts[0] + ". " + HELP);
        }
        out.flush();
        return true;
    }

    private void turn(String question) throws Exception {
        Conversation.Outcome o = current.ask(question, engine, config, (step, result) -> {
            out.println("  · " + (step.tool() == null ? "(no tool)" : step.tool()) + " · " + step.outcome().name()
                    .toLowerCase(java.util.Locale.ROOT) + (step.ok() ? "" : " (error)") + " · " + step.millis() + " ms");
            out.flush();
        }, (q, options, dflt) -> {
            out.println("? " + q);
            for (int i = 0; i < options.size(); i++) {
                out.println("  " + (i + 1) + ") " + options.get(i) + (options.get(i).equals(dflt) ? "  (default)" : ""));
            }
            out.flush();
            String reply = in.readLine("choose [" + dflt + "]> ");
            if (reply == null || reply.isBlank()) {
                return dflt;
            }
            reply = reply.trim();
            if (reply.matches("\\d+") && Integer.parseInt(reply) >= 1 && Integer.parseInt(reply) <= options.size()) {
                return options.get(Integer.parseInt(reply) - 1);
            }
            return reply;
        }, r -> {
            if (r.kind() != dev.sift.session.TurnKind.NEW) {
                out.println("  (" + r.kind().wire() + ": " + r.question() + ")");
                out.flush();
            }
        });
        var run = o.run();
        out.println(run.answer());
        for (Evidence e : run.evidence()) {
            out.println("  Evidence: " + e.sql() + "  [" + e.rowCount() + (e.rowCount() == 1 ? " row" : " rows")
                    + (e.frame() == null ? "" : ", frames." + e.frame()) + "]");
        }
        run.notes().stream().filter(n -> !n.startsWith("No language model is in use"))
                .forEach(n -> out.println("  Note: " + n));
        out.printf("[%s · %s · %d steps · %d ms]%n", run.kind().wire(), run.status().wire(), run.steps().size(),
                run.millis());
        out.flush();
    }
}
