package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.LoadReport;
import dev.sift.data.Progress;
import dev.sift.data.Sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Loads data files as they are, one table per file, through DuckDB's own readers: CSV/TSV/TXT (optionally
 * gzipped), Parquet, JSON and JSON lines. The table is named after the file ({@code Sales 2024.csv} →
 * {@code sales_2024}). Every refusal is one line naming the file and what to do about it.
 */
public final class FileLoader implements DatasetBuilder, Source {
    /** Bump when loading changes, so built datasets are rebuilt. */
    static final String VERSION = "file-loader-5";
    static final String SUPPORTED = ".csv, .tsv, .txt, .csv.gz, .tsv.gz, .parquet, .json, .jsonl or .ndjson";
    private static final int PEEK = 8192;
    /** The types DuckDB's sniffer may choose; dates are left as text for {@link TextTypes}. */
    static final String CANDIDATES = ", auto_type_candidates=['BOOLEAN', 'BIGINT', 'DOUBLE', 'VARCHAR']";
    static final int MAX_NAME = 255;

    enum Format {
        CSV("CSV"), TSV("TSV"), TXT("CSV"), PARQUET("Parquet"), JSON("JSON"), JSONL("JSON lines");

        final String label;

        Format(String label) {
            this.label = label;
        }

        boolean text() {
            return this != PARQUET;
        }

        boolean delimited() {
            return this == CSV || this == TSV || this == TXT;
        }
    }

    /** One input file, checked: its format, whether gzipped, and its table name. */
    record Input(Path file, Format format, boolean gzip, String table) { }

    private final List<Path> files;
    private final List<ColumnType> types;
    private LoadReport report = LoadReport.EMPTY;

    public FileLoader(List<Path> files) {
        this(files, List.of());
    }

    /** With the user's column types ({@code --types}), applied before types are inferred. */
    public FileLoader(List<Path> files, List<ColumnType> types) {
        if (files == null || files.isEmpty()) {
            throw new IllegalArgumentException("No files given: name one or more " + SUPPORTED + " files");
        }
        this.files = files.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        this.types = List.copyOf(types);
    }

    /** What the last {@link #build} decided about types and noticed in the values. */
    @Override
    public LoadReport report() {
        return report;
    }

