package dev.sift.data.source;

import dev.sift.data.Names;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A sources file: several sources, each under an alias that becomes its schema. Two layouts are read:
 * <pre>
 * sources:                                # Sift's own
 *   sales: data/sales.sqlite              #   alias: location
 *   crm:                                  #   or alias: {location, and keys for network sources}
 *     location: postgresql://sift@db:5432/crm
 *     password_env: CRM_PASSWORD
 *
 * db_clients:                             # DataAgentBench's db_config.yaml, as it is
 *   user_database: {db_type: duckdb, db_path: query_dataset/yelp_user.db}
 *   businessinfo_database: {db_type: mongo, db_name: yelp_db, dump_folder: query_dataset/yelp_business}
 * </pre>
 * Paths are relative to the file. Every error names the file, the line and the key that is wrong.
 */
public final class SourcesFile {
    private SourcesFile() { }

    /** One source of a dataset and the schema it loads into. */
    public record Entry(String alias, Source source) { }

    static final Pattern ALIAS = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    /** Schema names the workspace uses itself, or DuckDB reserves. */
    static final Set<String> RESERVED = Set.of("main", "frames", "memory", "data", "system", "temp",
            "information_schema", "pg_catalog");
    private static final List<String> DB_TYPES = List.of("duckdb", "sqlite", "mongo", "postgres", "mysql", "file");
    /** DataAgentBench keys that say nothing about where a file is (the database name of a dump, a comment). */
    private static final Set<String> IGNORED = Set.of("db_name", "description");

