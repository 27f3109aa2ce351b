package dev.sift.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.Dataset;
import dev.sift.data.TableInfo;
import dev.sift.session.SavedFrame;
import dev.sift.session.Session;
import dev.sift.session.Turn;

import java.util.List;

/**
 * The API's JSON bodies other than runs and steps (those are {@code RunJson}'s): records that Javalin's
 * Jackson mapper writes. Field names are the API's contract (see {@code /api/openapi.json}).
 */
final class Views {
    private Views() { }

    record Error(String error, int status) { }

    /** Liveness; never the model's address (it may hold a host or credentials), and with a token set only the status. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Health(String status, String planner, @JsonProperty("open_sessions") Integer openSessions) {
        static Health of(String planner, int openSessions, boolean tokenSet) {
            if (tokenSet) {
                return new Health("ok", null, null);
            }
            int at = planner.indexOf(" at ");
            return new Health("ok", at < 0 ? planner : planner.substring(0, at), openSessions);
        }
    }

    record TableRows(String name, long rows) { }

    /** A dataset; {@code last_used} marks the one last loaded or asked about, which the app opens on. */
    record DatasetView(String name, String description, @JsonProperty("built_at") String builtAt,
                       List<TableRows> tables, @JsonProperty("last_used") boolean lastUsed) {
        static DatasetView of(Dataset d, boolean lastUsed) {
            return new DatasetView(d.name(), d.description(), d.builtAt(),
                    d.tables().stream().map(t -> new TableRows(t.name(), t.rows())).toList(), lastUsed);
        }
    }

    /** A session in the list (no turns) or in full. */
    record SessionView(String id, String dataset, String title, @JsonProperty("created_at") String createdAt,
                       @JsonProperty("updated_at") String updatedAt, @JsonProperty("turn_count") int turnCount) {
        static SessionView of(Session s) {
            return new SessionView(s.id(), s.dataset(), s.title(), s.createdAt(), s.updatedAt(), s.turns().size());
        }
    }

    record FullSession(String id, String dataset, String title, @JsonProperty("created_at") String createdAt,
                       @JsonProperty("updated_at") String updatedAt, @JsonProperty("turn_count") int turnCount,
                       List<TurnView> turns, List<SavedFrame> frames) {
        static FullSession of(Session s) {
            return new FullSession(s.id(), s.dataset(), s.title(), s.createdAt(), s.updatedAt(), s.turns().size(),
                    s.turns().stream().map(TurnView::of).toList(), s.frames());
        }
    }

    record TurnView(int index, String asked, String question, String kind, List<String> references,
                    @JsonProperty("run_id") String runId, String status, JsonNode result) {
        static TurnView of(Turn t) {
            return new TurnView(t.index(), t.asked(), t.question(), t.kind().wire(), t.references(), t.runId(),
                    t.status(), t.result());
        }
    }

    record Column(String name, String type) { }

    record FrameView(String label, long rows, List<Column> columns) {
        static FrameView of(TableInfo t) {
            return new FrameView(t.name(), t.rows(),
                    t.columns().stream().map((ColumnInfo c) -> new Column(c.name(), c.type())).toList());
        }
    }

    record FramePage(String label, long total, int offset, int limit, List<String> columns, List<List<Object>> rows) { }

    /** {@code events_url} is {@code events} signed for a while, for EventSource when a token is set. */
    record Started(@JsonProperty("run_id") String runId, @JsonProperty("session_id") String sessionId, String events,
                   String result, @JsonProperty("events_url") String eventsUrl) { }

    record Csrf(@JsonProperty("csrf_token") String csrfToken, String header) { }

    record Pending(@JsonProperty("run_id") String runId, String state) { }

    record Accepted(@JsonProperty("run_id") String runId, String accepted) { }
}
