package dev.sift.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The dataset last loaded or asked about, remembered in the Sift home. */
class LastDatasetTest {
    @TempDir
    Path home;

    @Test
    void nothing_is_remembered_in_a_new_home() {
        assertThat(LastDataset.under(home).read()).isEmpty();
    }

    @Test
    void the_last_load_or_question_wins_and_leaves_no_temporary_file() throws Exception {
        LastDataset last = LastDataset.under(home);
        last.loaded("sales");
        assertThat(last.read()).get().extracting(LastDataset.Entry::dataset, LastDataset.Entry::how)
                .containsExactly("sales", "loaded");
        last.used("bank");
        assertThat(LastDataset.under(home).read()).get().extracting(LastDataset.Entry::dataset, LastDataset.Entry::how)
                .containsExactly("bank", "used");
        try (var files = Files.list(home)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(LastDataset.FILE);
        }
    }

    @Test
    void an_unreadable_file_is_forgotten_and_the_next_load_replaces_it() throws Exception {
        Files.writeString(home.resolve(LastDataset.FILE), "{not json");
        LastDataset last = LastDataset.under(home);
        assertThat(last.read()).isEmpty();
        last.loaded("sales");
        assertThat(last.read()).get().extracting(LastDataset.Entry::dataset).isEqualTo("sales");
    }

    @Test
    void a_home_that_cannot_be_written_never_fails_the_load_that_remembers() throws Exception {
        Path file = Files.writeString(home.resolve("a-file"), "x"); // a "home" below a file cannot be created
        LastDataset last = LastDataset.under(file.resolve("home"));
        last.loaded("sales");
        assertThat(last.read()).isEmpty();
    }
}
