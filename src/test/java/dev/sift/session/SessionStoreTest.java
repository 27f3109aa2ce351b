package dev.sift.session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionStoreTest {
    @TempDir
    Path dir;

    private static Turn turn(int i, String q) {
        return new Turn(i, q, q, TurnKind.NEW, List.of(), "rules", "loan", "run-" + i, "answer " + i, "answer",
                "rule_based", List.of(), null, "2026-01-01T00:00:00Z", 5);
    }

    @Test
    void saved_session_reads_back_with_turns_and_frames() throws Exception {
        SessionStore store = new SessionStore(dir);
        Session s = store.create("bank", "fp1");
        Session next = s.withTurn(turn(1, "How many loans are there?"),
                List.of(new SavedFrame("gold", "SELECT * FROM card WHERE type = 'gold'", 1)), "2026-01-02T00:00:00Z");
        store.save(next);

        Session back = new SessionStore(dir).find(s.id()).orElseThrow();
        assertThat(back).isEqualTo(next);
        assertThat(back.title()).isEqualTo("How many loans are there?");
        assertThat(back.frames()).extracting(SavedFrame::label).containsExactly("gold");
    }

    @Test
    void leftover_temp_file_from_a_crash_mid_write_is_ignored_and_old_version_survives() throws Exception {
        SessionStore store = new SessionStore(dir);
        Session s = store.create("bank", "fp1");
        // a crash after writing half a temp file: the rename never happened
        Files.writeString(dir.resolve("." + s.id() + ".abc.tmp"), "{\"id\":\"" + s.id() + "\",\"turns\":[{\"ind");

        assertThat(store.find(s.id())).contains(s);
        assertThat(store.list()).containsExactly(s);
    }

    @Test
    void save_leaves_no_temp_files_behind() throws Exception {
        SessionStore store = new SessionStore(dir);
        Session s = store.create("bank", "fp1");
        store.save(s.withTurn(turn(1, "q"), List.of(), "2026-01-02T00:00:00Z"));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(s.id() + ".json");
        }
    }

    @Test
    void unreadable_session_file_is_skipped_in_the_list() throws Exception {
        SessionStore store = new SessionStore(dir);
        Session s = store.create("bank", "fp1");
        Files.writeString(dir.resolve("00000000-0000-0000-0000-000000000000.json"), "{not json");
        assertThat(store.list()).containsExactly(s);
    }

    @Test
    void ids_that_are_not_ours_never_reach_the_file_system() throws Exception {
        SessionStore store = new SessionStore(dir);
        Files.writeString(dir.getParent().resolve("secret.json"), "{}");
        assertThat(store.find("../secret")).isEmpty();
        assertThat(store.delete("../secret")).isFalse();
        assertThat(Files.exists(dir.getParent().resolve("secret.json"))).isTrue();
        assertThatThrownBy(() -> store.save(new Session("../x", "bank", null, "", "a", "a", List.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Not a session id: ../x");
    }

    @Test
    void delete_removes_the_session() throws Exception {
        SessionStore store = new SessionStore(dir);
        Session s = store.create("bank", "fp1");
        assertThat(store.delete(s.id())).isTrue();
        assertThat(store.find(s.id())).isEmpty();
        assertThat(store.delete(s.id())).isFalse();
    }
}
