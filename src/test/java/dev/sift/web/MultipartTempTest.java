package dev.sift.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's temporary copies of multipart uploads live under {@code SIFT_HOME/tmp}, in a folder of this
 * process, so the copies a killed server left are found and removed at the next start (they used to pile up in
 * the system's temporary folder as {@code MultiPart*} forever).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultipartTempTest {
    private static final String BOUNDARY = "----siftMultipart";

    @TempDir
    Path home;

    /** The id of a process that has ended: its folders are leftovers of a crash. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        assertThat(ProcessHandle.of(p.pid())).isEmpty();
        return p.pid();
    }

    private static List<Path> filesUnder(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void start_up_removes_the_multipart_copies_a_killed_server_left_even_fresh_ones() throws Exception {
        Path crashed = Files.createDirectories(home.resolve("tmp").resolve("sift-multipart-" + deadPid()));
        Path copy = Files.write(crashed.resolve("MultiPart4242.tmp"), new byte[1 << 20]); // written a moment ago
        try (WebFixture w = new WebFixture(home)) {
            assertThat(copy).doesNotExist();
            assertThat(crashed).doesNotExist();
        }
    }

    @Test
    void an_upload_in_flight_is_buffered_under_sift_home_in_this_processes_folder() throws Exception {
        try (WebFixture w = new WebFixture(home); Socket s = new Socket("127.0.0.1", w.server.port())) {
            String head = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nbig\r\n--" + BOUNDARY
                    + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.csv\"\r\nContent-Type: text/csv"
                    + "\r\n\r\na\n";
            byte[] part = "1\n".repeat(1_500_000).getBytes(StandardCharsets.US_ASCII); // 3 MB, beyond the in-memory part
            long length = head.length() + part.length * 2L + 100; // more is announced than sent: the upload stalls
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/datasets HTTP/1.1\r\nHost: 127.0.0.1:" + w.server.port() + "\r\n"
                    + RequestGuard.CSRF_HEADER + ": " + w.csrf + "\r\nContent-Type: multipart/form-data; boundary="
                    + BOUNDARY + "\r\nContent-Length: " + length + "\r\n\r\n" + head).getBytes(StandardCharsets.US_ASCII));
            out.write(part);
            out.flush();
            Path ours = home.resolve("tmp").resolve("sift-multipart-" + ProcessHandle.current().pid());
            List<Path> copies = List.of();
            for (int i = 0; i < 200 && copies.isEmpty(); i++) {
                Thread.sleep(50);
                copies = filesUnder(ours);
            }
            assertThat(copies).as("the upload's temporary copy, under " + ours).isNotEmpty();
        }
    }
}
