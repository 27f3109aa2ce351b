package dev.sift.data.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sift.data.ColumnInfo;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * A live dataset's connection file: the engine URL (no password), the options secrets are looked up by
 * ({@code password_env}), and the schema read from the engine's metadata and bounded samples when the dataset
 * was connected or refreshed. Sessions use this cached schema; {@code sift connect NAME --refresh} re-reads it.
 */
public record EngineFile(int version, String url, Map<String, String> options, String dialect, String refreshedAt,
                         List<Table> tables, List<TableStats.ForeignKey> foreignKeys, Access access) {
    public static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One table or view; {@code rows} is exact unless {@code rowsEstimated} (the engine's statistics). */
    public record Table(String name, long rows, boolean rowsEstimated, List<Column> columns, List<String> uniqueColumns) {
        TableInfo info() {
            return new TableInfo(name, TableInfo.Kind.TABLE, rows,
                    columns.stream().map(c -> new ColumnInfo(c.name(), c.type(), c.sample())).toList());
        }
    }

    /** A column: the engine's own type, the DuckDB type its values come back as, one sampled value. */
    public record Column(String name, String engineType, String type, String sample) { }

    /** What the account can do: {@code canWrite} with the reasons found ("superuser", "INSERT on 3 tables"). */
    public record Access(String account, Boolean canWrite, List<String> reasons) {
        /** The warning for people, or null when the account is read-only. */
        public String warning() {
            if (Boolean.FALSE.equals(canWrite)) {
                return null;
            }
            String who = account == null ? "The engine account" : "The engine account '" + account + "'";
            return (canWrite == null ? who + " may be able to write (" : who + " can write (")
                    + String.join("; ", reasons) + "). Sift only reads — its queries are checked and run read-only —"
                    + " but a read-only role is the safer wall: connect with an account that has SELECT only.";
        }
    }

    public List<TableInfo> infos() {
        return tables.stream().map(Table::info).toList();
    }

    public static EngineFile read(Path file) {
        try {
            return JSON.readValue(file.toFile(), EngineFile.class);
        } catch (IOException e) {
            throw new IllegalStateException("The connection file " + file + " is unreadable (" + e.getMessage()
                    + "); connect the dataset again with sift connect.", e);
        }
    }

    /** Writes atomically: a temporary file in the same folder, then a move. */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + java.util.UUID.randomUUID() + ".tmp");
        try {
            JSON.writeValue(tmp.toFile(), this);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A fingerprint of the schema as read (changes on a refresh that saw any change). */
    public String fingerprint() {
        try {
            var sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update(JSON.writeValueAsBytes(new EngineFile(version, url, options, dialect, null, tables, foreignKeys, access)));
            return java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
