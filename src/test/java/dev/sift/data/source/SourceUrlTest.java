package dev.sift.data.source;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SourceUrlTest {
    @Test
    void parses_user_host_port_database_and_schema_list() {
        SourceUrl u = SourceUrl.parse("postgresql://sift@db.example:6543/shop?schema=sales,crm");
        assertThat(u.scheme()).isEqualTo("postgresql");
        assertThat(u.user()).contains("sift");
        assertThat(u.password()).isEmpty();
        assertThat(u.host()).isEqualTo("db.example");
        assertThat(u.port(5432)).isEqualTo(6543);
        assertThat(u.path()).isEqualTo("shop");
        assertThat(u.queryList("schema")).containsExactly("sales", "crm");
        assertThat(u.masked()).isEqualTo("postgresql://sift@db.example:6543/shop?schema=sales,crm");
    }

    @Test
    void default_port_applies_when_the_url_has_none() {
        SourceUrl u = SourceUrl.parse("mysql://localhost/shop");
        assertThat(u.port(3306)).isEqualTo(3306);
        assertThat(u.user()).isEmpty();
    }

    @Test
    void masks_a_password_written_in_the_url_everywhere_it_prints() {
        SourceUrl u = SourceUrl.parse("postgresql://sift:s3cr%40t@localhost:5432/shop");
        assertThat(u.password()).contains("s3cr@t");
        assertThat(u.masked()).isEqualTo("postgresql://sift:***@localhost:5432/shop");
        assertThat(u.toString()).isEqualTo(u.masked()).doesNotContain("s3cr");
    }

    @Test
    void masks_secret_query_parameters() {
        SourceUrl u = SourceUrl.parse("mysql://root@h/db?password=hunter2&useSSL=false");
        assertThat(u.masked()).isEqualTo("mysql://root@h/db?password=***&useSSL=false");
    }

    @Test
    void parses_ipv6_hosts_and_host_lists() {
        assertThat(SourceUrl.parse("postgresql://[::1]:5433/db").host()).isEqualTo("::1");
        assertThat(SourceUrl.parse("postgresql://[::1]:5433/db").port(1)).isEqualTo(5433);
        SourceUrl m = SourceUrl.parse("mongodb://a:27017,b:27018/shop");
        assertThat(m.host()).isEqualTo("a");
        assertThat(m.hosts()).isEqualTo("a:27017,b:27018");
    }

    @Test
    void s3_bucket_is_the_host_and_the_prefix_the_path() {
        SourceUrl u = SourceUrl.parse("s3://my-bucket/sales/2024/");
        assertThat(u.host()).isEqualTo("my-bucket");
        assertThat(u.path()).isEqualTo("sales/2024/");
    }

    @Test
    void rejects_bad_ports_and_missing_hosts_without_showing_the_password() {
        assertThatThrownBy(() -> SourceUrl.parse("postgresql://u:pw@h:99999/db"))
                .hasMessage("'postgresql://u:***@h:99999/db' has port '99999': use a number from 1 to 65535");
        assertThatThrownBy(() -> SourceUrl.parse("postgresql://u:pw@/db"))
                .hasMessage("'postgresql://u:***@/db' names no host: write postgresql://host/...");
        assertThatThrownBy(() -> SourceUrl.parse("not a url"))
                .hasMessage("'not a url' is not a URL like scheme://host/path");
    }

    @Test
    void mask_text_hides_passwords_of_urls_inside_messages() {
        assertThat(SourceUrl.maskText("cannot reach postgresql://a:b@c/d or mysql://x:y@z?password=q"))
                .isEqualTo("cannot reach postgresql://a:***@c/d or mysql://x:***@z?password=***");
        assertThat(SourceUrl.looksLikeUrl("s3://b/k")).isTrue();
        assertThat(SourceUrl.looksLikeUrl("/tmp/x.csv")).isFalse();
    }
}
