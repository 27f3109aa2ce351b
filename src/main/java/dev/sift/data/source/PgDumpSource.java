package dev.sift.data.source;

import dev.sift.data.Progress;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A plain-format {@code pg_dump} file ({@code .sql}), restored into a PostgreSQL server that Sift starts for the load
 * alone (embedded binaries, loopback only, a fresh data directory that is removed after) and copied from there as
 * any PostgreSQL database is ({@link JdbcSource} with {@link PostgresDialect}): the same types reach DuckDB as from a
 * live server. Only data is replayed ({@link PgDumpReplay}); what was skipped is said in {@link #describe()}. A
 * custom-format dump ({@code pg_dump -Fc}) is refused with the command that converts it.
 */
public final class PgDumpSource implements Source {
    static final String VERSION = "pg-dump-1";
    private static final Pattern ENCODING = Pattern.compile("(?i)^SET client_encoding = '([^']+)';");

    private final Path file;
    private String summary = "";

    PgDumpSource(Path file) {
        this.file = file.toAbsolutePath().normalize();
    }

    @Override
    public String fingerprint() throws Exception {
        return FileSupport.fingerprint(VERSION, file);
    }

    @Override
    public String describe() {
        return "PostgreSQL dump " + file + (summary.isEmpty() ? "" : " (" + summary + ")");
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        progress.report("starting PostgreSQL to restore " + file.getFileName(), 0, -1);
        try (EmbeddedPostgres pg = start()) {
            PgDumpReplay replay = new PgDumpReplay();
            try (BufferedReader in = reader(); Connection c = pg.getPostgresDatabase().getConnection()) {
                progress.report("restoring " + file.getFileName(), 0, -1);
                PgDumpScript script = new PgDumpScript(in);
                replay.replay(script, c);
                String skipped = replay.skippedSummary(script.metaCommands());
                summary = replay.rows() + " rows restored" + (skipped.isEmpty() ? "" : "; skipped, not data: " + skipped);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("PostgreSQL dump " + file + ": " + e.getMessage(), e);
            }
            if (replay.schemas().isEmpty()) {
                throw new IllegalArgumentException("PostgreSQL dump " + file + ": it creates no table (is it a"
                        + " schema-only dump of another database, or not a pg_dump script?)");
            }
            String schemas = replay.schemas().stream().map(s -> s.replace(",", "%2C")).collect(Collectors.joining(","));
            SourceUrl url = SourceUrl.parse("postgresql://postgres@127.0.0.1:" + pg.getPort() + "/postgres?schema=" + schemas);
            new JdbcSource(new PostgresDialect(), url, Map.of(), Map.of()).load(db, schema, progress);
        }
    }

    /** A server for this load alone; a crashed run's server and directory are removed by the next start. */
    private static EmbeddedPostgres start() throws IOException {
        return EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("max_wal_size", "1GB")
                .setServerConfig("timezone", "UTC")
                .start();
    }

    /** The file in the encoding its {@code SET client_encoding} names (UTF-8 when it names none). */
    private BufferedReader reader() throws IOException {
        Charset charset = StandardCharsets.UTF_8;
        try (BufferedReader head = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String l;
            for (int i = 0; i < 200 && (l = head.readLine()) != null; i++) {
                Matcher m = ENCODING.matcher(l);
                if (m.find()) {
                    charset = charset(m.group(1));
                    break;
                }
            }
        }
        InputStream in = Files.newInputStream(file);
        return new BufferedReader(new InputStreamReader(in, charset), 1 << 16);
    }

    private Charset charset(String pgName) {
        String name = switch (pgName.toUpperCase(java.util.Locale.ROOT)) {
            case "UTF8", "UNICODE" -> "UTF-8";
            case "LATIN1" -> "ISO-8859-1";
            case "SQL_ASCII" -> "UTF-8";
            case "WIN1252" -> "windows-1252";
            default -> pgName;
        };
        try {
            return Charset.forName(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("PostgreSQL dump " + file + ": its client_encoding '" + pgName + "' has no"
                    + " Java charset: convert it to UTF-8 (iconv -f " + pgName + " -t UTF-8)");
        }
    }
}
