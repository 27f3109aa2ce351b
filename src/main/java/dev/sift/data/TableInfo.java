package dev.sift.data;

import java.util.List;
import java.util.Optional;

/** A dataset table or a session frame, as the planner may reference it. */
public record TableInfo(String name, Kind kind, long rows, List<ColumnInfo> columns) {

    public enum Kind { TABLE, FRAME }

    public Optional<ColumnInfo> column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnInfo::name).toList();
    }

    /**
     * How SQL refers to it: frames live in the {@code frames} schema; a dataset built from several sources names
     * its tables {@code schema.table}.
     */
    public String sqlName() {
        return kind == Kind.FRAME ? "frames." + Sql.quoteIdent(name) : Sql.quoteTable(name);
    }

    /** The name without its schema ({@code review} of {@code user_database.review}). */
    public String bareName() {
        return kind == Kind.FRAME ? name : name.substring(name.indexOf('.') + 1);
    }
}
