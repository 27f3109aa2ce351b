package dev.sift.data.source;

import dev.sift.data.Sql;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The DuckDB type a source column loads as, chosen by a source's type mapping. {@link #ddl()} is the column
 * type in {@code CREATE TABLE}. {@link Kind#INTERVAL} is staged as text (DuckDB's Appender cannot write
 * intervals) and converted in place once the table is loaded.
 */
public record DuckType(Kind kind, int precision, int scale, DuckType element, List<String> labels) {
    public enum Kind {
        BOOLEAN, SMALLINT, INTEGER, BIGINT, HUGEINT, FLOAT, DOUBLE, DECIMAL, VARCHAR, JSON, UUID, DATE, TIME,
        TIMESTAMP, TIMESTAMPTZ, INTERVAL, BLOB, ENUM, LIST
    }

    /** DuckDB's widest exact decimal. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    public static DuckType of(Kind kind) {
        if (kind == Kind.DECIMAL || kind == Kind.ENUM || kind == Kind.LIST) {
            throw new IllegalArgumentException(kind + " needs parameters");
        }
        return new DuckType(kind, 0, 0, null, List.of());
    }

    public static DuckType decimal(int precision, int scale) {
        return new DuckType(Kind.DECIMAL, precision, scale, null, List.of());
    }

    public static DuckType enumOf(List<String> labels) {
        return new DuckType(Kind.ENUM, 0, 0, null, List.copyOf(labels));
    }

    public static DuckType listOf(DuckType element) {
        return new DuckType(Kind.LIST, 0, 0, element, List.of());
    }

    /** The type as written in DuckDB DDL: {@code DECIMAL(12,2)}, {@code INTEGER[]}, {@code ENUM('a', 'b')}. */
    public String ddl() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case ENUM -> labels.stream().map(Sql::quoteString).collect(Collectors.joining(", ", "ENUM(", ")"));
            case LIST -> element.ddl() + "[]";
            case INTERVAL -> "VARCHAR"; // staged; see Kind.INTERVAL
            default -> kind.name();
        };
    }

    @Override
    public String toString() {
        return kind == Kind.INTERVAL ? "INTERVAL" : ddl();
    }
}
