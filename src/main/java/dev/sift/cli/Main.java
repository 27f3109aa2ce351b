package dev.sift.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sift} command. Usage and input errors exit 2 with one line on stderr. */
@Command(name = "sift", mixinStandardHelpOptions = true, version = "sift 0.1.0",
        description = "Answers questions about your data from the data, and shows its work.",
        subcommands = {AskCommand.class, SqlCommand.class, LoadCommand.class, DatasetsCommand.class,
                BenchCommand.class})
public final class Main implements Runnable {
    public static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (tests call this directly). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof java.nio.file.NoSuchFileException) {
                cmd.getErr().println("sift: error: " + e.getMessage());
                return USAGE_ERROR;
            }
            cmd.getErr().println("sift: internal error: " + e);
            e.printStackTrace(cmd.getErr());
            return 1;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("sift: error: " + e.getMessage());
            e.getCommandLine().getErr().println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help'.");
            return USAGE_ERROR;
        });
        return cl.execute(args);
    }
}
