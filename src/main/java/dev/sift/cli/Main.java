package dev.sift.cli;


import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.ServiceLoader;

/** The {@code sift} command. Usage and input errors exit 2 with one line on stderr. */
@Command(name = "sift", mixinStandardHelpOptions = true, version = "sift " + dev.sift.Sift.VERSION,
        scope = CommandLine.ScopeType.INHERIT, // subcommands get --help and --version too ('sift ask --help')
        description = "Answers questions about your data from the data, and shows its work.",
        subcommands = {AskCommand.class, SqlCommand.class, LoadCommand.class, ConnectCommand.class, DatasetsCommand.class,
                KgCommand.class, ModelsCommand.class, HealthCommand.class, McpCommand.class, GroundingCommand.class})
public final class Main implements Runnable {
    public static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line on System.out and System.err and returns the exit code (tests call this directly). */
    public static int run(String... args) {
        return execute(commandLine(), args);
    }

    /** Runs the command line printing to {@code out} and {@code err} and returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        try {
            return execute(cl, args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // Commands of modules the product does not depend on (the benchmarks) are found on the class path.
        for (CommandExtension extension : ServiceLoader.load(CommandExtension.class)) {
            cl.addSubcommand(extension);
        }
        cl.addSubcommand(new ServeCommand());
        cl.addSubcommand(new ChatCommand());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof dev.sift.knowledge.KgException k) { // a knowledge file that does not fit the data: one line a problem
                k.problems().forEach(p -> cmd.getErr().println("sift: error: " + oneLine(KgCommand.Check.located(p))));
                cmd.getErr().flush();
                return USAGE_ERROR;
            }
            if (e instanceof IllegalArgumentException || e instanceof java.nio.file.NoSuchFileException
                    || e instanceof dev.sift.data.EngineUnreachableException) {
                cmd.getErr().println("sift: error: " + oneLine(e.getMessage() == null ? e.toString() : e.getMessage()));
                cmd.getErr().flush();
                return USAGE_ERROR;
            }
            cmd.getErr().println("sift: internal error: " + e);
            e.printStackTrace(cmd.getErr());
            cmd.getErr().flush();
            return 1;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("sift: error: " + oneLine(e.getMessage()) + " (try '"
                    + cmd.getCommandSpec().qualifiedName() + " --help')");
            cmd.getErr().flush();
            return USAGE_ERROR;
        });
        return cl;
    }

    private static int execute(CommandLine cl, String... args) {
        return cl.execute(args);
    }

    /** Usage and input errors are one line on stderr, whatever the message. */
    static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
