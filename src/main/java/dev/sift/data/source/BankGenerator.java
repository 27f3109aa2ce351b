package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.Progress;
import dev.sift.data.source.BankModel.Account;
import dev.sift.data.source.BankModel.Client;
import dev.sift.data.source.BankModel.Loan;
import dev.sift.data.source.BankModel.Order;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.util.SplittableRandom;

/**
 * Sift's bundled demo dataset {@code bank}: a synthetic Czech bank in the exact PKDD'99 Financial layout
 * ({@link PkddSchema}), with the original's codes, relationships and rough proportions. Deterministic: the
 * same seed and scale give the same rows. Scale 1.0 is about 4,500 accounts and a million transactions.
 * Loan defaults depend on district salary, instalment burden, loan size, saving habit and unemployment, and on a
 * household's strain, which its account shows before the loan (hard months, spent savings, small cash withdrawals);
 * bad loans leave plain traces in the balances afterwards. So a model reading only the months before a loan finds
 * real (if made-up) signal, and one reading all of them finds hindsight. The story is told in docs/ml.md.
 */
public final class BankGenerator implements DatasetBuilder {
    public static final long DEFAULT_SEED = 42;
    public static final double DEFAULT_SCALE = 1.0;
    /** Bump when the generated rows change, so built datasets are rebuilt. */
    static final String VERSION = "bank-generator-v2";
    /** Trans ids stay INTEGER: about 1.3 million ids per unit of scale. */
    static final double MAX_SCALE = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(BankGenerator.class);
    private static final long TRANS_PROGRESS_EVERY = 50_000;

    private final double scale;
    private final long seed;

    /** The default demo bank: scale 1.0, seed 42. */
    public BankGenerator() {
        this(DEFAULT_SCALE, DEFAULT_SEED);
    }

