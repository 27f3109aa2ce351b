package dev.sift.data.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Tells what a SOURCE is and opens it: a {@code scheme://} location goes to {@link NetworkSources}; a folder is
 * a MongoDB dump; a file starting with SQLite's or DuckDB's header is that database, whatever its name; a
 * {@code .sql} file is a plain-format PostgreSQL dump; any other file is a data file. Sources files (YAML) are read by {@link SourcesFile}.
 */
public final class Sources {
    private Sources() { }

    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DUCKDB_MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII); // at byte 8

    /** What a local file holds, from its first bytes. */
    enum FileKind { SQLITE, DUCKDB, PG_DUMP, DATA }

    private static final byte[] PG_CUSTOM_MAGIC = "PGDMP".getBytes(StandardCharsets.US_ASCII);

    public static boolean isUrl(String location) {
        return SourceUrl.looksLikeUrl(location);
    }

    public static boolean isSourcesFile(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        return !isUrl(location) && (lower.endsWith(".yaml") || lower.endsWith(".yml"));
    }

    /** Opens one SOURCE; a relative path is resolved against {@code base}. */
    public static Source open(String location, Path base, Map<String, String> options, Map<String, String> env)
            throws IOException {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("Empty source: give a file, a folder or a URL");
        }
        if (isUrl(location)) {
            return NetworkSources.open(location, options, env).orElseThrow(() -> new IllegalArgumentException(
                    "Source " + SourceUrl.maskText(location) + " is not a location Sift can read: use a path, or "
                            + NetworkSources.SCHEMES));
        }
        Path path = base.resolve(location).toAbsolutePath().normalize();
        FileSupport.requireRegular(path);
        if (Files.isDirectory(path)) {
            return new MongoDumpSource(path);
        }
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("File not found: " + path);
        }
        return switch (fileKind(path)) {
            case SQLITE -> new SqliteSource(path);
            case DUCKDB -> new DuckDbFileSource(path);
            case PG_DUMP -> MysqlDumpSource.isMysqlDump(path) ? new MysqlDumpSource(path) : new PgDumpSource(path);
            case DATA -> new FileLoader(java.util.List.of(path));
        };
    }

    /** SQLite and DuckDB files by their magic bytes; a database extension without either header is refused. */
    static FileKind fileKind(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(16);
        }
        if (head.length >= 16 && Arrays.equals(head, 0, 16, SQLITE_MAGIC, 0, 16)) {
            return FileKind.SQLITE;
        }
        if (head.length >= 12 && Arrays.equals(head, 8, 12, DUCKDB_MAGIC, 0, 4)) {
            return FileKind.DUCKDB;
        }
        if (head.length >= 5 && Arrays.equals(head, 0, 5, PG_CUSTOM_MAGIC, 0, 5)) {
            throw new IllegalArgumentException("File " + file + " is a custom-format PostgreSQL dump (pg_dump -Fc), which"
                    + " Sift reads only as a plain SQL script: convert it with 'pg_restore -f " + plainName(file) + " " + file
                    + "' and load the .sql file");
        }
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (lower.endsWith(".sql")) {
            return FileKind.PG_DUMP;
        }
        if (lower.endsWith(".sqlite") || lower.endsWith(".sqlite3") || lower.endsWith(".db") || lower.endsWith(".duckdb")) {
            throw new IllegalArgumentException("File " + file + " is neither a SQLite nor a DuckDB database: "
                    + (head.length == 0 ? "it is empty" : "its first bytes are no database header (a corrupt or partial copy?)"));
        }
        return FileKind.DATA;
    }

    private static String plainName(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name) + ".sql";
    }
}
