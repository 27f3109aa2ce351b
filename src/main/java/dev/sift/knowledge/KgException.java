package dev.sift.knowledge;

import java.util.List;

/** A curated knowledge-graph file that cannot be used: each problem names the file and the entry. */
public final class KgException extends RuntimeException {
    private final List<String> problems;

    public KgException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public KgException(String problem) {
        this(List.of(problem));
    }

    /** One line per problem, e.g. {@code kg/bank.kg.yaml: concepts[lives_in]: column client.home does not exist …}. */
    public List<String> problems() {
        return problems;
    }
}
