package dev.sift.ml;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The entity of each row of {@link MlData}: whole numbers kept as longs (a million ids boxed into {@code Long}s were a
 * million objects for the collector to copy), any other id as text; a row without one (or read without an entity
 * column) has none. Two instances are equal when every row's value is, whichever way each keeps them.
 */
public final class Entities {
    private final int size;
    private final long[] numbers; // whole-number ids, or null
    private final String[] texts; // text ids, or null
    private final BitSet missing; // rows without a number (texts keep null themselves)

    private Entities(int size, long[] numbers, String[] texts, BitSet missing) {
        this.size = size;
        this.numbers = numbers;
        this.texts = texts;
        this.missing = missing;
    }

    /** Whole-number ids, {@code missing} marking the rows that have none (the set is kept, not copied). */
    static Entities numbers(long[] numbers, BitSet missing) {
        return new Entities(numbers.length, numbers, null, missing);
    }

    /** Text ids, null for a row that has none. */
    static Entities texts(String[] texts) {
        return new Entities(texts.length, null, texts, new BitSet());
    }

    /** Values as JDBC returns them ({@code Long}, text or null): numbers when every value present is a {@code Long}. */
    static Entities of(List<Object> values) {
        int n = values.size();
        if (values.stream().allMatch(v -> v == null || v instanceof Long)) {
            long[] numbers = new long[n];
            BitSet missing = new BitSet(n);
            for (int i = 0; i < n; i++) {
                if (values.get(i) == null) {
                    missing.set(i);
                } else {
                    numbers[i] = (Long) values.get(i);
                }
            }
            return numbers(numbers, missing);
        }
        return texts(values.stream().map(v -> v == null ? null : v.toString()).toArray(String[]::new));
    }

    public int size() {
        return size;
    }

    /** The entity of row {@code i}: a {@code Long}, a String, or null. */
    public Object get(int i) {
        if (isNull(i)) {
            return null;
        }
        return numbers != null ? (Object) numbers[i] : texts[i];
    }

    /** True when every entity present is a whole number (also when there is none at all). */
    public boolean numeric() {
        return numbers != null || Arrays.stream(texts).allMatch(t -> t == null);
    }

    private boolean isNull(int i) {
        return numbers != null ? missing.get(i) : texts[i] == null;
    }

    /** The rows at {@code idx}, in that order. */
    public Entities subset(int[] idx) {
        if (numbers == null) {
            String[] t = new String[idx.length];
            for (int i = 0; i < idx.length; i++) {
                t[i] = texts[idx[i]];
            }
            return texts(t);
        }
        long[] v = new long[idx.length];
        BitSet m = new BitSet(idx.length);
        for (int i = 0; i < idx.length; i++) {
            v[i] = numbers[idx[i]];
            if (missing.get(idx[i])) {
                m.set(i);
            }
        }
        return numbers(v, m);
    }

    /**
     * The row order of {@code ORDER BY entity NULLS LAST, rowid} as DuckDB sorts it (numbers numerically, text by
     * its UTF-8 bytes), or null when the rows are in that order already.
     */
    int[] order(long[] rowids) {
        if (inOrder(rowids)) {
            return null;
        }
        int[] idx = new int[size];
        Arrays.setAll(idx, i -> i);
        mergeSort(idx, new int[size], 0, size, rowids);
        return idx;
    }

    /** Whether the rows are in order already: one pass, on the longs themselves for ids that are all there. */
    private boolean inOrder(long[] rowids) {
        if (numbers != null && missing.isEmpty()) {
            for (int i = 1; i < size; i++) {
                long a = numbers[i - 1];
                long b = numbers[i];
                if (a > b || a == b && rowids[i - 1] > rowids[i]) {
                    return false;
                }
            }
            return true;
        }
        for (int i = 1; i < size; i++) {
            if (compare(i - 1, i, rowids) > 0) {
                return false;
            }
        }
        return true;
    }

    private int compare(int a, int b, long[] rowids) {
        boolean na = isNull(a);
        boolean nb = isNull(b);
        int c;
        if (na || nb) {
            c = Boolean.compare(na, nb); // NULLS LAST
        } else {
            c = numbers != null ? Long.compare(numbers[a], numbers[b]) : utf8Compare(texts[a], texts[b]);
        }
        return c != 0 ? c : Long.compare(rowids[a], rowids[b]);
    }

    /** Compares as the texts' UTF-8 bytes compare, i.e. by code point (UTF-16 order differs above U+D800). */
    static int utf8Compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= 0xD800 && y >= 0xD800) { // surrogates (supplementary code points) sort after U+E000..U+FFFF
                    x = (char) (x >= 0xE000 ? x - 0x800 : x + 0x2000);
                    y = (char) (y >= 0xE000 ? y - 0x800 : y + 0x2000);
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** A stable merge sort of {@code idx[lo, hi)} by {@link #compare}, on ints (no boxing a million indices). */
    private void mergeSort(int[] idx, int[] tmp, int lo, int hi, long[] rowids) {
        if (hi - lo < 2) {
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(idx, tmp, lo, mid, rowids);
        mergeSort(idx, tmp, mid, hi, rowids);
        if (compare(idx[mid - 1], idx[mid], rowids) <= 0) {
            return;
        }
        System.arraycopy(idx, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            idx[k] = j >= hi || (i < mid && compare(tmp[i], tmp[j], rowids) <= 0) ? tmp[i++] : tmp[j++];
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Entities e) || e.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!java.util.Objects.equals(get(i), e.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code Arrays.hashCode} of the values, without boxing them. */
    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < size; i++) {
            int v = isNull(i) ? 0 : numbers != null ? Long.hashCode(numbers[i]) : texts[i].hashCode();
            h = 31 * h + v;
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < Math.min(size, 20); i++) {
            b.append(i == 0 ? "" : ", ").append(get(i));
        }
        return b.append(size > 20 ? ", …]" : "]").toString();
    }
}
