package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.llm.ScriptedLlm;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.sift.tool.analysis.ClassifyRowsTest.system;
import static dev.sift.tool.analysis.ClassifyRowsTest.user;
import static org.assertj.core.api.Assertions.assertThat;

/** extract_fields with a scripted model: typed columns against the values each ticket was generated with. */
class ExtractFieldsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIELDS = "{\"amount\": \"number: the amount charged\", \"due\": \"date: when the refund"
            + " is due\", \"urgent\": \"boolean: whether the writer says it is urgent\"}";
    private static Workspace ws;

    @BeforeAll
    static void frames() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ws.saveFrame("tickets", KeywordModel.ticketsSql(200));
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolResult call(ScriptedLlm llm, String fields) throws Exception {
        ToolRegistry tools = new ToolRegistry(List.of(new ExtractFields(null)));
        return tools.run(tools.prepare("extract_fields", JSON.readTree("{\"source\":\"tickets\",\"columns\":[\"body\"],"
                + "\"fields\":" + fields + "}"), ws), new ToolContext(ws, llm, "q"));
    }

    @Test
    void typed_fields_match_the_values_the_tickets_were_written_with_and_are_null_where_absent() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> KeywordModel.reply(system(r), user(r)));
        ToolResult r = call(llm, FIELDS);
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(ws.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name ="
                + " 'fields_tickets' ORDER BY ordinal_position").rows()).extracting(row -> row.get(0) + " " + row.get(1))
                .containsExactly("id BIGINT", "amount DOUBLE", "due DATE", "urgent BOOLEAN");
        // the values written into each body by KeywordModel.ticketsSql, computed again from the ticket number
        assertThat(ws.query("SELECT count(*) FROM frames.fields_tickets f WHERE f.amount IS NOT DISTINCT FROM"
                + " CASE WHEN f.id % 4 = 0 THEN 10 + f.id % 90 + 0.5 END AND f.due IS NOT DISTINCT FROM CASE WHEN"
                + " f.id % 4 = 0 THEN make_date(2024, CAST(1 + f.id % 9 AS INTEGER), CAST(10 + f.id % 10 AS INTEGER)) END"
                + " AND f.urgent = (f.id % 8 = 3)").scalar()).isEqualTo(200L);
        ExtractFields.Result res = (ExtractFields.Result) r.payload();
        assertThat(res.filled()).containsEntry("amount", 50).containsEntry("due", 50).containsEntry("urgent", 200);
        assertThat(res.agreed()).isEqualTo(res.checked()).isEqualTo(20 * 3);
        assertThat(r.summary()).contains("Filled: amount 50, due 50, urgent 200 of 200").contains("came from the model");
    }

    @Test
    void a_value_not_of_its_type_is_sent_back_once_naming_the_type() throws Exception {
        AtomicBoolean first = new AtomicBoolean(true);
        StringBuilder retry = new StringBuilder();
        ScriptedLlm llm = new ScriptedLlm(r -> {
            String reply = KeywordModel.reply(system(r), user(r));
            if (user(r).startsWith("These rows come again")) {
                retry.append(user(r));
            }
            return first.getAndSet(false) ? reply.replaceFirst("\"due\":\"2024-01-10\"", "\"due\":\"next Friday\"") : reply;
        });
        ToolResult r = call(llm, FIELDS);
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(retry.toString()).contains("id 0: due \"next Friday\" is not a date written YYYY-MM-DD (or null)");
        assertThat(ws.query("SELECT due = DATE '2024-01-10' FROM frames.fields_tickets WHERE id = 0").scalar())
                .isEqualTo(true);
    }

    @Test
    void an_unknown_field_type_is_refused_with_the_types_allowed() throws Exception {
        ToolResult r = call(new ScriptedLlm("{}"), "{\"amount\": \"money: the amount\"}");
        assertThat(r.error()).contains("type 'money' of amount is not one of boolean, date, integer, number, text");
    }
}
