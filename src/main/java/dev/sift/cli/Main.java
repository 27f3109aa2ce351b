package dev.sift.cli;


import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The {@code sift} command. Usage and input errors exit 2 with one line on stderr. */
@Command(name = "sift", mixinStandardHelpOptions = true, version = "sift " + dev.sift.Sift.VERSION,
        scope = CommandLine.ScopeType.INHERIT, // subcommands get --help and --version too ('sift ask --help')
        description = "Answers questions about your data from the data, and shows its work.")
public final class Main implements Runnable {
    public static final int USAGE_ERROR = 2;
    /** The built-in subcommands in the order --help lists them; then those of other modules, then serve and chat. */
    private static final List<Class<?>> BUILT_IN = List.of(AskCommand.class, SqlCommand.class, LoadCommand.class,
            ConnectCommand.class, DatasetsCommand.class, KgCommand.class, ModelsCommand.class, HealthCommand.class,
            McpCommand.class, GroundingCommand.class);
    private static final List<Class<?>> LAST = List.of(ServeCommand.class, ChatCommand.class);

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
        return execute(commandLine(args), args);
    }

    /** Runs the command line printing to {@code out} and {@code err} and returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine(args);
        cl.setOut(out);
        cl.setErr(err);
        try {
            return execute(cl, args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * The command line for {@code args}: a subcommand's run specifies only that subcommand (picocli reads every
     * option of every subcommand it is given, a tenth of a one-shot ask's time); help, an option or an unknown name
     * gets them all.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new Main());
        List<Class<?>> all = subcommands();
        String invoked = args.length > 0 ? args[0] : "";
        Optional<Class<?>> one = all.stream().filter(c -> c.getAnnotation(Command.class).name().equals(invoked)).findFirst();
        (one.isPresent() ? List.of(one.get()) : all).forEach(cl::addSubcommand);
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

    /** Every subcommand; those of modules the product does not depend on (the benchmarks) are found on the class path. */
    private static List<Class<?>> subcommands() {
        List<Class<?>> all = new ArrayList<>(BUILT_IN);
        ServiceLoader.load(CommandExtension.class).stream().forEach(p -> all.add(p.type()));
        all.addAll(LAST);
        return all;
    }

    private static int execute(CommandLine cl, String... args) {
        return cl.execute(args);
    }

    /** Usage and input errors are one line on stderr, whatever the message. */
    static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
