package dev.sift.data;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A workspace's own in-memory DuckDB, set up and locked down: the dataset file attached READ_ONLY as {@code data}
 * (nothing on a live dataset, whose tables stay on their engine), a {@code frames} schema for results, no extension
 * loading, no file or network access but the spill folder, thread and memory limits, and the configuration locked.
 */
final class SessionDuckDb {
    private SessionDuckDb() {
    }

    /** The locked-down connection; {@code spill} is where operators larger than memory spill. */
    static Connection open(Dataset dataset, Workspace.Limits limits, Path spill, boolean live) throws SQLException {
        return inMemory(new Properties(), setups(dataset, limits, spill, live));
    }

    /** A new in-memory DuckDB with {@code setups} run in order; closed again when one fails. */
    static Connection inMemory(Properties properties, List<String> setups) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:", properties);
        try {
            for (String setup : setups) {
                try (Statement st = c.createStatement()) {
                    st.execute(setup);
                }
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    private static List<String> setups(Dataset dataset, Workspace.Limits limits, Path spill, boolean live) {
        List<String> setups = new ArrayList<>(List.of("SET autoinstall_known_extensions = false",
                "SET autoload_known_extensions = false"));
        setups.addAll(live
                ? List.of("CREATE SCHEMA memory.frames", "SET search_path = 'memory.frames'")
                : List.of("ATTACH " + Sql.quoteString(dataset.file().toString()) + " AS data (READ_ONLY)",
                        "CREATE SCHEMA memory.frames", "USE data", "SET search_path = 'data.main,memory.frames'"));
        if (!live) { // the one folder ATTACH may reach after the lock-down: links to datasets switched to
            setups.add("SET allowed_directories = [" + Sql.quoteString(DatasetLinks.folder(spill) + "/") + "]");
        }
        setups.addAll(List.of(
                "SET threads = " + limits.threads(),
                "SET memory_limit = " + Sql.quoteString(limits.memoryLimit()),
                // operators larger than memory spill here instead of failing; external access off leaves
                // only this folder and the attached dataset reachable, and the guard admits SELECT only
                "SET temp_directory = " + Sql.quoteString(spill.toString()),
                "SET max_expression_depth = " + Workspace.MAX_EXPRESSION_DEPTH,
                "SET enable_external_access = false",
                "SET lock_configuration = true"));
        return setups;
    }
}
