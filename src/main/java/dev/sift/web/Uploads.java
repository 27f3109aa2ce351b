package dev.sift.web;

import io.javalin.http.Context;
import io.javalin.http.UploadedFile;

import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/** Uploaded files saved to a temporary folder under plain names, within the size limit; the folder is removed on close. */
final class Uploads {
    private static final Pattern SAFE_FILE = Pattern.compile("[^A-Za-z0-9._ -]");

    private final long maxBytes;
    private final Path root;

    /** Saves under {@code root} (created when needed), one fresh folder per upload. */
    Uploads(long maxBytes, Path root) {
        this.maxBytes = maxBytes;
        this.root = root;
    }

    /** A temporary folder of saved uploads; closing deletes it. */
    record Folder(Path dir, List<Path> files) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            Leftovers.delete(dir);
        }
    }

    long maxBytes() {
        return maxBytes;
    }

    void checkDeclaredLength(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > maxBytes) {
            throw new ApiError(413, "The upload is " + declared + " bytes; the limit is " + maxBytes + " bytes.");
        }
    }

    /** Jetty's copies of the form's parts (in the server's multipart folder) go when the request is done. */
    static void deleteParts(Context ctx) {
        try {
            for (var part : ctx.req().getParts()) {
                part.delete();
            }
        } catch (Exception e) { // the form could not be parsed: Jetty kept no part
            LoggerFactory.getLogger(Uploads.class).debug("No multipart parts to delete: {}", e.getMessage());
        }
    }

    /** A part of the multipart form that Jetty parses on first use: a body over the limit is 413, junk 400. */
    <T> T parsed(Callable<T> read) {
        try {
            return read.call();
        } catch (ApiError e) {
            throw e;
        } catch (Exception e) { // Jetty's ServletException passes through Javalin's Kotlin undeclared
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (String.valueOf(t.getMessage()).contains("max length exceeded")
                        || String.valueOf(t.getMessage()).contains("max file size exceeded")) {
                    throw new ApiError(413, "The upload is over the limit of " + maxBytes + " bytes (sift serve"
                            + " --max-upload-mb sets it).");
                }
            }
            throw ApiError.badRequest("The upload is not a readable multipart form: send the files as 'files' and"
                    + " the dataset's name as 'name' (multipart/form-data).");
        }
    }

    Folder save(List<UploadedFile> files) throws IOException {
        Folder folder = new Folder(Files.createTempDirectory(Files.createDirectories(root), "sift-upload-"),
                new ArrayList<>());
        try {
            long total = 0;
            for (UploadedFile f : files) {
                String clean = sanitizeFileName(f.filename());
                Path target = folder.dir().resolve(clean).normalize();
                if (!target.getParent().equals(folder.dir()) || Files.exists(target)) {
                    throw ApiError.badRequest("File name '" + f.filename() + "' is not usable (duplicate or not a plain"
                            + " name).");
                }
                try (InputStream in = f.content()) {
                    total += Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                if (total > maxBytes) {
                    throw new ApiError(413, "The upload is over the limit of " + maxBytes + " bytes.");
                }
                folder.files().add(target);
            }
            return folder;
        } catch (IOException | RuntimeException e) {
            folder.close();
            throw e;
        }
    }

    /** A plain file name: no folders, no leading dots, only safe characters. */
    static String sanitizeFileName(String raw) {
        String base = raw == null ? "" : raw.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        if (!base.chars().allMatch(c -> c < 128)) {
            throw ApiError.badRequest("File name '" + base + "' has characters other than ASCII letters, digits, '.',"
                    + " '_', '-' and spaces, and its table would be named after it: rename the file (e.g. to"
                    + " 'sales.csv') and upload it again.");
        }
        base = SAFE_FILE.matcher(base).replaceAll("_").replaceFirst("^[._ ]+", "").trim();
        if (base.isEmpty() || base.length() > 120) {
            throw ApiError.badRequest("File name '" + raw + "' is not usable: give the file a plain name such as"
                    + " 'sales.csv'.");
        }
        return base;
    }
}
