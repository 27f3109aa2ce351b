package dev.sift.llm;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RetryingLlm's own logic with in-process fakes: what is retried, how often, and the hard timeout. */
class RetryingLlmTest {

    private static final LlmRequest REQ = LlmRequest.of(LlmMessage.user("q"));

    /** Plays a sequence of outcomes: an LlmException to throw or a String to answer. */
    private static final class SequenceLlm implements LlmClient {
        private final Deque<Object> outcomes;
        final AtomicInteger calls = new AtomicInteger();

        SequenceLlm(Object... outcomes) {
            this.outcomes = new ArrayDeque<>(List.of(outcomes));
        }

        @Override
        public synchronized LlmResponse complete(LlmRequest request) throws LlmException {
            calls.incrementAndGet();
            Object next = outcomes.poll();
            if (next instanceof LlmException e) {
                throw e;
            }
            if (next instanceof RuntimeException e) {
                throw e;
            }
            return new LlmResponse((String) next, 1, 1, "fake", 0, false);
        }

        @Override
        public String describe() {
            return "fake model";
        }
    }

    private static LlmException http(int status) {
        return LangChain4jSupport.httpError(status, "{\"error\":{\"message\":\"m\"}}", "http://h/v1", null);
    }

    private static RetryingLlm retrying(LlmClient d, Duration timeout, int retries) {
        return new RetryingLlm(d, "http://h/v1", timeout, retries, Duration.ZERO);
    }

    @Test
    void retries_transient_statuses_then_succeeds() throws Exception {
        SequenceLlm d = new SequenceLlm(http(429), http(503), "ok");

        LlmResponse r = retrying(d, Duration.ofSeconds(5), 2).complete(REQ);

        assertThat(r.text()).isEqualTo("ok");
        assertThat(d.calls).hasValue(3);
    }

    @Test
    void does_not_retry_client_errors() {
        for (int status : new int[] {400, 401, 403, 404, 422}) {
            SequenceLlm d = new SequenceLlm(http(status), "never reached");
            assertThatThrownBy(() -> retrying(d, Duration.ofSeconds(5), 3).complete(REQ))
                    .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.httpStatus()).isEqualTo(status));
            assertThat(d.calls).as("status %d", status).hasValue(1);
        }
    }

    @Test
    void gives_up_after_retries_and_says_how_many_attempts() {
        SequenceLlm d = new SequenceLlm(http(500), http(500), http(500), "too late");

        assertThatThrownBy(() -> retrying(d, Duration.ofSeconds(5), 2).complete(REQ))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.attempts()).isEqualTo(3);
                    assertThat(e.getMessage()).contains("(HTTP 500: m) (tried 3 times). ");
                });
        assertThat(d.calls).hasValue(3);
    }

    @Test
    void zero_retries_means_one_attempt_and_no_attempt_suffix() {
        SequenceLlm d = new SequenceLlm(http(500), "unused");

        assertThatThrownBy(() -> retrying(d, Duration.ofSeconds(5), 0).complete(REQ))
                .isInstanceOf(LlmException.class).message().doesNotContain("tried");
        assertThat(d.calls).hasValue(1);
    }

    @Test
    void plain_llm_exceptions_are_not_retried() {
        SequenceLlm d = new SequenceLlm(new LlmException("scripted failure"), "unused");

        assertThatThrownBy(() -> retrying(d, Duration.ofSeconds(5), 2).complete(REQ))
                .isInstanceOf(LlmException.class).hasMessage("scripted failure");
        assertThat(d.calls).hasValue(1);
    }

    @Test
    void delegate_bug_becomes_llm_exception_without_retry() {
        SequenceLlm d = new SequenceLlm(new IllegalStateException("oops"), "unused");

        assertThatThrownBy(() -> retrying(d, Duration.ofSeconds(5), 2).complete(REQ))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("failed unexpectedly: java.lang.IllegalStateException: oops")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(d.calls).hasValue(1);
    }

    @Test
    void hard_timeout_frees_the_caller_even_if_the_delegate_ignores_interrupts() {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        LlmClient stuck = new LlmClient() {
            @Override
            public LlmResponse complete(LlmRequest request) {
                calls.incrementAndGet();
                // Simulates a library whose own timeout is broken: swallows interrupts, blocks (bounded).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (never.getCount() > 0 && System.nanoTime() < deadline) {
                    try {
                        never.await(50, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException ignored) {
                        // deliberately ignored
                    }
                }
                return new LlmResponse("late", 0, 0, "x", 0, false);
            }

            @Override
            public String describe() {
                return "stuck";
            }
        };
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> new RetryingLlm(stuck, Duration.ofMillis(300), 1).complete(REQ))
                    .isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
                        // Without an endpoint the message names the delegate.
                        assertThat(e.getMessage()).isEqualTo("LLM stuck did not answer within 0.3 s (tried 2 times)."
                                + " Check SIFT_LLM_BASE_URL or raise SIFT_LLM_TIMEOUT_S.");
                    });
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMs).isBetween(600L, 3_000L);
            assertThat(calls).hasValue(2);
        } finally {
            never.countDown();
        }
    }

    @Test
    void interrupted_caller_gets_llm_exception_and_keeps_interrupt_flag() {
        CountDownLatch never = new CountDownLatch(1);
        LlmClient blocking = new LlmClient() {
            @Override
            public LlmResponse complete(LlmRequest request) throws LlmException {
                try {
                    never.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new LlmException("cancelled");
            }

            @Override
            public String describe() {
                return "blocking";
            }
        };
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> new RetryingLlm(blocking, Duration.ofSeconds(5), 2).complete(REQ))
                    .isInstanceOf(LlmException.class).hasMessageContaining("interrupted");
            assertThat(Thread.interrupted()).isTrue(); // also clears it for the next test
        } finally {
            never.countDown();
        }
    }

    @Test
    void describe_is_transparent_so_cache_keys_do_not_depend_on_retry_settings() {
        SequenceLlm d = new SequenceLlm();
        assertThat(retrying(d, Duration.ofSeconds(1), 3).describe()).isEqualTo("fake model");
    }
}
