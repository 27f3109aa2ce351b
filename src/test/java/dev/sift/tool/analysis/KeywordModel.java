package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for a model reading rows: it parses the rows of a classify_rows or extract_fields request (the ROWS block
 * of the user message) and answers as the prompt asks, labelling support tickets by their words and reading amounts
 * and dates with regular expressions. Used behind {@code ScriptedLlm} and behind the fake HTTP server.
 */
public final class KeywordModel {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern AMOUNT = Pattern.compile("\\$([0-9]+(?:\\.[0-9]+)?)");
    private static final Pattern DATE = Pattern.compile("(20[0-9]{2}-[0-9]{2}-[0-9]{2})");

    private KeywordModel() { }

    /** Whether the request is one of the row tools' (not a planner turn). */
    public static boolean isRowRequest(String system) {
        return system.startsWith("You label rows of a table") || system.startsWith("You read rows of a table");
    }

    /** The reply to a row request: {"rows": [...]} with an entry per row given. */
    public static String reply(String system, String user) {
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode row : rows(user)) {
            ObjectNode e = out.addObject().put("id", row.path("id").asText());
            String text = row.path("text").asText().toLowerCase(Locale.ROOT);
            if (system.startsWith("You label rows")) {
                e.put("label", label(text)).put("confidence", 0.9);
            } else {
                Matcher a = AMOUNT.matcher(text);
                Matcher d = DATE.matcher(text);
                if (a.find()) {
                    e.put("amount", Double.parseDouble(a.group(1)));
                } else {
                    e.putNull("amount");
                }
                if (d.find()) {
                    e.put("due", d.group(1));
                } else {
                    e.putNull("due");
                }
                e.put("urgent", text.contains("urgent"));
            }
        }
        return JSON.createObjectNode().set("rows", out).toString();
    }

    /** A support ticket's topic by its words. */
    static String label(String text) {
        if (text.contains("charged") || text.contains("invoice") || text.contains("refund")) {
            return "billing";
        }
        if (text.contains("crash") || text.contains("error")) {
            return "bug";
        }
        if (text.contains("please add") || text.contains("would be great")) {
            return "feature";
        }
        return "account";
    }

    /** The rows of the ROWS block, one JSON object a line. */
    public static List<JsonNode> rows(String user) {
        List<JsonNode> out = new ArrayList<>();
        int from = user.indexOf("<<<ROWS");
        int to = user.indexOf("ROWS>>>");
        for (String line : user.substring(user.indexOf('\n', from) + 1, to).split("\n")) {
            if (!line.isBlank()) {
                try {
                    out.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return out;
    }

    /**
     * 1,000 support tickets in four topics, the topic kept as {@code truth}: SQL for a frame (ticket_id, body, truth).
     * Every body differs (it names its number), so no two rows share a cached answer.
     */
    public static String ticketsSql(int n) {
        return "SELECT i::INTEGER AS ticket_id, ['billing', 'bug', 'feature', 'account'][i % 4 + 1] AS truth,"
                + " CASE i % 4 WHEN 0 THEN 'I was charged twice on invoice ' || i || ' for $' || (10 + i % 90) || '.50;"
                + " please refund by 2024-0' || (1 + i % 9) || '-1' || (i % 10) || '.'"
                + " WHEN 1 THEN 'The export screen crashes with error E' || i || ' every time I open report ' || (i % 7) || '.'"
                + " WHEN 2 THEN 'It would be great to have dark mode in view ' || i || '; please add it.'"
                + " ELSE 'I cannot log in to workspace ' || i || ' since the password reset' || CASE WHEN i % 8 = 3"
                + " THEN ', urgent' ELSE '' END || '.' END AS body"
                + " FROM range(" + n + ") t(i)";
    }
}
