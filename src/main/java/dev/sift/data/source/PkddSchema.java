package dev.sift.data.source;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

/**
 * The one table layout shared by the real PKDD'99 files ({@code sift load pkdd}) and the synthetic
 * {@code bank} demo, so one knowledge graph and one question set serve both. Original table and column
 * names and codes are kept; dates become DATE; {@code ?} and empty strings become NULL.
 * Helper columns (not in the original files): {@code client.gender} ('F'/'M') and
 * {@code client.birth_date}, both derived from {@code birth_number} (YYMMDD, month + 50 for women).
 */
public final class PkddSchema {
    private PkddSchema() { }

    public static final List<String> TABLES =
            List.of("district", "account", "client", "disp", "card", "loan", "order", "trans");

    public static final List<String> DDL = List.of(
            "CREATE TABLE district (A1 INTEGER PRIMARY KEY, A2 VARCHAR, A3 VARCHAR, A4 INTEGER, A5 INTEGER, A6 INTEGER,"
                    + " A7 INTEGER, A8 INTEGER, A9 INTEGER, A10 DOUBLE, A11 INTEGER, A12 DOUBLE, A13 DOUBLE,"
                    + " A14 INTEGER, A15 INTEGER, A16 INTEGER)",
            "CREATE TABLE account (account_id INTEGER PRIMARY KEY, district_id INTEGER, frequency VARCHAR, date DATE)",
            "CREATE TABLE client (client_id INTEGER PRIMARY KEY, birth_number VARCHAR, district_id INTEGER,"
                    + " gender VARCHAR, birth_date DATE)",
            "CREATE TABLE disp (disp_id INTEGER PRIMARY KEY, client_id INTEGER, account_id INTEGER, type VARCHAR)",
            "CREATE TABLE card (card_id INTEGER PRIMARY KEY, disp_id INTEGER, type VARCHAR, issued DATE)",
            "CREATE TABLE loan (loan_id INTEGER PRIMARY KEY, account_id INTEGER, date DATE, amount INTEGER,"
                    + " duration INTEGER, payments DOUBLE, status VARCHAR)",
            "CREATE TABLE \"order\" (order_id INTEGER PRIMARY KEY, account_id INTEGER, bank_to VARCHAR, account_to VARCHAR,"
                    + " amount DOUBLE, k_symbol VARCHAR)",
            "CREATE TABLE trans (trans_id INTEGER, account_id INTEGER, date DATE, type VARCHAR, operation VARCHAR,"
                    + " amount DOUBLE, balance DOUBLE, k_symbol VARCHAR, bank VARCHAR, account INTEGER)");

    /** Creates all eight empty tables. */
    public static void create(Connection db) throws Exception {
        for (String ddl : DDL) {
            try (Statement st = db.createStatement()) {
                st.execute(ddl);
            }
        }
    }
}
