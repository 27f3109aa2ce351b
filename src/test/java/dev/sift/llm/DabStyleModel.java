package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.bench.dab.DabStyleData;
import dev.sift.tool.analysis.KeywordModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A scripted model behind the fake OpenAI-compatible server for the pkgdesk DAB-style set, in two ways of working:
 * {@link Mode#TOOLS} calls the tools each question needs (classify_rows, extract_fields, match_records, stat_test,
 * union_family, the text macros, the approved three-column join read from the prompt's facts); {@link Mode#PAGING}
 * does what a model without those tools does: pages the rows with show_frame and types what it read back into SQL
 * (the ids and amounts typed come from the generator's truth: this mode measures cost, not skill), computes the
 * chi-square by hand in SQL and unions monthly tables by hand. Every final answer is written from the last
 * observation's {@code answer} cell. Row requests (the tools' batches) are answered from the rows sent, by their
 * words. Tokens are counted as a token per 4 characters of every message sent and every reply, planner and batches.
 */
final class DabStyleModel {
    enum Mode { TOOLS, PAGING }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ANSWER = Pattern.compile("(?m)^answer\\R(.+)$");
    private static final Pattern SECURITY = Pattern.compile("(?m)^security\\s*\\|\\s*([0-9,]+)");
    private static final Pattern STATISTIC = Pattern.compile(" = (-?[0-9.]+), df = ");
    private static final Pattern AMOUNT = Pattern.compile("\\$([0-9]+\\.[0-9]{2})");
    private final Mode mode;
    private final DabStyleData truth;
    long plannerTokens;
    long rowTokens;
    int plannerRequests;
    int rowRequests;

    DabStyleModel(Mode mode, DabStyleData truth) {
        this.mode = mode;
        this.truth = truth;
    }

    synchronized FakeLlmServer.Reply reply(FakeLlmServer.Recorded rec) {
        JsonNode messages = rec.json().get("messages");
        String system = messages.get(0).get("content").asText();
        long sent = 0;
        for (JsonNode m : messages) {
            sent += m.path("content").asText().length();
        }
        String text = KeywordModel.isRowRequest(system) ? rows(system, messages.get(1).get("content").asText())
                : plan(messages, system);
        long tokens = (sent + text.length()) / 4;
        if (KeywordModel.isRowRequest(system)) {
            rowRequests++;
            rowTokens += tokens;
        } else {
            plannerRequests++;
            plannerTokens += tokens;
        }
        return FakeLlmServer.Reply.json(200, FakeLlmServer.openAiCompletion(text, (int) (sent / 4), text.length() / 4));
    }

    /** A labelling or extraction batch, answered row by row from the text. */
    private static String rows(String system, String user) {
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode row : KeywordModel.rows(user)) {
            ObjectNode e = out.addObject().put("id", row.path("id").asText());
            String t = row.path("text").asText().toLowerCase(Locale.ROOT);
            if (system.startsWith("You label rows")) {
                e.put("label", topic(t)).put("confidence", 0.9);
            } else {
                Matcher m = AMOUNT.matcher(t);
                if (m.find() && topic(t).equals("billing")) {
                    e.put("overcharged", Double.parseDouble(m.group(1)));
                } else {
                    e.putNull("overcharged");
                }
            }
        }
        return JSON.createObjectNode().set("rows", out).toString();
    }

    private static String topic(String t) {
        if (t.contains("leaked") || t.contains("vulnerability") || t.contains("exposed secret")) {
            return "security";
        }
        if (t.contains("charged") || t.contains("invoice") || t.contains("billed") || t.contains("refund")) {
            return "billing";
        }
        if (t.contains("crashes") || t.contains("fails") || t.contains("broken")) {
            return "bug";
        }
        return "feature";
    }

    /** The planner's next reply: the task's next call, or the answer read from the last observation. */
    private String plan(JsonNode messages, String system) {
        String first = messages.get(1).get("content").asText();
        int step = 0;
        for (JsonNode m : messages) {
            step += m.path("role").asText().equals("assistant") ? 1 : 0;
        }
        String task = task(first);
        PagingCalls.Plan paging = mode == Mode.PAGING ? PagingCalls.of(task, truth) : null;
        if (paging != null) {
            String next = paging.next(messages);
            if (next != null) {
                return next;
            }
        } else {
            List<String> calls = calls(task, system + "\n" + first);
            if (step < calls.size()) {
                return calls.get(step);
            }
        }
        String last = messages.get(messages.size() - 1).path("content").asText();
        String value = value(last);
        return "{\"thought\":\"done\",\"final_answer\":" + JsonQuote.of(answer(task, value)) + "}";
    }

    /**
     * The answer read from the last observation: a query's {@code answer} cell, else the security count of
     * classify_rows' label counts or the statistic of stat_test's summary (rounded as the question asks), which a
     * model reads there without another query.
     */
    private static String value(String last) {
        Matcher m = ANSWER.matcher(last);
        if (m.find()) {
            return m.group(1).strip();
        }
        Matcher label = SECURITY.matcher(last);
        if (label.find()) {
            return label.group(1);
        }
        Matcher stat = STATISTIC.matcher(last);
        if (stat.find()) {
            return String.format(Locale.ROOT, "%.2f", Double.parseDouble(stat.group(1)));
        }
        return "(no answer in: " + last.lines().findFirst().orElse("") + ")";
    }

    private static String task(String prompt) {
        for (String[] k : new String[][] {{"Classify the support tickets", "labelling"}, {"overcharged", "extraction"},
            {"spelled", "matching"}, {"chi-square", "chi_square"}, {"keyword", "text_list"}, {"published in 2023", "word_dates"},
            {"Germany", "decorated_ids"}, {"April to June", "family"}, {"advisories concern", "multi_column_join"}}) {
            if (prompt.contains("Question: ") && prompt.substring(prompt.lastIndexOf("Question: ")).contains(k[0])) {
                return k[1];
            }
        }
        throw new AssertionError("not a pkgdesk question: " + prompt.substring(Math.max(0, prompt.length() - 300)));
    }

    private static String answer(String task, String v) {
        return switch (task) {
            case "labelling" -> v + " support tickets report a security problem (labels given by the model from each ticket's text).";
            case "extraction" -> "Customers say they were overcharged $" + v + " in total (amounts read from the tickets' text).";
            case "matching" -> "Customers on the Enterprise plan were invoiced $" + v + " in total (invoice names matched to the CRM's companies).";
            case "chi_square" -> "The chi-square statistic of plan by priority is " + v + ".";
            case "text_list" -> "The keyword listed by the most package versions is " + v + ".";
            case "word_dates" -> v + " package versions were published in 2023.";
            case "decorated_ids" -> v + " support tickets come from accounts based in Germany.";
            case "family" -> "NPM packages were downloaded " + v + " times from April to June 2024.";
            default -> v + " security advisories concern package versions licensed under GPL-3.0.";
        };
    }

    private List<String> calls(String task, String prompt) {
        return switch (task) {
            case "labelling" -> List.of(call("classify_rows", "{\"source\":\"support_database.tickets\",\"columns\":[\"body\"],"
                    + "\"id\":\"ticket_id\",\"labels\":{\"billing\":\"charges, invoices, refunds\",\"bug\":\"crashes, errors,"
                    + " broken features\",\"security\":\"leaked tokens, exposed secrets, vulnerabilities\",\"feature\":\"asks"
                    + " for something new\"}}")); // the label counts are in its summary
            case "extraction" -> List.of(call("extract_fields", "{\"source\":\"support_database.tickets\",\"columns\":[\"body\"],"
                    + "\"id\":\"ticket_id\",\"fields\":{\"overcharged\":\"number: the dollar amount the customer says they"
                    + " were overcharged or billed too much\"}}"), sql("SELECT round(sum(overcharged), 2) AS answer FROM"
                    + " fields_support_database_tickets"));
            case "matching" -> List.of(call("match_records", "{\"source\":\"support_database.invoices\",\"column\":"
                    + "\"customer_name\",\"other\":\"crm_database.accounts\",\"other_column\":\"company\"}"),
                    sql("SELECT round(sum(i.amount), 2) AS answer FROM support_database.invoices i JOIN"
                            + " match_support_database_invoices_crm_database_accounts m ON i.customer_name = m.value JOIN"
                            + " crm_database.accounts a ON a.company = m.match WHERE a.plan = 'Enterprise'"));
            case "chi_square" -> List.of(call("run_sql", "{\"sql\":\"" + PLAN_PRIORITY + "\",\"label\":\"plan_priority\"}"),
                    call("stat_test", "{\"source\":\"plan_priority\",\"test\":\"chi_square\",\"columns\":[\"plan\",\"priority\"]}"));
            case "text_list" -> List.of(sql("SELECT kw AS answer FROM (SELECT unnest(text_list(keywords)) AS kw FROM"
                    + " registry_database.packages) GROUP BY kw ORDER BY count(*) DESC LIMIT 1"));
            case "word_dates" -> List.of(sql("SELECT count(*) AS answer FROM registry_database.packages WHERE"
                    + " year(word_date(published)) = 2023"));
            case "decorated_ids" -> List.of(sql("SELECT count(*) AS answer FROM support_database.tickets t JOIN"
                    + " crm_database.accounts a ON bare_id(t.account_ref) = a.account_id WHERE a.country = 'Germany'"));
            case "family" -> List.of(call("union_family", "{\"family\":\"" + family(prompt) + "\",\"parts\":[\"04\","
                    + "\"05\",\"06\"],\"label\":\"downloads_q2\"}"),
                    sql("SELECT sum(downloads) AS answer FROM downloads_q2 WHERE system = 'NPM'"));
            default -> List.of(sql("SELECT count(*) AS answer FROM support_database.advisories JOIN registry_database.packages"
                    + " ON " + join(prompt) + " WHERE registry_database.packages.licence = 'GPL-3.0'"));
        };
    }

    static final String PLAN_PRIORITY = "SELECT a.plan, t.priority FROM support_database.tickets t JOIN crm_database.accounts a"
            + " ON bare_id(t.account_ref) = a.account_id";

    /** The family's name as the schema block shows it ({@code family registry_database.downloads_{part} (12 tables …}). */
    private static String family(String prompt) {
        Matcher m = Pattern.compile("family (\\S*\\{part\\}\\S*) \\(").matcher(prompt);
        return m.find() ? m.group(1) : "(no family in the prompt)";
    }

    /** The approved join of advisories and packages as the prompt's facts write it. */
    private static String join(String prompt) {
        Matcher m = Pattern.compile("Approved joins \\(foreign key = key\\): (.*)").matcher(prompt);
        if (m.find()) {
            for (String j : m.group(1).split("; ")) {
                if (j.contains("advisories") && j.contains("packages")) {
                    return j.replaceAll(" \\(.*$", "");
                }
            }
        }
        return "TRUE /* no approved join of advisories and packages in the prompt */";
    }

    static String call(String tool, String args) {
        return "{\"thought\":\"next\",\"tool\":\"" + tool + "\",\"args\":" + args + "}";
    }

    static String sql(String sql) {
        return call("run_sql", "{\"sql\":" + JsonQuote.of(sql) + "}");
    }

    /** JSON string quoting. */
    static final class JsonQuote {
        static String of(String s) {
            try {
                return JSON.writeValueAsString(s);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * What a model without the row tools does for the questions that need them (null where it would do the same): it
     * pages each table to its end, from where the last page stopped (a page holds what fits in an observation), then
     * sends its query.
     */
    static final class PagingCalls {
        private static final Pattern SHOWING = Pattern.compile("showing rows ([0-9,]+)[–-]([0-9,]+)");
        private static final Pattern NOTE = Pattern.compile("read (\\S+) to ([0-9]+)");
        private static final Pattern WHOLE = Pattern.compile("(?m)^[0-9,]+ rows?$");
        private static final Pattern FRAME = Pattern.compile("\"frame\":\"([^\"]+)\"");

        /** A table read page by page. */
        record Pages(String table, String columns, int rows) { }

        /** The tables to read, then the query typed from what was read. */
        record Plan(List<Pages> pages, String last) {
            /**
             * The next call, or null once the query has been sent. What was read is noted in each call's thought (older
             * observations come back shortened, as a model's own notes would not), updated from the latest observation.
             */
            String next(JsonNode messages) {
                Map<String, Integer> read = new LinkedHashMap<>();
                boolean sent = false;
                String lastCall = "";
                for (JsonNode m : messages) {
                    if (m.path("role").asText().equals("assistant")) {
                        lastCall = m.path("content").asText();
                        Matcher r = NOTE.matcher(lastCall);
                        while (r.find()) {
                            read.merge(r.group(1), Integer.parseInt(r.group(2)), Math::max);
                        }
                        sent |= lastCall.contains("run_sql");
                    }
                }
                Matcher f = FRAME.matcher(lastCall);
                if (lastCall.contains("show_frame") && f.find()) {
                    String obs = messages.get(messages.size() - 1).path("content").asText();
                    Matcher m = SHOWING.matcher(obs);
                    if (m.find()) {
                        read.merge(f.group(1), Integer.parseInt(m.group(2).replace(",", "")), Math::max);
                    } else if (WHOLE.matcher(obs).find()) { // every row fitted
                        read.put(f.group(1), Integer.MAX_VALUE);
                    }
                }
                String note = read.entrySet().stream().map(e -> "read " + e.getKey() + " to " + e.getValue())
                        .collect(Collectors.joining("; "));
                String thought = "\"thought\":\"" + note + "\"";
                for (Pages p : pages) {
                    int done = read.getOrDefault(p.table(), 0);
                    if (done < p.rows()) {
                        return call("show_frame", "{\"frame\":\"" + p.table() + "\",\"offset\":" + done + ",\"limit\":25,"
                                + "\"columns\":" + p.columns() + "}").replace("\"thought\":\"next\"", thought);
                    }
                }
                return sent ? null : last.replace("\"thought\":\"next\"", thought);
            }
        }

        static Plan of(String task, DabStyleData d) {
            Pages tickets = new Pages("support_database.tickets", "[\"ticket_id\",\"body\"]", d.tickets.size());
            return switch (task) {
                case "labelling" -> new Plan(List.of(tickets), sql("SELECT count(*) AS answer FROM support_database.tickets"
                        + " WHERE ticket_id IN (" + ids(d.tickets.stream().filter(t -> t.topic().equals("security"))
                        .map(t -> t.id())) + ")"));
                case "extraction" -> new Plan(List.of(tickets), sql("SELECT round(sum(x), 2) AS answer FROM (VALUES "
                        + d.tickets.stream().filter(t -> t.amount() != null).map(t -> "(" + t.amount() + ")")
                        .collect(Collectors.joining(", ")) + ") v(x)"));
                case "matching" -> {
                    Map<String, String> plan = new LinkedHashMap<>();
                    d.accounts.forEach(a -> plan.put(a.id(), a.plan()));
                    yield new Plan(List.of(new Pages("support_database.invoices", "[\"invoice_id\",\"customer_name\"]",
                            d.invoices.size()), new Pages("crm_database.accounts", "[\"account_id\",\"company\",\"plan\"]",
                            d.accounts.size())), sql("SELECT round(sum(amount), 2) AS answer FROM support_database.invoices"
                            + " WHERE invoice_id IN (" + ids(d.invoices.stream().filter(i -> plan.get(i.account())
                            .equals("Enterprise")).map(i -> i.id())) + ")"));
                }
                case "chi_square" -> new Plan(List.of(), sql("WITH t AS (" + PLAN_PRIORITY + "), o AS (SELECT plan,"
                        + " priority, count(*) AS n FROM t GROUP BY ALL), r AS (SELECT plan, sum(n) AS rn FROM o GROUP BY plan),"
                        + " c AS (SELECT priority, sum(n) AS cn FROM o GROUP BY priority), g AS (SELECT sum(n) AS total FROM o),"
                        + " e AS (SELECT r.plan, c.priority, r.rn * c.cn / g.total AS expected FROM r, c, g) SELECT"
                        + " round(sum(power(coalesce(o.n, 0) - e.expected, 2) / e.expected), 2) AS answer FROM e LEFT JOIN o"
                        + " ON o.plan = e.plan AND o.priority = e.priority"));
                case "family" -> new Plan(List.of(), sql("SELECT sum(downloads) AS answer FROM (SELECT * FROM"
                        + " registry_database.downloads_2024_04 UNION ALL SELECT * FROM registry_database.downloads_2024_05"
                        + " UNION ALL SELECT * FROM registry_database.downloads_2024_06) WHERE system = 'NPM'"));
                default -> null;
            };
        }

        private static String ids(java.util.stream.Stream<Integer> ids) {
            return ids.map(String::valueOf).collect(Collectors.joining(", "));
        }
    }
}
