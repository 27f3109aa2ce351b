package dev.sift.data.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Loads BSON documents (a MongoDB dump's collection, or a live collection) into one DuckDB table, in two passes
 * over the documents so that memory holds one document and per-field statistics, never the collection:
 * the first pass finds each top-level field's types, the second appends rows through DuckDB's Appender.
 *
 * <p>Type mapping (one column per top-level field, in order of first appearance):
 * ObjectId → VARCHAR (24 hex digits); String → VARCHAR; Int32 → INTEGER; Int64 (or Int32 and Int64) → BIGINT;
 * Double (or any integers with doubles) → DOUBLE; Decimal128 (or with integers) → DECIMAL(38, s), s the largest
 * scale seen; Boolean → BOOLEAN; Date and Timestamp → TIMESTAMP WITH TIME ZONE (UTC instants);
 * Binary → BLOB, a 16-byte UUID binary → UUID; embedded documents and arrays → JSON (query them with
 * {@code ->}, {@code ->>}, {@code json_extract}); Null/Undefined/missing → NULL.
 * A field whose type varies across documents becomes JSON when any value is a document or an array, and
 * VARCHAR otherwise; every such choice (and any other BSON type, loaded as text) is returned as a note.
 * Inside JSON, ObjectIds, dates and binaries are strings, numbers are JSON numbers.
 */
public final class BsonTables {
    private BsonTables() { }

    /** One pass over the documents; called twice. Implementations open and close their own file or cursor. */
    @FunctionalInterface
    public interface Scan {
        void forEach(Sink sink) throws Exception;
    }

    @FunctionalInterface
    public interface Sink {
        void accept(BsonDocument document) throws Exception;
    }

    /** What a value is, for choosing a column type. */
    enum Kind { BOOLEAN, INT32, INT64, DOUBLE, DECIMAL, STRING, OBJECT_ID, DATE, BINARY, UUID, DOCUMENT, ARRAY, OTHER }

    private static final Set<Kind> INTEGERS = EnumSet.of(Kind.INT32, Kind.INT64);
    private static final Set<Kind> NUMBERS = EnumSet.of(Kind.INT32, Kind.INT64, Kind.DOUBLE, Kind.DECIMAL);
    private static final int FLUSH_ROWS = 100_000;
    private static final JsonFactory JSON = new JsonFactory();

    /** One field's statistics over the first pass, then its column. */
    static final class Field {
        final String name;
        String column;
        final EnumSet<Kind> kinds = EnumSet.noneOf(Kind.class);
        int scale;
        int integerDigits;
        String type;

        Field(String name) {
            this.name = name;
        }

        void observe(BsonValue v) {
            Kind k = kind(v);
            if (k == null) {
                return;
            }
            if (k == Kind.DECIMAL && !v.asDecimal128().getValue().isFinite()) {
                k = Kind.OTHER; // NaN and infinities have no DECIMAL value
            }
            kinds.add(k);
            if (k == Kind.DECIMAL) {
                BigDecimal d = v.asDecimal128().getValue().bigDecimalValue();
                scale = Math.max(scale, Math.max(0, d.scale()));
                integerDigits = Math.max(integerDigits, d.precision() - d.scale());
            } else if (INTEGERS.contains(k)) {
                integerDigits = Math.max(integerDigits, Long.toString(Math.abs(v.asNumber().longValue())).length());
            }
        }
    }

    /**
     * Creates {@code schema.table} from the documents {@code scan} yields and fills it. Returns notes for people
     * (fields with varying or unmapped types). {@code label} names the collection in progress and errors.
     */
    public static List<String> load(Connection db, String schema, String table, String label, Scan scan,
                                    Progress progress) throws Exception {
        Map<String, Field> fields = new LinkedHashMap<>();
        long[] total = {0};
        scan.forEach(doc -> {
            for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
                fields.computeIfAbsent(e.getKey(), Field::new).observe(e.getValue());
            }
            if (++total[0] % FLUSH_ROWS == 0) {
                progress.report("scanning " + label, total[0], -1);
            }
        });
        List<String> notes = new ArrayList<>();
        List<Field> columns = columns(fields, notes, label);
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(Sql.quoteIdent(schema)).append('.')
                .append(Sql.quoteIdent(table)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            ddl.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(columns.get(i).column)).append(' ')
                    .append(columns.get(i).type);
        }
        try (Statement st = db.createStatement()) {
            st.execute(ddl.append(')').toString());
        }
        if (fields.isEmpty()) {
            notes.add(label + ": no documents; the table has only an empty _id column");
        }
        progress.report("loading " + label, 0, total[0]);
        long[] done = {0};
        try (DuckDBAppender appender = db.unwrap(DuckDBConnection.class).createAppender(catalog(db), schema, table)) {
            scan.forEach(doc -> {
                appender.beginRow();
                for (Field f : columns) {
                    append(appender, f, doc.get(f.name));
                }
                appender.endRow();
                if (++done[0] % FLUSH_ROWS == 0) {
                    appender.flush();
                    progress.report("loading " + label, done[0], total[0]);
                }
            });
        }
        progress.report("loaded " + label, done[0], total[0]);
        return notes;
    }

    /** The database the connection writes to (a build's temporary file is named oddly). */
    static String catalog(Connection db) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT current_database()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Column names (unique regardless of case, as DuckDB needs) and types; notes on every lossy choice. */
    static List<Field> columns(Map<String, Field> fields, List<String> notes, String label) {
        List<Field> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (Field f : fields.values()) {
            String base = f.name.isEmpty() ? "field" : f.name;
            String column = base;
            for (int n = 2; !taken.add(column.toLowerCase(Locale.ROOT)); n++) {
                column = base + "_" + n;
            }
            if (!column.equals(f.name)) {
                notes.add(label + ": field '" + f.name + "' is column '" + column + "' (column names ignore case)");
            }
            f.column = column;
            f.type = type(f, notes, label);
            out.add(f);
        }
        if (out.isEmpty()) {
            Field id = new Field("_id");
            id.column = "_id";
            id.type = "VARCHAR";
            out.add(id);
        }
        return out;
    }

    private static String type(Field f, List<String> notes, String label) {
        EnumSet<Kind> k = f.kinds;
        if (k.isEmpty()) {
            return "VARCHAR"; // only nulls
        }
        if (k.size() == 1) {
            Kind only = k.iterator().next();
            switch (only) {
                case BOOLEAN: return "BOOLEAN";
                case INT32: return "INTEGER";
                case INT64: return "BIGINT";
                case DOUBLE: return "DOUBLE";
                case DECIMAL: return decimal(f, notes, label);
                case STRING, OBJECT_ID: return "VARCHAR";
                case DATE: return "TIMESTAMPTZ";
                case BINARY: return "BLOB";
                case UUID: return "UUID";
                case DOCUMENT, ARRAY: return "JSON";
                default:
                    notes.add(label + ": field '" + f.name + "' holds BSON values with no SQL type; loaded as text");
                    return "VARCHAR";
            }
        }
        if (INTEGERS.containsAll(k)) {
            return "BIGINT";
        }
        if (NUMBERS.containsAll(k) && !k.contains(Kind.DECIMAL)) {
            return "DOUBLE";
        }
        if (NUMBERS.containsAll(k) && !k.contains(Kind.DOUBLE)) {
            return decimal(f, notes, label);
        }
        String seen = k.stream().map(x -> x.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
        if (k.contains(Kind.DOCUMENT) || k.contains(Kind.ARRAY)) {
            notes.add(label + ": field '" + f.name + "' varies across documents (" + seen + "); loaded as JSON");
            return "JSON";
        }
        if (NUMBERS.containsAll(k)) {
            notes.add(label + ": field '" + f.name + "' mixes decimal and double values; loaded as DOUBLE");
            return "DOUBLE";
        }
        notes.add(label + ": field '" + f.name + "' varies across documents (" + seen + "); loaded as VARCHAR");
        return "VARCHAR";
    }

    private static String decimal(Field f, List<String> notes, String label) {
        int scale = Math.min(f.scale, 38);
        if (f.integerDigits + scale > 38) {
            notes.add(label + ": field '" + f.name + "' has decimals wider than DECIMAL(38); loaded as VARCHAR");
            return "VARCHAR";
        }
        return "DECIMAL(38," + scale + ")";
    }

    static Kind kind(BsonValue v) {
        if (v == null) {
            return null;
        }
        return switch (v.getBsonType()) {
            case NULL, UNDEFINED -> null;
            case BOOLEAN -> Kind.BOOLEAN;
            case INT32 -> Kind.INT32;
            case INT64 -> Kind.INT64;
            case DOUBLE -> Kind.DOUBLE;
            case DECIMAL128 -> Kind.DECIMAL;
            case STRING -> Kind.STRING;
            case OBJECT_ID -> Kind.OBJECT_ID;
            case DATE_TIME, TIMESTAMP -> Kind.DATE;
            case BINARY -> isUuid(v) ? Kind.UUID : Kind.BINARY;
            case DOCUMENT -> Kind.DOCUMENT;
            case ARRAY -> Kind.ARRAY;
            default -> Kind.OTHER;
        };
    }

    private static boolean isUuid(BsonValue v) {
        byte t = v.asBinary().getType();
        return v.asBinary().getData().length == 16
                && (t == BsonBinarySubType.UUID_STANDARD.getValue() || t == BsonBinarySubType.UUID_LEGACY.getValue());
    }

    private static void append(DuckDBAppender a, Field f, BsonValue v) throws SQLException {
        if (kind(v) == null) {
            a.appendNull();
            return;
        }
        switch (f.type) {
            case "BOOLEAN" -> a.append(v.asBoolean().getValue());
            case "INTEGER" -> a.append(v.asInt32().getValue());
            case "BIGINT" -> a.append(v.asNumber().longValue());
            case "DOUBLE" -> a.append(v.isDecimal128() ? v.asDecimal128().getValue().bigDecimalValue().doubleValue()
                    : v.asNumber().doubleValue());
            case "TIMESTAMPTZ" -> a.appendEpochMicros(Math.multiplyExact(epochMillis(v), 1000L));
            case "BLOB" -> a.append(v.asBinary().getData());
            case "UUID" -> a.append(uuid(v));
            case "JSON" -> a.append(json(v));
            case "VARCHAR" -> a.append(text(v));
            default -> a.append(decimalValue(v).setScale(f.scale, RoundingMode.UNNECESSARY)); // DECIMAL(38,s)
        }
    }

    private static BigDecimal decimalValue(BsonValue v) {
        return v.isDecimal128() ? v.asDecimal128().getValue().bigDecimalValue() : BigDecimal.valueOf(v.asNumber().longValue());
    }

    private static long epochMillis(BsonValue v) {
        return v.isDateTime() ? v.asDateTime().getValue() : v.asTimestamp().getTime() * 1000L;
    }

    private static UUID uuid(BsonValue v) {
        return v.asBinary().getType() == BsonBinarySubType.UUID_STANDARD.getValue() ? v.asBinary().asUuid()
                : v.asBinary().asUuid(org.bson.UuidRepresentation.JAVA_LEGACY);
    }

    /** A value as text for a VARCHAR column: strings as they are, the rest as in JSON. */
    static String text(BsonValue v) {
        return switch (v.getBsonType()) {
            case STRING -> v.asString().getValue();
            case OBJECT_ID -> v.asObjectId().getValue().toHexString();
            case SYMBOL -> v.asSymbol().getSymbol();
            case JAVASCRIPT -> v.asJavaScript().getCode();
            case DATE_TIME, TIMESTAMP -> Instant.ofEpochMilli(epochMillis(v)).toString();
            case REGULAR_EXPRESSION -> "/" + v.asRegularExpression().getPattern() + "/" + v.asRegularExpression().getOptions();
            case BINARY -> isUuid(v) ? uuid(v).toString() : Base64.getEncoder().encodeToString(v.asBinary().getData());
            case INT32, INT64, DOUBLE, DECIMAL128, BOOLEAN, DOCUMENT, ARRAY -> json(v);
            default -> v.toString(); // MinKey, MaxKey, DBPointer, code with scope
        };
    }

    /** A value as plain JSON (no MongoDB extended-JSON wrappers), so DuckDB's JSON functions read it directly. */
    static String json(BsonValue v) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            write(g, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, BsonValue v) throws IOException {
        BsonType t = v == null ? BsonType.NULL : v.getBsonType();
        switch (t) {
            case DOCUMENT -> {
                g.writeStartObject();
                for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                    g.writeFieldName(e.getKey());
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (BsonValue x : v.asArray()) {
                    write(g, x);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(v.asString().getValue());
            case INT32 -> g.writeNumber(v.asInt32().getValue());
            case INT64 -> g.writeNumber(v.asInt64().getValue());
            case DOUBLE -> {
                double d = v.asDouble().getValue();
                if (Double.isFinite(d)) {
                    g.writeNumber(d);
                } else {
                    g.writeString(Double.toString(d));
                }
            }
            case DECIMAL128 -> {
                if (v.asDecimal128().getValue().isFinite()) {
                    g.writeNumber(v.asDecimal128().getValue().bigDecimalValue());
                } else {
                    g.writeString(v.asDecimal128().getValue().toString());
                }
            }
            case BOOLEAN -> g.writeBoolean(v.asBoolean().getValue());
            case OBJECT_ID -> g.writeString(v.asObjectId().getValue().toHexString());
            case DATE_TIME, TIMESTAMP -> g.writeString(Instant.ofEpochMilli(epochMillis(v)).toString());
            case BINARY -> g.writeString(isUuid(v) ? uuid(v).toString()
                    : Base64.getEncoder().encodeToString(v.asBinary().getData()));
            case NULL, UNDEFINED -> g.writeNull();
            case SYMBOL -> g.writeString(v.asSymbol().getSymbol());
            case JAVASCRIPT -> g.writeString(v.asJavaScript().getCode());
            default -> g.writeString(text(v)); // regular expressions, MinKey, MaxKey, DBPointer, code with scope
        }
    }
}
