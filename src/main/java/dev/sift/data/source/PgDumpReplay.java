package dev.sift.data.source;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays the data of a plain-format {@code pg_dump} script into a PostgreSQL server: schemas, types, domains,
 * sequences, tables, {@code COPY} blocks and {@code INSERT}s. What is not data (settings, ownership and grants,
 * indexes, constraints, defaults, functions, triggers, views, comments, extensions, psql meta-commands) is skipped
 * and counted, so a dump whose roles or extensions are not here still loads. A statement the server rejects is one
 * error naming its line in the file.
 */
final class PgDumpReplay {
    /** Statements replayed, by their first words; everything else in a dump is skipped. */
    private static final List<String> REPLAYED = List.of("CREATE SCHEMA", "CREATE TYPE", "CREATE DOMAIN",
            "CREATE SEQUENCE", "CREATE TABLE", "CREATE UNLOGGED TABLE", "COPY", "INSERT INTO",
            "SET STANDARD_CONFORMING_STRINGS");
    /** Statements a dump holds that are not data, by their first words (two, or one). */
    private static final Set<String> SKIPPED = Set.of("SET", "SELECT", "ALTER", "COMMENT", "GRANT", "REVOKE",
            "CREATE INDEX", "CREATE UNIQUE", "CREATE FUNCTION", "CREATE PROCEDURE", "CREATE AGGREGATE",
            "CREATE OPERATOR", "CREATE TRIGGER", "CREATE CONSTRAINT", "CREATE RULE", "CREATE POLICY",
            "CREATE EXTENSION", "CREATE VIEW", "CREATE MATERIALIZED", "CREATE OR", "CREATE EVENT", "CREATE CAST",
            "CREATE PUBLICATION", "CREATE SUBSCRIPTION", "CREATE STATISTICS", "CREATE TEXT", "CREATE COLLATION",
            "CREATE CONVERSION", "CREATE SERVER", "CREATE USER", "CREATE FOREIGN", "CREATE LANGUAGE", "CREATE ACCESS",
            "CREATE DATABASE", "CREATE ROLE", "CREATE TRANSFORM", "REFRESH", "SECURITY", "CLUSTER", "BEGIN", "COMMIT",
            "START", "END", "DROP");
    private static final Pattern COPY_LINE = Pattern.compile("COPY [^,]+, line (\\d+)");
    private static final Pattern TABLE_NAME = Pattern.compile("(?i)^\\s*CREATE\\s+(?:UNLOGGED\\s+)?TABLE\\s+"
            + "(?:IF\\s+NOT\\s+EXISTS\\s+)?(?:(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\.)?");
    private static final int BATCH = 500;

    private final Map<String, Integer> skipped = new TreeMap<>();
    private final Set<String> schemas = new LinkedHashSet<>();
    private final List<PgDumpScript.Statement> inserts = new ArrayList<>();
    private long copiedRows;

    /** What was skipped, e.g. "12 ALTER, 3 CREATE INDEX, 9 SET, 2 psql meta-commands"; "" when nothing. */
    String skippedSummary(int metaCommands) {
        List<String> parts = new ArrayList<>();
        skipped.forEach((k, n) -> parts.add(n + " " + k));
        if (metaCommands > 0) {
            parts.add(metaCommands + " psql meta-command" + (metaCommands == 1 ? "" : "s"));
        }
        return String.join(", ", parts);
    }

    /** The schemas the dump's tables are in ("public" for an unqualified table). */
    Set<String> schemas() {
        return schemas;
    }

    /** Replays every data statement of {@code script} into {@code pg}, in one transaction. */
    void replay(PgDumpScript script, Connection pg) throws IOException, SQLException {
        pg.setAutoCommit(false);
        PgDumpScript.Statement s;
        while ((s = script.next()) != null) {
            String head = s.head(2);
            if (REPLAYED.stream().noneMatch(head::startsWith) && (SKIPPED.contains(head) || SKIPPED.contains(s.head(1)))) {
                skipped.merge(SKIPPED.contains(head) ? head : s.head(1), 1, Integer::sum);
                continue;
            }
            if (head.equals("INSERT INTO")) {
                inserts.add(s);
                if (inserts.size() >= BATCH) {
                    flushInserts(pg);
                }
                continue;
            }
            flushInserts(pg);
            if (s.isCopyFromStdin()) {
                copy(script, s, pg);
            } else {
                execute(pg, s);
            }
        }
        flushInserts(pg);
        pg.commit();
    }

