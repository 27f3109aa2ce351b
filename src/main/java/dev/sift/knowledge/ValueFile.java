package dev.sift.knowledge;

import dev.sift.data.ColumnInfo;
import dev.sift.data.Dataset;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The values of a dataset's text columns that have too many distinct values for the knowledge graph to list them
 * (names, titles, codes: 'Steven Spielberg', 'SFO'), so that a question naming one finds its column. Kept in a file
 * beside the dataset file ({@code <name>.values}), built once per dataset fingerprint on first use and read through a
 * memory map: entries sorted by a 64-bit hash of the value's {@link Phrases#key}, each pointing at its column and its
 * stored spelling, so a lookup is a binary search and the values never sit on the heap. Values longer than
 * {@value #MAX_LENGTH} characters or of more than {@value #MAX_WORDS} words (free text) are left out, and at most
 * {@value #MAX_PER_COLUMN} distinct values per column are kept. Immutable and thread-safe once open.
 */
public final class ValueFile {
    private static final Logger LOG = LoggerFactory.getLogger(ValueFile.class);
    static final String SUFFIX = ".values";
    private static final int MAGIC = 0x53564631; // "SVF1"
    private static final int VERSION = 5; // the keys are Phrases.key: a new stemming is a new version; 3 adds prefixes, 4 words, 5 slashes said
    static final int MAX_LENGTH = 80;
    static final int MAX_WORDS = 8;
    static final int MAX_PER_COLUMN = 1_000_000;
    private static final int ENTRY = 16;
    /** Marks an entry keyed by the first words of its value, not the whole value ({@link #findPrefix}). */
    private static final int PREFIX = 1 << 30;
    /** Marks an entry keyed by one word of a column's values, once per column and word ({@link #findWord}). */
    private static final int WORD = 1 << 29;
    /** Values are found by their first one or two words ("ford" of 'ford torino'), for longer values. */
    static final int PREFIX_WORDS = 2;

    private final List<String[]> columns;
    private final ByteBuffer entries;
    private final ByteBuffer blob;
    private final long count;

    private ValueFile(List<String[]> columns, ByteBuffer entries, ByteBuffer blob, long count) {
        this.columns = columns;
        this.entries = entries;
        this.blob = blob;
        this.count = count;
    }

    /** Where the file of a dataset lives. */
    public static Path path(Dataset ds) {
        return ds.file().resolveSibling(ds.name() + SUFFIX);
    }

    /**
     * The value file of the workspace's dataset for the text columns the graph does not list: read when it was made for
     * this fingerprint, else built from the data and written. Empty on a live engine (its values stay there), for a
     * dataset without a file, or when the file cannot be read or written (the small values still work).
     */
    public static Optional<ValueFile> of(Workspace ws, KnowledgeGraph kg) {
        Dataset ds = ws.dataset();
        if (ds.onEngine() || ds.file() == null || ds.fingerprint() == null || ds.fingerprint().isBlank()) {
            return Optional.empty();
        }
        Path p = path(ds);
        try {
            Optional<ValueFile> read = read(p, ds.fingerprint());
            if (read.isPresent()) {
                return read;
            }
            long t0 = System.nanoTime();
            write(p, ds.fingerprint(), collect(ws, kg));
            LOG.debug("Value file of {} built in {} ms", ds.name(), (System.nanoTime() - t0) / 1_000_000);
            return read(p, ds.fingerprint());
        } catch (IOException | QueryException | RuntimeException e) {
            LOG.warn("No index of the many-valued text columns of {}: {}", ds.name(), e.getMessage());
            return Optional.empty();
        }
    }

    /** How many values the file holds. */
    public long size() {
        return count;
    }

    /** The stored values whose {@link Phrases#key} is {@code key}, as matches from the data, in column order. */
    public List<ValueIndex.Match> find(String key) {
        return find(key, 0);
    }

    /**
     * The stored values of two words or more whose first one or two words are {@code key} ("ford" → 'ford torino', 'ford
     * pinto'), as matches from the data, in column order.
     */
    public List<ValueIndex.Match> findPrefix(String key) {
        return find(key, PREFIX);
    }

    /**
     * One stored value of each column whose values of two words or more have the word {@code key} among their words
     * ("alaska" → place '5km SW of Anchorage, Alaska'), in column order.
     */
    public List<ValueIndex.Match> findWord(String key) {
        return find(key, WORD);
    }

    private List<ValueIndex.Match> find(String key, int kind) {
        if (key.isEmpty() || count == 0) {
            return List.of();
        }
        long h = hash(key);
        long lo = 0;
        long hi = count - 1;
        long first = -1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            long at = entries.getLong((int) (mid * ENTRY));
            if (at < h) {
                lo = mid + 1;
            } else {
                if (at == h) {
                    first = mid;
                }
                hi = mid - 1;
            }
        }
        List<ValueIndex.Match> out = new ArrayList<>();
        for (long i = first; first >= 0 && i < count && entries.getLong((int) (i * ENTRY)) == h; i++) {
            int column = entries.getInt((int) (i * ENTRY + 8));
            if ((column & (PREFIX | WORD)) != kind) {
                continue;
            }
            String value = value(entries.getInt((int) (i * ENTRY + 12)));
            String vk = Phrases.key(value);
            boolean match = kind == PREFIX ? vk.startsWith(key + " ") : kind == WORD ? (" " + vk + " ").contains(" " + key + " ")
                    : vk.equals(key) || Phrases.slashSaid(value).contains(key);
            if (match) { // a hash collision is not a match
                String[] tc = columns.get(column & ~(PREFIX | WORD));
                out.add(new ValueIndex.Match(tc[0], tc[1], value, ValueIndex.Via.DATA, null, null));
            }
        }
        return out;
    }

    private String value(int offset) {
        int len = blob.getShort(offset) & 0xffff;
        byte[] b = new byte[len];
        blob.get(offset + 2, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** One value of one column, before sorting. */
    private record Entry(long hash, int column, String value) { }

    /** The distinct short values of every text column the graph lists no values for. */
    private static Collected collect(Workspace ws, KnowledgeGraph kg) throws QueryException {
        List<String[]> columns = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (TableInfo t : ws.datasetTables()) {
            for (ColumnInfo c : t.columns()) {
                if (!c.type().startsWith("VARCHAR") || t.rows() == 0
                        || kg.column(t.name(), c.name()).map(k -> !k.values().isEmpty()).orElse(true)) {
                    continue;
                }
                int id = columns.size();
                columns.add(new String[] {t.name(), c.name()});
                java.util.Set<String> seen = new java.util.HashSet<>();
                String q = Sql.quoteIdent(c.name());
                String sql = "SELECT DISTINCT " + q + " FROM " + t.sqlName() + " WHERE " + q + " IS NOT NULL AND length(" + q
                        + ") BETWEEN 2 AND " + MAX_LENGTH + " LIMIT " + MAX_PER_COLUMN;
                ws.trustedRead(sql, rs -> {
                    while (rs.next()) {
                        String v = rs.getString(1);
                        String key = Phrases.key(v);
                        String[] words = key.split(" ");
                        if (!key.isEmpty() && words.length <= MAX_WORDS) {
                            entries.add(new Entry(hash(key), id, v));
                            for (String said : Phrases.slashSaid(v)) { // "lawyers and judges" for 'Lawyer / Judge'
                                entries.add(new Entry(hash(said), id, v));
                            }
                            for (int k = 1; k < words.length && k <= PREFIX_WORDS; k++) {
                                entries.add(new Entry(hash(String.join(" ", Arrays.asList(words).subList(0, k))), id | PREFIX, v));
                            }
                            for (int k = 0; k < words.length && words.length > 1; k++) {
                                if (words[k].length() >= 2 && words[k].chars().allMatch(Character::isLetter) && seen.add(words[k])) {
                                    entries.add(new Entry(hash(words[k]), id | WORD, v));
                                }
                            }
                        }
                    }
                    return null;
                });
            }
        }
        return new Collected(columns, entries);
    }

    private record Collected(List<String[]> columns, List<Entry> entries) { }

    private static void write(Path p, String fingerprint, Collected c) throws IOException {
        Entry[] sorted = c.entries().toArray(new Entry[0]);
        Arrays.sort(sorted, (a, b) -> Long.compare(a.hash(), b.hash()));
        ByteArrayOutputStream blobBytes = new ByteArrayOutputStream();
        int[] offsets = new int[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            byte[] b = sorted[i].value().getBytes(StandardCharsets.UTF_8);
            offsets[i] = blobBytes.size();
            blobBytes.write((b.length >>> 8) & 0xff);
            blobBytes.write(b.length & 0xff);
            blobBytes.write(b, 0, b.length);
        }
        dev.sift.data.AtomicFiles.write(p, os -> {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os));
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(fingerprint);
            out.writeInt(c.columns().size());
            for (String[] tc : c.columns()) {
                out.writeUTF(tc[0]);
                out.writeUTF(tc[1]);
            }
            out.writeLong(sorted.length);
            for (int i = 0; i < sorted.length; i++) {
                out.writeLong(sorted[i].hash());
                out.writeInt(sorted[i].column());
                out.writeInt(offsets[i]);
            }
            out.writeInt(blobBytes.size());
            blobBytes.writeTo(out);
            out.flush();
        });
    }

    private static Optional<ValueFile> read(Path p, String fingerprint) throws IOException {
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            if (map.getInt(0) != MAGIC || map.getInt(4) != VERSION) {
                return Optional.empty();
            }
            int pos = 8;
            String[] fp = new String[1];
            pos = utf(map, pos, fp);
            if (!fingerprint.equals(fp[0])) {
                return Optional.empty();
            }
            int n = map.getInt(pos);
            pos += 4;
            List<String[]> columns = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String[] t = new String[1];
                String[] c = new String[1];
                pos = utf(map, pos, t);
                pos = utf(map, pos, c);
                columns.add(new String[] {t[0], c[0]});
            }
            long count = map.getLong(pos);
            pos += 8;
            ByteBuffer entries = map.slice(pos, (int) (count * ENTRY));
            pos += (int) (count * ENTRY);
            int blobLength = map.getInt(pos);
            pos += 4;
            ByteBuffer blob = map.slice(pos, blobLength);
            return Optional.of(new ValueFile(List.copyOf(columns), entries, blob, count));
        } catch (IndexOutOfBoundsException e) {
            LOG.debug("Ignoring value file {}: {}", p, e.toString());
            return Optional.empty();
        }
    }

    /** Reads a string written by {@link DataOutputStream#writeUTF} at {@code pos}; returns the position after it. */
    private static int utf(ByteBuffer b, int pos, String[] out) {
        int len = b.getShort(pos) & 0xffff;
        byte[] bytes = new byte[len];
        b.get(pos + 2, bytes);
        out[0] = new String(bytes, StandardCharsets.UTF_8); // the strings here are names: no modified-UTF-8 specials
        return pos + 2 + len;
    }

    /** FNV-1a over the key's UTF-8 bytes, 64 bits. */
    static long hash(String key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
