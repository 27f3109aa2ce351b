package dev.sift.data.engine;

import dev.sift.data.QueryException;
import dev.sift.data.SqlGuard;
import dev.sift.data.Workspace;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.SparkSession;

import java.util.Map;

/**
 * Spark SQL as a live dataset, for a master URL ({@code spark://…}, {@code local[N]}): the same session API
 * whether the executors are threads of this process or a cluster. Each engine is its own session
 * ({@code newSession}: own configuration, shared catalog and SparkContext) with double-quoted identifiers.
 * The guard parses with Spark's parser and accepts only read plans (no command, no write), then analyses
 * ({@code sql()} binds the plan without running it). Queries run as a job group cancelled when the time is up;
 * Spark has no read-only session, so the read-plan check is what keeps writes out.
 */
final class SparkEngine extends SparkSqlEngine {
    private final SparkSession classic;

    SparkEngine(EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        this(open(url), url, options, limits);
    }

    private SparkEngine(SparkSession classic, EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        super(classic, options, limits);
        this.classic = classic;
        classic.conf().set("spark.sql.ansi.enabled", "true");
        classic.conf().set("spark.sql.ansi.doubleQuotedIdentifiers", "true");
        try {
            classic.catalog().setCurrentDatabase(database);
        } catch (Exception e) {
            throw new IllegalArgumentException("Spark database '" + database + "' does not exist on " + url
                    + " (choose one with --database): " + message(e));
        }
        registerLake();
    }

    /** One SparkContext per process (Spark's rule); each engine gets a session of its own on it. */
    private static SparkSession open(EngineUrl url) {
        LocalSpark.initLogging();
        SparkSession.Builder builder = SparkSession.builder().master(url.sparkUrl()).appName("sift")
                .config("spark.ui.enabled", "false")
                .config("spark.metrics.conf.*.sink.servlet.class", NoMetricsServlet.class.getName());
        // a remote cluster's executors must reach the driver on an address they can route to: loopback only here
        return (LocalSpark.onThisHost(url.sparkUrl()) ? LocalSpark.loopback(builder) : builder).getOrCreate().newSession();
    }

    @Override
    public void check(String sql) throws QueryException {
        TextChecks.check(sql, dialect());
        String text = SqlGuard.withoutTerminator(sql);
        LogicalPlan plan;
        try {
            // the parser reads the active session's configuration (double-quoted identifiers): make it this one
            SparkSession.setActiveSession(classic);
            plan = classic.sessionState().sqlParser().parsePlan(text);
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
            classic.sql(text); // analyses (binds names and types) without running: the plan is a query
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

    @Override
    void begin(String tag) {
        classic.sparkContext().setJobGroup(tag, "sift query", true);
    }

    @Override
    void end(String tag) {
        classic.sparkContext().clearJobGroup();
    }

    @Override
    void cancel(String tag) {
        classic.sparkContext().cancelJobGroup(tag);
    }

    @Override
    String user() {
        return classic.sparkContext().sparkUser();
    }
}
