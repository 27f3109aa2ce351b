package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.knowledge.CuratedKg;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgException;
import dev.sift.knowledge.KgLines;
import dev.sift.knowledge.KgLoader;
import dev.sift.knowledge.KgStarter;
import dev.sift.knowledge.KgValidator;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.VerifiedExample;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

@Command(name = "kg", description = {"Your knowledge file of a dataset ($SIFT_HOME/kg/NAME.kg.yaml):",
        "  sift kg init NAME [--out FILE]      write a commented starter from the automatic knowledge graph",
        "  sift kg check NAME [FILE]           check every entry against the data (problems with line and fix)",
        "  sift kg show NAME [--section S]     print the knowledge graph Sift uses (automatic + your file)"},
        subcommands = {KgCommand.Init.class, KgCommand.Check.class, KgCommand.Show.class})
final class KgCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: init, check or show");
    }

    private static Dataset dataset(Sift sift, String name) throws Exception {
        return sift.dataset(name, Progress.NONE);
    }

    @Command(name = "init", description = "Write a commented starter knowledge file from the automatic knowledge graph.")
    static final class Init implements java.util.concurrent.Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "NAME", description = "dataset name")
        String name;

        @Option(names = "--out", paramLabel = "FILE", description = "where to write it (default: $SIFT_HOME/kg/NAME.kg.yaml)")
        Path out;

        @Option(names = "--force", description = "replace a file that exists")
        boolean force;

        @Override
        public Integer call() throws Exception {
            Sift sift = Runtime.offline();
            Dataset ds = dataset(sift, name);
            Path file = out != null ? out : sift.knowledge().userPath(ds);
            if (Files.exists(file) && !force) {
                throw new IllegalArgumentException(file + " exists already: edit it, check it with 'sift kg check " + name
                        + "', or add --force to replace it with a new starter.");
            }
            String text;
            try (Workspace ws = sift.open(ds)) {
                text = KgStarter.text(Knowledge.build(ws, Optional.empty()).graph(), sift.store().loadReport(ds.name()));
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
            PrintWriter o = spec.commandLine().getOut();
            o.println("Wrote " + file + " (" + text.lines().count() + " lines). Edit it, then: sift kg check " + name
                    + (out == null ? "" : " " + file));
            o.flush();
            return 0;
        }
    }

    @Command(name = "check", description = "Check a knowledge file against the live data: every table, column, join, metric, value and example.")
    static final class Check implements java.util.concurrent.Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "NAME", description = "dataset name")
        String name;

        @Parameters(index = "1", arity = "0..1", paramLabel = "FILE", description = "the file (default: $SIFT_HOME/kg/NAME.kg.yaml)")
        Path file;

        @Override
        public Integer call() throws Exception {
            Sift sift = Runtime.offline();
            Dataset ds = dataset(sift, name);
            Path f = file != null ? file : sift.knowledge().userPath(ds);
            if (f == null || !Files.isRegularFile(f)) {
                throw new IllegalArgumentException("No knowledge file at " + f + ": write a starter with 'sift kg init " + name
                        + "'.");
            }
            String text = Files.readString(f);
            PrintWriter o = spec.commandLine().getOut();
            try (Workspace ws = sift.open(ds)) {
                CuratedKg curated = KgLoader.read(f);
                KnowledgeGraph kg = Knowledge.build(ws, Optional.of(curated)).graph();
                KnowledgeGraph auto = Knowledge.build(ws, Optional.empty()).graph();
                KgValidator.pendingTypes(curated, auto).forEach(p -> o.println(where(f, text, p) + " (warning)"));
                o.printf(Locale.ROOT, "OK: %s matches dataset '%s': %d tables, %d concepts, %d metrics, %d joins, %d value"
                                + " aliases, %d disambiguations, %d examples, %d types%n", f, name, curated.tables().size(),
                        count(curated, KgEntry.Concept.class), count(curated, KgEntry.Metric.class),
                        count(curated, KgEntry.Join.class), count(curated, KgEntry.ValueAlias.class),
                        count(curated, KgEntry.Disambiguation.class), kg.examples().size(), curated.types().size());
                o.flush();
                return 0;
            } catch (KgException e) {
                e.problems().forEach(p -> o.println(where(f, text, p)));
                o.flush();
                throw new IllegalArgumentException(e.problems().size() + (e.problems().size() == 1 ? " problem" : " problems")
                        + " in " + f + " (listed above with their lines).");
            }
        }

        private static long count(CuratedKg c, Class<? extends KgEntry> type) {
            return c.entries().stream().filter(type::isInstance).count();
        }

        /** A problem of a knowledge file with the line it is on, when its source is a file that can be read. */
        static String located(String problem) {
            int colon = problem.indexOf(": ");
            Path f = colon > 0 ? Path.of(problem.substring(0, colon)) : null;
            try {
                return f != null && Files.isRegularFile(f) ? where(f, Files.readString(f), problem) : problem;
            } catch (java.io.IOException e) {
                return problem;
            }
        }

        /** "FILE:LINE: entry: problem" from "source: entry: problem". */
        static String where(Path f, String text, String problem) {
            String rest = problem.startsWith(f.toString() + ": ") ? problem.substring(f.toString().length() + 2) : problem;
            int line = KgLines.locate(text, rest);
            return f + (line > 0 ? ":" + line : "") + ": " + rest;
        }
    }

    @Command(name = "show", description = "Print the knowledge graph Sift uses for a dataset (automatic + your file).")
    static final class Show implements java.util.concurrent.Callable<Integer> {
        static final List<String> SECTIONS = List.of("tables", "columns", "joins", "concepts", "metrics", "value_aliases",
                "disambiguations", "examples");

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "NAME", description = "dataset name")
        String name;

        @Option(names = "--section", paramLabel = "S", description = "only one section: tables, columns, joins, concepts,"
                + " metrics, value_aliases, disambiguations, examples")
        String section;

        @picocli.CommandLine.Mixin
        KgFileOption kg = new KgFileOption();

        @Override
        public Integer call() throws Exception {
            if (section != null && !SECTIONS.contains(section)) {
                throw new IllegalArgumentException("Unknown section '" + section + "'; sections: " + String.join(", ", SECTIONS));
            }
            Sift sift = Runtime.offline();
            kg.apply(sift, name);
            Dataset ds = dataset(sift, name);
            PrintWriter o = spec.commandLine().getOut();
            try (Workspace ws = sift.open(ds)) {
                KnowledgeGraph g = sift.knowledge().of(ws).graph();
                o.println("Knowledge graph of dataset '" + name + "' (" + g.source().map(s -> "automatic + " + s)
                        .orElse("automatic only; no knowledge file") + ")");
                for (String s : SECTIONS) {
                    if (section == null || section.equals(s)) {
                        print(o, g, s);
                    }
                }
            }
            o.flush();
            return 0;
        }

        private static void print(PrintWriter o, KnowledgeGraph g, String section) {
            List<String> lines = section.equals("examples") ? List.of() : g.entries().stream().filter(e -> (e.kind().wire() + "s").equals(section)
                    || e.kind().wire().equals("value_alias") && section.equals("value_aliases")
                    || e.kind().wire().equals("disambiguation") && section.equals("disambiguations"))
                    .map(KgEntry::describe).toList();
            o.println();
            o.println(section + " (" + (section.equals("examples") ? g.examples().size() : lines.size()) + ")");
            if (section.equals("examples")) {
                for (VerifiedExample x : g.examples()) {
                    o.println("  \"" + x.question() + "\"");
                    o.println("      " + x.sql());
                }
                return;
            }
            lines.forEach(l -> o.println("  " + dev.sift.text.SafeText.terminal(l)));
        }
    }
}
