package dev.sift.session;

import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sessions active in this process, each with its open workspace. At most {@code maxOpen} stay open;
 * the least recently used idle one is closed beyond that (its frames come back from their SQL when it is
 * opened again). Workspaces are opened and closed outside the registry's lock, so a session being opened, deleted
 * or evicted never holds up the questions of the others.
 */
public final class Sessions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);

    /** Opens a workspace on a dataset by name (throws with the list of datasets when there is none). */
    @FunctionalInterface
    public interface WorkspaceOpener {
        Workspace open(String dataset) throws Exception;
    }

    private final SessionStore store;
    private final WorkspaceOpener opener;
    private final int maxOpen;
    private final LinkedHashMap<String, Conversation> open = new LinkedHashMap<>(16, 0.75f, true);

    public Sessions(SessionStore store, WorkspaceOpener opener, int maxOpen) {
        this.store = store;
        this.opener = opener;
        this.maxOpen = maxOpen;
    }

    public SessionStore store() {
        return store;
    }

    /**
     * The active conversation of a session, opening it (and re-creating its frames) when needed. Workspaces
     * are opened outside the lock, so one session being opened never holds up the others.
     */
    public Optional<Conversation> get(String id) throws Exception {
        synchronized (this) {
            Conversation c = open.get(id);
            if (c != null) {
                return Optional.of(c);
            }
        }
        Optional<Session> s = store.find(id);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        Conversation fresh = Conversation.open(store, s.get(), opener.open(s.get().dataset()));
        Conversation raced;
        List<Conversation> evicted;
        synchronized (this) {
            raced = open.get(id);
            if (raced == null) {
                open.put(id, fresh);
            }
            evicted = evict();
        }
        closeAll(evicted);
        if (raced != null) {
            fresh.close();
            return Optional.of(raced);
        }
        return Optional.of(fresh);
    }

    /** Creates a session on a dataset and opens it. */
    public Conversation create(String dataset) throws Exception {
        Workspace ws = opener.open(dataset);
        Session s;
        try {
            s = store.create(ws.dataset().name(), ws.dataset().fingerprint());
        } catch (IOException | RuntimeException e) {
            ws.close();
            throw e;
        }
        Conversation c = Conversation.open(store, s, ws);
        List<Conversation> evicted;
        synchronized (this) {
            open.put(s.id(), c);
            evicted = evict();
        }
        closeAll(evicted);
        return c;
    }

    public boolean delete(String id) throws IOException {
        Conversation c;
        synchronized (this) {
            c = open.remove(id);
        }
        if (c != null) {
            c.close();
        }
        return store.delete(id);
    }

    public List<Session> list() throws IOException {
        return store.list();
    }

    public synchronized int openCount() {
        return open.size();
    }

    /** Takes idle sessions beyond {@code maxOpen} out (least recently used first); the caller closes them. */
    private List<Conversation> evict() {
        List<Conversation> out = new ArrayList<>();
        Iterator<Map.Entry<String, Conversation>> it = open.entrySet().iterator();
        while (open.size() > maxOpen && it.hasNext()) {
            Map.Entry<String, Conversation> e = it.next();
            if (!e.getValue().busy()) {
                LOG.debug("Closing idle session {}", e.getKey());
                out.add(e.getValue());
                it.remove();
            }
        }
        return out;
    }

    private static void closeAll(List<Conversation> conversations) {
        conversations.forEach(Conversation::close);
    }

    @Override
    public synchronized void close() {
        open.values().forEach(Conversation::close);
        open.clear();
    }
}
