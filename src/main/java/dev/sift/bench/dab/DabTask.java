package dev.sift.bench.dab;

import java.nio.file.Path;

/** One query of a DataAgentBench dataset: its folder ({@code queryN}), the question and the task's own validator. */
public record DabTask(String dataset, String query, Path dir, String question, Path validator) {
    /** The name of a task in reports and trace files: {@code <dataset>_<query>}. */
    public String id() {
        return dataset + "_" + query;
    }
}
