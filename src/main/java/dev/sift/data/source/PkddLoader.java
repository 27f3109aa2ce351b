package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.Progress;
import dev.sift.data.Sql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Builds the {@link PkddSchema} tables from the original PKDD'99 Financial files ({@code account.asc} …
 * {@code order.asc}, optionally {@code trans*.asc[.gz]}): {@code ;}-separated, double-quoted strings,
 * a header row, dates as {@code YYMMDD} (all 19xx). DuckDB reads every column as text and the INSERT
 * converts it, so a bad value fails with the column, the row's id and the value instead of a silent NULL.
 */
public final class PkddLoader implements DatasetBuilder {
    /** Bump when the conversion changes, so built datasets are rebuilt. */
    static final String VERSION = "pkdd-loader-1";
    static final long FULL_TRANS_ROWS = 1_056_320L;

    private static final Pattern TRANS_FILE = Pattern.compile("trans.*\\.asc(\\.gz)?");
    private static final String EXPECTED = "expected account.asc, card.asc, client.asc, disp.asc, district.asc,"
            + " loan.asc, order.asc and optionally trans*.asc[.gz]";

    private enum Kind { INT, DOUBLE, TEXT, DATE, DATE_TIME }

    private record Column(String name, Kind kind) { }

    /** One original file: its columns in file order; the first is the row id used in error messages. */
    private record Source(String table, String file, List<Column> columns) {
        List<String> header() {
            return columns.stream().map(Column::name).toList();
        }
    }

    private static Column col(String name, Kind kind) {
        return new Column(name, kind);
    }

    // In PkddSchema.TABLES order; trans last because it is optional and by far the largest.
    private static final List<Source> REQUIRED = List.of(
            new Source("district", "district.asc", districtColumns()),
            new Source("account", "account.asc", List.of(col("account_id", Kind.INT), col("district_id", Kind.INT),
                    col("frequency", Kind.TEXT), col("date", Kind.DATE))),
            new Source("client", "client.asc", List.of(col("client_id", Kind.INT), col("birth_number", Kind.TEXT),
                    col("district_id", Kind.INT))),
            new Source("disp", "disp.asc", List.of(col("disp_id", Kind.INT), col("client_id", Kind.INT),
                    col("account_id", Kind.INT), col("type", Kind.TEXT))),
            new Source("card", "card.asc", List.of(col("card_id", Kind.INT), col("disp_id", Kind.INT),
                    col("type", Kind.TEXT), col("issued", Kind.DATE_TIME))),
            new Source("loan", "loan.asc", List.of(col("loan_id", Kind.INT), col("account_id", Kind.INT),
                    col("date", Kind.DATE), col("amount", Kind.INT), col("duration", Kind.INT),
                    col("payments", Kind.DOUBLE), col("status", Kind.TEXT))),
            new Source("order", "order.asc", List.of(col("order_id", Kind.INT), col("account_id", Kind.INT),
                    col("bank_to", Kind.TEXT), col("account_to", Kind.TEXT), col("amount", Kind.DOUBLE),
                    col("k_symbol", Kind.TEXT))));

    private static final List<Column> TRANS_COLUMNS = List.of(col("trans_id", Kind.INT), col("account_id", Kind.INT),
            col("date", Kind.DATE), col("type", Kind.TEXT), col("operation", Kind.TEXT), col("amount", Kind.DOUBLE),
            col("balance", Kind.DOUBLE), col("k_symbol", Kind.TEXT), col("bank", Kind.TEXT),
            col("account", Kind.INT));

    private static List<Column> districtColumns() {
        List<Column> cols = new ArrayList<>();
        for (int i = 1; i <= 16; i++) {
            Kind k = i == 2 || i == 3 ? Kind.TEXT : i == 10 || i == 12 || i == 13 ? Kind.DOUBLE : Kind.INT;
            cols.add(col("A" + i, k));
        }
        return cols;
    }

    private final Path dir;
    private volatile long transRows = -1;

