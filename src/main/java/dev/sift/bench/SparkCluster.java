package dev.sift.bench;

import dev.sift.data.engine.LocalSpark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark standalone cluster on this host: a master and workers (one core, 512 MB each), and optionally a Spark
 * Connect server driving it, each a JVM of its own started from this process's classpath (the Spark build's jars).
 * Every process binds to and advertises 127.0.0.1 ({@code SPARK_LOCAL_IP}, {@code --host}); web UIs listen on
 * loopback ports. Closing stops every process it started, executors included; a shutdown hook does the same if the
 * JVM exits first. Logs are under {@code dir/logs}.
 */
public final class SparkCluster implements AutoCloseable {
    /** System property naming the file {@link TaskExecutors} appends executor ids to. */
    static final String EXECUTORS_FILE = "sift.bench.executors";
    private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");
    private static final Duration START = Duration.ofMinutes(3);

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();
    private final Thread hook = new Thread(this::stopAll, "sift-spark-cluster-stop");
    private int masterPort;
    private int connectPort = -1;
    private Process connect;

    private SparkCluster(Path dir) {
        this.dir = dir;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Whether the Spark jars (master, worker) are on this process's classpath. */
    public static boolean available() {
        try {
            Class.forName("org.apache.spark.deploy.master.Master", false, SparkCluster.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the Spark Connect server's jar is beside Sift's ({@code spark-processes/}) and its client is loadable. */
    public static boolean connectAvailable() {
        try (var jars = Files.list(processJars())) {
            Class.forName("org.apache.spark.sql.connect.SparkSession", false, SparkCluster.class.getClassLoader());
            return jars.anyMatch(p -> p.getFileName().toString().startsWith("spark-connect_"));
        } catch (IOException | ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Starts a master and {@code workers} workers and waits until all workers have registered. With {@code token}
     * non-null, also a Spark Connect server on the cluster that requires that token ("" for none). With no workers,
     * only a Connect server on {@code local[2]} in its own process.
     */
    public static SparkCluster start(Path dir, int workers, String token) throws IOException, InterruptedException {
        if (!available()) {
            throw new IllegalStateException("The Spark jars are not on the classpath: build with -Pspark.");
        }
        // this process talks to the cluster's processes only: Spark's name for this host is the loopback address too
        // (else Spark, asked for it, looks for a non-loopback interface and warns "… using 192.0.2.2 instead")
        org.apache.spark.util.Utils.setCustomHostname(LocalSpark.LOOPBACK);
        SparkCluster c = new SparkCluster(dir);
        try {
            Files.createDirectories(dir.resolve("logs"));
            Files.createDirectories(dir.resolve("spark-home/jars")); // the launcher's jar folder; the classpath is ours
            if (workers == 0) { // a Connect server alone, its executor a thread of its own process
                c.startConnect(token == null ? "" : token);
                return c;
            }
            c.masterPort = freePort();
            int masterUi = freePort();
            c.processes.add(c.java("master", List.of("org.apache.spark.deploy.master.Master", "--host", LocalSpark.LOOPBACK,
                    "--port", String.valueOf(c.masterPort), "--webui-port", String.valueOf(masterUi)), Map.of()));
            waitForPort(c.masterPort, c.processes.get(0), c.log("master"));
            for (int i = 0; i < workers; i++) {
                Path work = Files.createDirectories(dir.resolve("work-" + i));
                Process w = c.java("worker-" + i, List.of("org.apache.spark.deploy.worker.Worker", "--host", LocalSpark.LOOPBACK,
                        "--cores", "1", "--memory", "512m", "--webui-port", String.valueOf(freePort()), "--work-dir",
                        work.toString(), c.masterUrl()), Map.of());
                c.processes.add(w);
                c.workers.add(w);
            }
            c.waitForWorkers(masterUi, workers);
            if (token != null) {
                c.startConnect(token);
            }
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void startConnect(String token) throws IOException, InterruptedException {
        connectPort = freePort();
        Path warehouse = Files.createDirectories(dir.resolve("warehouse"));
        List<String> args = new ArrayList<>(List.of("-Dspark.master=" + (workers.isEmpty() ? "local[2]" : masterUrl()),
                "-Dspark.app.name=sift-connect",
                "-Dspark.connect.grpc.binding.address=" + LocalSpark.LOOPBACK,
                "-Dspark.connect.grpc.binding.port=" + connectPort,
                "-Dspark.sql.warehouse.dir=" + warehouse, "-Dspark.ui.enabled=false",
                "-D" + EXECUTORS_FILE + "=" + executorsFile(),
                "-Dspark.extraListeners=" + TaskExecutors.class.getName(),
                "org.apache.spark.sql.connect.service.SparkConnectServer"));
        args.addAll(0, driverOptions());
        // the token goes through the environment, never a command line that ps would show
        connect = java("connect", args, token.isEmpty() ? Map.of() : Map.of("SPARK_CONNECT_AUTHENTICATE_TOKEN", token));
        processes.add(connect);
        waitForPort(connectPort, connect, log("connect"));
    }

    /**
     * The settings a driver on this cluster needs (as JVM options): driver on loopback, executors of 512 MB and one
     * core each, on the Spark processes' classpath ({@link #classpath()}). Not this process's own: it carries the Connect
     * client, whose copies of Spark SQL classes (built on shaded Arrow) would shadow those the driver serialized its
     * functions from, and lacks the Connect server's jar; an executor then fails to deserialize a task ("cannot assign
     * instance of java.lang.invoke.SerializedLambda to field org.apache.spark.rdd.MapPartitionsRDD.f").
     */
    static List<String> driverOptions() {
        return List.of("-Dspark.driver.host=" + LocalSpark.LOOPBACK, "-Dspark.driver.bindAddress=" + LocalSpark.LOOPBACK,
                "-Dspark.executor.memory=512m", "-Dspark.executor.cores=1", "-Dspark.sql.shuffle.partitions=2",
                "-Dspark.executor.extraClassPath=" + classpath());
    }

    /** {@link #driverOptions()} as configuration pairs, for a driver in this process. */
    public static Map<String, String> driverConf() {
        Map<String, String> conf = new java.util.LinkedHashMap<>();
        for (String o : driverOptions()) {
            int eq = o.indexOf('=');
            conf.put(o.substring(2, eq), o.substring(eq + 1));
        }
        return conf;
    }

    private Process java(String name, List<String> args, Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", classpath()));
        cmd.addAll(List.of(org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptionArray()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(log(name).toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("SPARK_") || k.startsWith("SIFT_"));
        e.put("SPARK_LOCAL_IP", LocalSpark.LOOPBACK);
        e.put("SPARK_LOCAL_HOSTNAME", LocalSpark.LOOPBACK);
        e.put("SPARK_PUBLIC_DNS", LocalSpark.LOOPBACK);
        e.put("SPARK_HOME", dir.resolve("spark-home").toString());
        e.put("SPARK_SCALA_VERSION", "2.13");
        e.put("SPARK_EXECUTOR_OPTS", "-XX:+UseSerialGC");
        e.putAll(env);
        return pb.start();
    }

    /**
     * The classpath of the Spark processes: the jars of {@code target/spark-processes/} (beside Sift's jar or classes:
     * Servlet 5 for the web UIs, the Connect server), then this process's classpath without the Connect client, whose
     * classes share names with the server's.
     */
    static String classpath() {
        List<String> entries = new ArrayList<>();
        try (var jars = Files.list(processJars())) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
        } catch (IOException e) {
            throw new IllegalStateException("Spark's processes need the jars of " + processJars() + " (made by 'mvn -Pspark"
                    + " package'): " + e.getMessage());
        }
        for (String e : expanded(System.getProperty("java.class.path"))) {
            if (!e.contains("spark-connect-client-jvm")) {
                entries.add(e);
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** The entries of a classpath, a manifest-only jar's (as Maven's test runner passes it) listed one by one. */
    private static List<String> expanded(String classpath) {
        List<String> out = new ArrayList<>();
        for (String e : classpath.split(java.io.File.pathSeparator)) {
            String listed = null;
            if (e.endsWith(".jar") && Files.isRegularFile(Path.of(e))) {
                try (java.util.jar.JarFile jar = new java.util.jar.JarFile(e)) {
                    java.util.jar.Manifest m = jar.getManifest();
                    listed = m == null ? null : m.getMainAttributes().getValue("Class-Path");
                } catch (IOException unreadable) {
                    listed = null;
                }
            }
            if (listed == null || listed.isBlank()) {
                out.add(e);
                continue;
            }
            for (String url : listed.trim().split("\\s+")) {
                try {
                    out.add(Path.of(Path.of(e).toUri().resolve(url)).toString());
                } catch (RuntimeException notAFile) {
                    // a manifest entry that names no local file: skip it
                }
            }
        }
        return out;
    }

    /** {@code spark-processes/} beside the jar or the classes folder this class came from. */
    private static Path processJars() {
        try {
            Path here = Path.of(SparkCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.getParent().resolve("spark-processes");
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of("target", "spark-processes");
        }
    }

    /** The last lines of a process's log, for the message when it exits while starting. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private Path log(String name) {
        return dir.resolve("logs").resolve(name + ".log");
    }

    /** The file the Connect server's listener writes the ids of executors that ran tasks to, one a line. */
    Path executorsFile() {
        return dir.resolve("executors.txt");
    }

    /** The ids of the executors that have run tasks for the Connect server's driver so far (or a driver given the file). */
    public List<String> executorsThatRanTasks() throws IOException {
        return TaskExecutors.read(executorsFile());
    }

    public String masterUrl() {
        return "spark://" + LocalSpark.LOOPBACK + ":" + masterPort;
    }

    /**
     * {@code sc://localhost:PORT} (the server listens on 127.0.0.1); only when started with a Connect server. Spark's
     * client sends a token in plain text only to {@code localhost}, to any other host over TLS.
     */
    public String connectUrl() {
        if (connect == null) {
            throw new IllegalStateException("this cluster has no Spark Connect server");
        }
        return "sc://localhost:" + connectPort;
    }

    public int workers() {
        return workers.size();
    }

    /** Kills worker {@code i} and its executor at once (no clean shutdown), as a lost machine would go. */
    public void killWorker(int i) throws InterruptedException {
        kill(workers.get(i));
    }

    /** Kills the Spark Connect server (its driver goes with it). */
    public void killConnectServer() throws InterruptedException {
        kill(connect);
    }

    private static void kill(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    private void waitForWorkers(int masterUi, int n) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + START.toNanos();
        int alive = 0;
        while (System.nanoTime() < deadline) {
            try {
                String json = http.send(HttpRequest.newBuilder(URI.create("http://" + LocalSpark.LOOPBACK + ":" + masterUi
                        + "/json/")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
                Matcher m = ALIVE_WORKERS.matcher(json);
                alive = m.find() ? Integer.parseInt(m.group(1)) : 0;
                if (alive >= n) {
                    return;
                }
            } catch (IOException notYet) {
                // the master's UI is still starting
            }
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("A Spark process exited while the cluster started (" + tail(log(
                            p == processes.get(0) ? "master" : "worker-" + (processes.indexOf(p) - 1))) + "); see "
                            + dir.resolve("logs"));
                }
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(alive + " of " + n + " Spark workers registered within " + START.toSeconds()
                + " s; see " + dir.resolve("logs"));
    }

    private static void waitForPort(int port, Process p, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("The Spark process exited while starting (" + tail(log) + "); see " + log);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(LocalSpark.LOOPBACK, port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(300);
            }
        }
        throw new IllegalStateException("The Spark process did not listen on port " + port + " within " + START.toSeconds()
                + " s; see " + log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName(LocalSpark.LOOPBACK))) {
            return s.getLocalPort();
        }
    }

    private synchronized void stopAll() {
        // the Connect server and workers first (their executors with them), the master last
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException shuttingDownOrClosed) {
            // the hook is running or has run
        }
    }
}
