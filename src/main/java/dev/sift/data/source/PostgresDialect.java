package dev.sift.data.source;

import dev.sift.data.source.DuckType.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL through its JDBC driver: {@code postgresql://user@host:port/db[?schema=a,b]} (default schema
 * {@code public}). The type mapping (also in docs/sources.md): integers, floats, booleans, text, dates,
 * times and timestamps map to their DuckDB twins ({@code timestamptz} to {@code TIMESTAMPTZ}, the same instant);
 * {@code numeric(p,s)} to {@code DECIMAL(p,s)} up to 38 digits, wider or unconstrained {@code numeric} to
 * {@code DOUBLE}; {@code money} to {@code DECIMAL(19,2)}; {@code uuid} to {@code UUID}; {@code json}/{@code jsonb}
 * to {@code JSON}; {@code bytea} to {@code BLOB}; {@code interval} to {@code INTERVAL}; enums to a DuckDB
 * {@code ENUM} of the same labels; composite types to {@code JSON}; arrays to {@code LIST}s (integers, floats,
 * booleans and text keep their element type, other elements load as text); domains as their base type.
 * Any other type loads as text with a note naming it. Live datasets ({@code dev.sift.data.engine}) connect
 * through the same URL, credentials and driver properties.
 */
public final class PostgresDialect implements JdbcDialect {
    public static final String DEFAULT_SCHEMA = "public";
    private static final Pattern NUMERIC = Pattern.compile("numeric\\((\\d+),(\\d+)\\)");
    private static final Set<String> TEXT = Set.of("text", "varchar", "bpchar", "name", "char", "citext");

    @Override
    public String label() {
        return "PostgreSQL";
    }

    @Override
    public int defaultPort() {
        return 5432;
    }

    @Override
    public String standardPasswordEnv() {
        return "PGPASSWORD";
    }

    @Override
    public String jdbcUrl(SourceUrl url) {
        return jdbcUrl("postgresql", url);
    }

    @Override
    public Properties properties(SourceUrl url, Credentials credentials, int connectTimeoutSeconds) {
        Properties p = JdbcDialect.driverProperties(url, credentials);
        p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        p.setProperty("loginTimeout", Integer.toString(connectTimeoutSeconds));
        p.setProperty("ApplicationName", "sift");
        p.setProperty("readOnly", "true");
        // binary transfer from the first execution: numbers, dates and timestamps arrive unparsed (about a third
        // faster to copy than text, which the driver would parse value by value)
        p.putIfAbsent("prepareThreshold", "-1");
        return p;
    }

    @Override
    public String defaultSchema(SourceUrl url) {
        return DEFAULT_SCHEMA;
    }

    @Override
    public String schemasSql() {
        return "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'"
                + " ORDER BY nspname";
    }

    @Override
    public String tablesSql() {
        return "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ?"
                + " AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition ORDER BY c.relname";
    }

