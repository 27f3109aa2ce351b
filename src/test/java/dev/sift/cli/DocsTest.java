package dev.sift.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and docs/ stay true: every relative link resolves (the file, and the heading an {@code #anchor}
 * names), and every {@code ./sift …} command line they quote parses with the real command tree (parsed, not run).
 * A quoted synopsis ({@code [--dataset NAME]}, {@code …}, {@code a|b}) is notation, not a command, and is skipped.
 */
class DocsTest {
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern INLINE = Pattern.compile("`(\\./sift [^`]+)`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    @Test
    void every_relative_link_in_the_readme_and_docs_resolves() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path doc : docs()) {
            for (String line : prose(Files.readAllLines(doc))) {
                Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                        continue; // http:, https:, mailto: …
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty() ? doc : doc.toAbsolutePath().getParent().resolve(file).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(doc + ": " + target + " (no such file)");
                    } else if (hash >= 0 && !anchors.computeIfAbsent(resolved, DocsTest::anchorsOf)
                            .contains(target.substring(hash + 1))) {
                        broken.add(doc + ": " + target + " (no such heading in " + resolved + ")");
                    }
                }
            }
        }
        assertThat(broken).as("links in README.md and docs/ that do not resolve").isEmpty();
    }

    @Test
    void every_quoted_sift_command_parses() throws IOException {
        List<String> bad = new ArrayList<>();
        int parsed = 0;
        for (Path doc : docs()) {
            for (String command : commands(Files.readAllLines(doc))) {
                try {
                    Main.commandLine().parseArgs(words(command).toArray(String[]::new));
                    parsed++;
                } catch (CommandLine.ParameterException e) {
                    bad.add(doc + ": " + command + " → " + e.getMessage());
                }
            }
        }
        assertThat(bad).as("./sift command lines in README.md and docs/ that do not parse").isEmpty();
        assertThat(parsed).as("command lines checked").isGreaterThan(20);
    }

    @Test
    void a_broken_command_is_caught_and_a_synopsis_is_not_a_command() {
        assertThat(commands(List.of("```bash", "./sift ask \"Hi?\" --datset bank   # a typo", "```",
                "Run `./sift ask \"QUESTION\" [--json]` or `./sift datasets`.")))
                .containsExactly("./sift ask \"Hi?\" --datset bank", "./sift datasets");
        assertThat(words("./sift ask \"Hi there?\" --dataset bank")).containsExactly("ask", "Hi there?", "--dataset", "bank");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Main.commandLine().parseArgs(
                words("./sift ask \"Hi?\" --datset bank").toArray(String[]::new)))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--datset");
        assertThat(anchorsOf(List.of("# Sift", "## Your data: files, `ask --json` & more", "```", "# not a heading", "```")))
                .containsExactly("sift", "your-data-files-ask---json--more");
    }

    /** The README and every Markdown file under docs/. */
    private static List<Path> docs() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> s = Files.walk(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    /** The lines outside fenced code blocks. */
    private static List<String> prose(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean code = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                code = !code;
            } else if (!code) {
                out.add(line);
            }
        }
        return out;
    }

    /** The {@code ./sift} command lines a document quotes: in code blocks (after any prompt or variables) and inline. */
    static List<String> commands(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean code = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            if (code) {
                int at = line.indexOf("./sift ");
                String before = at < 0 ? "" : line.substring(0, at).replaceFirst("^\\s*\\$\\s*", "");
                if (at >= 0 && before.matches("([A-Z_]+=\\S*\\s+)*")) {
                    out.add(withoutComment(line.substring(at)));
                }
            } else {
                Matcher m = INLINE.matcher(line);
                while (m.find()) {
                    String c = m.group(1);
                    if (!c.matches(".*(\\[|…|\\.\\.\\.|\\||<).*")) {
                        out.add(c.strip());
                    }
                }
            }
        }
        return out.stream().filter(c -> !c.matches(".*(…|\\.\\.\\.).*")).toList();
    }

    /** The line up to a shell comment (a '#' after a space, outside quotes). */
    private static String withoutComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '#' && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    /** A command line's words after {@code ./sift}, split as a shell splits them (quotes kept together). */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : command.substring("./sift ".length()).toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }

    private static Set<String> anchorsOf(Path file) {
        try {
            return anchorsOf(Files.readAllLines(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
    static Set<String> anchorsOf(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : prose(lines)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                out.add(m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return out;
    }
}
