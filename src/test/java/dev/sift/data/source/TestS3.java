package dev.sift.data.source;

import org.junit.jupiter.api.Assumptions;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real S3-compatible server for tests: Adobe's S3Mock, run from its executable jar as a separate process on a
 * loopback port (its Spring Boot would clash with ours in one JVM). Maven copies the jar to target/s3mock; the
 * tests skip with a message when it is missing.
 */
final class TestS3 implements AutoCloseable {
    static final String ACCESS_KEY = "test-access-key";
    static final String SECRET_KEY = "test-secret-key-4f1d";

    private final Process process;
    private final Path root;
    private final int port;

    private TestS3(Process process, Path root, int port) {
        this.process = process;
        this.root = root;
        this.port = port;
    }

    static TestS3 startOrSkip() throws Exception {
        String jar = System.getProperty("sift.test.s3mock.jar");
        Assumptions.assumeTrue(jar != null && Files.isRegularFile(Path.of(jar)),
                "S3Mock jar not found (" + jar + "): run the tests through Maven, which copies it to target/s3mock");
        Path root = Files.createTempDirectory("sift-s3mock");
        int http = SourceTestSupport.freePort();
        int https = SourceTestSupport.freePort();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m",
                "-jar", jar, "--server.address=127.0.0.1", "--server.port=" + https,
                "--com.adobe.testing.s3mock.httpPort=" + http, "--com.adobe.testing.s3mock.store.root=" + root.resolve("store"),
                "--spring.main.banner-mode=off", "--logging.level.root=WARN")
                .redirectErrorStream(true).redirectOutput(root.resolve("s3mock.log").toFile()).start();
        TestS3 s3 = new TestS3(p, root, http);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (true) {
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(s3.endpoint() + "/"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() < 500) {
                    return s3;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(root.resolve("s3mock.log"));
                s3.close();
                throw new IllegalStateException("S3Mock did not start: " + log.substring(Math.max(0, log.length() - 2000)));
            }
            Thread.sleep(300);
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The environment a user of a real bucket would have: keys in the standard variables. */
    Map<String, String> env() {
        return Map.of("AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_REGION", "eu-west-1");
    }

    S3Client client() {
        return S3Client.builder().endpointOverride(URI.create(endpoint())).forcePathStyle(true)
                .region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build();
    }

    void put(S3Client s3, String bucket, String key, byte[] body) {
        s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromBytes(body));
    }

    void put(S3Client s3, String bucket, String key, Path file) {
        s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromFile(file));
    }

    @Override
    public void close() throws IOException {
        SourceTestSupport.stop(process, root);
    }
}
