package dev.sift.data.source;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CredentialsTest {
    private static final SourceUrl PG = SourceUrl.parse("postgresql://sift@localhost:5432/shop");

    @Test
    void password_env_names_the_variable_that_holds_the_password() {
        Credentials c = Credentials.resolve(PG, Map.of("password_env", "PG_PASSWORD"),
                Map.of("PG_PASSWORD", "hunter2", "PGPASSWORD", "other"), "PGPASSWORD");
        assertThat(c.user()).contains("sift");
        assertThat(c.password()).contains("hunter2");
        assertThat(c.from()).isEqualTo("environment variable PG_PASSWORD");
        assertThat(c.toString()).doesNotContain("hunter2");
    }

    @Test
    void a_named_variable_that_is_not_set_is_an_error_not_a_fall_through() {
        assertThatThrownBy(() -> Credentials.resolve(PG, Map.of("password_env", "PG_PASSWORD"),
                Map.of("PGPASSWORD", "other"), "PGPASSWORD"))
                .hasMessage("Source postgresql://sift@localhost:5432/shop: environment variable PG_PASSWORD"
                        + " (password_env) is not set");
    }

    @Test
    void credentials_file_gives_user_and_password(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("pg.credentials");
        Files.writeString(f, "# shop database\nuser = reporter\npassword=p@ss=word\n");
        Credentials c = Credentials.resolve(SourceUrl.parse("postgresql://localhost/shop"),
                Map.of("credentials_file", f.toString()), Map.of(), "PGPASSWORD");
        assertThat(c.user()).contains("reporter");
        assertThat(c.password()).contains("p@ss=word");
    }

    @Test
    void unreadable_credentials_file_is_one_line_naming_it(@TempDir Path dir) {
        Path f = dir.resolve("missing.credentials");
        assertThatThrownBy(() -> Credentials.resolve(PG, Map.of("credentials_file", f.toString()), Map.of(), null))
                .hasMessage("Source postgresql://sift@localhost:5432/shop: credentials file " + f
                        + " is unreadable (NoSuchFileException)");
    }

    @Test
    void a_password_in_the_sources_file_itself_is_refused() {
        assertThatThrownBy(() -> Credentials.resolve(PG, Map.of("password", "hunter2"), Map.of(), null))
                .hasMessageStartingWith("Source postgresql://sift@localhost:5432/shop: do not write the password"
                        + " in the sources file")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void url_password_then_standard_variable_then_none() {
        SourceUrl inline = SourceUrl.parse("postgresql://sift:inline@localhost/shop");
        assertThat(Credentials.resolve(inline, Map.of(), Map.of("PGPASSWORD", "std"), "PGPASSWORD").password())
                .contains("inline");
        assertThat(Credentials.resolve(PG, Map.of(), Map.of("PGPASSWORD", "std"), "PGPASSWORD").password())
                .contains("std");
        Credentials none = Credentials.resolve(PG, Map.of(), Map.of(), "PGPASSWORD");
        assertThat(none.password()).isEmpty();
        assertThat(none.from()).isEqualTo("none");
    }

    @Test
    void redact_scrubs_the_password_and_url_passwords_from_any_text() {
        Credentials c = Credentials.resolve(PG, Map.of("password_env", "P"), Map.of("P", "s3 cr&t"), null);
        assertThat(c.redact("FATAL: password 's3 cr&t' rejected for postgresql://sift:s3+cr%26t@h/db"))
                .isEqualTo("FATAL: password '***' rejected for postgresql://sift:***@h/db");
    }
}
