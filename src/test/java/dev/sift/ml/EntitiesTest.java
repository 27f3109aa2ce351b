package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EntitiesTest {
    @Test
    void text_compares_as_its_utf8_bytes_even_where_utf16_order_differs() {
        List<String> texts = List.of("a", "ab", "b", "é", "\uFFFD", "😀", "", "Z", "\uE000x", "\uD7FF");
        for (String a : texts) {
            for (String b : texts) {
                int bytes = Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
                assertThat(Integer.signum(Entities.utf8Compare(a, b))).as(a + " vs " + b).isEqualTo(Integer.signum(bytes));
            }
        }
        assertThat("😀".compareTo("\uFFFD")).isNegative(); // what String.compareTo would have got wrong
    }

    @Test
    void order_puts_missing_ids_last_and_breaks_ties_by_rowid() {
        BitSet missing = new BitSet();
        missing.set(1);
        Entities e = Entities.numbers(new long[] {5, 0, 3, 5, -2}, missing);

        int[] order = e.order(new long[] {10, 11, 12, 9, 13});

        assertThat(order).containsExactly(4, 2, 3, 0, 1);
        assertThat(e.subset(order).get(4)).isNull();
    }

    @Test
    void ids_that_are_all_there_are_ordered_by_value_then_rowid() {
        Entities e = Entities.numbers(new long[] {4, 4, 9, 1}, new BitSet());

        assertThat(e.order(new long[] {8, 3, 0, 5})).containsExactly(3, 1, 0, 2);
        assertThat(Entities.numbers(new long[] {1, 4, 4}, new BitSet()).order(new long[] {9, 2, 3})).isNull();
        assertThat(Entities.numbers(new long[] {1, 4, 4}, new BitSet()).order(new long[] {9, 3, 2})).containsExactly(0, 2, 1);
    }

    @Test
    void rows_already_in_order_are_not_reordered() {
        Entities e = Entities.texts(new String[] {"a", "a", "b", null});

        assertThat(e.order(new long[] {1, 2, 0, 3})).isNull();
        assertThat(e.order(new long[] {2, 1, 0, 3})).containsExactly(1, 0, 2, 3);
    }

    @Test
    void equal_values_are_equal_whether_kept_as_numbers_or_as_boxed_values() {
        BitSet missing = new BitSet();
        missing.set(2);
        Entities numbers = Entities.numbers(new long[] {7, 8, 0}, missing);
        Entities boxed = Entities.of(Arrays.asList(7L, 8L, null));
        Entities none = Entities.texts(new String[] {null, null});

        assertThat(numbers).isEqualTo(boxed).hasSameHashCodeAs(boxed);
        assertThat(numbers.hashCode()).isEqualTo(Arrays.hashCode(new Object[] {7L, 8L, null}));
        assertThat(Entities.of(Arrays.asList("x", null)).numeric()).isFalse();
        assertThat(none.numeric()).isTrue();
        assertThat(none).isEqualTo(Entities.numbers(new long[2], bits(0, 1)));
        assertThat(numbers).isNotEqualTo(Entities.of(Arrays.asList(7L, 9L, null)));
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        Arrays.stream(set).forEach(b::set);
        return b;
    }
}
