package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.agent.TraceStore;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;
import dev.sift.bench.suite.Suite.Item;
import dev.sift.data.Dataset;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.session.Conversation;
import dev.sift.session.SessionStore;
import dev.sift.text.Evidence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs a suite's conversations as {@code sift chat} runs them: one session per conversation (in a folder of its own,
 * removed afterwards), every turn through {@link Conversation#ask} with the same engine — so a later turn is resolved
 * against the earlier ones (a reply to a clarification completes it, a refused turn is no context) — and each turn
 * scored against its own gold like a single question. A turn that fails is that turn's {@code error}; the
 * conversation goes on.
 */
final class Dialogues {
    private static final Logger LOG = LoggerFactory.getLogger(Dialogues.class);
    private final BenchRunner runner;
    private final Dataset dataset;
    private final Workspace goldWs;

    Dialogues(BenchRunner runner, Dataset dataset, Workspace goldWs) {
        this.runner = runner;
        this.dataset = dataset;
        this.goldWs = goldWs;
    }

    List<ItemResult> run(Suite.Dialogue dialogue) {
        Path dir;
        try {
            dir = Files.createTempDirectory("sift-bench-" + dialogue.id() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return turns(dialogue, dir);
        } finally {
            delete(dir);
        }
    }

    private List<ItemResult> turns(Suite.Dialogue dialogue, Path dir) {
        List<ItemResult> out = new ArrayList<>();
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        Conversation.Engine engine = runner.sift().engine(runner.tools(), new TraceStore(dir.resolve("traces")));
        Workspace ws = runner.sift().open(dataset);
        Conversation chat;
        try {
            chat = Conversation.open(store, store.create(dataset.name(), dataset.fingerprint()), ws);
        } catch (IOException | RuntimeException e) {
            ws.close();
            throw new IllegalStateException("could not open a session for conversation " + dialogue.id(), e);
        }
        try (chat) {
            for (Item turn : dialogue.turns()) {
                out.add(turn(turn, chat, engine));
            }
        }
        return out;
    }

    private ItemResult turn(Item turn, Conversation chat, Conversation.Engine engine) {
        QueryResult gold;
        try {
            gold = turn.goldSql() == null ? null : BenchRunner.gold(turn, goldWs);
        } catch (Exception e) {
            return BenchRunner.goldFailed(turn, e);
        }
        long t0 = System.nanoTime();
        try {
            Conversation.Outcome o = chat.ask(turn.question(), engine, runner.config(), null, null, null);
            double seconds = (System.nanoTime() - t0) / 1e9;
            String[] scored = runner.score(turn, gold, o.run(), chat.workspace());
            return new ItemResult(turn, Outcome.valueOf(scored[0]), scored[1], o.run().kind().wire(), o.run().answer(),
                    o.run().evidence().stream().map(Evidence::sql).toList(), seconds, o.run().steps().size(),
                    o.run().status().wire(), o.run().grounding().judge() == null ? null
                    : o.run().grounding().judge().verdict(), o.turn().question(), BenchRunner.toolsRan(o.run()));
        } catch (Exception | StackOverflowError e) {
            LOG.warn("Bench turn {} failed", turn.id(), e);
            return new ItemResult(turn, Outcome.ERROR, "the turn failed: " + BenchRunner.message(e), null, null,
                    List.of(), (System.nanoTime() - t0) / 1e9, 0);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.debug("Could not remove {}: {}", dir, e.getMessage());
        }
    }
}