    public static List<Entry> read(Path file, Map<String, String> env) throws IOException {
        Path yaml = file.toAbsolutePath().normalize();
        FileSupport.requireRegular(yaml);
        if (!Files.isRegularFile(yaml)) {
            throw new IllegalArgumentException("Sources file not found: " + yaml);
        }
        Node root;
        try (Reader r = Files.newBufferedReader(yaml, StandardCharsets.UTF_8)) {
            root = new Yaml(new LoaderOptions()).compose(r);
        } catch (MarkedYAMLException e) {
            throw new IllegalArgumentException("Sources file " + yaml + ", line " + (e.getProblemMark().getLine() + 1)
                    + ": not valid YAML (" + e.getProblem() + ")", e);
        } catch (YAMLException e) {
            throw new IllegalArgumentException("Sources file " + yaml + " is not valid YAML: " + e.getMessage(), e);
        }
        Reading in = new Reading(yaml, env);
        if (!(root instanceof MappingNode top)) {
            throw in.error(root, "expected 'sources:' or 'db_clients:' with one entry per alias");
        }
        List<Entry> out = new ArrayList<>();
        for (NodeTuple t : top.getValue()) {
            String key = in.scalar(t.getKeyNode(), "a key");
            MappingNode aliases = switch (key) {
                case "sources", "db_clients" -> in.mapping(t.getValueNode(), "'" + key + "' needs one entry per alias");
                default -> throw in.error(t.getKeyNode(), "key '" + key + "' is not known: use 'sources' or 'db_clients'"
                        + Names.didYouMean(key, List.of("sources", "db_clients")));
            };
            for (NodeTuple a : aliases.getValue()) {
                String alias = in.alias(a.getKeyNode());
                if (out.stream().anyMatch(e -> e.alias().equals(alias))) {
                    throw in.error(a.getKeyNode(), "alias '" + alias + "' is given twice");
                }
                Source source = key.equals("sources") ? in.siftSource(alias, a.getValueNode())
                        : in.benchSource(alias, a.getValueNode());
                out.add(new Entry(alias, source));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("Sources file " + yaml + " names no sources: list them under 'sources:'");
        }
        return out;
    }

    /** The state of reading one file: where it is (for relative paths and messages) and the environment. */
    private record Reading(Path file, Map<String, String> env) {
        Path base() {
            return file.getParent();
        }

        IllegalArgumentException error(Node at, String what) {
            int line = at == null ? 1 : at.getStartMark().getLine() + 1;
            return new IllegalArgumentException("Sources file " + file + ", line " + line + ": " + what);
        }

        String scalar(Node n, String what) {
            if (n instanceof ScalarNode s && !s.getValue().isBlank()) {
                return s.getValue();
            }
            throw error(n, "expected " + what + " here");
        }

        MappingNode mapping(Node n, String what) {
            if (n instanceof MappingNode m) {
                return m;
            }
            throw error(n, what);
        }

        String alias(Node n) {
            String alias = scalar(n, "an alias");
            if (!ALIAS.matcher(alias).matches()) {
                throw error(n, "alias '" + alias + "' is not valid: use lowercase letters, digits and '_', starting"
                        + " with a letter (it names the schema of the source's tables)");
            }
            if (RESERVED.contains(alias)) {
                throw error(n, "alias '" + alias + "' is reserved: choose another name");
            }
            return alias;
        }

        /** Keys of an alias's mapping, in order, with the node of each value for messages. */
        Map<String, Node> keys(String alias, MappingNode m) {
            Map<String, Node> out = new LinkedHashMap<>();
            for (NodeTuple t : m.getValue()) {
                String k = scalar(t.getKeyNode(), "a key of alias '" + alias + "'");
                if (out.put(k, t.getValueNode()) != null) {
                    throw error(t.getKeyNode(), "key '" + k + "' of alias '" + alias + "' is given twice");
                }
            }
            return out;
        }

        /** {@code alias: location} or {@code alias: {location: …, password_env: …}}. */
        Source siftSource(String alias, Node value) throws IOException {
            if (value instanceof ScalarNode) {
                return open(alias, value, scalar(value, "a location for alias '" + alias + "'"), Map.of());
            }
            Map<String, Node> keys = keys(alias, mapping(value, "alias '" + alias + "' needs a location"));
            Node location = keys.remove("location");
            if (location == null) {
                throw error(value, "alias '" + alias + "' has no 'location' key"
                        + keys.keySet().stream().map(k -> Names.didYouMean(k, List.of("location"))).filter(s -> !s.isEmpty())
                        .findFirst().orElse(""));
            }
            Node typesNode = keys.remove("types");
            Source source = open(alias, location, scalar(location, "a location"), options(alias, keys));
            return typesNode == null ? source : typed(alias, typesNode, source);
        }

        /** {@code types: {orders.order_date: "date:%d/%m/%Y"}} of a data-file alias: the column types to load with. */
        private Source typed(String alias, Node typesNode, Source source) {
            if (!(source instanceof FileLoader files)) {
                throw error(typesNode, "key 'types' of alias '" + alias + "' goes with data files (CSV, TSV, JSON): other"
                        + " sources carry their own types");
            }
            List<ColumnType> types = new ArrayList<>();
            for (NodeTuple t : mapping(typesNode, "'types' of alias '" + alias + "' needs one table.column: kind[:format]"
                    + " per line, e.g. orders.order_date: date:%d/%m/%Y").getValue()) {
                String column = scalar(t.getKeyNode(), "table.column");
                try {
                    types.add(ColumnType.parse(column + "=" + scalar(t.getValueNode(), "kind[:format] for " + column)));
                } catch (IllegalArgumentException e) {
                    throw error(t.getKeyNode(), "types of alias '" + alias + "': " + e.getMessage());
                }
            }
            return new FileLoader(files.files(), types);
        }

        /**
         * DataAgentBench's {@code db_type} with {@code db_path} (files), {@code dump_folder} (MongoDB dumps) or
         * {@code sql_file} (PostgreSQL or MySQL dumps, restored by {@link PgDumpSource} or {@link MysqlDumpSource} as the
         * script's own header says, whichever the db_type).
         */
        Source benchSource(String alias, Node value) throws IOException {
            MappingNode m = mapping(value, "alias '" + alias + "' needs 'db_type' and 'db_path' or 'dump_folder'");
            Map<String, Node> keys = keys(alias, m);
            Node typeNode = keys.remove("db_type");
            if (typeNode == null) {
                throw error(value, "alias '" + alias + "' has no 'db_type' key (one of " + String.join(", ", DB_TYPES) + ")");
            }
            String type = scalar(typeNode, "a db_type");
            IGNORED.forEach(keys::remove);
            String where = switch (type) {
                case "duckdb", "sqlite", "file" -> "db_path";
                case "mongo", "mongodb" -> keys.containsKey("dump_folder") || !keys.containsKey("location") ? "dump_folder"
                        : "location";
                case "postgres", "postgresql" -> keys.containsKey("sql_file") || !keys.containsKey("location") ? "sql_file"
                        : "location";
                case "mysql", "mariadb" -> keys.containsKey("sql_file") || !keys.containsKey("location") ? "sql_file"
                        : "location";
                default -> throw error(typeNode, "db_type '" + type + "' of alias '" + alias + "' is not known: use one of "
                        + String.join(", ", DB_TYPES) + Names.didYouMean(type, DB_TYPES));
            };
            Node location = keys.remove(where);
            if (location == null) {
                throw error(value, "alias '" + alias + "' (db_type " + type + ") needs a '" + where + "' key"
                        + (where.equals("location") ? " with its URL, e.g. " + example(type) : "")
                        + (where.equals("sql_file") ? " with the path of its dump script, or a 'location' with its URL, e.g. "
                        + example(type) : "")
                        + keys.keySet().stream().map(k -> Names.didYouMean(k, List.of(where))).filter(s -> !s.isEmpty())
                        .findFirst().orElse(""));
            }
            return open(alias, location, scalar(location, "a " + where), options(alias, keys));
        }

        private static String example(String type) {
            return switch (type) {
                case "mongo", "mongodb" -> "mongodb://localhost:27017/db";
                case "mysql", "mariadb" -> "mysql://user@localhost:3306/db";
                default -> "postgresql://user@localhost:5432/db";
            };
        }

        /** The remaining keys, as options of a network source; local sources take none. */
        private Map<String, String> options(String alias, Map<String, Node> keys) {
            Map<String, String> out = new LinkedHashMap<>();
            keys.forEach((k, v) -> out.put(k, scalar(v, "a value for key '" + k + "'")));
            return out;
        }

        private Source open(String alias, Node at, String location, Map<String, String> options) throws IOException {
            if (!Sources.isUrl(location) && !options.isEmpty()) {
                String key = options.keySet().iterator().next();
                throw error(at, "key '" + key + "' of alias '" + alias + "' is not known: a local "
                        + "file or folder takes only its path");
            }
            if (Sources.isSourcesFile(location)) {
                throw error(at, "alias '" + alias + "' names another sources file; list its sources here instead");
            }
            try {
                return Sources.open(location, base(), options, env);
            } catch (IllegalArgumentException e) {
                throw error(at, "alias '" + alias + "': " + e.getMessage());
            }
        }
    }
}
