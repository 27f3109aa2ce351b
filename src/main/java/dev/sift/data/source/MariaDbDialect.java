package dev.sift.data.source;

import dev.sift.data.source.DuckType.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL and MariaDB through MariaDB Connector/J: {@code mysql://user@host:port/db} or {@code mariadb://…}; the
 * database is the schema ({@code ?schema=a,b} reads several). Type mapping (also in docs/sources.md):
 * integers to the DuckDB integer that holds their range ({@code int unsigned} → {@code BIGINT},
 * {@code bigint unsigned} → {@code HUGEINT}), {@code tinyint(1)} and {@code bit(1)} → {@code BOOLEAN},
 * {@code decimal(p,s)} → {@code DECIMAL(p,s)} up to 38 digits (wider → {@code DOUBLE}), {@code datetime} →
 * {@code TIMESTAMP}, {@code timestamp} → {@code TIMESTAMPTZ} (read in UTC), {@code year} → {@code SMALLINT},
 * {@code enum(...)} → a DuckDB {@code ENUM} of the same labels, {@code set(...)} → text, {@code json} (and
 * MariaDB's {@code longtext} with a {@code json_valid} check) → {@code JSON}, binary types → {@code BLOB},
 * {@code uuid} → {@code UUID}. Geometry loads as WKT text, and any other type as text, each with a note.
 */
final class MariaDbDialect implements JdbcDialect {
    private static final Pattern DECIMAL = Pattern.compile("(?:decimal|numeric)\\((\\d+),(\\d+)\\).*");
    private static final Pattern ENUM_LABEL = Pattern.compile("'((?:[^']|'')*)'");
    private static final Set<String> TEXT = Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext",
            "set");
    private static final Set<String> BINARY = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob",
            "longblob");
    private static final Set<String> GEOMETRY = Set.of("geometry", "point", "linestring", "polygon", "multipoint",
            "multilinestring", "multipolygon", "geometrycollection");

    @Override
    public String label() {
        return "MySQL/MariaDB";
    }

    @Override
    public int defaultPort() {
        return 3306;
    }

    @Override
    public String standardPasswordEnv() {
        return "MYSQL_PWD";
    }

    @Override
    public String jdbcUrl(SourceUrl url) {
        return jdbcUrl("mariadb", url);
    }

    @Override
    public Properties properties(SourceUrl url, Credentials credentials, int connectTimeoutSeconds) {
        Properties p = JdbcDialect.driverProperties(url, credentials);
        p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds * 1000));
        // a server that accepts the connection but never answers must not hang the handshake either
        p.setProperty("socketTimeout", Integer.toString(connectTimeoutSeconds * 1000));
        p.setProperty("assureReadOnly", "true");
        p.setProperty("connectionTimeZone", "UTC");
        p.setProperty("forceConnectionTimeZoneToSession", "true");
        p.setProperty("tinyInt1isBit", "true");
        return p;
    }

    @Override
    public void stream(Connection c) throws SQLException {
        // reading may take long: the handshake's short socket timeout no longer applies
        c.setNetworkTimeout(Runnable::run, 0);
    }

    @Override
    public String defaultSchema(SourceUrl url) {
        return url.path();
    }

    @Override
    public String schemasSql() {
        return "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ('information_schema',"
                + " 'mysql', 'performance_schema', 'sys') ORDER BY SCHEMA_NAME";
    }

    @Override
    public String schemaMissingReason() {
        return " or is not readable";
    }

    @Override
    public String tablesSql() {
        return "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED') ORDER BY TABLE_NAME";
    }

    @Override
    public SourceTable table(Connection c, String schema, String name) throws SQLException {
        Set<String> json = jsonChecked(c, schema, name);
        List<SourceColumn> columns = new ArrayList<>();
        List<String> identity = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, EXTRA"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String col = rs.getString(1);
                    String dataType = rs.getString(2).toLowerCase(Locale.ROOT);
                    String columnType = rs.getString(3).toLowerCase(Locale.ROOT);
                    columns.add(column(schema + "." + name, col, dataType, rs.getString(3), columnType,
                            json.contains(col)));
                    String extra = rs.getString(4);
                    if (extra != null && extra.toLowerCase(Locale.ROOT).contains("auto_increment")) {
                        identity.add(col);
                    }
                }
            }
        }
        return new SourceTable(schema, name, columns, identity);
    }

    /** MariaDB's JSON is a longtext with a json_valid() check; MySQL's is a type of its own. */
    private static Set<String> jsonChecked(Connection c, String schema, String table) {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                Pattern p = Pattern.compile("(?i)json_valid\\(`((?:[^`]|``)+)`\\)");
                while (rs.next()) {
                    Matcher m = p.matcher(rs.getString(1));
                    if (m.matches()) {
                        out.add(m.group(1).replace("``", "`"));
                    }
                }
            }
        } catch (SQLException e) {
            // MySQL before 8.0.16 has no CHECK_CONSTRAINTS (nor MariaDB's JSON alias): nothing to detect
        }
        return out;
    }

    private SourceColumn column(String table, String col, String dataType, String columnTypeAsWritten,
                                String columnType, boolean jsonCheck) {
        String q = quote(col);
        boolean unsigned = columnType.contains("unsigned");
        DuckType t = switch (dataType) {
            case "tinyint" -> columnType.startsWith("tinyint(1)") && !unsigned ? DuckType.of(Kind.BOOLEAN)
                    : DuckType.of(Kind.SMALLINT);
            case "smallint" -> DuckType.of(unsigned ? Kind.INTEGER : Kind.SMALLINT);
            case "mediumint" -> DuckType.of(Kind.INTEGER);
            case "int", "integer" -> DuckType.of(unsigned ? Kind.BIGINT : Kind.INTEGER);
            case "bigint" -> DuckType.of(unsigned ? Kind.HUGEINT : Kind.BIGINT);
            case "float" -> DuckType.of(Kind.FLOAT);
            case "double", "real" -> DuckType.of(Kind.DOUBLE);
            case "decimal", "numeric" -> {
                Matcher m = DECIMAL.matcher(columnType);
                yield m.matches() && Integer.parseInt(m.group(1)) <= DuckType.MAX_DECIMAL_PRECISION
                        ? DuckType.decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))
                        : DuckType.of(Kind.DOUBLE);
            }
            case "date" -> DuckType.of(Kind.DATE);
            case "datetime" -> DuckType.of(Kind.TIMESTAMP);
            case "timestamp" -> DuckType.of(Kind.TIMESTAMPTZ);
            case "time" -> DuckType.of(Kind.TIME);
            case "year" -> DuckType.of(Kind.SMALLINT);
            case "json" -> DuckType.of(Kind.JSON);
            case "enum" -> DuckType.enumOf(enumLabels(columnTypeAsWritten));
            case "uuid" -> DuckType.of(Kind.UUID);
            case "bit" -> columnType.equals("bit(1)") ? DuckType.of(Kind.BOOLEAN) : DuckType.of(Kind.HUGEINT);
            default -> TEXT.contains(dataType) ? DuckType.of(jsonCheck ? Kind.JSON : Kind.VARCHAR)
                    : BINARY.contains(dataType) ? DuckType.of(Kind.BLOB) : null;
        };
        if (t != null) {
            String select = switch (t.kind()) {
                case DOUBLE -> dataType.equals("decimal") || dataType.equals("numeric") ? "CAST(" + q + " AS DOUBLE)" : q;
                case HUGEINT -> dataType.equals("bit") ? "CAST(" + q + " AS UNSIGNED)" : q;
                default -> q;
            };
            return new SourceColumn(col, columnType, t, select, null);
        }
        if (GEOMETRY.contains(dataType)) {
            return new SourceColumn(col, columnType, DuckType.of(Kind.VARCHAR), "ST_AsText(" + q + ")",
                    "column " + table + "." + col + " has type " + columnType
                            + ", which has no DuckDB mapping: loaded as text (WKT)");
        }
        return new SourceColumn(col, columnType, DuckType.of(Kind.VARCHAR), "CAST(" + q + " AS CHAR)",
                "column " + table + "." + col + " has type " + columnType + ", which has no DuckDB mapping: loaded as text");
    }

    /** The labels of {@code enum('a','it''s')}, in order. */
    static List<String> enumLabels(String columnType) {
        List<String> out = new ArrayList<>();
        Matcher m = ENUM_LABEL.matcher(columnType.substring(columnType.indexOf('(')));
        while (m.find()) {
            out.add(m.group(1).replace("''", "'"));
        }
        return out;
    }

    @Override
    public JdbcBatches.Reader instant() {
        // the session runs in UTC, so the wall time the server sends is the UTC instant
        return (rs, i, b, row) -> {
            LocalDateTime v = rs.getObject(i, LocalDateTime.class);
            return v == null ? JdbcBatches.nul(b, row) : JdbcBatches.add(b, row, JdbcBatches.micros(v.toInstant(ZoneOffset.UTC)));
        };
    }

    @Override
    public String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }
}
