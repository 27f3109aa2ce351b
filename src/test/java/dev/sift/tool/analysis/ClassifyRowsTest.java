package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * classify_rows with a scripted model that reads the rows it is sent: the labels against the topic each ticket was
 * generated with, the number of requests, the disk cache, the retry of a reply with a label outside the set and a
 * missing id, and the row bound.
 */
class ClassifyRowsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String LABELS = "{\"billing\": \"charges, invoices, refunds\", \"bug\": \"something crashes or shows an"
            + " error\", \"feature\": \"asks for something new\", \"account\": \"logging in, passwords, access\"}";
    private static Workspace ws;

    @TempDir
    Path tmp;

    @BeforeAll
    static void frames() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ws.saveFrame("tickets", KeywordModel.ticketsSql(1000));
        ws.saveFrame("few_tickets", KeywordModel.ticketsSql(12));
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    static String user(LlmRequest r) {
        return r.messages().stream().filter(m -> m.role() == LlmMessage.Role.USER).map(LlmMessage::content)
                .findFirst().orElseThrow();
    }

    static String system(LlmRequest r) {
        return r.messages().get(0).content();
    }

    private static ToolResult call(ToolRegistry tools, ScriptedLlm llm, String args) throws Exception {
        return tools.run(tools.prepare("classify_rows", JSON.readTree(args), ws), new ToolContext(ws, llm, "q"));
    }

    @Test
    void a_thousand_tickets_are_labelled_in_at_most_twenty_requests_and_a_rerun_makes_none() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> KeywordModel.reply(system(r), user(r)));
        Path cache = tmp.resolve("rows");
        ToolResult r = call(new ToolRegistry(List.of(new ClassifyRows(cache))), llm,
                "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + "}");
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(llm.served()).isLessThanOrEqualTo(20);
        ClassifyRows.Result res = (ClassifyRows.Result) r.payload();
        assertThat(res.requests()).isEqualTo(llm.served());
        assertThat(res.checked()).isEqualTo(RowModelCalls.CHECK_ROWS);
        assertThat(res.agreed()).isEqualTo(res.checked());
        // every label equals the topic the ticket was generated with, joined back through the frame
        assertThat(ws.query("SELECT count(*) FROM tickets t JOIN frames.labels_tickets l ON t.ticket_id = l.id"
                + " WHERE t.truth = l.label").scalar()).isEqualTo(1000L);
        assertThat(r.summary()).contains("1,000 rows").contains("Estimate: 1,000 rows, about")
                .contains("agree (100%)").contains("join tickets.ticket_id = id").contains("came from the model");
        assertThat(r.caveat()).hasValueSatisfying(c -> assertThat(c).contains("language model"));
        // each batch is one request holding many rows, and every id sent is one of the table's
        Set<String> ids = new HashSet<>();
        for (LlmRequest q : llm.requests()) {
            KeywordModel.rows(user(q)).forEach(n -> ids.add(n.path("id").asText()));
        }
        assertThat(ids).hasSize(1000);

        ScriptedLlm again = new ScriptedLlm(q -> KeywordModel.reply(system(q), user(q)));
        ToolResult rerun = call(new ToolRegistry(List.of(new ClassifyRows(cache))), again,
                "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + "}");
        assertThat(again.served()).as("a new tool reading the same cache directory").isZero();
        assertThat(((ClassifyRows.Result) rerun.payload()).fromCache()).isEqualTo(1000);
        assertThat(Files.list(cache).count()).isEqualTo(1);
    }

    @Test
    void a_label_outside_the_set_and_a_missing_row_are_sent_again_once_with_the_problem_named() throws Exception {
        AtomicInteger turn = new AtomicInteger();
        List<String> retries = new ArrayList<>();
        ScriptedLlm llm = new ScriptedLlm(r -> {
            String reply = KeywordModel.reply(system(r), user(r));
            if (turn.getAndIncrement() == 0) { // first batch: ticket 0 gets an unknown label, ticket 1 is left out
                return reply.replaceFirst("\"label\":\"billing\"", "\"label\":\"payments\"")
                        .replaceFirst("\\{\"id\":\"1\",\"label\":\"bug\",\"confidence\":0.9},", "");
            }
            if (user(r).startsWith("These rows come again")) {
                retries.add(user(r));
            }
            return reply;
        });
        ToolResult r = call(new ToolRegistry(List.of(new ClassifyRows(null))), llm,
                "{\"source\":\"few_tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + "}");
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(retries).singleElement().satisfies(u -> assertThat(u)
                .contains("id 0: label 'payments' is not one of billing, bug, feature, account")
                .contains("id 1: no entry in the reply"));
        assertThat(KeywordModel.rows(retries.get(0))).extracting(n -> n.path("id").asText()).containsExactly("0", "1");
        ClassifyRows.Result res = (ClassifyRows.Result) r.payload();
        assertThat(res.retried()).isEqualTo(2);
        assertThat(res.unlabelled()).isZero();
        assertThat(ws.query("SELECT count(*) FROM few_tickets t JOIN frames.labels_few_tickets l ON t.ticket_id = l.id"
                + " WHERE t.truth = l.label").scalar()).isEqualTo(12L);
    }

    @Test
    void a_model_that_keeps_answering_outside_the_set_leaves_those_rows_unlabelled() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> KeywordModel.reply(system(r), user(r)).replace("\"feature\"", "\"idea\""));
        ToolResult r = call(new ToolRegistry(List.of(new ClassifyRows(null))), llm,
                "{\"source\":\"few_tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + "}");
        ClassifyRows.Result res = (ClassifyRows.Result) r.payload();
        assertThat(res.unlabelled()).isEqualTo(3); // tickets 2, 6, 10
        assertThat(res.counts()).containsEntry("(none)", 3L);
        assertThat(ws.query("SELECT count(*) FROM frames.labels_few_tickets WHERE label IS NULL").scalar()).isEqualTo(3L);
        assertThat(r.summary()).contains("3 left unlabelled");
    }

    @Test
    void more_rows_than_max_rows_are_refused_with_how_to_narrow_them_and_no_request() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> KeywordModel.reply(system(r), user(r)));
        ToolResult r = call(new ToolRegistry(List.of(new ClassifyRows(null))), llm,
                "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + ",\"max_rows\":500}");
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).contains("1,000 rows of tickets match, over max_rows 500").contains("filter")
                .contains("run_sql");
        assertThat(llm.served()).isZero();
        ToolResult narrowed = call(new ToolRegistry(List.of(new ClassifyRows(null))), llm,
                "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":" + LABELS + ",\"max_rows\":500,"
                        + "\"filter\":\"ticket_id < 400\"}");
        assertThat(narrowed.ok()).as(narrowed.error()).isTrue();
        assertThat(((ClassifyRows.Result) narrowed.payload()).rows()).isEqualTo(400);
    }

    @Test
    void labels_must_be_two_or_more_with_their_meanings() throws Exception {
        ToolResult r = call(new ToolRegistry(List.of(new ClassifyRows(null))), new ScriptedLlm("{}"),
                "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":{\"billing\":\"money\"}}");
        assertThat(r.error()).contains("give 2 to 50 labels").contains("got 1");
    }
}
