package dev.sift.data.engine;

import dev.sift.data.LiveEngine;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.SqlDialect;
import dev.sift.data.SqlGuard;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;
import dev.sift.data.Workspace;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Spark SQL as a live dataset, for a master URL ({@code spark://…}, {@code local[N]}): the same session API
 * whether the executors are threads of this process or a cluster. Each engine is its own session
 * ({@code newSession}: own configuration, shared catalog and SparkContext) with double-quoted identifiers.
 * The guard parses with Spark's parser and accepts only read plans (no command, no write), then analyses
 * ({@code sql()} binds the plan without running it). Queries run as a job group cancelled when the time is up;
 * Spark has no read-only session, so the read-plan check is what keeps writes out.
 */
final class SparkEngine extends CatalogEngine {
    /** Plan nodes that write, change the catalog or the session, whatever their base class. */
    private static final Pattern WRITES = Pattern.compile("(?i).*(Insert|Overwrite|Write|Merge|Update|Delete|Cache|Create"
            + "|Drop|Alter|Truncate|Refresh|Repair|Load|Comment|Grant|Revoke|SetCatalog|SetNamespace|Command|Statement).*");

    private final String database;
    private final SparkSession session;
    private final ExecutorService runner;

    SparkEngine(EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        super(options, limits);
        this.database = options.getOrDefault("database", "default");
        LocalSpark.initLogging();
        // one SparkContext per process (Spark's rule); each engine gets a session of its own on it
        SparkSession.Builder builder = SparkSession.builder().master(url.sparkUrl()).appName("sift")
                .config("spark.ui.enabled", "false")
                .config("spark.metrics.conf.*.sink.servlet.class", NoMetricsServlet.class.getName());
        // a remote cluster's executors must reach the driver on an address they can route to: loopback only here
        SparkSession base = (LocalSpark.onThisHost(url.sparkUrl()) ? LocalSpark.loopback(builder) : builder).getOrCreate();
        this.session = base.newSession();
        session.conf().set("spark.sql.ansi.enabled", "true");
        session.conf().set("spark.sql.ansi.doubleQuotedIdentifiers", "true");
        try {
            session.catalog().setCurrentDatabase(database);
        } catch (Exception e) {
            throw new IllegalArgumentException("Spark database '" + database + "' does not exist on " + url
                    + " (choose one with --database): " + message(e));
        }
        this.runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sift-spark-query");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public SqlDialect dialect() {
        return SqlDialect.SPARK;
    }

    @Override
    public void check(String sql) throws QueryException {
        TextChecks.check(sql, dialect());
        String text = SqlGuard.withoutTerminator(sql);
        LogicalPlan plan;
        try {
            // the parser reads the active session's configuration (double-quoted identifiers): make it this one
            SparkSession.setActiveSession(session);
            plan = session.sessionState().sqlParser().parsePlan(text);
        } catch (Exception e) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not parse on Spark SQL: " + message(e)
                    + " Send one Spark SQL SELECT statement.");
        }
        String writer = writer(plan);
        if (writer != null) {
            throw new QueryException(QueryException.Kind.REFUSED, TextChecks.refusal(sql, dialect())
                    + " (Spark's plan holds " + writer + ")");
        }
        try {
            session.sql(text); // analyses (binds names and types) without running: the plan is a query
        } catch (Exception e) {
            String m = message(e);
            if (m.contains("TABLE_OR_VIEW_NOT_FOUND")) {
                m += " Tables on Spark SQL: " + tableNames() + ".";
            }
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not bind on Spark SQL: " + m);
        }
    }

    /** The first node of the parsed plan that is not a read (a command or a write), or null. */
    private static String writer(LogicalPlan plan) {
        String name = plan.getClass().getSimpleName();
        if (plan instanceof Command || WRITES.matcher(name).matches()) {
            return name;
        }
        for (LogicalPlan child : scala.jdk.javaapi.CollectionConverters.asJava(plan.children())) {
            String w = writer(child);
            if (w != null) {
                return w;
            }
        }
        return null;
    }

    private static String message(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int plan = m.indexOf("\n== SQL");
        m = plan > 0 ? m.substring(0, plan) : m;
        return m.replaceAll("\\s*\\n\\s*", " ").trim();
    }

    @Override
    public boolean run(String sql, int maxRows, RowSink sink) throws QueryException {
        Dataset<Row> df;
        try {
            df = session.sql(SqlGuard.withoutTerminator(sql));
        } catch (Exception e) {
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not bind on Spark SQL: " + message(e));
        }
        StructField[] fields = df.schema().fields();
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
        List<Row> rows = timed(() -> cut.limit(maxRows + 1).collectAsList());
        sink.columns(columns);
        int n = Math.min(rows.size(), maxRows);
        for (int r = 0; r < n; r++) {
            Row row = rows.get(r);
            Object[] values = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                values[i] = value(row.isNullAt(i) ? null : row.get(i));
            }
            if (cells.any()) {
                cells.tally(k -> row.isNullAt(fields.length + k) ? null : ((Number) row.get(fields.length + k)).longValue());
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

    /** Runs a Spark action as a job group of its own, cancelled on the cluster when the time limit passes. */
    private <T> T timed(java.util.concurrent.Callable<T> action) throws QueryException {
        String group = "sift-" + UUID.randomUUID();
        Future<T> f = runner.submit(() -> {
            session.sparkContext().setJobGroup(group, "sift query", true);
            try {
                return action.call();
            } finally {
                session.sparkContext().clearJobGroup();
            }
        });
        try {
            return f.get(limits.queryTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            session.sparkContext().cancelJobGroup(group);
            f.cancel(true);
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled on Spark SQL after the time limit of "
                    + Math.max(1, limits.queryTimeout().toSeconds()) + " s. Aggregate more, filter earlier, or avoid cross joins.");
        } catch (ExecutionException e) {
            throw new QueryException(QueryException.Kind.FAILED, "Query failed on Spark SQL: " + message(e.getCause()));
        } catch (InterruptedException e) {
            session.sparkContext().cancelJobGroup(group);
            Thread.currentThread().interrupt();
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query interrupted on Spark SQL.");
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

    /** Tables of the database with columns, counts (the catalog's statistics, else a timed count) and samples. */
    @Override
    EngineFile describe(String storedUrl) throws QueryException {
        List<EngineFile.Table> tables = new ArrayList<>();
        List<org.apache.spark.sql.catalog.Table> listed;
        try {
            listed = session.catalog().listTables(database).collectAsList();
        } catch (Exception e) {
            throw new QueryException(QueryException.Kind.FAILED, "Could not list the tables of Spark database '" + database
                    + "': " + message(e));
        }
        for (org.apache.spark.sql.catalog.Table t : listed) {
            if (t.isTemporary()) {
                continue; // another session's temporary view is not part of the dataset
            }
            String name = t.name();
            String q = Sql.quoteIdent(name);
            StructField[] fields = session.table("`" + name.replace("`", "``") + "`").schema().fields();
            long rows = count("SELECT * FROM " + q);
            List<Row> sample = timed(() -> session.sql("SELECT * FROM " + q + " LIMIT 200").collectAsList());
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
        EngineFile.Access access = new EngineFile.Access(session.sparkContext().sparkUser(), null, List.of("Spark SQL has no"
                + " read-only session, so Sift cannot tell what the cluster's account may write"));
        return new EngineFile(EngineFile.VERSION, storedUrl, options, dialect().name(), java.time.Instant.now().toString(),
                tables, List.of(), access);
    }

    @Override
    public void close() {
        closeRenderer();
        runner.shutdownNow(); // the SparkContext stays for the process: other sessions share it
    }
}
