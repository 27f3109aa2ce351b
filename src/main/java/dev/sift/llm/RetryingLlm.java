package dev.sift.llm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decorator that bounds every attempt by a hard wall-clock timeout and retries transient failures
 * (timeouts, connection errors, HTTP 408/429/5xx) with a short linear backoff. Other failures (401, 400...)
 * are thrown at once: retrying them only wastes the user's time.
 *
 * <p>The timeout is enforced here, not only by the HTTP library, so a stalled endpoint cannot freeze a run
 * even if a library timeout is misconfigured or does not cover some phase of the exchange.
 */
public final class RetryingLlm implements LlmClient {

    private static final Logger log = LoggerFactory.getLogger(RetryingLlm.class);
    public static final Duration DEFAULT_BACKOFF_STEP = Duration.ofMillis(200);

    // Daemon threads: an abandoned, stuck call must never keep the JVM alive. Cached pool: a stuck thread
    // that ignores interruption does not block later calls.
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(new DaemonFactory());

    private final LlmClient delegate;
    private final String subject;
    private final String endpoint;
    private final Duration timeout;
    private final int retries;
    private final Duration backoffStep;

    /** Messages name the delegate's {@link LlmClient#describe()}. */
    public RetryingLlm(LlmClient delegate, Duration timeout, int retries) {
        this(delegate, null, timeout, retries, DEFAULT_BACKOFF_STEP);
    }

    /** @param endpoint base URL named in the log when a call times out (nullable: then the delegate's describe() is used) */
    public RetryingLlm(LlmClient delegate, String endpoint, Duration timeout, int retries) {
        this(delegate, endpoint, timeout, retries, DEFAULT_BACKOFF_STEP);
    }

    /** @param backoffStep wait before retry n is n * backoffStep */
    public RetryingLlm(LlmClient delegate, String endpoint, Duration timeout, int retries, Duration backoffStep) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.subject = "LLM " + delegate.label(); // users see the provider; the address goes to the log
        this.endpoint = endpoint != null ? endpoint : delegate.describe();
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be > 0, got " + timeout);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0, got " + retries);
        }
        this.retries = retries;
        this.backoffStep = Objects.requireNonNull(backoffStep, "backoffStep");
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        int maxAttempts = retries + 1;
        for (int attempt = 1; ; attempt++) {
            try {
                return attemptOnce(request);
            } catch (LlmException e) {
                if (!e.retryable() || attempt >= maxAttempts) {
                    throw attempt > 1 ? e.withAttempts(attempt) : e;
                }
                long waitMs = backoffStep.toMillis() * attempt;
                log.info("LLM attempt {}/{} failed, retrying in {} ms: {}", attempt, maxAttempts, waitMs,
                        e.getMessage());
                sleep(waitMs, e);
            }
        }
    }

    private LlmResponse attemptOnce(LlmRequest request) throws LlmException {
        Future<LlmResponse> future = CALLS.submit(() -> delegate.complete(request));
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true); // interrupts the JDK HTTP client, which aborts the exchange
            log.warn("{} ({}) did not answer within {}", subject, endpoint, LlmConfig.formatSeconds(timeout));
            throw new LlmException(LlmException.Kind.TIMEOUT, -1,
                    subject + " did not answer within " + LlmConfig.formatSeconds(timeout),
                    "Check SIFT_LLM_BASE_URL or raise SIFT_LLM_TIMEOUT_S.", null);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new LlmException("LLM call to " + delegate.label() + " was interrupted", e);
        } catch (CancellationException e) {
            throw new LlmException("LLM call to " + delegate.label() + " was cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LlmException le) {
                throw le;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            // A delegate bug, not a transport failure: surface it, do not retry it.
            throw new LlmException(LlmException.Kind.OTHER, -1,
                    "LLM call to " + delegate.label() + " failed unexpectedly: " + cause,
                    "This is a bug; please report it with the log.", cause);
        }
    }

    private static void sleep(long ms, LlmException pending) throws LlmException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw pending;
        }
    }

    @Override
    public String describe() {
        // Transparent on purpose: cache keys built from describe() must not change with retry settings.
        return delegate.describe();
    }

    private static final class DaemonFactory implements java.util.concurrent.ThreadFactory {
        private final AtomicInteger n = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "sift-llm-call-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
