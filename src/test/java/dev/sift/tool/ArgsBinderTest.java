package dev.sift.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArgsBinderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Args(@Arg(value = "the table", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
                @Arg(value = "columns", required = false, kind = Arg.Kind.COLUMNS) List<String> columns,
                @Arg(value = "how many", required = false) Integer limit,
                @Arg(value = "a ratio", required = false) Double ratio,
                @Arg(value = "a flag", required = false) Boolean flag,
                @Arg(value = "free-form", required = false) JsonNode params) {
        Args {
            if (limit != null && limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, got " + limit + ".");
            }
        }
    }

    private static final ToolSpec SPEC = new ToolSpec("demo", "a demo", Args.class, "x", Set.of());

    private static Args bind(String json) throws Exception {
        return ArgsBinder.bind(SPEC, JSON.readTree(json));
    }

    @Test
    void binds_every_supported_type() throws Exception {
        Args a = bind("{\"source\":\"loan\",\"columns\":[\"a\",\"b\"],\"limit\":5,\"ratio\":0.5,\"flag\":true,"
                + "\"params\":{\"depth\":3}}");
        assertThat(a).isEqualTo(new Args("loan", List.of("a", "b"), 5, 0.5, true, JSON.readTree("{\"depth\":3}")));
    }

    @Test
    void accepts_aliases_numeric_strings_and_a_single_name_for_a_list() throws Exception {
        Args a = bind("{\"table\":\"loan\",\"columns\":\"amount\",\"limit\":\"7\",\"ratio\":\"2\",\"flag\":\"false\"}");
        assertThat(a.source()).isEqualTo("loan");
        assertThat(a.columns()).containsExactly("amount");
        assertThat(a.limit()).isEqualTo(7);
        assertThat(a.ratio()).isEqualTo(2.0);
        assertThat(a.flag()).isFalse();
    }

    @Test
    void null_or_missing_arguments_object_means_no_arguments() {
        assertThatThrownBy(() -> ArgsBinder.bind(SPEC, null)).hasMessage("demo needs argument 'source' (the table)."
                + " Arguments: source (string, required), columns (string[]), limit (integer), ratio (number),"
                + " flag (boolean), params (object).");
    }

    @Test
    void rejects_unknown_arguments_instead_of_ignoring_them() {
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"limitt\":3}")).isInstanceOf(ToolCallException.class)
                .hasMessage("demo has no argument 'limitt'. Its arguments are: source (string, required), columns"
                        + " (string[]), limit (integer), ratio (number), flag (boolean), params (object). Did you mean 'limit'?");
    }

    @Test
    void rejects_wrong_types_with_what_came_in() {
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"limit\":2.5}"))
                .hasMessage("demo argument 'limit' must be a whole number, got 2.5.");
        assertThatThrownBy(() -> bind("{\"source\":{\"a\":1}}"))
                .hasMessage("demo argument 'source' must be a string, got object.");
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"columns\":[[1]]}"))
                .hasMessage("demo argument 'columns' must be a list of strings, got [[1]].");
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"flag\":\"yes\"}"))
                .hasMessage("demo argument 'flag' must be true or false, got \"yes\".");
        assertThatThrownBy(() -> bind("[1,2]"))
                .hasMessageStartingWith("demo takes a JSON object of arguments, got array.");
    }

    @Test
    void rejects_an_argument_given_twice_under_an_alias() {
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"table\":\"card\"}"))
                .hasMessage("demo got argument 'source' twice (under an alias).");
    }

    @Test
    void record_validation_errors_reach_the_planner() {
        assertThatThrownBy(() -> bind("{\"source\":\"loan\",\"limit\":0}"))
                .isInstanceOf(ToolCallException.class).hasMessage("demo: limit must be at least 1, got 0.");
    }

    @Test
    void derives_prompt_signature_and_json_schema() {
        assertThat(JsonSchemas.signature(SPEC)).isEqualTo("demo(source, columns?: string[], limit?: integer,"
                + " ratio?: number, flag?: boolean, params?: object)");
        JsonNode schema = JsonSchemas.of(Args.class);
        assertThat(schema.get("required").toString()).isEqualTo("[\"source\"]");
        assertThat(schema.at("/properties/columns/items/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/limit/description").asText()).isEqualTo("how many");
        assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
    }
}
