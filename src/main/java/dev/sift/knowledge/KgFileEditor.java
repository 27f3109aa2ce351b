package dev.sift.knowledge;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Adds entries to a user's knowledge file as text, so the user's comments and layout stay as they wrote them: an item
 * is appended to the end of a top-level list section ({@code examples}, {@code concepts}, {@code metrics},
 * {@code join_paths}, …), the section is created at the end when missing, and the file is written only when the
 * result still parses (temporary file, then an atomic move). Values are written as JSON strings, which YAML reads as
 * double-quoted scalars.
 */
public final class KgFileEditor {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KgFileEditor() { }

    /** Appends a verified example (question and its SQL) to section {@code examples}, creating the file if needed. */
    public static void addExample(Path file, String dataset, String question, String sql) {
        addExample(file, dataset, question, sql, c -> { });
    }

    /** As above; {@code check} sees the edited file first and throws {@link KgException} to keep it unwritten. */
    public static void addExample(Path file, String dataset, String question, String sql, Consumer<CuratedKg> check) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("question", question);
        item.put("sql", sql);
        append(file, dataset, "examples", item, check);
    }

    /** Appends {@code item} (a flat map of strings and lists of strings) to the top-level list {@code section}. */
    public static void append(Path file, String dataset, String section, Map<String, Object> item) {
        append(file, dataset, section, item, c -> { });
    }

    /**
     * As above, and written only when {@code check} accepts the edited file (it throws {@link KgException}, e.g. after
     * validating it against the live data). A named entry whose name the section holds already is refused.
     */
    public static void append(Path file, String dataset, String section, Map<String, Object> item, Consumer<CuratedKg> check) {
        try {
            String text = Files.isRegularFile(file) ? Files.readString(file) : "# Knowledge file of dataset '" + dataset
                    + "' (see `sift kg init " + dataset + "` for a commented starter).\n";
            Object name = item.get("name");
            if (name != null && entryIds(text, file).contains(kind(section) + ":" + name)) {
                throw new KgException(file + ": " + section + "[" + name + "]: an entry of that name is in the file already;"
                        + " choose another name, or edit that entry in the file");
            }
            String edited = insert(text, section, render(item));
            check.accept(KgLoader.parse(edited, file.toString())); // never write a file Sift cannot read back
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
            Files.writeString(tmp, edited, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new KgException(file + ": could not be written: " + e.getMessage());
        }
    }

    /** The ids of the entries a file holds now; none when it holds no sections yet (or does not read: checked after the edit). */
    private static java.util.Set<String> entryIds(String text, Path file) {
        try {
            return KgLoader.parse(text, file.toString()).entries().stream().map(KgEntry::id)
                    .collect(java.util.stream.Collectors.toSet());
        } catch (KgException e) {
            return java.util.Set.of();
        }
    }

    /** The id prefix of a section's entries ({@code metrics} → {@code metric}). */
    private static String kind(String section) {
        return switch (section) {
            case "concepts" -> "concept";
            case "metrics" -> "metric";
            case "join_paths" -> "join";
            case "disambiguations" -> "disambiguation";
            case "value_aliases" -> "value_alias";
            default -> section;
        };
    }

    /** The text with {@code lines} (an item, indented two spaces) at the end of {@code section}. */
    static String insert(String text, String section, List<String> lines) {
        List<String> out = new ArrayList<>(text.lines().toList());
        int start = -1;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).matches(section + "\\s*:.*")) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            if (!out.isEmpty() && !out.get(out.size() - 1).isBlank()) {
                out.add("");
            }
            out.add(section + ":");
            out.addAll(lines);
            return String.join("\n", out) + "\n";
        }
        if (out.get(start).matches(section + "\\s*:\\s*\\[\\s*]\\s*(#.*)?")) {
            out.set(start, section + ":"); // "examples: []"
        } else if (!out.get(start).matches(section + "\\s*:\\s*(#.*)?")) {
            throw new KgException("section '" + section + "' is written inline (" + out.get(start).trim() + "); write it as"
                    + " a block list (one '- ' item per entry) to add to it");
        }
        int end = start + 1; // the section runs to the next line that starts a top-level key
        int last = start;
        while (end < out.size() && !out.get(end).matches("[A-Za-z_][\\w]*\\s*:.*")) {
            if (!out.get(end).isBlank() && !out.get(end).trim().startsWith("#")) {
                last = end;
            }
            end++;
        }
        String indent = "  ";
        for (int i = start + 1; i < end; i++) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\s*)- ").matcher(out.get(i));
            if (m.find()) { // follow the items already there ("- " at the margin or indented)
                indent = m.group(1);
                break;
            }
        }
        String shift = indent;
        out.addAll(last + 1, lines.stream().map(l -> shift + l.substring(2)).toList());
        return String.join("\n", out) + "\n";
    }

    private static List<String> render(Map<String, Object> item) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Object> e : item.entrySet()) {
            lines.add((lines.isEmpty() ? "  - " : "    ") + e.getKey() + ": " + JSON.writeValueAsString(e.getValue()));
        }
        return lines;
    }
}
