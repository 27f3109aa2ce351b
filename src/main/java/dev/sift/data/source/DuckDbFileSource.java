package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A DuckDB database file, attached READ_ONLY to the build and copied table by table (views are copied as
 * tables of their rows). Types are DuckDB's own, so they carry over as they are. Tables of the file's
 * {@code main} schema keep their names; a table of another schema {@code s} is named {@code s_table}.
 */
public final class DuckDbFileSource implements Source {
    static final String VERSION = "duckdb-file-1";
    private static final String ALIAS = "sift_source";

    private final Path file;

    public DuckDbFileSource(Path file) {
        this.file = file.toAbsolutePath().normalize();
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        FileSupport.hash(sha, file);
        Path wal = Path.of(file + ".wal");
        if (Files.isRegularFile(wal)) {
            FileSupport.hash(sha, wal);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        return "DuckDB file " + file;
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        try (Statement st = db.createStatement()) {
            st.execute("ATTACH " + Sql.quoteString(file.toString()) + " AS " + ALIAS + " (READ_ONLY)");
        } catch (SQLException e) {
            throw new IllegalArgumentException("DuckDB file " + file + " could not be opened: " + FileSupport.reason(e), e);
        }
        try {
            List<String[]> relations = new ArrayList<>();
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                    "SELECT schema_name, table_name, estimated_size FROM duckdb_tables() WHERE database_name = '" + ALIAS
                            + "' AND NOT internal UNION ALL SELECT schema_name, view_name, -1 FROM duckdb_views()"
                            + " WHERE database_name = '" + ALIAS + "' AND NOT internal ORDER BY 1, 2")) {
                while (rs.next()) {
                    relations.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
                }
            }
            for (String[] r : relations) {
                String target = (r[0].equals("main") ? r[1] : r[0] + "_" + r[1]).replace('.', '_');
                long rows = Long.parseLong(r[2]);
                progress.report("copying " + r[1], 0, rows);
                try (Statement st = db.createStatement()) {
                    st.execute("CREATE TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(target) + " AS SELECT * FROM "
                            + ALIAS + "." + Sql.quoteIdent(r[0]) + "." + Sql.quoteIdent(r[1]));
                } catch (SQLException e) {
                    throw new IllegalArgumentException("DuckDB file " + file + ": table " + r[1] + " could not be copied: "
                            + FileSupport.reason(e), e);
                }
                progress.report("copied " + r[1], rows, rows);
            }
        } finally {
            try (Statement st = db.createStatement()) {
                st.execute("DETACH " + ALIAS);
            }
        }
    }
}
