package dev.sift.llm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class CachingLlmTest {

    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    @TempDir
    Path tmp;

    private static OpenAiCompatibleLlm provider() {
        return new OpenAiCompatibleLlm(llm.server().baseUrl(), "k", "gpt-4o-mini", Duration.ofSeconds(5));
    }

    private static LlmRequest question() {
        return LlmRequest.of(LlmMessage.system("sys"), LlmMessage.user("How many rows?"));
    }

    @Test
    void same_request_twice_hits_server_once() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("12 rows", 20, 3));
        CachingLlm cache = new CachingLlm(provider());

        LlmResponse first = cache.complete(question());
        LlmResponse second = cache.complete(question());

        assertThat(llm.server().callCount()).isEqualTo(1);
        assertThat(first.cached()).isFalse();
        assertThat(second.cached()).isTrue();
        assertThat(second.text()).isEqualTo("12 rows");
        assertThat(second.inputTokens()).isEqualTo(20);
        assertThat(second.outputTokens()).isEqualTo(3);
        assertThat(second.model()).isEqualTo(first.model());
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(1);
    }

    @Test
    void different_temperature_is_a_different_request() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("a", 1, 1))
                .enqueueJson(200, FakeLlmServer.openAiCompletion("b", 1, 1));
        CachingLlm cache = new CachingLlm(provider());

        LlmResponse cold = cache.complete(question());
        LlmResponse warm = cache.complete(question().withTemperature(0.7));

        assertThat(llm.server().callCount()).isEqualTo(2);
        assertThat(cold.text()).isEqualTo("a");
        assertThat(warm.text()).isEqualTo("b");
        assertThat(warm.cached()).isFalse();
    }

    @Test
    void every_request_field_and_the_client_identity_are_in_the_key() {
        CachingLlm a = new CachingLlm(new ScriptedLlm("x"));
        CachingLlm b = new CachingLlm(provider());
        LlmRequest base = question();

        List<String> keys = Stream.of(base, base.withTemperature(0.1), base.withMaxTokens(99),
                        base.withJsonMode(true),
                        LlmRequest.of(LlmMessage.system("sys"), LlmMessage.user("How many rows?!")),
                        LlmRequest.of(LlmMessage.user("sys"), LlmMessage.user("How many rows?")))
                .map(a::key).toList();

        assertThat(keys).doesNotHaveDuplicates().allMatch(k -> k.matches("[0-9a-f]{64}"));
        assertThat(a.key(base)).isEqualTo(a.key(question())).isNotEqualTo(b.key(base));
    }

    @Test
    void disk_cache_survives_a_new_instance() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("from disk", 7, 2));
        Path dir = tmp.resolve("llm-cache");

        LlmResponse first = new CachingLlm(provider(), 16, dir).complete(question());
        CachingLlm fresh = new CachingLlm(provider(), 16, dir);
        LlmResponse replay = fresh.complete(question());

        assertThat(llm.server().callCount()).isEqualTo(1);
        assertThat(first.cached()).isFalse();
        assertThat(replay.cached()).isTrue();
        assertThat(replay.text()).isEqualTo("from disk");
        assertThat(replay.inputTokens()).isEqualTo(7);
        assertThat(replay.outputTokens()).isEqualTo(2);
        try (Stream<Path> files = Files.list(dir)) {
            // exactly one file named by the key, no leftover temp files
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .containsExactly(fresh.key(question()) + ".json");
        }
    }

    @Test
    void corrupt_disk_entry_is_ignored_and_rewritten() throws Exception {
        ScriptedLlm model = new ScriptedLlm("fresh answer");
        CachingLlm cache = new CachingLlm(model, 16, tmp);
        Path file = tmp.resolve(cache.key(question()) + ".json");
        Files.writeString(file, "{ not json");

        LlmResponse r = cache.complete(question());

        assertThat(r.text()).isEqualTo("fresh answer");
        assertThat(r.cached()).isFalse();
        assertThat(Files.readString(file)).contains("fresh answer");
        assertThat(new CachingLlm(model, 16, tmp).complete(question()).cached()).isTrue();
    }

    @Test
    void unwritable_disk_dir_does_not_break_calls() throws Exception {
        Path notADir = Files.writeString(tmp.resolve("file"), "x");
        CachingLlm cache = new CachingLlm(new ScriptedLlm("still works"), 16, notADir.resolve("sub"));

        assertThat(cache.complete(question()).text()).isEqualTo("still works");
        assertThat(cache.complete(question()).cached()).isTrue(); // memory layer still serves it
    }

    @Test
    void memory_layer_evicts_least_recently_used() throws Exception {
        ScriptedLlm model = new ScriptedLlm(r -> "answer to " + r.messages().get(0).content());
        CachingLlm cache = new CachingLlm(model, 2, null);
        LlmRequest a = LlmRequest.of(LlmMessage.user("a"));
        LlmRequest b = LlmRequest.of(LlmMessage.user("b"));
        LlmRequest c = LlmRequest.of(LlmMessage.user("c"));

        cache.complete(a);
        cache.complete(b);
        cache.complete(a); // a is now most recently used
        cache.complete(c); // evicts b
        assertThat(cache.memorySize()).isEqualTo(2);
        assertThat(cache.complete(a).cached()).isTrue();
        assertThat(cache.complete(b).cached()).isFalse();
        assertThat(model.requests()).hasSize(4); // a, b, c, b again
    }

    @Test
    void native_tool_calls_are_part_of_the_key_and_survive_the_disk_cache() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiToolCall("call_9", "run_sql", "{\"sql\":\"SELECT 1\"}", 20, 3));
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("plain", 20, 3));
        ToolDefinition tool = new ToolDefinition("run_sql", "run a query", new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree("{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\"}}}"));
        LlmRequest withTools = question().withTools(List.of(tool));
        CachingLlm cache = new CachingLlm(provider(), 8, tmp);

        LlmResponse called = cache.complete(withTools);
        assertThat(cache.key(withTools)).isNotEqualTo(cache.key(question()));
        assertThat(cache.complete(question()).text()).isEqualTo("plain");
        LlmResponse replayed = new CachingLlm(provider(), 8, tmp).complete(withTools);

        assertThat(llm.server().callCount()).isEqualTo(2);
        assertThat(called.toolCalls()).containsExactly(new ToolCall("call_9", "run_sql", "{\"sql\":\"SELECT 1\"}"));
        assertThat(replayed.cached()).isTrue();
        assertThat(replayed.toolCalls()).isEqualTo(called.toolCalls());
    }
}
