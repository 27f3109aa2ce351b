package dev.sift.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The image that {@code mvn -Pimage package} builds (target/sift-image.tar, a docker-load tarball): its config,
 * and — without any container engine — its file system run for real: the layers are unpacked and Sift is
 * started from them with chroot as the image's user, with /proc mounted in a private namespace as a container
 * runtime would. CI builds the image before the tests; elsewhere the test skips and says how to build it.
 */
class ContainerImageTest {
    static final Path TAR = Path.of("target/sift-image.tar");
    static final ObjectMapper JSON = new ObjectMapper();
    static JsonNode config;

    @BeforeAll
    static void image() throws Exception {
        assumeTrue(Files.isRegularFile(TAR), "target/sift-image.tar not found: build the image with"
                + " 'mvn -Pimage -DskipTests package' to test it; skipping");
        config = JSON.readTree(run(List.of("tar", "-xOf", TAR.toString(), "config.json"), 60)).get("config");
    }

    @Test
    void serves_on_all_interfaces_as_a_non_root_user_with_its_home_as_a_volume() throws Exception {
        JsonNode manifest = JSON.readTree(run(List.of("tar", "-xOf", TAR.toString(), "manifest.json"), 60)).get(0);
        assertThat(manifest.get("RepoTags").get(0).asText()).isEqualTo("sift:latest");
        assertThat(strings(config.get("Entrypoint"))).startsWith("/opt/java/bin/java").endsWith("dev.sift.cli.Main");
        assertThat(strings(config.get("Cmd"))).containsExactly("serve", "--host", "0.0.0.0");
        assertThat(config.get("User").asText()).isEqualTo("10001:10001");
        assertThat(config.get("ExposedPorts").has("7860/tcp")).isTrue();
        assertThat(config.get("Volumes").has("/data")).isTrue();
        assertThat(strings(config.get("Env"))).contains("SIFT_HOME=/data");
    }

    @Test
    void the_image_file_system_answers_a_question_as_its_user(@TempDir Path root) throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root") && Files.isExecutable(Path.of("/usr/bin/unshare")) && Files.isExecutable(Path.of("/usr/sbin/chroot")),
                "running the image's file system needs root and unshare (util-linux); skipping");
        run(List.of("tar", "-xf", TAR.toAbsolutePath().toString(), "-C", root.toString()), 120);
        for (String layer : strings(JSON.readTree(Files.readString(root.resolve("manifest.json"))).get(0).get("Layers"))) {
            run(List.of("tar", "--warning=no-unknown-keyword", "-xzf", root.resolve(layer).toString(), "-C", root.toString()), 300);
        }
        Files.createDirectories(root.resolve("proc"));
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")); // as / is
        Files.writeString(root.resolve("tmp/products.csv"), "name,price\npen,5\nbook,20\npad,3\n");
        // the image has no shell: the host's sh mounts /proc, then each command runs chrooted like the entrypoint
        String inImage = "env -i SIFT_HOME=/data HOME=/home/sift /usr/sbin/chroot --userspec=10001:10001 " + root + " "
                + String.join(" ", strings(config.get("Entrypoint")));
        String out = run(List.of("unshare", "--mount", "--pid", "--fork", "sh", "-c", "mount -t proc proc " + root + "/proc"
                + " && " + inImage + " --version && " + inImage + " load shop /tmp/products.csv >/dev/null && " + inImage
                + " ask --dataset shop 'How many products are there?'"), 300);
        assertThat(out).startsWith("sift ").contains("There are 3 product").contains("[answer · status rule_based");
        try (var files = Files.list(root.resolve("data/datasets"))) {
            assertThat(files.map(p -> p.getFileName().toString())).contains("shop.duckdb");
        }
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd + " did not finish in " + seconds + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd + " exited with " + p.exitValue() + ": " + text);
        }
        return text;
    }
}
