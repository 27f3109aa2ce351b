package dev.sift.web;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run as the API sees it: its events in order (each numbered from 0), and when it is done, its result.
 * Readers of the event stream wait on it; a run paused on a clarifying question waits for {@link #reply}.
 */
public final class RunHandle {
    private final String id;
    private final String sessionId;
    private final List<ObjectNode> events = new ArrayList<>();
    private boolean done;
    private ObjectNode result;
    private int httpStatus = 200;
    private CompletableFuture<String> pending;
    /** What a person may mark as right once the run answered: the dataset, the question as it was read, the run. */
    private Answered answered;

    /** A finished turn's run with its dataset and the question it answered (a follow-up resolved to stand alone). */
    record Answered(String dataset, String question, dev.sift.agent.AgentRun run) { }

    RunHandle(String id, String sessionId) {
        this.id = id;
        this.sessionId = sessionId;
    }

    public String id() {
        return id;
    }

    public String sessionId() {
        return sessionId;
    }

    synchronized void emit(ObjectNode event) {
        event.put("seq", events.size());
        events.add(event);
        notifyAll();
    }

    /** Records the result and appends the final {@code done} event, atomically for readers. */
    synchronized void finish(ObjectNode result, int status, ObjectNode doneEvent) {
        this.result = result;
        this.httpStatus = status;
        emit(doneEvent);
        this.done = true;
        notifyAll();
    }

    synchronized void answered(Answered a) {
        this.answered = a;
    }

    /** The run's answer to save, once the run finished with one (empty while running or after an error). */
    synchronized java.util.Optional<Answered> answered() {
        return java.util.Optional.ofNullable(answered);
    }

    public synchronized boolean done() {
        return done;
    }

    public synchronized ObjectNode result() {
        return result;
    }

    public synchronized int status() {
        return httpStatus;
    }

    /** Events from {@code from} on, waiting up to {@code waitMillis} for one when none is there yet. */
    synchronized List<ObjectNode> eventsFrom(int from, long waitMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + waitMillis;
        while (events.size() <= from && !done) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return new ArrayList<>(events.subList(Math.min(from, events.size()), events.size()));
    }

    synchronized int eventCount() {
        return events.size();
    }

    /** Called by the run thread: waits for the person's reply (or the default after the timeout). */
    String awaitReply(long timeoutMillis) throws InterruptedException {
        CompletableFuture<String> f;
        synchronized (this) {
            pending = new CompletableFuture<>();
            f = pending;
        }
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return null;
        } finally {
            synchronized (this) {
                pending = null;
            }
        }
    }

    /** The person's reply to a paused run; false when the run is not waiting for one. */
    public synchronized boolean reply(String answer) {
        if (pending == null) {
            return false;
        }
        return pending.complete(answer);
    }

    public synchronized boolean waiting() {
        return pending != null;
    }
}
