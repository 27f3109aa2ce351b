package dev.sift.cli;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "datasets", description = "List the built datasets with their sources, tables and row counts.")
final class DatasetsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        DatasetStore store = DatasetStore.defaultStore();
        List<Dataset> all = store.list();
        var out = spec.commandLine().getOut();
        if (all.isEmpty()) {
            out.println("No datasets yet in " + store.root() + ". './sift ask' builds the demo dataset 'bank' on first"
                    + " use; './sift load NAME FILE...' adds your own.");
        }
        for (Dataset ds : all) {
            out.println(ds.name() + " — " + ds.description() + " (built " + ds.builtAt() + ")");
            if (ds.sources().size() > 1 || !ds.sources().contains(ds.description())) {
                ds.sources().forEach(s -> out.println("  from " + s)); // masked when built: no secret is stored
            }
            ds.tables().forEach(t -> out.printf("  %-12s %,d rows%n", t.name(), t.rows()));
        }
        out.flush();
        return 0;
    }
}
