package dev.sift.tool.analysis;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.text.Evidence;
import dev.sift.text.ResultText;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Matches records that share no key: the values of a text column against those of another table's column (a fuzzy
 * join), or against each other (duplicates). Values are normalised (case, accents, punctuation, decorations, legal
 * suffixes), paired only when they share a block key (a rare word, the first four characters, or the whole
 * normalised value) so the work stays far below all pairs, and scored in DuckDB by the best of Jaro–Winkler,
 * Levenshtein similarity and token-set overlap. The mapping is a frame of distinct values, so
 * {@code run_sql} joins through it.
 */
public final class MatchRecords implements Tool<MatchRecords.Args> {
    static final double DEFAULT_THRESHOLD = 0.9;
    /** Best and runner-up this close (both over the threshold): the pair is listed as ambiguous. */
    static final double AMBIGUOUS_MARGIN = 0.02;
    /** A block key that would pair more values than this (a common word) pairs nothing. */
    static final int MAX_BLOCK_PAIRS = 400;
    static final int SHOWN = 8;

    public record Args(
            @Arg(value = "table or frame whose values are matched", aliases = {"table", "left"}, kind = Arg.Kind.SOURCE)
            String source,
            @Arg(value = "its text column to match on (names, titles, ids)", aliases = {"on", "left_column"},
                    kind = Arg.Kind.COLUMN) String column,
            @Arg(value = "the other table or frame (omit to find duplicates within source)", required = false,
                    aliases = {"right", "target_table"}) String other,
            @Arg(value = "the other's column (default: same name as column)", required = false,
                    aliases = {"right_column"}) String other_column,
            @Arg(value = "lowest score counted as a match, 0.5 to 1 (default 0.9)", required = false,
                    aliases = {"min_score"}) Double threshold) {
        public Args {
            if (threshold != null && (threshold < 0.5 || threshold > 1)) {
                throw new IllegalArgumentException("threshold must be between 0.5 and 1, got " + threshold + ".");
            }
        }
    }

    /** The counts behind a matching, and the frame that holds its pairs. */
    public record Result(String source, String column, String other, String otherColumn, double threshold,
                         long values, long otherValues, long matched, long exact, long ambiguous, long unmatched,
                         long candidates, String frame) { }

    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("match_records", "Fuzzy join of a text column to another table's column when no key is"
                + " shared (names spelt differently, Inc./Ltd., accents, '#' decorations), or duplicates within one"
                + " table; scored pairs with the threshold, ambiguous pairs and unmatched counts. Kept as frame"
                + " match_<source>: join through it (value → match).", Args.class, "value mapping",
                Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo left = ctx.source(args.source());
        ColumnInfo lc = left.column(args.column()).orElseThrow();
        boolean dedupe = args.other() == null || args.other().isBlank();
        TableInfo right = dedupe ? left : ws.table(args.other()).orElseThrow(() -> new ToolCallException("other: no table"
                + " or frame '" + args.other() + "'. Name a table of the dataset or a frame of this run; omit it to find"
                + " duplicates within " + left.name() + "."));
        String rcName = args.other_column() == null ? lc.name() : args.other_column();
        ColumnInfo rc = right.column(rcName).orElseThrow(() -> new ToolCallException("other_column: " + right.name()
                + " has no column '" + rcName + "'. Its columns: " + String.join(", ", right.columnNames()) + "."));
        double threshold = args.threshold() == null ? DEFAULT_THRESHOLD : args.threshold();
        String frame = RowsFrame.label("match", left.name(), dedupe ? "dupes" : right.name());
        Names names = Names.load();
        String sql = dedupe ? MatchSql.duplicates(names, side(left, lc), threshold)
                : MatchSql.join(names, side(left, lc), side(right, rc), threshold, AMBIGUOUS_MARGIN);
        ws.saveTrustedFrame(frame, sql);
        Result r = counts(ws, args, left, lc, right, rc, threshold, frame, dedupe, names);
        QueryResult shown = ws.trustedQuery("SELECT * FROM frames." + Sql.quoteIdent(frame)
                + " ORDER BY " + (dedupe ? "" : "ambiguous DESC, ") + "score, value LIMIT " + Evidence.MAX_ROWS, Evidence.MAX_ROWS);
        ctx.addEvidence(Evidence.of(shown, frame));
        return ToolResult.ok(summary(r, dedupe, ws), r);
    }

    private static String side(TableInfo t, ColumnInfo c) {
        return "SELECT CAST(" + Columns.q(c.name()) + " AS VARCHAR) AS v FROM " + t.sqlName() + " WHERE "
                + Columns.q(c.name()) + " IS NOT NULL";
    }

