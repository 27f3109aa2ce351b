package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BankGeneratorTest {
    private static final List<String> BANKS =
            List.of("AB", "CD", "EF", "GH", "IJ", "KL", "MN", "OP", "QR", "ST", "UV", "WX", "YZ");

    @TempDir
    static Path dir;

    /** Scale 1.0, built through the dataset store like the real demo. */
    private static Connection full;
    private static Dataset fullDataset;
    private static final Map<String, List<long[]>> fullProgress = new ConcurrentHashMap<>();
    /** Scale 0.1, built directly. */
    private static Connection small;

    @BeforeAll
    static void build() throws Exception {
        fullDataset = new DatasetStore(dir.resolve("store")).ensure("bank", new BankGenerator(),
                (stage, done, total) -> fullProgress.computeIfAbsent(stage, s -> new ArrayList<>())
                        .add(new long[] {done, total}));
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        full = DriverManager.getConnection("jdbc:duckdb:" + fullDataset.file(), readOnly);
        small = buildInto(dir.resolve("small.duckdb"), 0.1, 42);
    }

    @AfterAll
    static void close() throws Exception {
        if (full != null) {
            full.close();
        }
        if (small != null) {
            small.close();
        }
    }

    private static Connection buildInto(Path file, double scale, long seed) throws Exception {
        Connection db = DriverManager.getConnection("jdbc:duckdb:" + file);
        new BankGenerator(scale, seed).build(db, Progress.NONE);
        return db;
    }

    @Test
    void rejects_scale_that_is_not_positive() {
        assertThatThrownBy(() -> new BankGenerator(0, 42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("scale must be > 0, got 0.0");
        assertThatThrownBy(() -> new BankGenerator(-1.5, 42)).hasMessage("scale must be > 0, got -1.5");
        assertThatThrownBy(() -> new BankGenerator(Double.NaN, 42)).hasMessage("scale must be > 0, got NaN");
    }

    @Test
    void fingerprint_and_description_name_seed_and_scale() {
        BankGenerator g = new BankGenerator();
        assertThat(g.fingerprint()).isEqualTo("bank-generator-v2;seed=42;scale=1.0");
        assertThat(g.describe())
                .isEqualTo("synthetic demo bank (PKDD'99 schema; seed 42, scale 1.0) — generated, not real customers");
        assertThat(new BankGenerator(0.05, 7).fingerprint()).isEqualTo("bank-generator-v2;seed=7;scale=0.05");
    }

    @Test
    void tables_have_exactly_the_pkdd_columns_and_types() throws Exception {
        try (Connection empty = DriverManager.getConnection("jdbc:duckdb:")) {
            PkddSchema.create(empty);
            String q = "SELECT table_name, column_name, data_type FROM information_schema.columns "
                    + "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position";
            List<String> expected = strings(empty, q);
            assertThat(strings(small, q)).isEqualTo(expected);
            assertThat(strings(full, q)).isEqualTo(expected);
        }
        assertThat(strings(small, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                + "ORDER BY 1")).containsExactlyInAnyOrderElementsOf(PkddSchema.TABLES);
    }

    @Test
    void every_foreign_key_resolves_and_ids_are_unique_and_positive() throws Exception {
        for (Connection db : List.of(small, full)) {
            Map<String, String> orphans = new LinkedHashMap<>();
            orphans.put("account.district_id", "SELECT count(*) FROM account a ANTI JOIN district d ON d.A1 = a.district_id");
            orphans.put("client.district_id", "SELECT count(*) FROM client c ANTI JOIN district d ON d.A1 = c.district_id");
            orphans.put("disp.client_id", "SELECT count(*) FROM disp x ANTI JOIN client c USING (client_id)");
            orphans.put("disp.account_id", "SELECT count(*) FROM disp x ANTI JOIN account a USING (account_id)");
            orphans.put("card.disp_id", "SELECT count(*) FROM card c ANTI JOIN disp d USING (disp_id)");
            orphans.put("loan.account_id", "SELECT count(*) FROM loan l ANTI JOIN account a USING (account_id)");
            orphans.put("order.account_id", "SELECT count(*) FROM \"order\" o ANTI JOIN account a USING (account_id)");
            orphans.put("trans.account_id", "SELECT count(*) FROM trans t ANTI JOIN account a USING (account_id)");
            orphans.put("nulls", "SELECT (SELECT count(*) FROM account WHERE district_id IS NULL OR date IS NULL)"
                    + " + (SELECT count(*) FROM client WHERE district_id IS NULL)"
                    + " + (SELECT count(*) FROM disp WHERE client_id IS NULL OR account_id IS NULL)"
                    + " + (SELECT count(*) FROM card WHERE disp_id IS NULL)"
                    + " + (SELECT count(*) FROM loan WHERE account_id IS NULL)"
                    + " + (SELECT count(*) FROM \"order\" WHERE account_id IS NULL)"
                    + " + (SELECT count(*) FROM trans WHERE account_id IS NULL)");
            for (Map.Entry<String, String> e : orphans.entrySet()) {
                assertThat(count(db, e.getValue())).as(e.getKey()).isZero();
            }
            String[][] ids = {{"district", "A1"}, {"account", "account_id"}, {"client", "client_id"},
                    {"disp", "disp_id"}, {"card", "card_id"}, {"loan", "loan_id"}, {"\"order\"", "order_id"},
                    {"trans", "trans_id"}};
            for (String[] t : ids) {
                assertThat(count(db, "SELECT count(*) - count(DISTINCT " + t[1] + ") + count(*) FILTER (WHERE "
                        + t[1] + " IS NULL OR " + t[1] + " <= 0) FROM " + t[0])).as(t[0] + " ids").isZero();
                assertThat(count(db, "SELECT count(*) FROM " + t[0])).as(t[0] + " rows").isPositive();
            }
        }
    }

    @Test
    void code_columns_use_exactly_the_original_codes() throws Exception {
        // at full scale every code occurs; at small scale the rare ones may not, but nothing else may appear
        assertCodes(full, true);
        assertCodes(small, false);
    }

    private static void assertCodes(Connection db, boolean all) throws Exception {
        Map<String, Set<String>> codes = new LinkedHashMap<>();
        codes.put("SELECT DISTINCT frequency FROM account", set("POPLATEK MESICNE", "POPLATEK TYDNE", "POPLATEK PO OBRATU"));
        codes.put("SELECT DISTINCT type FROM disp", set("OWNER", "DISPONENT"));
        codes.put("SELECT DISTINCT type FROM card", set("junior", "classic", "gold"));
        codes.put("SELECT DISTINCT status FROM loan", set("A", "B", "C", "D"));
        codes.put("SELECT DISTINCT duration::VARCHAR FROM loan", set("12", "24", "36", "48", "60"));
        codes.put("SELECT DISTINCT gender FROM client", set("F", "M"));
        codes.put("SELECT DISTINCT k_symbol FROM \"order\"", set("SIPO", "UVER", "POJISTNE", "LEASING", null));
        codes.put("SELECT DISTINCT bank_to FROM \"order\"", new HashSet<>(BANKS));
        codes.put("SELECT DISTINCT type FROM trans", set("PRIJEM", "VYDAJ", "VYBER"));
        codes.put("SELECT DISTINCT operation FROM trans",
                set("VKLAD", "PREVOD Z UCTU", "VYBER", "PREVOD NA UCET", "VYBER KARTOU", null));
        codes.put("SELECT DISTINCT k_symbol FROM trans",
                set("UROK", "SLUZBY", "SIPO", "DUCHOD", "UVER", "POJISTNE", "SANKC. UROK", "LEASING", null));
        Set<String> banks = new HashSet<>(BANKS);
        banks.add(null);
        codes.put("SELECT DISTINCT bank FROM trans", banks);
        codes.put("SELECT DISTINCT A3 FROM district", set("Prague", "central Bohemia", "south Bohemia", "west Bohemia",
                "north Bohemia", "east Bohemia", "south Moravia", "north Moravia"));
        for (Map.Entry<String, Set<String>> e : codes.entrySet()) {
            Set<String> actual = new HashSet<>(strings(db, e.getKey()));
            if (all) {
                assertThat(actual).as(e.getKey()).isEqualTo(e.getValue());
            } else {
                assertThat(e.getValue()).as(e.getKey()).containsAll(actual);
            }
        }
        assertThat(count(db, "SELECT count(*) FROM \"order\" WHERE NOT regexp_full_match(account_to, '[1-9][0-9]{7}')"))
                .isZero();
        // transfers name the other bank and account; nothing else does
        assertThat(count(db, "SELECT count(*) FROM trans WHERE (coalesce(operation, '') IN ('PREVOD Z UCTU', 'PREVOD NA UCET')) "
                + "<> (bank IS NOT NULL AND account BETWEEN 10000000 AND 99999999)")).isZero();
        assertThat(count(db, "SELECT count(*) FROM trans WHERE (type = 'PRIJEM') "
                + "<> (coalesce(operation, '') IN ('VKLAD', 'PREVOD Z UCTU') OR coalesce(k_symbol, '') = 'UROK')")).isZero();
    }

    @Test
    void people_and_accounts_hang_together_like_the_original() throws Exception {
        for (Connection db : List.of(small, full)) {
            assertThat(count(db, "SELECT count(*) FROM account a WHERE (SELECT count(*) FROM disp d "
                    + "WHERE d.account_id = a.account_id AND d.type = 'OWNER') <> 1")).as("one owner").isZero();
            assertThat(count(db, "SELECT count(*) FROM account a WHERE (SELECT count(*) FROM disp d "
                    + "WHERE d.account_id = a.account_id) > 2")).isZero();
            assertThat(count(db, "SELECT count(*) FROM client c WHERE (SELECT count(*) FROM disp d "
                    + "WHERE d.client_id = c.client_id) <> 1")).as("one disp per client").isZero();
            assertThat(count(db, "SELECT count(*) FROM card c JOIN disp d USING (disp_id) JOIN account a USING (account_id)"
                    + " WHERE d.type <> 'OWNER' OR c.issued <= a.date OR c.issued > DATE '1998-12-31'")).isZero();
            assertThat(count(db, "SELECT count(*) - count(DISTINCT account_id) FROM loan")).as("one loan max").isZero();
            assertThat(count(db, "SELECT count(*) FROM account WHERE date NOT BETWEEN DATE '1993-01-01' AND DATE '1997-12-31'"))
                    .isZero();
            // birth_number YYMMDD with month + 50 for women, matching gender and birth_date
            assertThat(count(db, "SELECT count(*) FROM client WHERE NOT regexp_full_match(birth_number, '[0-9]{6}') "
                    + "OR (substr(birth_number, 3, 2)::INT > 50) <> (gender = 'F') "
                    + "OR birth_date <> make_date(1900 + substr(birth_number, 1, 2)::INT, "
                    + "substr(birth_number, 3, 2)::INT % 50, substr(birth_number, 5, 2)::INT)")).isZero();
            assertThat(count(db, "SELECT count(*) FROM district")).isEqualTo(77);
            assertThat(count(db, "SELECT count(*) FROM district WHERE A12 IS NULL")).isEqualTo(1);
            assertThat(count(db, "SELECT count(*) FROM district WHERE A15 IS NULL AND A12 IS NULL")).isEqualTo(1);
            assertThat(strings(db, "SELECT A2 || '/' || A3 FROM district WHERE A1 IN (1, 2) ORDER BY A1"))
                    .containsExactly("Hl.m. Praha/Prague", "Benesov/central Bohemia");
            assertThat(count(db, "SELECT min(A1) * 1000 + max(A1) FROM district")).isEqualTo(1_077);
        }
        double share = dbl(full, "SELECT avg((frequency = 'POPLATEK MESICNE')::INT) FROM account");
        assertThat(share).isBetween(0.85, 0.95);
        double disponents = dbl(full, "SELECT avg((type = 'DISPONENT')::INT) FROM disp");
        assertThat(disponents).isBetween(0.13, 0.20); // ~20% of accounts, so ~16% of disps
    }

    @Test
    void balances_run_consistently_from_the_opening_day() throws Exception {
        // every account (scale 0.1), in date order: balance = previous balance +/- amount
        assertThat(count(small, "SELECT count(*) FROM (SELECT balance, sum(CASE WHEN type = 'PRIJEM' THEN amount "
                + "ELSE -amount END) OVER (PARTITION BY account_id ORDER BY date, trans_id) AS running FROM trans) "
                + "WHERE abs(running - balance) > 0.005")).isZero();
        assertThat(count(small, "SELECT count(*) FROM trans t JOIN account a USING (account_id) "
                + "WHERE t.date < a.date OR t.date > DATE '1998-12-31' OR t.amount <= 0")).isZero();
        assertThat(count(small, "SELECT count(*) FROM account a WHERE (SELECT min(date) FROM trans t "
                + "WHERE t.account_id = a.account_id) IS DISTINCT FROM a.date")).as("first trans on opening day").isZero();
        // trans ids follow the date order within an account
        assertThat(count(small, "SELECT count(*) FROM (SELECT date, lag(date) OVER (PARTITION BY account_id "
                + "ORDER BY trans_id) AS prev FROM trans) WHERE date < prev")).isZero();
        // interest and fees at month end
        assertThat(count(small, "SELECT count(*) FROM trans WHERE k_symbol IN ('UROK', 'SLUZBY') "
                + "AND date <> last_day(date)")).isZero();
        assertThat(count(small, "SELECT count(*) FROM trans WHERE k_symbol = 'UROK'")).isPositive();
        assertThat(count(small, "SELECT count(*) FROM trans WHERE k_symbol = 'SLUZBY'")).isPositive();
    }

    @Test
    void loans_are_paid_by_monthly_instalments() throws Exception {
        for (Connection db : List.of(small, full)) {
            assertThat(count(db, "SELECT count(*) FROM loan WHERE payments <> round(amount / duration, 2) "
                    + "OR amount <= 0")).isZero();
            assertThat(count(db, "SELECT count(*) FROM loan l JOIN account a USING (account_id) "
                    + "WHERE l.date <= a.date OR l.date > DATE '1998-12-31'")).isZero();
            // finished loans (A, B) had their last instalment by the end of 1998; running ones (C, D) not
            assertThat(count(db, "SELECT count(*) FROM loan WHERE (status IN ('A', 'B')) "
                    + "<> (date_trunc('month', date) + to_months(duration) <= DATE '1998-12-01')")).isZero();
            // each instalment month shows a UVER payment of exactly `payments`
            assertThat(count(db, "SELECT count(*) FROM loan l WHERE (SELECT count(*) FROM trans t WHERE "
                    + "t.account_id = l.account_id AND t.k_symbol = 'UVER' AND t.amount = l.payments AND t.date > l.date) "
                    + "<> least(l.duration, datediff('month', l.date, DATE '1998-12-31'))")).isZero();
            assertThat(count(db, "SELECT count(*) FROM loan l ANTI JOIN \"order\" o ON o.account_id = l.account_id "
                    + "AND o.k_symbol = 'UVER' AND o.amount = l.payments")).isZero();
        }
    }

    @Test
    void full_scale_has_the_originals_size_and_shares() throws Exception {
        assertThat(fullDataset.rows("district")).isEqualTo(77);
        assertThat(fullDataset.rows("account")).isEqualTo(4_500);
        assertThat(fullDataset.rows("client")).isBetween(5_100L, 5_600L);
        assertThat(fullDataset.rows("trans")).isBetween(900_000L, 1_200_000L);
        assertThat(fullDataset.rows("loan")).isBetween(600L, 760L);
        assertThat(fullDataset.rows("card")).isBetween(750L, 1_050L);
        assertThat(fullDataset.rows("order")).isBetween(5_800L, 7_300L);

        Map<String, Double> status = shares(full, "SELECT status, count(*) FROM loan GROUP BY 1");
        assertThat(status.get("A")).isBetween(0.22, 0.38); // original 203/682 = 0.30
        assertThat(status.get("B")).isBetween(0.02, 0.08); // 31/682 = 0.045
        assertThat(status.get("C")).isBetween(0.50, 0.68); // 403/682 = 0.59
        assertThat(status.get("D")).isBetween(0.03, 0.10); // 45/682 = 0.066
        Map<String, Double> cards = shares(full, "SELECT type, count(*) FROM card GROUP BY 1");
        assertThat(cards.get("classic")).isBetween(0.62, 0.82); // 659/892 = 0.74
        assertThat(cards.get("junior")).isBetween(0.10, 0.24); // 145/892 = 0.16
        assertThat(cards.get("gold")).isBetween(0.05, 0.16); // 88/892 = 0.10
        // finished loans are the older ones
        assertThat(dbl(full, "SELECT avg(year(date)) FILTER (WHERE status IN ('A', 'B')) "
                + "- avg(year(date)) FILTER (WHERE status IN ('C', 'D')) FROM loan")).isLessThan(-0.5);
    }

    @Test
    void defaults_carry_signal() throws Exception {
        // poorer districts default more often
        List<String> halves = strings(full, "WITH x AS (SELECT l.status, ntile(2) OVER (ORDER BY d.A11) AS half "
                + "FROM loan l JOIN account a USING (account_id) JOIN district d ON d.A1 = a.district_id) "
                + "SELECT avg((status IN ('B', 'D'))::INT)::VARCHAR FROM x GROUP BY half ORDER BY half");
        double poorer = Double.parseDouble(halves.get(0));
        double richer = Double.parseDouble(halves.get(1));
        assertThat(poorer).isGreaterThan(richer * 1.5);
        // bad loans show in the balances: far more often overdrawn
        List<String> overdrawn = strings(full, "WITH low AS (SELECT account_id, min(balance) AS low FROM trans GROUP BY 1) "
                + "SELECT avg((low < 0)::INT)::VARCHAR FROM loan JOIN low USING (account_id) "
                + "GROUP BY status IN ('B', 'D') ORDER BY status IN ('B', 'D')");
        assertThat(Double.parseDouble(overdrawn.get(1))).isGreaterThan(3 * Double.parseDouble(overdrawn.get(0)));
        // and before the loan too, in the months a model may read: a lower minimum balance, overdrawn more often
        List<String> before = strings(full, "WITH pre AS (SELECT l.status, (SELECT min(t.balance) FROM trans t WHERE"
                + " t.account_id = l.account_id AND t.date < l.date AND t.date >= l.date - INTERVAL 6 MONTH) AS low FROM"
                + " loan l) SELECT median(low) || '|' || avg((low < 0)::INT) FROM pre GROUP BY status IN ('B', 'D')"
                + " ORDER BY status IN ('B', 'D')");
        String[] good = before.get(0).split("\\|");
        String[] bad = before.get(1).split("\\|");
        assertThat(Double.parseDouble(bad[0])).isLessThan(0.25 * Double.parseDouble(good[0]));
        assertThat(Double.parseDouble(bad[1])).isGreaterThan(2 * Double.parseDouble(good[1]));
        double badRate = dbl(full, "SELECT avg((status IN ('B', 'D'))::INT) FROM loan");
        assertThat(badRate).isBetween(0.06, 0.16); // original 76/682 = 0.11
    }

    @Test
    void same_seed_same_rows_other_seed_other_rows_and_rows_scale_with_scale() throws Exception {
        try (Connection a = buildInto(dir.resolve("a.duckdb"), 0.05, 42);
             Connection b = buildInto(dir.resolve("b.duckdb"), 0.05, 42);
             Connection c = buildInto(dir.resolve("c.duckdb"), 0.05, 7)) {
            Map<String, String> ha = hashes(a);
            assertThat(hashes(b)).isEqualTo(ha);
            Map<String, String> hc = hashes(c);
            for (String t : List.of("account", "client", "trans", "loan", "order")) {
                assertThat(hc.get(t)).as(t).isNotEqualTo(ha.get(t));
            }
            double ratio = (double) count(small, "SELECT count(*) FROM trans") / count(a, "SELECT count(*) FROM trans");
            assertThat(ratio).isBetween(1.6, 2.4);
            assertThat(count(a, "SELECT count(*) FROM account")).isEqualTo(225);
            assertThat(count(small, "SELECT count(*) FROM account")).isEqualTo(450);
            assertThat(count(a, "SELECT count(*) FROM district")).isEqualTo(77);
        }
    }

    @Test
    void reports_progress_per_table_and_while_writing_transactions() {
        assertThat(fullProgress.keySet()).containsExactlyInAnyOrderElementsOf(PkddSchema.TABLES);
        for (String table : PkddSchema.TABLES) {
            List<long[]> reports = fullProgress.get(table);
            long[] last = reports.get(reports.size() - 1);
            assertThat(last[0]).as(table).isEqualTo(last[1]).isEqualTo(fullDataset.rows(table));
        }
        List<long[]> trans = fullProgress.get("trans");
        assertThat(trans.size()).isGreaterThan(15); // every 50k rows
        for (int i = 1; i < trans.size(); i++) {
            assertThat(trans.get(i)[0]).isGreaterThanOrEqualTo(trans.get(i - 1)[0]);
        }
    }

    private static Map<String, String> hashes(Connection db) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        String[][] tables = {{"district", "A1"}, {"account", "account_id"}, {"client", "client_id"},
                {"disp", "disp_id"}, {"card", "card_id"}, {"loan", "loan_id"}, {"order", "order_id"},
                {"trans", "trans_id"}};
        for (String[] t : tables) {
            out.put(t[0], strings(db, "SELECT md5(string_agg(x::VARCHAR, chr(10) ORDER BY " + t[1] + ")) FROM \""
                    + t[0] + "\" x").get(0));
        }
        return out;
    }

    private static Map<String, Double> shares(Connection db, String sql) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        long total = 0;
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1), (double) rs.getLong(2));
                total += rs.getLong(2);
            }
        }
        long t = total;
        out.replaceAll((k, v) -> v / t);
        return out;
    }

    private static Set<String> set(String... values) {
        return new HashSet<>(Arrays.asList(values));
    }

    private static List<String> strings(Connection db, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    if (i > 1) {
                        row.append('|');
                    }
                    row.append(rs.getString(i));
                }
                out.add(n == 1 ? rs.getString(1) : row.toString());
            }
        }
        return out;
    }

    private static long count(Connection db, String sql) throws Exception {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static double dbl(Connection db, String sql) throws Exception {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getDouble(1);
        }
    }
}
