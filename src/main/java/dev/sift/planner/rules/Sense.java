package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;

import java.util.List;

/** What a phrase of a question stands for, as the offline parser reads it. */
public sealed interface Sense {
    /** How the phrase was read, for the answer's "read as" line: {@code client}, {@code district.A2 = 'Hl.m. Praha'}. */
    String reading();

    /** A table (an entity): "customers" → client. */
    record Entity(String table) implements Sense {
        public String reading() {
            return table;
        }
    }

    /** A column or a derived attribute: "loan amount" → loan.amount; {@code sql} is qualified, {@code type} the SQL type. */
    record Attr(String table, String name, String sql, String type) implements Sense {
        public String reading() {
            return name;
        }

        /** The column's own name, without its table ("Total_Receipts" of "political_contributions.Total_Receipts"). */
        public String column() {
            return name.substring(name.indexOf('.') + 1);
        }

        public boolean date() {
            return type.startsWith("DATE") || type.startsWith("TIMESTAMP");
        }

        public boolean numeric() {
            return type.matches("(?i)(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|"
                    + "REAL|DOUBLE|DECIMAL.*|NUMERIC.*|INT.*)");
        }
    }

    /** A condition on one table: "women" → client.gender = 'F', "defaulted" → loan.status IN ('B', 'D'). */
    record Cond(String table, String sql, String describe) implements Sense {
        public String reading() {
            return describe;
        }

        /** The column SQL a value's condition compares ({@code zipcodes.state} of {@code zipcodes.state = 'TX'}), else its SQL. */
        public String column() {
            int eq = sql.indexOf(" = ");
            return eq < 0 ? sql : sql.substring(0, eq);
        }
    }

    /** A phrase that says which join to follow: "live in" → client → district through client.district_id. */
    record Via(String table, KgEntry.Join join) implements Sense {
        public String reading() {
            return join.fromTable() + "." + join.fromColumn() + (join.meaning() == null ? "" : " (" + join.meaning() + ")");
        }
    }

    /** A named metric of the knowledge graph. */
    record Measure(KgEntry.Metric metric) implements Sense {
        public String reading() {
            return "metric " + metric.name() + " = " + metric.expression();
        }
    }

    /** Several readings the graph cannot settle alone ("amount": loan, trans or order); the parser may pick by context. */
    record Choice(List<Attr> options, String guidance) implements Sense {
        public String reading() {
            return String.join(" or ", options.stream().map(Attr::name).toList());
        }
    }

    /**
     * A value found in columns of several tables ("Texas": bird strikes' origin state, airports' state 'TX'): the parser
     * chooses the one of the table the rest of the question names, or asks naming them.
     */
    record Values(List<Cond> options, String text) implements Sense {
        public String reading() {
            return text;
        }
    }

    /** A phrase with readings of different kinds, or a disambiguation with no candidate columns: always a question back. */
    record Ambiguous(String text) implements Sense {
        public String reading() {
            return text;
        }
    }

    /** A date range built from "in 1997", "between 1995 and 1996", "after March 1997", "before 1994". */
    record Dates(String op, java.time.LocalDate from, java.time.LocalDate to, int yearFrom, int yearTo) implements Sense {
        public String reading() {
            return op;
        }
    }

    /** A numeric comparison: "over 100000" → {@code > 100000}. */
    record Compare(String op, String value) implements Sense {
        public String reading() {
            return op + " " + value;
        }
    }
}
