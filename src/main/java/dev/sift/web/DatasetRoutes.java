package dev.sift.web;

import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.FileLoader;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Datasets: the list (the demo is built on first call), sample questions, and upload of files as a new one. */
final class DatasetRoutes {
    private final WebContext web;
    private final Uploads uploads;

    DatasetRoutes(WebContext web, Uploads uploads) {
        this.web = web;
        this.uploads = uploads;
    }

    void register(RoutesConfig r) {
        r.get("/api/datasets", this::list);
        r.post("/api/datasets", this::upload);
        r.get("/api/datasets/{name}/samples", this::samples);
    }

    private void list(Context ctx) throws Exception {
        web.sift().dataset(Sift.DEMO_DATASET, Progress.NONE); // the demo exists from the first call on
        ctx.json(web.sift().store().list().stream().map(Views.DatasetView::of).toList());
    }

    private void samples(Context ctx) throws Exception {
        String name = ctx.pathParam("name");
        Optional<Dataset> d = web.sift().store().find(name);
        if (d.isEmpty()) {
            throw web.noDataset(name);
        }
        ctx.json(SampleQuestions.of(d.get()));
    }

    private void upload(Context ctx) throws Exception {
        uploads.checkDeclaredLength(ctx);
        String name = uploads.parsed(() -> ctx.formParam("name"));
        if (name == null || name.isBlank()) {
            throw ApiError.badRequest("Give the new dataset a 'name' (lowercase letters, digits and '_').");
        }
        DatasetStore.checkName(name);
        List<UploadedFile> files = uploads.parsed(() -> ctx.uploadedFiles("files"));
        if (files.isEmpty()) {
            throw ApiError.badRequest("Attach one or more files as 'files' (CSV, TSV, Parquet, JSON or JSON lines).");
        }
        try (Uploads.Folder folder = uploads.save(files)) {
            List<Path> saved = folder.files();
            Dataset d = web.sift().store().ensure(name, new FileLoader(saved), Progress.NONE);
            ctx.status(201).json(Views.DatasetView.of(d));
        }
    }
}
