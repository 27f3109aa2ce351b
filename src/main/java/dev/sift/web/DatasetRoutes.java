package dev.sift.web;

import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.LastDataset;
import dev.sift.data.Progress;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.util.Optional;

/** Datasets: the list (the demo is built on first call) and sample questions; new ones come through {@link SourceRoutes}. */
final class DatasetRoutes {
    private final WebContext web;

    DatasetRoutes(WebContext web) {
        this.web = web;
    }

    void register(RoutesConfig r) {
        r.get("/api/datasets", this::list);
        r.get("/api/datasets/{name}/samples", this::samples);
    }

    private void list(Context ctx) throws Exception {
        web.sift().dataset(Sift.DEMO_DATASET, Progress.NONE); // the demo exists from the first call on
        String last = web.sift().lastDataset().read().map(LastDataset.Entry::dataset).orElse(null);
        ctx.json(web.sift().store().list().stream().map(d -> Views.DatasetView.of(d, d.name().equals(last))).toList());
    }

    private void samples(Context ctx) throws Exception {
        String name = ctx.pathParam("name");
        Optional<Dataset> d = web.sift().store().find(name);
        if (d.isEmpty()) {
            throw web.noDataset(name);
        }
        ctx.json(SampleQuestions.of(web.sift(), d.get()));
    }
}
