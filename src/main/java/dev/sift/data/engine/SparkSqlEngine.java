package dev.sift.data.engine;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.SqlDialect;
import dev.sift.data.SqlGuard;
import dev.sift.data.Workspace;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * What Spark SQL engines share, whether the session is in this process ({@link SparkEngine}) or a Spark Connect
 * client ({@link ConnectEngine}): Spark's session API for running, counting and describing the catalog, results as
 * DuckDB types, and a time limit that cancels the query on the cluster. Subclasses open the session, guard the SQL
 * and say how a running query is tagged and cancelled.
 */
abstract class SparkSqlEngine extends CatalogEngine {
    /** Plan nodes that write, change the catalog or the session, whatever their base class. */
    static final Pattern WRITES = Pattern.compile("(?i).*(Insert|Overwrite|Write|Merge|Update|Delete|Cache|Create"
            + "|Drop|Alter|Truncate|Refresh|Repair|Load|Comment|Grant|Revoke|SetCatalog|SetNamespace|Command|Statement).*");

    protected final String database;
    protected final SparkSession session;
    /** The tables of {@code --lake}, registered as temporary views of this session ({@link #registerLake()}). */
    private List<LakeTables.Table> lake = List.of();
    private final ExecutorService runner;

    SparkSqlEngine(SparkSession session, Map<String, String> options, Workspace.Limits limits) {
        super(options, limits);
        this.session = session;
        this.database = options.getOrDefault("database", "default");
        this.runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sift-spark-query");
            t.setDaemon(true);
            return t;
        });
    }

    /** Registers the lake's tables in this session; subclasses call it once the session is set up. */
    void registerLake() {
        if (options.containsKey("lake")) {
            lake = LakeTables.find(options.get("lake"));
            LakeTables.register(session, lake);
        }
    }

    /** Marks the queries the current thread starts with {@code tag}. */
    abstract void begin(String tag);

    abstract void end(String tag);

    /** Cancels the running queries marked {@code tag} on the cluster. */
    abstract void cancel(String tag);

    /** Who the session runs as, for the access note. */
    abstract String user();

    /** The engine in messages: "Spark SQL", "Spark Connect at sc://…". */
    String label() {
        return "Spark SQL";
    }

    /** The message of a failure in the engine's terms; subclasses recognise an unreachable engine. */
    QueryException failure(String doing, Throwable e) {
        return new QueryException(QueryException.Kind.FAILED, doing + " on " + label() + ": " + message(e));
    }

    @Override
    public SqlDialect dialect() {
        return SqlDialect.SPARK;
    }

    static String message(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int plan = m.indexOf("\n== SQL");
        m = plan > 0 ? m.substring(0, plan) : m;
        return m.replaceAll("\\s*\\n\\s*", " ").trim();
    }

    @Override
    public boolean run(String sql, int maxRows, RowSink sink) throws QueryException {
        Dataset<Row> df;
        StructField[] fields;
        try {
            df = session.sql(SqlGuard.withoutTerminator(sql));
            fields = df.schema().fields();
        } catch (Exception e) {
            QueryException q = failure("SQL does not bind", e);
            throw q.kind() == QueryException.Kind.FAILED ? new QueryException(QueryException.Kind.INVALID, q.getMessage()) : q;
        }
        List<QueryResult.Column> columns = new ArrayList<>();
        EngineCells.Kind[] kinds = new EngineCells.Kind[fields.length];
        for (int i = 0; i < fields.length; i++) {
            columns.add(new QueryResult.Column(fields[i].name(), duckType(fields[i].dataType())));
            kinds[i] = kind(fields[i].dataType());
        }
        EngineCells cells = new EngineCells(columns, kinds, limits);
        // wide values are cut by the executors, so a long one never reaches this process whole
        Dataset<Row> cut = !cells.any() ? df : df.toDF(cells.names().toArray(String[]::new))
                .selectExpr(cells.select(EngineCells.Dialect.SPARK).toArray(String[]::new));
        Dataset<Row> capped = cut.limit(maxRows + 1);
        List<Row> rows = timed(capped::collectAsList);
        sink.columns(columns);
        int n = Math.min(rows.size(), maxRows);
        for (int r = 0; r < n; r++) {
            Row row = rows.get(r);
            Object[] values = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                values[i] = value(row.isNullAt(i) ? null : row.get(i));
            }
            if (cells.any()) {
                int width = values.length;
                cells.tally(k -> row.isNullAt(width + k) ? null : ((Number) row.get(width + k)).longValue());
            }
            sink.row(values);
        }
        sink.cuts(cells.cuts());
        return rows.size() > maxRows;
    }

    /** Strings are cut as text, binaries as bytes; a list, map or struct over the budget comes back NULL. */
    private static EngineCells.Kind kind(DataType t) {
        if (!duckType(t).equals("VARCHAR")) {
            return EngineCells.Kind.PLAIN;
        }
        return switch (t.typeName()) {
            case "string" -> EngineCells.Kind.TEXT;
            case "binary" -> EngineCells.Kind.BYTES;
            default -> t.typeName().startsWith("char") || t.typeName().startsWith("varchar") ? EngineCells.Kind.TEXT
                    : EngineCells.Kind.WHOLE;
        };
    }

    /** Runs a Spark action under a tag of its own, cancelled on the cluster when the time limit passes. */
    <T> T timed(Callable<T> action) throws QueryException {
        String tag = "sift-" + UUID.randomUUID();
        Future<T> f = runner.submit(() -> {
            begin(tag);
            try {
                return action.call();
            } finally {
                end(tag);
            }
        });
        try {
            return f.get(limits.queryTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            cancel(tag);
            f.cancel(true);
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled on " + label() + " after the time limit of "
                    + Math.max(1, limits.queryTimeout().toSeconds()) + " s. Aggregate more, filter earlier, or avoid cross joins.");
        } catch (ExecutionException e) {
            throw failure("Query failed", e.getCause());
        } catch (InterruptedException e) {
            cancel(tag);
            Thread.currentThread().interrupt();
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query interrupted on " + label() + ".");
        }
    }

    @Override
    public long count(String sql) {
        try {
            return timed(() -> session.sql(SqlGuard.withoutTerminator(sql)).count());
        } catch (QueryException | RuntimeException e) {
            return -1;
        }
    }

    static String duckType(DataType t) {
        return switch (t.typeName()) {
            case "byte", "short", "integer", "long" -> "BIGINT";
            case "float", "double" -> "DOUBLE";
            case "boolean" -> "BOOLEAN";
            case "date" -> "DATE";
            case "timestamp", "timestamp_ntz" -> "TIMESTAMP";
            default -> t.typeName().startsWith("decimal") ? "DOUBLE" : "VARCHAR";
        };
    }

    private static Object value(Object v) {
        if (v == null || v instanceof Long || v instanceof Double || v instanceof Boolean || v instanceof String) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float || v instanceof BigDecimal) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof java.sql.Timestamp ts) {
            return ts.toLocalDateTime();
        }
        if (v instanceof LocalDate || v instanceof LocalDateTime) {
            return v;
        }
        if (v instanceof java.time.Instant i) {
            return LocalDateTime.ofInstant(i, java.time.ZoneOffset.UTC);
        }
        return v.toString();
    }

    /** Tables of the database with columns, counts (a timed count) and a sample value per column. */
    @Override
    EngineFile describe(String storedUrl) throws QueryException {
        List<EngineFile.Table> tables = new ArrayList<>();
        List<org.apache.spark.sql.catalog.Table> listed;
        try {
            listed = session.catalog().listTables(database).collectAsList();
        } catch (Exception e) {
            throw failure("Could not list the tables of Spark database '" + database + "'", e);
        }
        List<String> names = new ArrayList<>(lake.stream().map(LakeTables.Table::name).toList());
        for (org.apache.spark.sql.catalog.Table t : listed) {
            // a temporary view is not part of the dataset unless it is one of the lake's; a lake table shadows its name
            if (!t.isTemporary() && !names.contains(t.name())) {
                names.add(t.name());
            }
        }
        for (String name : names) {
            String q = Sql.quoteIdent(name);
            StructField[] fields = session.table("`" + name.replace("`", "``") + "`").schema().fields();
            long rows = count("SELECT * FROM " + q);
            Dataset<Row> head = session.sql("SELECT * FROM " + q + " LIMIT 200");
            List<Row> sample = timed(head::collectAsList);
            List<EngineFile.Column> columns = new ArrayList<>();
            for (int i = 0; i < fields.length; i++) {
                String s = null;
                for (Row r : sample) {
                    if (!r.isNullAt(i)) {
                        s = String.valueOf(value(r.get(i)));
                        break;
                    }
                }
                columns.add(new EngineFile.Column(fields[i].name(), fields[i].dataType().sql(),
                        duckType(fields[i].dataType()), s));
            }
            tables.add(new EngineFile.Table(name, rows, false, columns, List.of()));
        }
        EngineFile.Access access = new EngineFile.Access(user(), null, List.of("Spark SQL has no"
                + " read-only session, so Sift cannot tell what the cluster's account may write"));
        return new EngineFile(EngineFile.VERSION, storedUrl, options, dialect().name(), java.time.Instant.now().toString(),
                tables, List.of(), access);
    }

    @Override
    public void close() {
        closeRenderer();
        runner.shutdownNow();
    }
}
