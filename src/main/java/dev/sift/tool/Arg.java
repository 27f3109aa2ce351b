package dev.sift.tool;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one argument of a tool's argument record. The description and kind feed the tool catalog
 * (prompt signature and JSON Schema) and validation: names of kind SOURCE, COLUMN and COLUMNS are checked
 * against the live schema and SQL is checked by the guard before the tool runs.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Arg {
    String value();

    boolean required() default true;

    /** Other names a planner may use for this argument (accepted rather than wasting a step). */
    String[] aliases() default {};

    Kind kind() default Kind.PLAIN;

    enum Kind {
        PLAIN,
        /** A dataset table or a frame label. */
        SOURCE,
        /** One column of the record's SOURCE argument. */
        COLUMN,
        /** A list of columns of the record's SOURCE argument. */
        COLUMNS,
        /** Agent SQL: checked by the SQL guard. */
        SQL
    }
}