    @Override
    public SourceTable table(Connection c, String schema, String name) throws SQLException {
        String sql = "SELECT a.attname, bt.typname, format_type(bt.oid, CASE WHEN t.typtype = 'd' THEN t.typtypmod"
                + " ELSE a.atttypmod END), bt.typtype, bt.typcategory, et.typname, et.typtype, bt.oid,"
                + " a.attidentity IN ('a', 'd') OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%'"
                + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid"
                + " JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END"
                + " LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'"
                + " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
        List<SourceColumn> columns = new ArrayList<>();
        List<String> identity = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String col = rs.getString(1);
                    Type type = new Type(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getLong(8));
                    columns.add(column(c, schema + "." + name, col, type));
                    if (rs.getBoolean(9)) {
                        identity.add(col);
                    }
                }
            }
        }
        return new SourceTable(schema, name, columns, identity);
    }

    /** A column's type as the catalog gives it (for a domain, its base type). */
    record Type(String name, String formatted, String typtype, String category, String element, String elementTyptype,
                long oid) { }

    private SourceColumn column(Connection c, String table, String col, Type t) throws SQLException {
        String q = quote(col);
        if ("e".equals(t.typtype())) {
            return new SourceColumn(col, t.formatted(), DuckType.enumOf(enumLabels(c, t.oid())), q + "::text", null);
        }
        if ("c".equals(t.typtype())) {
            return new SourceColumn(col, t.formatted(), DuckType.of(Kind.JSON), "to_json(" + q + ")::text", null);
        }
        if ("A".equals(t.category()) && t.element() != null) {
            return array(col, t, q);
        }
        DuckType mapped = scalar(t.name());
        if (mapped != null) {
            String select = switch (mapped.kind()) {
                case INTERVAL -> q + "::text";
                default -> q;
            };
            return new SourceColumn(col, t.formatted(), mapped, select, null);
        }
        if (t.name().equals("numeric")) {
            Matcher m = NUMERIC.matcher(t.formatted());
            if (m.matches() && Integer.parseInt(m.group(1)) <= DuckType.MAX_DECIMAL_PRECISION) {
                return new SourceColumn(col, t.formatted(),
                        DuckType.decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))), q, null);
            }
            return new SourceColumn(col, t.formatted(), DuckType.of(Kind.DOUBLE), q + "::float8", null);
        }
        if (t.name().equals("money")) {
            return new SourceColumn(col, t.formatted(), DuckType.decimal(19, 2), q + "::numeric", null);
        }
        return new SourceColumn(col, t.formatted(), DuckType.of(Kind.VARCHAR), q + "::text",
                "column " + table + "." + col + " has type " + t.formatted() + ", which has no DuckDB mapping: loaded as text");
    }

    private static final Map<String, Kind> SCALARS = Map.ofEntries(
            Map.entry("bool", Kind.BOOLEAN), Map.entry("int2", Kind.SMALLINT), Map.entry("int4", Kind.INTEGER),
            Map.entry("int8", Kind.BIGINT), Map.entry("oid", Kind.BIGINT), Map.entry("float4", Kind.FLOAT),
            Map.entry("float8", Kind.DOUBLE), Map.entry("json", Kind.JSON), Map.entry("jsonb", Kind.JSON),
            Map.entry("uuid", Kind.UUID), Map.entry("date", Kind.DATE), Map.entry("time", Kind.TIME),
            Map.entry("timestamp", Kind.TIMESTAMP), Map.entry("timestamptz", Kind.TIMESTAMPTZ),
            Map.entry("interval", Kind.INTERVAL), Map.entry("bytea", Kind.BLOB));

    private static DuckType scalar(String typname) {
        if (TEXT.contains(typname)) {
            return DuckType.of(Kind.VARCHAR);
        }
        Kind k = SCALARS.get(typname);
        return k == null ? null : DuckType.of(k);
    }

    /** Arrays: the element type is kept for numbers, booleans and text; other elements load as text. */
    private SourceColumn array(String col, Type t, String q) {
        String e = t.element();
        if ("e".equals(t.elementTyptype())) {
            e = "text"; // an enum array: its labels as text
        }
        DuckType element;
        String cast;
        switch (e) {
            case "int2", "int4" -> {
                element = DuckType.of(Kind.INTEGER);
                cast = "::int4[]";
            }
            case "int8" -> {
                element = DuckType.of(Kind.BIGINT);
                cast = "";
            }
            case "float4", "float8", "numeric" -> {
                element = DuckType.of(Kind.DOUBLE);
                cast = "::float8[]";
            }
            case "bool" -> {
                element = DuckType.of(Kind.BOOLEAN);
                cast = "";
            }
            default -> {
                element = DuckType.of(Kind.VARCHAR);
                cast = "::text[]";
            }
        }
        return new SourceColumn(col, t.formatted(), DuckType.listOf(element), q + cast, null);
    }

    private static List<String> enumLabels(Connection c, long typeOid) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT enumlabel FROM pg_enum WHERE enumtypid = ? ORDER BY enumsortorder")) {
            ps.setLong(1, typeOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    @Override
    public String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
