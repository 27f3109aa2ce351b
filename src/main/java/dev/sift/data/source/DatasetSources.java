package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.Progress;
import dev.sift.data.Sql;

import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sources of one dataset, built into one DuckDB file: a single source fills {@code main}; several give each
 * its own schema named by its alias ({@code user_database.review}). Built from the SOURCE arguments of
 * {@code sift load}: one sources file, data files (all in {@code main}, one table each, as always), or any mix of
 * files, database files, dump folders and URLs (each a schema named after it).
 */
public final class DatasetSources implements DatasetBuilder {
    static final String VERSION = "dataset-sources-1";

    private final List<SourcesFile.Entry> entries;

    public DatasetSources(List<SourcesFile.Entry> entries) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("No sources given: name a file, a database file, a dump folder, a URL"
                    + " or a sources file");
        }
        this.entries = List.copyOf(entries);
    }

    /** The sources named by {@code sift load NAME SOURCE...}; relative paths against {@code cwd}. */
    public static DatasetSources of(List<String> sources, Path cwd, Map<String, String> env) throws IOException {
        return of(sources, cwd, env, List.of());
    }

    /** As above, with the user's column types for data files ({@code --types}). */
    public static DatasetSources of(List<String> sources, Path cwd, Map<String, String> env, List<ColumnType> types)
            throws IOException {
        if (sources.isEmpty()) {
            return new DatasetSources(List.of());
        }
        if (sources.stream().anyMatch(Sources::isSourcesFile)) {
            if (sources.size() > 1) {
                throw new IllegalArgumentException("A sources file names all the sources of a dataset: give it alone"
                        + " (sift load NAME sources.yaml)");
            }
            return new DatasetSources(SourcesFile.read(cwd.resolve(sources.get(0)), env));
        }
        List<Source> opened = new ArrayList<>();
        for (String s : sources) {
            opened.add(Sources.open(s, cwd, Map.of(), env));
        }
        if (opened.stream().allMatch(FileLoader.class::isInstance)) { // data files: one table each, in main
            List<Path> files = opened.stream().flatMap(f -> ((FileLoader) f).files().stream()).toList();
            return new DatasetSources(List.of(new SourcesFile.Entry("main", new FileLoader(files, types))));
        }
        if (!types.isEmpty()) {
            throw new IllegalArgumentException("--types goes with data files (CSV, TSV, JSON): the other sources carry"
                    + " their own types");
        }
        if (opened.size() == 1) {
            return new DatasetSources(List.of(new SourcesFile.Entry("main", opened.get(0))));
        }
        Map<String, String> byAlias = new LinkedHashMap<>();
        List<SourcesFile.Entry> entries = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            String alias = alias(sources.get(i));
            String clash = byAlias.putIfAbsent(alias, sources.get(i));
            if (clash != null) {
                throw new IllegalArgumentException("Sources " + SourceUrl.maskText(clash) + " and " + SourceUrl.maskText(sources.get(i))
                        + " would both be schema '" + alias + "': name them in a sources file (sources: {alias: location})");
            }
            entries.add(new SourcesFile.Entry(alias, opened.get(i)));
        }
        return new DatasetSources(entries);
    }

    /** A schema name for a source given without one: the file's stem, the dump folder's or the database's name. */
    public static String alias(String location) {
        String s = location.replaceFirst("[?#].*$", "").replaceAll("/+$", "");
        s = s.substring(s.lastIndexOf('/') + 1);
        int dot = s.indexOf('.');
        String alias = FileLoader.tableName(dot > 0 ? s.substring(0, dot) : s);
        return SourcesFile.RESERVED.contains(alias) ? alias + "_source" : alias;
    }

    public List<SourcesFile.Entry> entries() {
        return entries;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        for (SourcesFile.Entry e : entries) {
            FileSupport.hashText(sha, e.alias());
            FileSupport.hashText(sha, e.source().fingerprint());
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        return single() ? entries.get(0).source().describe() : entries.size() + " sources: "
                + String.join(", ", entries.stream().map(SourcesFile.Entry::alias).toList());
    }

    @Override
    public List<String> sources() {
        return single() ? List.of(line(entries.get(0).source()))
                : entries.stream().map(e -> e.alias() + ": " + line(e.source())).toList();
    }

    private static String line(Source s) {
        return s instanceof FileLoader files ? files.sources().get(0) : s.describe();
    }

    private boolean single() {
        return entries.size() == 1;
    }

    /** The load reports of the data files among the sources. */
    @Override
    public dev.sift.data.LoadReport report() {
        return entries.stream().map(e -> e.source() instanceof FileLoader f ? f.report() : dev.sift.data.LoadReport.EMPTY)
                .filter(r -> !r.isEmpty()).findFirst().orElse(dev.sift.data.LoadReport.EMPTY);
    }

    @Override
    public void build(Connection db, Progress progress) throws Exception {
        if (single()) {
            entries.get(0).source().load(db, "main", progress);
            return;
        }
        for (SourcesFile.Entry e : entries) {
            try (Statement st = db.createStatement()) {
                st.execute("CREATE SCHEMA " + Sql.quoteIdent(e.alias()));
            }
            e.source().load(db, e.alias(), (stage, done, total) -> progress.report(e.alias() + ": " + stage, done, total));
        }
    }
}