    private void execute(Connection pg, PgDumpScript.Statement s) {
        String sql = s.sql();
        if (s.head(2).equals("CREATE SCHEMA") && !s.head(5).contains("IF NOT EXISTS")) {
            sql = sql.replaceFirst("(?i)CREATE\\s+SCHEMA", "CREATE SCHEMA IF NOT EXISTS"); // "public" is there already
        }
        if (s.head(2).contains("TABLE")) {
            Matcher m = TABLE_NAME.matcher(sql);
            schemas.add(m.find() && m.group(1) != null ? unquote(m.group(1)) : PostgresDialect.DEFAULT_SCHEMA);
        }
        try (Statement st = pg.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw rejected(s, e, -1);
        }
    }

    /** A batch of INSERTs in one round trip; a rejected one is named by its own line. */
    private void flushInserts(Connection pg) {
        if (inserts.isEmpty()) {
            return;
        }
        int done = 0;
        try (Statement st = pg.createStatement()) {
            for (PgDumpScript.Statement s : inserts) {
                st.addBatch(s.sql());
            }
            done = st.executeBatch().length;
        } catch (java.sql.BatchUpdateException e) {
            int failed = 0;
            int[] counts = e.getUpdateCounts();
            while (failed < counts.length && counts[failed] != Statement.EXECUTE_FAILED) {
                failed++;
            }
            SQLException cause = e.getNextException() == null ? e : e.getNextException();
            throw rejected(inserts.get(Math.min(failed, inserts.size() - 1)), cause, -1);
        } catch (SQLException e) {
            throw rejected(inserts.get(0), e, -1);
        }
        copiedRows += done;
        inserts.clear();
    }

    /** Streams a COPY block's data lines to the server; an error in a row names that row's line. */
    private void copy(PgDumpScript script, PgDumpScript.Statement s, Connection pg) throws IOException, SQLException {
        CopyIn in;
        try {
            in = pg.unwrap(PGConnection.class).getCopyAPI().copyIn(s.sql());
        } catch (SQLException e) {
            throw rejected(s, e, -1);
        }
        int dataStart = script.line() + 1;
        StringBuilder chunk = new StringBuilder();
        String l;
        try {
            while ((l = script.copyLine(s.line())) != null) {
                chunk.append(l).append('\n');
                if (chunk.length() >= 1 << 20) {
                    write(in, chunk);
                }
            }
            write(in, chunk);
            copiedRows += in.endCopy();
        } catch (SQLException e) {
            if (in.isActive()) {
                in.cancelCopy();
            }
            throw rejected(s, e, dataStart);
        } catch (RuntimeException | IOException e) {
            if (in.isActive()) {
                in.cancelCopy();
            }
            throw e;
        }
    }

    private static void write(CopyIn in, StringBuilder chunk) throws SQLException {
        byte[] bytes = chunk.toString().getBytes(StandardCharsets.UTF_8);
        in.writeToCopy(bytes, 0, bytes.length);
        chunk.setLength(0);
    }

    /**
     * The server's error as one line naming where it is in the file: the statement's line, moved to the line of
     * the error's position in it, or for a COPY to the data row the server names.
     */
    private static IllegalArgumentException rejected(PgDumpScript.Statement s, SQLException e, int copyDataStart) {
        int line = s.line();
        int inStatement = 0; // the line of the statement the error is on, from 0
        String message = e.getMessage();
        if (e instanceof PSQLException p && p.getServerErrorMessage() != null) {
            ServerErrorMessage m = p.getServerErrorMessage();
            message = m.getMessage();
            Matcher row = COPY_LINE.matcher(m.getWhere() == null ? "" : m.getWhere());
            if (copyDataStart > 0 && row.find()) {
                line = copyDataStart + Integer.parseInt(row.group(1)) - 1;
            } else if (m.getPosition() > 0 && m.getPosition() <= s.sql().length()) {
                inStatement = (int) s.sql().substring(0, m.getPosition() - 1).chars().filter(c -> c == '\n').count();
                line += inStatement;
            }
        }
        String text = s.sql().split("\n", -1)[inStatement].strip();
        return new IllegalArgumentException("line " + line + ": PostgreSQL rejected '" + (text.length() > 80
                ? text.substring(0, 80) + "…" : text) + "': " + message, e);
    }

    long rows() {
        return copiedRows;
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }
}
