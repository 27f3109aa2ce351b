package dev.sift.planner.llm;

import dev.sift.data.TableFamilies;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.SchemaLinker;
import dev.sift.text.SchemaRenderer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prompt's dataset section for one question. The tables schema linking finds the question needs
 * ({@link SchemaLinker#focus}: the tables it names, through their names, columns, concepts, metrics or values, and
 * the tables joining them) are shown whole, most relevant first: each column with its type, unit, a sample and what
 * a query trips on. The other tables are named only, with the call that shows one. Then the session's frames, then
 * the column meanings of the tables shown ({@link SchemaKeys#meanings}); keys and joins are the dataset's facts
 * ({@link DatasetFacts}), stated once in the stable part of the prompt. A schema of at most
 * {@link #SMALL} characters, or a prompt with no question, shows every table: linking would save little there.
 */
final class DatasetBlock {
    /** Characters of table lines (tables and frames) in the system prompt. */
    static final int BUDGET = 6000;
    /** A whole schema this short is shown whole for every question. */
    static final int SMALL = 1500;

    private DatasetBlock() { }

    /** The dataset tables shown whole, most relevant first, and the question's columns ({@code table.column}). */
    private record Choice(List<TableInfo> shown, Set<String> linked) { }

    static String render(Workspace ws, Knowledge k, String question) {
        List<TableInfo> all = ws.datasetTables();
        List<TableFamilies.Family> families = TableFamilies.of(all);
        Set<String> members = new java.util.HashSet<>();
        families.forEach(f -> f.members().forEach(t -> members.add(t.name())));
        List<TableInfo> tables = all.stream().filter(t -> !members.contains(t.name())).toList();
        Choice choice = choose(tables, k, question);
        List<TableInfo> shown = choice.shown();
        StringBuilder b = new StringBuilder(SchemaRenderer.render(shown, BUDGET, notes(k, choice.linked())));
        families.forEach(f -> b.append('\n').append(familyLine(f)));
        List<TableInfo> others = tables.stream().filter(t -> !shown.contains(t)).toList();
        if (!others.isEmpty()) {
            b.append('\n').append(shown.isEmpty() ? "Tables" : "Other tables").append(" (inspect_data table=NAME shows one): ")
                    .append(String.join(", ", others.stream().map(t -> t.name() + " ("
                    + t.rows() + " rows)").toList()));
        }
        frames(b, ws.frames());
        String meanings = k == null ? "" : SchemaKeys.meanings(k.graph(), shown.stream().map(TableInfo::name).toList(),
                choice.linked(), SchemaKeys.BUDGET);
        return meanings.isEmpty() ? b.toString() : b + "\n" + meanings;
    }

    private static Choice choose(List<TableInfo> tables, Knowledge k, String question) {
        if (question == null || k == null || SchemaRenderer.render(tables, Integer.MAX_VALUE, notes(k, Set.of())).length()
                <= SMALL) {
            return new Choice(tables, Set.of());
        }
        SchemaLinker.Focus focus = SchemaLinker.focus(question, k);
        return new Choice(ordered(tables, focus.tables()),
                new LinkedHashSet<>(focus.columns().stream().map(c -> c.substring("column:".length())).toList()));
    }

    /** The dataset tables named in {@code order} (names as the knowledge graph has them), in that order. */
    private static List<TableInfo> ordered(List<TableInfo> tables, List<String> order) {
        List<TableInfo> out = new ArrayList<>();
        for (String name : order) {
            tables.stream().filter(t -> t.name().equals(name)).findFirst().ifPresent(out::add);
        }
        return out;
    }

    /**
     * One line for a family of same-shape tables, however many: {@code family usage_{part} (24 tables, parts 2023_01 …
     * 2024_12; 8,760 rows in all), each: day DATE e.g. … | kwh DOUBLE …; union_family family=usage_{part} …}.
     */
    static String familyLine(TableFamilies.Family f) {
        List<TableInfo> m = f.members();
        String cols = SchemaRenderer.line(m.get(0));
        cols = cols.substring(cols.indexOf("): ") + 3);
        return String.format(java.util.Locale.ROOT, "family %s (%,d tables of one shape, part %s … %s; %,d rows in all),"
                + " each: %s. union_family family=%s makes one frame with column part; do not UNION the tables by hand.",
                f.name(), m.size(), f.part(m.get(0)), f.part(m.get(m.size() - 1)), f.rows(), cols, f.name());
    }

    /** The session's frames, one line each while they fit, the rest named. */
    private static void frames(StringBuilder b, List<TableInfo> frames) {
        List<String> left = new ArrayList<>();
        for (TableInfo f : frames) {
            String line = SchemaRenderer.line(f);
            if (left.isEmpty() && b.length() + line.length() + 1 <= BUDGET) {
                b.append('\n').append(line);
            } else {
                left.add("frames." + f.name());
            }
        }
        if (!left.isEmpty()) {
            b.append("\nFrames not shown for room (inspect_data table=NAME shows one): ").append(String.join(", ", left));
        }
    }

    /** Units of the graph's columns and the question's columns, for the table lines. */
    private static SchemaRenderer.Notes notes(Knowledge k, Set<String> linked) {
        Map<String, String> units = new HashMap<>();
        if (k != null) {
            for (KgEntry e : k.graph().entries()) {
                if (e instanceof KgEntry.Column c && c.unit() != null) {
                    units.put(c.qualified(), c.unit());
                }
            }
        }
        return new SchemaRenderer.Notes(units, linked);
    }
}