    private static Result counts(Workspace ws, Args args, TableInfo left, ColumnInfo lc, TableInfo right, ColumnInfo rc,
                                 double threshold, String frame, boolean dedupe, Names names) throws QueryException {
        String f = "frames." + Sql.quoteIdent(frame);
        List<Object> row = ws.trustedQuery("SELECT (SELECT count(DISTINCT v) FROM (" + side(left, lc) + ")),"
                + " (SELECT count(DISTINCT v) FROM (" + side(right, rc) + ")), count(*), count(*) FILTER (WHERE same_normalised),"
                + (dedupe ? "0" : "count(*) FILTER (WHERE ambiguous)") + ", (SELECT count(DISTINCT v) FROM (" + side(left, lc)
                + ") WHERE v NOT IN (SELECT value FROM " + f + (dedupe ? " UNION SELECT duplicate FROM " + f : "") + "))"
                + " FROM " + f, 1).rows().get(0);
        long candidates = ((Number) ws.trustedQuery(MatchSql.candidateCount(names, side(left, lc),
                side(right, rc), dedupe), 1).scalar()).longValue();
        return new Result(left.name(), lc.name(), dedupe ? null : right.name(), dedupe ? null : rc.name(), threshold,
                n(row.get(0)), n(row.get(1)), n(row.get(2)), n(row.get(3)), n(row.get(4)), n(row.get(5)), candidates, frame);
    }

    private static long n(Object o) {
        return ((Number) o).longValue();
    }

    private static String summary(Result r, boolean dedupe, Workspace ws) throws QueryException {
        String f = "frames." + r.frame();
        StringBuilder b = new StringBuilder();
        if (dedupe) {
            b.append("Duplicates among ").append(r.values()).append(" distinct values of ").append(r.source()).append('.')
                    .append(r.column()).append(" (threshold ").append(r.threshold()).append("): ").append(r.matched())
                    .append(" pairs (").append(r.exact()).append(" equal once normalised); ").append(r.unmatched())
                    .append(" values have no duplicate. ");
        } else {
            b.append("Matched ").append(r.source()).append('.').append(r.column()).append(" (").append(r.values())
                    .append(" distinct values) to ").append(r.other()).append('.').append(r.otherColumn()).append(" (")
                    .append(r.otherValues()).append("), threshold ").append(r.threshold()).append(": ").append(r.matched())
                    .append(" matched (").append(r.exact()).append(" equal once normalised), ").append(r.unmatched())
                    .append(" unmatched, ").append(r.ambiguous()).append(" ambiguous (runner-up within ")
                    .append(AMBIGUOUS_MARGIN).append("). ");
        }
        b.append(r.candidates()).append(" pairs scored of ").append(r.values() * (dedupe ? r.values() : r.otherValues()))
                .append(" possible.\n");
        String cols = dedupe ? "value, duplicate, score" : "value, match, score, runner_up, ambiguous";
        if (!dedupe && r.ambiguous() > 0) {
            b.append("Ambiguous:\n").append(ResultText.render(ws.trustedQuery("SELECT value, match, runner_up, score,"
                    + " runner_up_score FROM " + f + " WHERE ambiguous ORDER BY value LIMIT " + SHOWN, SHOWN), SHOWN));
        }
        b.append("Weakest kept:\n").append(ResultText.render(ws.trustedQuery("SELECT " + cols + " FROM " + f
                + " ORDER BY score, value LIMIT " + SHOWN, SHOWN), SHOWN));
        return b.append("\nKept as ").append(f).append(" (").append(dedupe ? "value, duplicate" : "value, match")
                .append(", score, jaro_winkler, levenshtein, token_overlap…); join ").append(dedupe ? "on value or duplicate"
                : r.source() + "." + r.column() + " = value and " + r.other() + "." + r.otherColumn() + " = match")
                .append(". Scores are string similarity, not proof: name the threshold when you use it.").toString();
    }

    /** The words dropped before comparing (resource {@code matching/legal_suffixes.txt}). */
    record Names(List<String> dropped) {
        static Names load() {
            try (var in = MatchRecords.class.getResourceAsStream("/matching/legal_suffixes.txt")) {
                if (in == null) {
                    throw new IllegalStateException("Resource /matching/legal_suffixes.txt is missing");
                }
                return new Names(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                        .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                        .map(l -> l.toLowerCase(Locale.ROOT)).toList());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
