package dev.sift.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * Unpacks an uploaded {@code .zip} of a MongoDB dump into one flat folder: each file under its plain base name
 * (folders inside the archive are dropped, so no entry can reach outside), within a bound on the unpacked size
 * and the number of entries, so a small archive cannot fill the disk.
 */
final class ZipDump {
    static final int MAX_ENTRIES = 10_000;
    /** The unpacked size may be this many times the upload limit (BSON compresses a few times). */
    static final int MAX_RATIO = 10;

    private ZipDump() { }

    static boolean isZip(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4);
            return head.length == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4;
        }
    }

    /** Unpacks {@code zip} into a new folder beside it named after it; returns the folder. */
    static Path unpack(Path zip, long maxUploadBytes) throws IOException {
        String stem = zip.getFileName().toString().replaceFirst("(?i)\\.zip$", "");
        Path dir = Files.createDirectory(zip.resolveSibling(stem.isEmpty() ? "dump" : stem));
        long limit = maxUploadBytes * MAX_RATIO;
        long total = 0;
        int entries = 0;
        Set<String> names = new HashSet<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                String base = e.getName().replace('\\', '/').replaceAll("/+$", "");
                base = base.substring(base.lastIndexOf('/') + 1);
                if (e.isDirectory() || base.startsWith(".") || e.getName().contains("__MACOSX")) {
                    continue; // folders are flattened; hidden and Finder files are not data
                }
                if (++entries > MAX_ENTRIES) {
                    throw ApiError.badRequest("The archive " + zip.getFileName() + " has more than " + MAX_ENTRIES + " files.");
                }
                String name = Uploads.sanitizeFileName(base);
                if (!names.add(name)) {
                    throw ApiError.badRequest("The archive " + zip.getFileName() + " holds two files named '" + name
                            + "': zip one database's dump (its .bson and .metadata.json files).");
                }
                total += copyBounded(in, dir.resolve(name), limit - total);
                if (total > limit) {
                    throw new ApiError(413, "The archive " + zip.getFileName() + " unpacks to more than " + limit
                            + " bytes (" + MAX_RATIO + " times the upload limit).");
                }
            }
        } catch (ZipException e) {
            throw ApiError.badRequest("The archive " + zip.getFileName() + " is not a readable zip file: " + e.getMessage());
        }
        if (entries == 0) {
            throw ApiError.badRequest("The archive " + zip.getFileName() + " is empty: zip a MongoDB dump folder"
                    + " (its .bson and .metadata.json files).");
        }
        return dir;
    }

    /** Copies at most {@code room + 1} bytes, so going over is seen without reading the rest. */
    private static long copyBounded(InputStream in, Path target, long room) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long n = 0;
        try (var out = Files.newOutputStream(target)) {
            for (int r; (r = in.read(buf)) > 0; ) {
                out.write(buf, 0, r);
                n += r;
                if (n > room) {
                    break;
                }
            }
        }
        return n;
    }
}