    public List<Path> files() {
        return files;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        for (ColumnType t : types) {
            FileSupport.hashText(sha, t.spec());
        }
        for (Input in : inputs()) {
            FileSupport.hashText(sha, in.file().toString());
            FileSupport.hashText(sha, Long.toString(Files.size(in.file())));
            FileSupport.hash(sha, in.file());
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        return "files: " + files.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", "));
    }

    /** The files by their full paths: the same names in another folder are other sources. */
    @Override
    public List<String> sources() {
        return List.of("files: " + files.stream().map(Path::toString).collect(Collectors.joining(", ")));
    }

    @Override
    public void build(Connection db, Progress progress) throws Exception {
        load(db, "main", progress);
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        List<Input> inputs = inputs();
        for (ColumnType t : types) {
            if (inputs.stream().noneMatch(in -> in.table().equals(t.table()))) {
                throw new IllegalArgumentException("--types " + t.spec() + ": no file loads as table '" + t.table()
                        + "'; the tables are " + String.join(", ", inputs.stream().map(Input::table).toList()));
            }
        }
        LoadReport.Builder findings = new LoadReport.Builder();
        try (TextScan.Background scans = new TextScan.Background(inputs)) {
            for (int i = 0; i < inputs.size(); i++) {
                Input in = inputs.get(i);
                progress.report("loading " + in.file().getFileName(), i, inputs.size());
                if (in.format() == Format.JSON || in.format() == Format.JSONL) {
                    scans.await(i + 1); // DuckDB's JSON reader never sees what the scan refuses
                }
                try {
                    Map<String, TextFormats.Format> converted = load(db, schema, in, progress, findings);
                    TextTypes.check(db, schema, in.table(), types, converted, in.format() != Format.PARQUET, findings);
                    if (in.format() != Format.PARQUET) {
                        EpochTimes.type(db, schema, in.table(), findings);
                    }
                } catch (IllegalArgumentException | SQLException | IOException e) {
                    scans.awaitAll(); // a refusal of the scan comes first, as when every file was scanned before loading
                    throw e;
                }
            }
            scans.awaitAll();
        }
        report = findings.build();
        progress.report("loaded " + inputs.size() + " file" + (inputs.size() == 1 ? "" : "s"), inputs.size(), inputs.size());
    }

    /** Checks every file (existence, type, emptiness, text sanity, clashing table names) before any work. */
    List<Input> inputs() throws IOException {
        List<Input> out = new ArrayList<>();
        Map<String, Path> byTable = new HashMap<>();
        for (Path f : files) {
            Input in = check(f);
            Path clash = byTable.putIfAbsent(in.table(), f);
            if (clash != null) {
                throw new IllegalArgumentException(clash.equals(f) ? "File " + f + " is given twice: give it once"
                        : "Files " + clash + " and " + f + " would both load as table '" + in.table()
                        + "': rename one of them");
            }
            out.add(in);
        }
        return out;
    }

    static Input check(Path f) throws IOException {
        if (!Files.exists(f)) {
            throw new IllegalArgumentException("File not found: " + f);
        }
        if (Files.isDirectory(f)) {
            throw new IllegalArgumentException("File " + f + " is a folder: give the data files in it instead");
        }
        FileSupport.requireRegular(f);
        String name = f.getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        boolean gzip = lower.endsWith(".csv.gz") || lower.endsWith(".tsv.gz");
        String ext = gzip ? lower.substring(lower.length() - 7, lower.length() - 3) : extension(lower);
        Format format = switch (ext) {
            case ".csv" -> Format.CSV;
            case ".tsv" -> Format.TSV;
            case ".txt" -> Format.TXT;
            case ".parquet" -> Format.PARQUET;
            case ".json" -> Format.JSON;
            case ".jsonl", ".ndjson" -> Format.JSONL;
            default -> throw new IllegalArgumentException("File " + f + " has an unsupported type: use " + SUPPORTED);
        };
        if (Files.size(f) == 0) {
            throw new IllegalArgumentException("File " + f + " is empty: nothing to load");
        }
        String stem = name.substring(0, name.length() - ext.length() - (gzip ? 3 : 0));
        Input in = new Input(f, format, gzip, tableName(stem));
        if (format.text()) {
            checkText(in); // the full scan (depth, line length, gzip integrity, quotes) runs with the load: TextScan
        }
        return in;
    }

    private static String extension(String lower) {
        int dot = lower.lastIndexOf('.');
        return dot <= 0 ? "" : lower.substring(dot);
    }

    /** DuckDB reads some binary junk as a one-column CSV of garbage; refuse it up front. */
    private static void checkText(Input in) throws IOException {
        byte[] head;
        try {
            head = FileSupport.head(in.file(), in.gzip(), PEEK);
        } catch (IOException e) {
            throw new IllegalArgumentException("File " + in.file() + " is not valid gzip: "
                    + FileSupport.clip(String.valueOf(e.getMessage())), e);
        }
        if (!in.gzip() && FileSupport.isGzip(head)) {
            throw new IllegalArgumentException("File " + in.file() + " is gzip-compressed: name it "
                    + in.file().getFileName() + ".gz");
        }
        if (FileSupport.isParquet(head)) {
            throw new IllegalArgumentException("File " + in.file() + " is a Parquet file: name it "
                    + in.file().getFileName().toString().replaceFirst("(?i)\\.[a-z]+(\\.gz)?$", "") + ".parquet");
        }
        if (FileSupport.hasNul(head)) {
            throw new IllegalArgumentException("File " + in.file() + " looks binary, not " + in.format().label
                    + " text: save it as UTF-8 " + in.format().label);
        }
        if (head.length == 0) { // a gzip of nothing
            throw new IllegalArgumentException("File " + in.file() + " is empty: nothing to load");
        }
        if (head.length < PEEK && new String(head, StandardCharsets.UTF_8).isBlank()) {
            throw new IllegalArgumentException("File " + in.file() + " has no columns: it holds only blank space");
        }
    }

    /** The file stem as a plain SQL name: accents dropped, lowercase, runs of other characters as '_'. */
    static String tableName(String stem) {
        String s = Normalizer.normalize(stem, Normalizer.Form.NFD).replaceAll("\\p{M}+", "")
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "_").replaceAll("_+", "_")
                .replaceAll("^_|_$", "");
        if (s.isEmpty()) {
            return "t";
        }
        return Character.isDigit(s.charAt(0)) ? "t_" + s : s;
    }

    /**
     * Writes the file's table. Text columns whose first rows all have one date or timestamp format are written
     * converted, every value checked on the way; when one does not fit, the table is written as read instead (and
     * {@link TextTypes#check} looks at every value). Returns the columns written converted, with their formats.
     */
    private Map<String, TextFormats.Format> load(Connection db, String schema, Input in, Progress progress,
                                                 LoadReport.Builder findings) throws IOException {
        try {
            Reader read = reader(db, in);
            if (read.note() != null) {
                findings.note(read.note());
            }
            String reader = read.call();
            List<String[]> columns = read.columns() != null ? read.columns() : columns(db, reader);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("File " + in.file() + " has no columns: nothing to load");
            }
            // read_json gives a single 'json' column of type JSON or MAP when records have no fields
            if ((in.format() == Format.JSON || in.format() == Format.JSONL) && columns.size() == 1
                    && columns.get(0)[0].equals("json")
                    && (columns.get(0)[1].equals("JSON") || columns.get(0)[1].startsWith("MAP("))) {
                throw new IllegalArgumentException("File " + in.file()
                        + " has no columns: its records need fields, like {\"id\": 1, \"name\": \"a\"}");
            }
            checkNames(in, columns);
            Map<String, TextFormats.Format> guessed = in.format() == Format.PARQUET || read.note() != null ? Map.of()
                    : TextTypes.guess(db, reader, columns.stream().filter(c -> c[1].startsWith("VARCHAR")).map(c -> c[0])
                    .filter(c -> types.stream().noneMatch(t -> t.table().equals(in.table()) && t.column().equalsIgnoreCase(c)))
                    .toList());
            if (!guessed.isEmpty()) {
                try {
                    create(db, schema, in, reader, guessed, progress);
                    return guessed;
                } catch (SQLException e) {
                    // a value the first rows did not show: write the table as read, and look at every value
                }
            }
            try {
                create(db, schema, in, reader, Map.of(), progress);
            } catch (SQLException e) {
                if (!in.format().delimited() || !String.valueOf(e.getMessage()).contains("Error when converting column")) {
                    throw e;
                }
                // the sniffer typed a column from the first rows and a later row disagrees: type it from all rows
                create(db, schema, in, reader.substring(0, reader.length() - 1) + ", sample_size=-1)", Map.of(), progress);
            }
            return Map.of();
        } catch (SQLException e) {
            String reason = FileSupport.reason(e);
            if (reason.contains("not utf-8 encoded")) {
                reason += " Save it as UTF-8.";
            }
            throw new IllegalArgumentException("File " + in.file() + " could not be read as " + in.format().label
                    + ": " + reason, e);
        }
    }

    /** Writes the table from {@code reader}, with {@code converted} columns converted, showing how far it got. */
    private static void create(Connection db, String schema, Input in, String reader, Map<String, TextFormats.Format> converted,
                               Progress progress) throws SQLException {
        String replace = converted.isEmpty() ? "" : " REPLACE (" + String.join(", ", converted.entrySet().stream()
                .map(e -> TextTypes.guarded(e.getKey(), e.getValue()) + " AS " + Sql.quoteIdent(e.getKey())).toList()) + ")";
        try (Statement st = db.createStatement();
             ReadProgress shown = ReadProgress.watch(st, "reading " + in.file().getFileName(), progress)) {
            st.execute("CREATE OR REPLACE TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(in.table())
                    + " AS SELECT *" + replace + " FROM " + reader);
        }
    }

    /** A column name of a thousand characters is a data line read as the header, not a name. */
    private static void checkNames(Input in, List<String[]> columns) {
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i)[0];
            if (name.length() > MAX_NAME) {
                throw new IllegalArgumentException("File " + in.file() + ": column " + (i + 1) + "'s name is "
                        + name.length() + " characters long (at most " + MAX_NAME + "); the first line should be a"
                        + " header of column names");
            }
        }
    }

    /** {name, TYPE} per column of what {@code reader} returns. */
    private static List<String[]> columns(Connection db, String reader) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + reader)) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return out;
    }

    /**
     * The DuckDB table function call that reads a file (a parenthesised SELECT for a GeoJSON collection, which
     * {@code note} then describes for the load report), and its {name, TYPE} columns when the sniff told them.
     */
    private record Reader(String call, List<String[]> columns, String note) {
        Reader(String call, List<String[]> columns) {
            this(call, columns, null);
        }
    }

    private static Reader reader(Connection db, Input in) throws SQLException, IOException {
        String path = Sql.quoteString(in.file().toString());
        return switch (in.format()) {
            case PARQUET -> new Reader("read_parquet(" + path + ")", null);
            case JSON -> {
                if (GeoJson.is(FileSupport.head(in.file(), in.gzip(), PEEK))) {
                    GeoJson.Features f = GeoJson.features(db, in.file(), in.table());
                    yield new Reader(f.select(), null, f.note());
                }
                yield new Reader("read_json_auto(" + path + ")", null);
            }
            case JSONL -> new Reader("read_json(" + path + ", format='newline_delimited')", null);
            case CSV, TSV, TXT -> csvReader(db, in, path);
        };
    }

    /**
     * DuckDB's sniffer does not reject ragged rows: it falls back to one column holding whole lines, or
     * skips leading rows until the rest is regular. Either silently loads wrong data, so in those cases
     * the file is re-read strictly with the delimiter its first line shows, and DuckDB names the bad line.
     */
    private static Reader csvReader(Connection db, Input in, String path) throws SQLException, IOException {
        // dates and times are typed by TextTypes, which keeps ambiguous day/month orders as text
        String opts = (in.format() == Format.TSV ? ", delim='\\t'" : "") + CANDIDATES;
        long skipped;
        int ncols;
        String sniffed;
        List<String[]> columns = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT SkipRows, len(Columns), Delimiter,"
                + " list_transform(Columns, c -> c.name), list_transform(Columns, c -> c.type) FROM sniff_csv(" + path + opts + ")")) {
            rs.next();
            skipped = rs.getLong(1);
            ncols = rs.getInt(2);
            sniffed = rs.getString(3);
            Object[] names = (Object[]) rs.getArray(4).getArray();
            Object[] kinds = (Object[]) rs.getArray(5).getArray();
            for (int i = 0; i < names.length; i++) {
                columns.add(new String[] {String.valueOf(names[i]), String.valueOf(kinds[i])});
            }
        }
        String first = FileSupport.firstLine(FileSupport.head(in.file(), in.gzip(), PEEK));
        String delim = null;
        if (ncols == 1) {
            List<String> candidates = switch (in.format()) {
                case TSV -> List.of("\t");
                case CSV -> List.of(",");
                default -> List.of(",", "\t", ";", "|");
            };
            delim = candidates.stream().filter(first::contains).findFirst().orElse(null);
        } else if (skipped > 0) {
            delim = sniffed;
        }
        if (delim == null) {
            return new Reader("read_csv(" + path + opts + ")", columns); // what the sniff saw is what the read gives
        }
        int fields = fields(first, delim.charAt(0));
        String cols = IntStream.rangeClosed(1, fields).mapToObj(i -> "'c" + i + "': 'VARCHAR'")
                .collect(Collectors.joining(", ", "{", "}"));
        String d = Sql.quoteString(delim).replace("\t", "\\t");
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM read_csv("
                + path + ", auto_detect=false, delim=" + d + ", quote='\"', escape='\"', header=true, columns="
                + cols + ")")) {
            rs.next(); // the strict read is the check: it throws at the first row with a different field count
        }
        return new Reader("read_csv(" + path + ", delim=" + d + ", skip=0, header=true" + CANDIDATES + ")", null);
    }

    /** Fields in a CSV line, honouring double quotes. */
    static int fields(String line, char delim) {
        int n = 1;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == delim && !quoted) {
                n++;
            }
        }
        return n;
    }
}
