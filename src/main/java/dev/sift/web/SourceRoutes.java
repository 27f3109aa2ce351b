package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.AllowedSources;
import dev.sift.data.source.DatasetSources;
import dev.sift.data.source.Sources;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * New datasets from a person's sources, built as {@code sift load} builds them: an upload of data files, SQLite or
 * DuckDB files and zipped MongoDB dumps ({@code POST /api/datasets}), or a URL ({@code POST /api/datasets/connect},
 * only under the prefixes the operator allows in {@value AllowedSources#SETTING}). A name that exists is 409 unless
 * {@code replace=true}; the demo datasets are never replaced.
 */
final class SourceRoutes {
    private final WebContext web;
    private final Uploads uploads;

    SourceRoutes(WebContext web, Uploads uploads) {
        this.web = web;
        this.uploads = uploads;
    }

    void register(RoutesConfig r) {
        r.post("/api/datasets", this::upload);
        r.post("/api/datasets/connect", this::connect);
    }

    private void upload(Context ctx) throws Exception {
        uploads.checkDeclaredLength(ctx);
        try {
            build(ctx);
        } finally {
            Uploads.deleteParts(ctx);
        }
    }

    private void build(Context ctx) throws Exception {
        String name = checkedName(uploads.parsed(() -> ctx.formParam("name")));
        boolean replace = "true".equals(uploads.parsed(() -> ctx.formParam("replace")));
        List<UploadedFile> files = uploads.parsed(() -> ctx.uploadedFiles("files"));
        if (files.isEmpty()) {
            throw ApiError.badRequest("Attach one or more files as 'files': CSV, TSV, Parquet, JSON or JSON lines, SQLite"
                    + " or DuckDB files, or a .zip of a MongoDB dump.");
        }
        try (Uploads.Folder folder = uploads.save(files)) {
            List<String> locations = new ArrayList<>();
            for (Path f : folder.files()) {
                locations.add((ZipDump.isZip(f) ? ZipDump.unpack(f, uploads.maxBytes()) : f).toString());
            }
            try {
                DatasetBuilder builder = DatasetSources.of(locations, folder.dir(), Map.of());
                ctx.status(201).json(Views.DatasetView.of(build(name, builder, replace), true));
            } catch (IllegalArgumentException e) { // errors name the files, never the temporary folder
                throw ApiError.badRequest(String.valueOf(e.getMessage()).replace(folder.dir() + File.separator, "")
                        .replace(folder.dir().toString(), "the upload"));
            }
        }
    }

    private void connect(Context ctx) throws Exception {
        JsonNode body = Requests.object(ctx);
        String name = checkedName(body.path("name").asText(null));
        String source = body.path("source").asText("").trim();
        if (!Sources.isUrl(source)) {
            throw ApiError.badRequest("Give 'source' as a URL (postgresql://, mysql://, mariadb://, mongodb://, s3://);"
                    + " files are uploaded instead.");
        }
        AllowedSources allowed = web.sift().allowedSources();
        String location;
        try {
            location = allowed.check(source);
        } catch (AllowedSources.RefusedException e) {
            throw new ApiError(403, e.getMessage());
        }
        DatasetBuilder builder = DatasetSources.of(List.of(location), allowed.cwd(), allowed.env());
        ctx.status(201).json(Views.DatasetView.of(build(name, builder, body.path("replace").asBoolean(false)), true));
    }

    private static String checkedName(String name) {
        if (name == null || name.isBlank()) {
            throw ApiError.badRequest("Give the new dataset a 'name' (lowercase letters, digits and '_').");
        }
        return DatasetStore.checkName(name);
    }

    private Dataset build(String name, DatasetBuilder builder, boolean replace) throws Exception {
        try {
            Dataset d = web.sift().store().load(name, builder, replace, false, Progress.NONE);
            web.sift().lastDataset().loaded(d.name());
            return d;
        } catch (DatasetStore.DatasetExistsException e) {
            throw new ApiError(409, e.demo() ? e.getMessage() : "Dataset '" + name + "' already exists: choose another"
                    + " name, or send replace=true to replace it.");
        }
    }
}