    public PkddLoader(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    public Path dir() {
        return dir;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        for (Path f : files()) {
            FileSupport.hashText(sha, f.getFileName().toString());
            FileSupport.hash(sha, f);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        Path trans;
        try {
            trans = transFile();
        } catch (RuntimeException e) {
            trans = null;
        }
        long rows = transRows;
        String t;
        if (trans == null) {
            t = "trans: no trans*.asc file, table is empty";
        } else {
            String name = trans.getFileName().toString();
            boolean canonical = name.equals("trans.asc") || name.equals("trans.asc.gz");
            boolean partial = rows >= 0 ? rows != FULL_TRANS_ROWS : !canonical;
            t = "trans: " + (partial ? "partial file " : "") + name
                    + (rows >= 0 ? String.format(Locale.ROOT, ", %,d rows", rows) : "");
        }
        return "PKDD'99 Financial data from " + dir + " (" + t + ")";
    }

    @Override
    public void build(Connection db, Progress progress) throws Exception {
        List<Path> files = files(); // validates the folder before anything is created
        Path trans = transFile();
        PkddSchema.create(db);
        int total = REQUIRED.size() + 1;
        int done = 0;
        for (Source s : REQUIRED) {
            progress.report("loading " + s.file(), done++, total);
            load(db, s, dir.resolve(s.file()));
        }
        if (trans != null) {
            progress.report("loading " + trans.getFileName(), done, total);
            load(db, new Source("trans", trans.getFileName().toString(), TRANS_COLUMNS), trans);
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM trans")) {
                rs.next();
                transRows = rs.getLong(1);
            }
        } else {
            transRows = -1;
        }
        progress.report("loaded " + files.size() + " PKDD'99 files", total, total);
    }

    /** The input files: the seven required ones plus the trans file when there is one. */
    private List<Path> files() {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("PKDD'99 folder " + dir
                    + (Files.exists(dir) ? " is not a folder: " : " not found: ") + EXPECTED);
        }
        List<String> missing = REQUIRED.stream().map(Source::file).filter(f -> !Files.isRegularFile(dir.resolve(f)))
                .sorted().toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("PKDD'99 file" + (missing.size() > 1 ? "s " : " ")
                    + String.join(", ", missing) + " not found in " + dir + ": " + EXPECTED);
        }
        List<Path> out = new ArrayList<>(REQUIRED.stream().map(s -> dir.resolve(s.file())).toList());
        Path trans = transFile();
        if (trans != null) {
            out.add(trans);
        }
        return out;
    }

    /** trans.asc, else trans.asc.gz, else the one other trans*.asc[.gz]; null when there is none. */
    private Path transFile() {
        for (String name : List.of("trans.asc", "trans.asc.gz")) {
            if (Files.isRegularFile(dir.resolve(name))) {
                return dir.resolve(name);
            }
        }
        List<Path> others;
        try (Stream<Path> list = Files.list(dir)) {
            others = list.filter(p -> TRANS_FILE.matcher(p.getFileName().toString()).matches())
                    .filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot list PKDD'99 folder " + dir + ": " + e.getMessage(), e);
        }
        if (others.size() > 1) {
            throw new IllegalArgumentException("PKDD'99 folder " + dir + " has several trans files ("
                    + others.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", "))
                    + "): keep one, or add the full trans.asc");
        }
        return others.isEmpty() ? null : others.get(0);
    }

    private static void load(Connection db, Source s, Path file) {
        boolean gzip = file.getFileName().toString().endsWith(".gz");
        try {
            checkHeader(s, file, gzip);
            try (Statement st = db.createStatement()) {
                st.execute(insertSql(s, file, gzip));
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("PKDD'99 file " + s.file() + " is malformed: "
                    + FileSupport.reason(e), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("PKDD'99 file " + s.file() + " is unreadable: "
                    + FileSupport.clip(String.valueOf(e.getMessage())), e);
        }
    }

    /**
     * DuckDB takes the column names we give and skips the header unread, so a file with other columns
     * (or binary junk) would load shifted values; the header is checked here instead.
     */
    private static void checkHeader(Source s, Path file, boolean gzip) throws IOException {
        byte[] head = FileSupport.head(file, gzip, 8192);
        if (FileSupport.hasNul(head)) {
            throw new IllegalArgumentException("PKDD'99 file " + s.file()
                    + " is malformed: it looks binary, not ';'-separated text");
        }
        List<String> found = new ArrayList<>();
        for (String f : FileSupport.firstLine(head).split(";", -1)) {
            found.add(f.trim().replace("\"", ""));
        }
        List<String> expected = s.header();
        boolean ok = found.size() == expected.size();
        for (int i = 0; ok && i < expected.size(); i++) {
            ok = found.get(i).equalsIgnoreCase(expected.get(i));
        }
        if (!ok) {
            throw new IllegalArgumentException("PKDD'99 file " + s.file() + " is malformed: its header is '"
                    + FileSupport.clip(String.join(";", found)) + "', expected '" + String.join(";", expected) + "'");
        }
    }

    private static String insertSql(Source s, Path file, boolean gzip) {
        List<String> targets = new ArrayList<>();
        List<String> exprs = new ArrayList<>();
        String id = s.columns().get(0).name();
        for (Column c : s.columns()) {
            targets.add(Sql.quoteIdent(c.name()));
            exprs.add(convert(c, id));
        }
        if (s.table().equals("client")) {
            targets.add("gender");
            exprs.add(gender());
            targets.add("birth_date");
            exprs.add(birthDate());
        }
        String columns = s.columns().stream().map(c -> Sql.quoteString(c.name()) + ": 'VARCHAR'")
                .collect(Collectors.joining(", ", "{", "}"));
        return "INSERT INTO " + Sql.quoteIdent(s.table()) + " (" + String.join(", ", targets) + ") SELECT "
                + String.join(", ", exprs) + " FROM read_csv(" + Sql.quoteString(file.toString())
                + ", delim=';', quote='\"', escape='\"', header=true, auto_detect=false, nullstr=['', '?'],"
                + " compression='" + (gzip ? "gzip" : "none") + "', columns=" + columns + ")";
    }

    /** SQL for one column; values that do not convert raise an error naming the row, column and value. */
    private static String convert(Column c, String idCol) {
        String q = Sql.quoteIdent(c.name());
        return switch (c.kind()) {
            // '?' and '' are NULL through nullstr; order/trans k_symbol also hold a lone ' ', which means missing too
            case TEXT -> "CASE WHEN trim(" + q + ") = '' THEN NULL ELSE " + q + " END";
            case INT -> "CASE WHEN " + q + " IS NULL THEN NULL ELSE coalesce(TRY_CAST(trim(" + q + ") AS INTEGER), "
                    + fail(idCol, c.name(), "is not an integer") + ") END";
            case DOUBLE -> "CASE WHEN " + q + " IS NULL THEN NULL ELSE coalesce(TRY_CAST(trim(" + q + ") AS DOUBLE), "
                    + fail(idCol, c.name(), "is not a number") + ") END";
            case DATE -> date(q, "[0-9]{6}", fail(idCol, c.name(), "is not a YYMMDD date"));
            case DATE_TIME -> date(q, "[0-9]{6}( [0-9]{2}:[0-9]{2}:[0-9]{2})?",
                    fail(idCol, c.name(), "is not a date like 931107 00:00:00"));
        };
    }

    /** YYMMDD with a two-digit year that always means 19xx (birth years go back to 1911). */
    private static String date(String q, String pattern, String fail) {
        return "CASE WHEN " + q + " IS NULL THEN NULL ELSE coalesce(CASE WHEN regexp_full_match(" + q + ", '"
                + pattern + "') THEN try(make_date(1900 + CAST(substr(" + q + ", 1, 2) AS INTEGER), CAST(substr("
                + q + ", 3, 2) AS INTEGER), CAST(substr(" + q + ", 5, 2) AS INTEGER))) END, " + fail + ") END";
    }

    /** Women's birth numbers carry month + 50. */
    private static String gender() {
        return "CASE WHEN birth_number IS NULL THEN NULL WHEN TRY_CAST(substr(birth_number, 3, 2) AS INTEGER) > 50"
                + " THEN 'F' ELSE 'M' END";
    }

    private static String birthDate() {
        return "CASE WHEN birth_number IS NULL THEN NULL ELSE coalesce(CASE WHEN regexp_full_match(birth_number,"
                + " '[0-9]{6}') THEN try(make_date(1900 + CAST(substr(birth_number, 1, 2) AS INTEGER),"
                + " CAST(substr(birth_number, 3, 2) AS INTEGER) % 50, CAST(substr(birth_number, 5, 2) AS INTEGER)))"
                + " END, " + fail("client_id", "birth_number", "is not YYMMDD with month + 50 for women") + ") END";
    }

    /** error('loan_id 5314: date ''9307x5'' is not a YYMMDD date'), built from the row's values. */
    private static String fail(String idCol, String column, String what) {
        return "error(" + Sql.quoteString(idCol + " ") + " || coalesce(left(" + Sql.quoteIdent(idCol)
                + ", 40), '?') || " + Sql.quoteString(": " + column + " '") + " || left(" + Sql.quoteIdent(column)
                + ", 60) || " + Sql.quoteString("' " + what) + ")";
    }
}