    public BankGenerator(double scale, long seed) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("scale must be > 0, got " + scale);
        }
        if (scale > MAX_SCALE) {
            throw new IllegalArgumentException("scale must be <= " + MAX_SCALE + ", got " + scale);
        }
        this.scale = scale;
        this.seed = seed;
    }

    public double scale() {
        return scale;
    }

    public long seed() {
        return seed;
    }

    @Override
    public String fingerprint() {
        return VERSION + ";seed=" + seed + ";scale=" + scale;
    }

    @Override
    public String describe() {
        return "synthetic demo bank (PKDD'99 schema; seed " + seed + ", scale " + scale
                + ") — generated, not real customers";
    }

    @Override
    public void build(Connection db, Progress progress) throws Exception {
        long t0 = System.nanoTime();
        DuckDBConnection duck = db.unwrap(DuckDBConnection.class);
        PkddSchema.create(db);
        BankModel model = BankModel.plan(scale, seed);
        writeDistricts(duck, model.districts, progress);
        writeAccounts(duck, model, progress);
        writeClients(duck, model, progress);
        writeDisps(duck, model, progress);
        writeCards(duck, model, progress);
        writeLoans(duck, model, progress);
        writeOrders(duck, model, progress);
        long trans = writeTrans(duck, model, progress);
        LOG.debug("Built synthetic bank (seed {}, scale {}): {} accounts, {} loans, {} transactions in {} ms",
                seed, scale, model.accounts.size(), model.loans.size(), trans, (System.nanoTime() - t0) / 1_000_000);
    }

    private static DuckDBAppender appender(DuckDBConnection db, String table) throws Exception {
        return db.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table);
    }

    private static void writeDistricts(DuckDBConnection db, BankDistricts d, Progress progress) throws Exception {
        progress.report("district", 0, BankDistricts.COUNT);
        try (DuckDBAppender ap = appender(db, "district")) {
            for (int id = 1; id <= BankDistricts.COUNT; id++) {
                ap.beginRow().append(id).append(d.name[id]).append(d.region[id]).append(d.inhabitants[id]);
                for (int size = 0; size < 4; size++) {
                    ap.append(d.municipalities[id][size]);
                }
                ap.append(d.cities[id]).append(d.urbanRatio[id]).append(d.salary[id]);
                if (Double.isNaN(d.unemployment95[id])) {
                    ap.appendNull();
                } else {
                    ap.append(d.unemployment95[id]);
                }
                ap.append(d.unemployment96[id]).append(d.entrepreneurs[id]);
                if (d.crimes95[id] < 0) {
                    ap.appendNull();
                } else {
                    ap.append(d.crimes95[id]);
                }
                ap.append(d.crimes96[id]).endRow();
            }
        }
        progress.report("district", BankDistricts.COUNT, BankDistricts.COUNT);
    }

    private static void writeAccounts(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        int total = m.accounts.size();
        progress.report("account", 0, total);
        try (DuckDBAppender ap = appender(db, "account")) {
            for (Account a : m.accounts) {
                ap.beginRow().append(a.id).append(a.district).append(BankModel.FREQUENCIES[a.frequency])
                        .appendEpochDays(a.open).endRow();
            }
        }
        progress.report("account", total, total);
    }

    private static void writeClients(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        long total = m.accounts.stream().mapToLong(a -> a.disponent == null ? 1 : 2).sum();
        progress.report("client", 0, total);
        try (DuckDBAppender ap = appender(db, "client")) {
            for (Account a : m.accounts) {
                client(ap, a.owner);
                if (a.disponent != null) {
                    client(ap, a.disponent);
                }
            }
        }
        progress.report("client", total, total);
    }

    private static void client(DuckDBAppender ap, Client c) throws Exception {
        ap.beginRow().append(c.id).append(c.birthNumber()).append(c.district).append(c.female ? "F" : "M")
                .appendEpochDays(c.birth).endRow();
    }

    private static void writeDisps(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        long total = m.accounts.stream().mapToLong(a -> a.disponent == null ? 1 : 2).sum();
        progress.report("disp", 0, total);
        try (DuckDBAppender ap = appender(db, "disp")) {
            for (Account a : m.accounts) {
                ap.beginRow().append(a.ownerDispId).append(a.owner.id).append(a.id).append("OWNER").endRow();
                if (a.disponent != null) {
                    ap.beginRow().append(a.disponentDispId).append(a.disponent.id).append(a.id).append("DISPONENT")
                            .endRow();
                }
            }
        }
        progress.report("disp", total, total);
    }

    private static void writeCards(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        long total = m.accounts.stream().filter(a -> a.cardType != null).count();
        progress.report("card", 0, total);
        try (DuckDBAppender ap = appender(db, "card")) {
            for (Account a : m.accounts) {
                if (a.cardType != null) {
                    ap.beginRow().append(a.cardId).append(a.ownerDispId).append(a.cardType)
                            .appendEpochDays(a.cardIssued).endRow();
                }
            }
        }
        progress.report("card", total, total);
    }

    private static void writeLoans(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        int total = m.loans.size();
        progress.report("loan", 0, total);
        try (DuckDBAppender ap = appender(db, "loan")) {
            for (Loan l : m.loans) {
                ap.beginRow().append(l.id).append(l.account.id).appendEpochDays(l.date).append(l.amount)
                        .append(l.duration).append(l.payments).append(l.status).endRow();
            }
        }
        progress.report("loan", total, total);
    }

    private static void writeOrders(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        long total = m.accounts.stream().mapToLong(a -> a.orders.size()).sum();
        progress.report("order", 0, total);
        try (DuckDBAppender ap = appender(db, "order")) {
            for (Account a : m.accounts) {
                for (Order o : a.orders) {
                    ap.beginRow().append(o.id).append(a.id).append(o.bankTo).append(Integer.toString(o.accountTo))
                            .append(o.cents / 100.0);
                    if (o.symbol == null) {
                        ap.appendNull();
                    } else {
                        ap.append(o.symbol);
                    }
                    ap.endRow();
                }
            }
        }
        progress.report("order", total, total);
    }

    private long writeTrans(DuckDBConnection db, BankModel m, Progress progress) throws Exception {
        progress.report("trans", 0, -1);
        BankLedger ledger = new BankLedger();
        SplittableRandom idRng = new SplittableRandom(BankModel.mix(seed, 4));
        long[] rows = {0};
        int[] lastId = {0};
        try (DuckDBAppender ap = appender(db, "trans")) {
            BankLedger.Sink sink = (accountId, day, kind, cents, balance, symbol, bank, account) -> {
                // ids grow along each account's history, with small gaps, as in the original
                lastId[0] += idRng.nextDouble() < 0.2 ? 2 : 1;
                ap.beginRow().append(lastId[0]).append(accountId).appendEpochDays(day).append(BankLedger.TYPE[kind]);
                String op = BankLedger.OPERATION[kind];
                if (op == null) {
                    ap.appendNull();
                } else {
                    ap.append(op);
                }
                ap.append(cents / 100.0).append(balance / 100.0);
                if (symbol == null) {
                    ap.appendNull();
                } else {
                    ap.append(symbol);
                }
                if (bank == null) {
                    ap.appendNull().appendNull();
                } else {
                    ap.append(bank).append(account);
                }
                ap.endRow();
                if (++rows[0] % TRANS_PROGRESS_EVERY == 0) {
                    progress.report("trans", rows[0], -1);
                }
            };
            for (Account a : m.accounts) {
                ledger.simulate(a, new SplittableRandom(BankModel.mix(BankModel.mix(seed, 5), a.id)),
                        new SplittableRandom(BankModel.mix(BankModel.mix(seed, 7), a.id)), sink);
            }
        }
        progress.report("trans", rows[0], rows[0]);
        return rows[0];
    }
}
