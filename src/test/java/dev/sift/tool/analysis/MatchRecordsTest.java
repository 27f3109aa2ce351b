package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** match_records on names with known variants: each expected pairing written out by hand. */
class MatchRecordsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    private static Workspace ws;

    @BeforeAll
    static void frames() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ws.saveFrame("vendors", "SELECT * FROM (VALUES (1, 'Acme Corporation'), (2, 'Müller GmbH'), (3, 'Globex, Inc.'),"
                + " (4, 'Initech Ltd'), (5, 'Umbrella Corp'), (6, 'Smith, John'), (7, 'Stark Industries'),"
                + " (8, 'Wayne Enterprises'), (9, 'Nakatomi Trading')) t(vendor_id, name)");
        ws.saveFrame("invoices", "SELECT * FROM (VALUES ('#ACME CORP.'), ('mueller gmbh'), ('Muller'), ('GLOBEX INC'),"
                + " ('Initech Limited'), ('Umbrela Corporation'), ('John Smith'), ('Stark Industries Inc'),"
                + " ('Wayne Enterprise'), ('Wayne Enterprizes'), ('Cyberdyne Systems')) t(customer)");
        ws.saveFrame("tracks", "SELECT * FROM (VALUES (1, 'Hey Jude'), (2, 'hey jude!'), (3, 'Hey Jude (Remastered)'),"
                + " (4, 'Let It Be'), (5, 'Yesterday'), (6, 'Yesterdays'), (7, 'Come Together')) t(track_id, title)");
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolResult call(String args) throws Exception {
        return TOOLS.run(TOOLS.prepare("match_records", JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
    }

    private static Map<String, String> mapping(String frame, String to) throws Exception {
        Map<String, String> m = new HashMap<>();
        for (List<Object> row : ws.query("SELECT value, " + to + " FROM frames." + frame).rows()) {
            m.put((String) row.get(0), (String) row.get(1));
        }
        return m;
    }

    @Test
    void names_spelt_differently_map_to_their_vendor_and_strangers_stay_unmatched() throws Exception {
        ToolResult r = call("{\"source\":\"invoices\",\"column\":\"customer\",\"other\":\"vendors\",\"other_column\":\"name\"}");
        assertThat(r.ok()).as(r.error()).isTrue();
        Map<String, String> m = mapping("match_invoices_vendors", "match");
        assertThat(m).containsEntry("#ACME CORP.", "Acme Corporation").containsEntry("GLOBEX INC", "Globex, Inc.")
                .containsEntry("Initech Limited", "Initech Ltd").containsEntry("Umbrela Corporation", "Umbrella Corp")
                .containsEntry("John Smith", "Smith, John").containsEntry("Stark Industries Inc", "Stark Industries")
                .containsEntry("Wayne Enterprise", "Wayne Enterprises").containsEntry("Wayne Enterprizes", "Wayne Enterprises")
                .containsEntry("Muller", "Müller GmbH").doesNotContainKey("Cyberdyne Systems");
        MatchRecords.Result res = (MatchRecords.Result) r.payload();
        assertThat(res.values()).isEqualTo(11);
        assertThat(res.unmatched()).isEqualTo(11 - res.matched());
        assertThat(res.unmatched()).isGreaterThanOrEqualTo(1);
        assertThat(res.candidates()).isLessThan(11L * 9);
        assertThat(r.summary()).contains("threshold 0.9").contains("unmatched").contains("join invoices.customer = value"
                + " and vendors.name = match");
        QueryResult joined = ws.query("SELECT v.vendor_id FROM invoices i JOIN frames.match_invoices_vendors m ON"
                + " i.customer = m.value JOIN vendors v ON v.name = m.match WHERE i.customer = 'John Smith'");
        assertThat(joined.scalar()).isEqualTo(6);
    }

    @Test
    void a_value_close_to_two_others_is_listed_as_ambiguous() throws Exception {
        ws.saveFrame("twins", "SELECT * FROM (VALUES ('Jon Smyth'), ('Jon Smith')) t(n)");
        ws.saveFrame("asked", "SELECT * FROM (VALUES ('Jon Smth')) t(n)");
        ToolResult r = call("{\"source\":\"asked\",\"column\":\"n\",\"other\":\"twins\",\"threshold\":0.85}");
        assertThat(((MatchRecords.Result) r.payload()).ambiguous()).isEqualTo(1);
        assertThat(r.summary()).contains("Ambiguous:").contains("Jon Smth");
    }

    @Test
    void duplicates_within_one_table_pair_variants_of_one_title() throws Exception {
        ToolResult r = call("{\"source\":\"tracks\",\"column\":\"title\",\"threshold\":0.88}");
        assertThat(r.ok()).as(r.error()).isTrue();
        QueryResult pairs = ws.query("SELECT value, duplicate FROM frames.match_tracks_dupes ORDER BY 1, 2");
        assertThat(pairs.rows()).contains(List.of("Hey Jude", "hey jude!"), List.of("Yesterday", "Yesterdays"))
                .noneMatch(p -> p.contains("Let It Be") || p.contains("Come Together"));
        assertThat(ws.query("SELECT same_normalised FROM frames.match_tracks_dupes WHERE value = 'Hey Jude'"
                + " AND duplicate = 'hey jude!'").scalar()).isEqualTo(true);
    }

    @Test
    void a_missing_other_table_or_column_says_what_exists() throws Exception {
        ToolResult r = call("{\"source\":\"invoices\",\"column\":\"customer\",\"other\":\"nope\"}");
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).contains("no table or frame 'nope'");
        ToolResult c = call("{\"source\":\"invoices\",\"column\":\"customer\",\"other\":\"vendors\"}");
        assertThat(c.error()).contains("vendors has no column 'customer'").contains("vendor_id, name");
    }
}
