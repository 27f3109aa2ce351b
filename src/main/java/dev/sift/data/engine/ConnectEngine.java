package dev.sift.data.engine;

import dev.sift.data.QueryException;
import dev.sift.data.SqlGuard;
import dev.sift.data.Workspace;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connect.SparkSession;
import org.apache.spark.sql.connect.client.RetryPolicy;
import org.apache.spark.sql.connect.client.SparkConnectClient;

import java.util.List;
import java.util.Map;

/**
 * Spark SQL through Spark Connect ({@code sc://host:15002}, also how Databricks is reached): Spark's own Connect client,
 * no Spark engine in this process. The guard asks the server for {@code EXPLAIN EXTENDED} of the statement (parsed and
 * analysed there, never run) and refuses a plan with any command or write node, before the statement itself is sent:
 * Connect runs a command as soon as it receives it. Queries carry an operation tag and are interrupted on the server
 * when the time is up. The token (from the URL, an environment variable or a credentials file) is sent as a bearer
 * token and never stored or shown.
 */
final class ConnectEngine extends SparkSqlEngine {
    private final SparkSession connect;
    private final String where;
    private final String address;

    ConnectEngine(EngineUrl url, Map<String, String> options, Map<String, String> env, Workspace.Limits limits) {
        this(open(url, ConnectToken.resolve(url, options, env)), url, options, limits);
    }

    private ConnectEngine(SparkSession connect, EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        super(connect, options, limits);
        this.connect = connect;
        this.where = url.where();
        this.address = url.stored();
        try {
            connect.conf().set("spark.sql.ansi.enabled", "true");
            connect.conf().set("spark.sql.ansi.doubleQuotedIdentifiers", "true");
            connect.catalog().setCurrentDatabase(database);
        } catch (Exception e) {
            connect.close();
            QueryException q = failure("Could not open database '" + database + "'", e);
            throw new IllegalArgumentException(q.kind() == QueryException.Kind.UNREACHABLE ? q.getMessage()
                    : "Spark database '" + database + "' does not exist on " + where + " (choose one with --database): "
                    + message(e));
        }
        try {
            registerLake();
        } catch (RuntimeException e) {
            connect.close();
            QueryException q = failure("Could not read the lake", e);
            throw q.kind() == QueryException.Kind.UNREACHABLE ? new IllegalArgumentException(q.getMessage()) : e;
        }
    }

    /** A Connect session; no retries, so a server that is down is said at once rather than after minutes of backoff. */
    private static SparkSession open(EngineUrl url, String token) {
        SparkConnectClient.Builder b = SparkConnectClient.builder().connectionString(url.stored())
                .userAgent("sift").retryPolicy(scala.jdk.javaapi.CollectionConverters.asScala(List.<RetryPolicy>of()).toList());
        if (token != null) {
            b = b.token(token);
        }
        return SparkSession.builder().client(b.build()).create();
    }

    @Override
    String label() {
        return where;
    }

    @Override
    QueryException failure(String doing, Throwable e) {
        String all = chain(e);
        if (all.contains("UNAUTHENTICATED") || all.contains("PERMISSION_DENIED")) {
            return new QueryException(QueryException.Kind.UNREACHABLE, where + " refused the token (" + (all.contains(
                    "UNAUTHENTICATED") ? "UNAUTHENTICATED" : "PERMISSION_DENIED") + "): give the right one with --password-env"
                    + " VAR or SPARK_CONNECT_AUTHENTICATE_TOKEN.");
        }
        if (all.contains("UNAVAILABLE") || all.contains("Connection refused")) {
            return new QueryException(QueryException.Kind.UNREACHABLE, "No Spark Connect server answers at " + address
                    + " (UNAVAILABLE): start it (start-connect-server.sh) or check the host and port.");
        }
        return super.failure(doing, e);
    }

    /** The messages of {@code e} and its causes, one line. */
    private static String chain(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null && b.length() < 4000; t = t.getCause() == t ? null : t.getCause()) {
            b.append(t.getClass().getSimpleName()).append(' ').append(t.getMessage()).append(' ');
        }
        return b.toString();
    }

    @Override
    public void check(String sql) throws QueryException {
        TextChecks.check(sql, dialect());
        String text = SqlGuard.withoutTerminator(sql);
        String plans;
        try {
            List<Row> explained = connect.sql("EXPLAIN EXTENDED " + text).collectAsList();
            plans = explained.isEmpty() ? "" : explained.get(0).getString(0);
        } catch (Exception e) {
            QueryException q = failure("SQL does not parse", e);
            throw q.kind() != QueryException.Kind.FAILED ? q : new QueryException(QueryException.Kind.INVALID,
                    "SQL does not parse on Spark SQL: " + message(e) + " Send one Spark SQL SELECT statement.");
        }
        String writer = ExplainedPlan.writer(plans);
        if (writer != null) {
            throw new QueryException(QueryException.Kind.REFUSED, TextChecks.refusal(sql, dialect())
                    + " (Spark's plan holds " + writer + ")");
        }
        try {
            connect.sql(text).schema(); // a read plan: analysed on the server, not run
        } catch (Exception e) {
            QueryException q = failure("SQL does not bind", e);
            if (q.kind() != QueryException.Kind.FAILED) {
                throw q;
            }
            String m = message(e);
            if (m.contains("TABLE_OR_VIEW_NOT_FOUND")) {
                m += " Tables on Spark SQL: " + tableNames() + ".";
            }
            throw new QueryException(QueryException.Kind.INVALID, "SQL does not bind on Spark SQL: " + m);
        }
    }

    @Override
    void begin(String tag) {
        connect.addTag(tag);
    }

    @Override
    void end(String tag) {
        connect.removeTag(tag);
    }

    @Override
    void cancel(String tag) {
        try {
            connect.interruptTag(tag);
        } catch (RuntimeException gone) {
            // the server went away: nothing runs there any more
        }
    }

    @Override
    String user() {
        return System.getProperty("user.name");
    }

    @Override
    public void close() {
        super.close();
        connect.close();
    }
}
