package dev.sift.data.source;

import dev.sift.data.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A named pipe with no writer blocks whoever opens it, forever. Every loader path refuses anything that is not a
 * regular file (or a folder where one is allowed) before opening it, in one line, so none of these tests hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NamedPipeTest extends FilesInAStore {

    /** A real FIFO made with mkfifo; nothing ever writes to it. */
    static Path fifo(Path at) throws Exception {
        Process p = new ProcessBuilder("mkfifo", at.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
        assertThat(Files.isRegularFile(at)).isFalse();
        return at;
    }

    static String notRegular(Path p) {
        return "File " + p + " is not a regular file (a named pipe, socket or device), so Sift does not open it:"
                + " give a regular file";
    }

    @Test
    void a_fifo_named_like_a_csv_file_is_refused_before_it_is_opened() throws Exception {
        Path pipe = fifo(data.resolve("loans.csv"));
        assertThatThrownBy(() -> store.ensure("pipe", new FileLoader(List.of(pipe)), Progress.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(notRegular(pipe));
        assertThat(store.list()).isEmpty();
    }

    @Test
    void a_fifo_given_as_a_source_to_sift_load_is_refused_whatever_its_name() throws Exception {
        Path pipe = fifo(data.resolve("loans"));
        assertThatThrownBy(() -> DatasetSources.of(List.of(pipe.toString()), data, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(notRegular(pipe));
        Path db = fifo(data.resolve("shop.sqlite"));
        assertThatThrownBy(() -> DatasetSources.of(List.of("shop.sqlite"), data, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(notRegular(db));
    }

    @Test
    void a_sources_file_naming_a_fifo_and_a_fifo_as_the_sources_file_are_refused() throws Exception {
        Path pipe = fifo(data.resolve("orders.csv"));
        Path yaml = write("sources.yaml", "sources:\n  shop: orders.csv\n");
        assertThatThrownBy(() -> DatasetSources.of(List.of(yaml.toString()), data, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(notRegular(pipe))
                .hasMessageNotContaining("\n");
        Path piped = fifo(data.resolve("piped.yaml"));
        assertThatThrownBy(() -> DatasetSources.of(List.of(piped.toString()), data, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(notRegular(piped));
    }

    @Test
    void a_fifo_inside_a_mongodb_dump_folder_is_refused() throws Exception {
        Path dump = Files.createDirectories(data.resolve("dump"));
        Path pipe = fifo(dump.resolve("users.bson"));
        assertThatThrownBy(() -> store.ensure("dump", DatasetSources.of(List.of(dump.toString()), data, Map.of()),
                Progress.NONE)).isInstanceOf(IllegalArgumentException.class).hasMessage(notRegular(pipe));
    }
}
