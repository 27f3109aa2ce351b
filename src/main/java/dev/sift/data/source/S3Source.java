package dev.sift.data.source;

import dev.sift.data.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Objects in an S3 bucket (or any S3-compatible store): {@code s3://bucket/prefix/} loads every Parquet, CSV/TSV
 * (optionally gzipped) and JSON/JSON-lines object under the prefix, {@code s3://bucket/key.parquet} one object;
 * one table per object, named after its file name as for local files. DuckDB's httpfs extension needs a
 * download that fails offline, so objects are streamed with the AWS SDK into a private temporary folder
 * (never into memory), read by DuckDB's own readers, and deleted; a folder left by a killed load is removed
 * by the next one.
 *
 * <p>Settings, from the sources file's keys, else the URL's query, else the standard AWS variables:
 * {@code region} ({@code AWS_REGION}, {@code AWS_DEFAULT_REGION}, else us-east-1), {@code endpoint}
 * ({@code AWS_ENDPOINT_URL_S3}, {@code AWS_ENDPOINT_URL}) with {@code path_style} (default: on when an
 * endpoint is set), {@code profile} ({@code AWS_PROFILE}), {@code anonymous: true} for public buckets.
 * Credentials: {@code access_key_env}/{@code secret_key_env} naming variables, else {@code AWS_ACCESS_KEY_ID} /
 * {@code AWS_SECRET_ACCESS_KEY} ({@code AWS_SESSION_TOKEN}), else the profile, else the SDK's default chain.
 * The fingerprint is the listing (keys, sizes, ETags, modification times): nothing is downloaded for it.
 */
final class S3Source implements Source {
    static final String VERSION = "s3-source-1";
    static final String DOWNLOAD_PREFIX = "sift-s3-";
    /** Refuse to download more than this unless {@code max_bytes} says otherwise. */
    static final long DEFAULT_MAX_BYTES = 20L << 30;
    private static final List<String> SUPPORTED = List.of(".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".parquet",
            ".json", ".jsonl", ".ndjson");
    private static final Logger LOG = LoggerFactory.getLogger(S3Source.class);

    private final SourceUrl url;
    private final String bucket;
    private final String prefix;
    private final String region;
    private final String endpoint;
    private final boolean pathStyle;
    private final AwsCredentialsProvider credentials;
    private final String credentialsFrom;
    private final String secret;
    private final int connectTimeout;
    private final long maxBytes;
    private final Path downloads;
    private final List<String> notes = new ArrayList<>();
    private int loaded = -1;

    S3Source(SourceUrl url, Map<String, String> options, Map<String, String> env) {
        this.url = url;
        this.bucket = url.host();
        this.prefix = url.path();
        this.region = setting(options, url, "region", env, "AWS_REGION", "AWS_DEFAULT_REGION", "us-east-1");
        this.endpoint = setting(options, url, "endpoint", env, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", null);
        String ps = setting(options, url, "path_style", env, null, null, null);
        this.pathStyle = ps == null ? endpoint != null : Boolean.parseBoolean(ps);
        String timeout = setting(options, url, JdbcSource.CONNECT_TIMEOUT, env, null, null,
                Integer.toString(JdbcSource.DEFAULT_CONNECT_TIMEOUT_SECONDS));
        this.connectTimeout = (int) parsePositive(timeout, JdbcSource.CONNECT_TIMEOUT, 600);
        String max = setting(options, url, "max_bytes", env, null, null, Long.toString(DEFAULT_MAX_BYTES));
        this.maxBytes = parsePositive(max, "max_bytes", Long.MAX_VALUE);
        String dir = options.get("download_dir");
        this.downloads = dir == null ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(dir);
        if (bucket.isBlank()) {
            throw new IllegalArgumentException("S3 " + url.masked() + ": no bucket named: write s3://BUCKET/prefix/");
        }
        if (endpoint != null && !endpoint.matches("(?i)https?://.+")) {
            throw new IllegalArgumentException("S3 " + url.masked() + ": endpoint '" + endpoint
                    + "' is not an http:// or https:// URL");
        }
        String keyEnv = options.get("access_key_env");
        String secretEnv = options.get("secret_key_env");
        String profile = setting(options, url, "profile", env, "AWS_PROFILE", null, null);
        String key;
        String sec;
        if (keyEnv != null || secretEnv != null) {
            key = required(env, keyEnv, "access_key_env");
            sec = required(env, secretEnv, "secret_key_env");
            credentialsFrom = "environment variables " + keyEnv + " and " + secretEnv;
        } else {
            key = env.get("AWS_ACCESS_KEY_ID");
            sec = env.get("AWS_SECRET_ACCESS_KEY");
            credentialsFrom = key != null && sec != null ? "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                    : Boolean.parseBoolean(options.get("anonymous")) ? "anonymous access"
                    : profile != null ? "AWS profile " + profile : "the AWS default credentials chain";
        }
        this.secret = sec;
        String token = keyEnv == null ? env.get("AWS_SESSION_TOKEN") : null;
        if (key != null && sec != null) {
            credentials = StaticCredentialsProvider.create(token == null ? AwsBasicCredentials.create(key, sec)
                    : AwsSessionCredentials.create(key, sec, token));
        } else if (Boolean.parseBoolean(options.get("anonymous"))) {
            credentials = AnonymousCredentialsProvider.create();
        } else if (profile != null) {
            credentials = ProfileCredentialsProvider.create(profile);
        } else {
            credentials = DefaultCredentialsProvider.builder().build();
        }
    }

    private String required(Map<String, String> env, String name, String key) {
        if (name == null) {
            throw new IllegalArgumentException("S3 " + url.masked() + ": access_key_env and secret_key_env go together");
        }
        String v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException("S3 " + url.masked() + ": environment variable " + name + " (" + key
                    + ") is not set");
        }
        return v;
    }

    private static String setting(Map<String, String> options, SourceUrl url, String key, Map<String, String> env,
                                  String env1, String env2, String fallback) {
        String v = options.get(key);
        if (v == null) {
            v = url.query().get(key);
        }
        if (v == null && env1 != null) {
            v = env.get(env1);
        }
        if (v == null && env2 != null) {
            v = env.get(env2);
        }
        return v == null || v.isBlank() ? fallback : v.trim();
    }

    private long parsePositive(String text, String key, long max) {
        try {
            long v = Long.parseLong(text.trim());
            if (v > 0 && v <= max) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message
        }
        throw new IllegalArgumentException("S3 " + url.masked() + ": " + key + " '" + text
                + "' is not a number from 1 to " + max);
    }

    private S3Client client() {
        S3ClientBuilder b = S3Client.builder()
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .forcePathStyle(pathStyle)
                .httpClientBuilder(Apache5HttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(connectTimeout))
                        .socketTimeout(Duration.ofSeconds(Math.max(60, connectTimeout))))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD));
        if (endpoint != null) {
            b.endpointOverride(URI.create(endpoint));
        }
        return b.build();
    }

    /** The objects to load, sorted by key; others under the prefix become a note. */
    private List<S3Object> objects(S3Client s3) {
        String folder = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        List<S3Object> out = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        ListObjectsV2Request req = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build();
        for (S3Object o : s3.listObjectsV2Paginator(req).contents()) {
            String k = o.key();
            if (!k.equals(prefix) && !k.startsWith(folder) || k.endsWith("/")) {
                continue; // s3://b/sales must not pick up s3://b/sales2024.csv
            }
            if (supported(k)) {
                out.add(o);
            } else {
                skipped.add(k);
            }
        }
        out.sort(Comparator.comparing(S3Object::key));
        if (out.isEmpty()) {
            throw new IllegalArgumentException("S3 " + url.masked() + ": no Parquet, CSV or JSON objects "
                    + (prefix.isEmpty() || prefix.endsWith("/") ? "under it" : "at that key or under it")
                    + (skipped.isEmpty() ? "" : " (" + skipped.size() + " other object" + (skipped.size() == 1 ? "" : "s")
                    + ", e.g. " + skipped.get(0) + ")"));
        }
        notes.clear();
        if (!skipped.isEmpty()) {
            notes.add("skipped " + skipped.size() + " object" + (skipped.size() == 1 ? "" : "s")
                    + " that are not Parquet, CSV or JSON (e.g. " + skipped.get(0) + ")");
        }
        return out;
    }

    private static boolean supported(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return SUPPORTED.stream().anyMatch(k::endsWith);
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        FileSupport.hashText(sha, bucket + "/" + prefix + " @ " + (endpoint == null ? region : endpoint));
        try (S3Client s3 = client()) {
            for (S3Object o : objects(s3)) {
                FileSupport.hashText(sha, o.key() + " " + o.size() + " " + o.eTag() + " " + o.lastModified());
            }
        } catch (SdkException e) {
            throw failure(e);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("S3 ").append(url.masked());
        if (endpoint != null) {
            sb.append(" at ").append(SourceUrl.maskText(endpoint));
        }
        if (loaded >= 0) {
            sb.append(" (").append(loaded).append(loaded == 1 ? " object)" : " objects)");
        }
        if (!notes.isEmpty()) {
            sb.append("; note: ").append(String.join("; ", notes));
        }
        return sb.toString();
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        cleanLeftovers(downloads);
        Path dir = Files.createDirectories(downloads).resolve(DOWNLOAD_PREFIX + ProcessHandle.current().pid() + "-"
                + Long.toHexString(System.nanoTime()));
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<Path, String> keys = new HashMap<>();
        try (S3Client s3 = client()) {
            List<S3Object> objects = objects(s3);
            checkNames(objects);
            long total = objects.stream().mapToLong(S3Object::size).sum();
            if (total > maxBytes) {
                throw new IllegalArgumentException("S3 " + url.masked() + ": the objects hold " + total
                        + " bytes, more than max_bytes " + maxBytes + ": raise max_bytes to load them");
            }
            long free = Files.getFileStore(dir).getUsableSpace();
            if (total > free) {
                throw new IllegalArgumentException("S3 " + url.masked() + ": the objects hold " + total + " bytes but "
                        + dir.getParent() + " has " + free + " free: set download_dir to a larger folder");
            }
            List<Path> files = new ArrayList<>();
            long done = 0;
            for (int i = 0; i < objects.size(); i++) {
                S3Object o = objects.get(i);
                Path slot = Files.createDirectory(dir.resolve(Integer.toString(i)));
                Path file = slot.resolve(fileName(o.key()));
                String stage = "downloading s3://" + bucket + "/" + o.key();
                done = download(s3, o, file, stage, done, total, progress);
                keys.put(file, "s3://" + bucket + "/" + o.key());
                files.add(file);
            }
            loadFiles(db, schema, files, keys, progress);
            loaded = files.size();
        } catch (SdkException e) {
            throw failure(e);
        } finally {
            deleteTree(dir);
        }
    }

    /** Two objects whose file names give the same table are refused by their keys, before any download. */
    private void checkNames(List<S3Object> objects) {
        Map<String, String> byTable = new HashMap<>();
        for (S3Object o : objects) {
            String name = fileName(o.key());
            String lower = name.toLowerCase(Locale.ROOT);
            String ext = SUPPORTED.stream().filter(lower::endsWith).max(Comparator.comparingInt(String::length)).orElse("");
            String table = FileLoader.tableName(name.substring(0, name.length() - ext.length()));
            String clash = byTable.putIfAbsent(table, o.key());
            if (clash != null) {
                throw new IllegalArgumentException("S3 " + url.masked() + ": objects " + clash + " and " + o.key()
                        + " would both load as table '" + table + "': name a narrower prefix, or load them as two sources");
            }
        }
    }

    private static String fileName(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        return name.replaceAll("[\\x00-\\x1f\\\\]", "_");
    }

    private long download(S3Client s3, S3Object o, Path file, String stage, long done, long total, Progress progress)
            throws IOException {
        progress.report(stage, done, total);
        byte[] buf = new byte[1 << 16];
        long at = done;
        long reported = done;
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(r -> r.bucket(bucket).key(o.key()));
             OutputStream out = Files.newOutputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
                at += n;
                if (at - reported >= 8L << 20) {
                    progress.report(stage, at, total);
                    reported = at;
                }
            }
        }
        progress.report(stage, at, total);
        return at;
    }

    /** DuckDB's readers through the file loader; its messages name the object, not the temporary file. */
    private void loadFiles(Connection db, String schema, List<Path> files, Map<Path, String> keys, Progress progress)
            throws Exception {
        try {
            new FileLoader(files).load(db, schema, progress);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            for (Map.Entry<Path, String> k : keys.entrySet()) {
                m = m.replace(k.getKey().toString(), k.getValue());
            }
            throw new IllegalArgumentException("S3 " + url.masked() + ": " + m);
        }
    }

    /** One line for an SDK failure, naming the bucket and never a secret. */
    private IllegalArgumentException failure(SdkException e) {
        String where = "S3 " + url.masked() + ": ";
        String message;
        if (e instanceof S3Exception s) {
            String code = s.awsErrorDetails() == null ? "" : s.awsErrorDetails().errorCode();
            String detail = s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage();
            message = switch (s.statusCode()) {
                case 404 -> "NoSuchBucket".equals(code) ? where + "bucket '" + bucket + "' does not exist"
                        : where + "not found (" + code + ")";
                case 403 -> where + "access denied (" + code + "; credentials: " + credentialsFrom + ")";
                case 301 -> where + "the bucket is in another region than " + region + ": set region";
                default -> where + code + " (HTTP " + s.statusCode() + "): " + detail;
            };
        } else if (e instanceof SdkClientException && String.valueOf(e.getMessage()).contains("credentials")) {
            message = where + "no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE";
        } else {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            message = where + "cannot reach " + (endpoint == null ? "S3 in " + region : endpoint) + " ("
                    + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()) + ")";
        }
        String out = FileSupport.clip(message);
        if (secret != null && !secret.isEmpty()) {
            out = out.replace(secret, SourceUrl.MASK);
        }
        LOG.debug("S3 failure: {}", e.getClass().getName());
        return new IllegalArgumentException(SourceUrl.maskText(out));
    }

    /** Removes download folders of loads whose process is gone (killed mid-download). */
    static void cleanLeftovers(Path parent) {
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (Stream<Path> list = Files.list(parent)) {
            list.filter(p -> p.getFileName().toString().startsWith(DOWNLOAD_PREFIX)).filter(Files::isDirectory)
                    .filter(p -> {
                        String rest = p.getFileName().toString().substring(DOWNLOAD_PREFIX.length());
                        int dash = rest.indexOf('-');
                        try {
                            long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                            return ProcessHandle.of(pid).map(ph -> !ph.isAlive()).orElse(true);
                        } catch (NumberFormatException e) {
                            return false;
                        }
                    })
                    .forEach(S3Source::deleteTree);
        } catch (IOException e) {
            LOG.debug("Cannot list {} for leftover downloads: {}", parent, e.getMessage());
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    LOG.warn("Cannot delete downloaded file {}: {}", f, e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.debug("Cannot clean {}: {}", dir, e.getMessage());
        }
    }
}
