package dev.sift.web;

import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.FileLoader;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;

import java.io.File;
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
            ctx.status(201).json(Views.DatasetView.of(build(name, folder)));
        }
    }

    /** Builds a new dataset; an upload never replaces one, and its errors name files, never the temporary folder. */
    private Dataset build(String name, Uploads.Folder folder) throws Exception {
        try {
            return web.sift().store().load(name, new FileLoader(folder.files()), false, false, Progress.NONE);
        } catch (DatasetStore.DatasetExistsException e) {
            throw new ApiError(409, e.demo() ? "'" + name + "' is a demo dataset's name and is never replaced by an"
                    + " upload: choose another name." : "Dataset '" + name + "' exists already, and an upload never"
                    + " replaces a dataset: choose another name.");
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(String.valueOf(e.getMessage()).replace(folder.dir() + File.separator, ""));
        }
    }
}
