package dev.sift.data.source;

import dev.sift.data.source.BankModel.Account;
import dev.sift.data.source.BankModel.Order;

import java.util.SplittableRandom;

import static dev.sift.data.source.BankModel.LAST_DAY;
import static dev.sift.data.source.BankModel.MONTHS;
import static dev.sift.data.source.BankModel.MONTH_START;

/**
 * Turns one planned account into its transactions, month by month from the opening day to 1998-12-31:
 * income (cash deposits, salary transfers, pensions), standing orders, cash and card withdrawals, and at
 * month end penalty interest, fees and interest. Amounts are kept in cents so the running balance is exact.
 */
final class BankLedger {
    // kinds, in the order they are booked on the same day (money in first)
    static final int VKLAD = 0;
    static final int SALARY = 1;
    static final int PENSION = 2;
    static final int ORDER = 3;
    static final int TRANSFER_OUT = 4;
    static final int CASH = 5;
    static final int CASH_BIG = 6;
    static final int CARD = 7;
    static final int PENALTY = 8;
    static final int FEE = 9;
    static final int INTEREST = 10;

    static final String[] TYPE = {"PRIJEM", "PRIJEM", "PRIJEM", "VYDAJ", "VYDAJ", "VYDAJ", "VYBER", "VYDAJ",
            "VYDAJ", "VYDAJ", "PRIJEM"};
    static final String[] OPERATION = {"VKLAD", "PREVOD Z UCTU", "PREVOD Z UCTU", "PREVOD NA UCET",
            "PREVOD NA UCET", "VYBER", "VYBER", "VYBER KARTOU", "VYBER", "VYBER", null};
    private static final boolean[] CREDIT = {true, true, true, false, false, false, false, false, false, false, true};
    private static final double[] WITHDRAWALS_PER_MONTH = {0.12, 0.42, 0.30, 0.11, 0.05};
    private static final double MONTHLY_RATE = 0.003;
    /** Cents kept back from cash withdrawals for the month-end fee. */
    private static final long RESERVE = 200_00;
    /** The most strained borrower's chance of a hard month, the strain at half that, and how steeply it rises. */
    static final double HARD_MONTHS = 0.2;
    static final double HARD_MONTH_FROM = 0.8;
    static final double HARD_MONTH_STRAIN = 3.0;
    static final double SMALL_WITHDRAWALS = 0.9;
    /** How much of its income a household under strain stops saving, per unit of strain. */
    static final double STRAIN_SPENDING = 0.03;

    /** Receives booked transactions in account and date order. {@code account} 0 means none. */
    interface Sink {
        void booked(int accountId, int day, int kind, long cents, long balanceCents, String symbol, String bank,
                    int account) throws Exception;
    }

    // this month's events (before month end), booked after sorting by day and kind
    private int n;
    private int[] day = new int[32];
    private int[] kind = new int[32];
    private long[] cents = new long[32];
    private String[] symbol = new String[32];
    private String[] bank = new String[32];
    private int[] account = new int[32];

    private long balance;

    /**
     * Books every transaction of {@code a}. {@code rng} draws what every account does; {@code strainRng} draws only
     * what a borrowing household's strain adds (thin months), so the other accounts' rows do not depend on it.
     */
    void simulate(Account a, SplittableRandom rng, SplittableRandom strainRng, Sink sink) throws Exception {
        balance = 0;
        book(sink, a, a.open, VKLAD, a.firstDeposit, null, null, 0);
        for (int m = BankModel.monthOf(a.open); m < MONTHS; m++) {
            month(a, m, rng, strainRng, sink);
        }
    }

    /** One month: income, payments, cash for living, booked in day order, then the month-end charges. */
    private void month(Account a, int m, SplittableRandom rng, SplittableRandom strainRng, Sink sink) throws Exception {
        int start = MONTH_START[m];
        int end = MONTH_START[m + 1] - 1;
        n = 0;
        boolean shortfall = m >= a.shortFrom && m <= a.shortTo;
        double f = shortfall ? a.shortFactor : 1;
        // a hard month: part of the income may not come in, savings are spent and nothing is kept back for payments
        boolean hard = a.loan != null && strainRng.nextDouble() < hardMonthChance(a);
        boolean thin = hard && strainRng.nextBoolean();
        if (thin) {
            f *= 0.3 + 0.4 * strainRng.nextDouble();
        }
        double living = income(a, m, start, end, f, rng); // what the household would normally spend from this account
        if (a.bigDepositDay >= start && a.bigDepositDay <= end && a.bigDepositDay <= LAST_DAY) {
            add(a.bigDepositDay, VKLAD, a.bigDeposit, null, null, 0);
        }
        long committed = payments(a, m, start, end, living, rng);
        // cash for living: what is left of the usual spending after the fixed payments
        // a bad loan's household starts living beyond its means once the loan is paid out
        double save = m >= a.drainFrom ? -0.05 : a.save - STRAIN_SPENDING * a.strain;
        double budget = living * (1 - save) * (shortfall ? 0.7 : 1) - committed / 100.0;
        if (hard) {
            budget += Math.max(0, balance / 100.0);
        }
        withdrawals(budget, start, end, rng, a.loan == null ? 0 : extraWithdrawals(a, strainRng), strainRng);
        long nextMonth = 0;
        for (Order o : a.orders) {
            if (m + 1 >= o.fromMonth && m + 1 <= o.toMonth) {
                nextMonth += o.cents;
            }
        }
        int booked = flush(sink, a, shortfall || thin || a.careless, nextMonth + RESERVE);
        monthEnd(sink, a, end, booked);
    }

    /** How often a borrowing household has a hard month: almost never when steady, often under strain. */
    static double hardMonthChance(Account a) {
        return HARD_MONTHS * BankModel.sigmoid(HARD_MONTH_STRAIN * (a.strain - HARD_MONTH_FROM));
    }

    /** How many more small cash withdrawals than usual a borrowing household makes this month (0 to 3). */
    static int extraWithdrawals(Account a, SplittableRandom strainRng) {
        double p = SMALL_WITHDRAWALS * BankModel.sigmoid(2 * (a.strain - 1));
        int k = 0;
        for (int i = 0; i < 3; i++) {
            k += strainRng.nextDouble() < p ? 1 : 0;
        }
        return k;
    }

    /** Books the month's income (scaled by {@code f} in a spell or a thin month); returns the usual spending. */
    private double income(Account a, int m, int start, int end, double f, SplittableRandom rng) {
        double growth = 1 + 0.04 * m / 12.0;
        if (start >= a.pensionStart) {
            double pension = a.pension * growth;
            add(at(start, end, a.payDay), PENSION, whole(pension * f), "DUCHOD", a.payBank, a.payAccount);
            if (rng.nextDouble() < 0.25) {
                add(start + rng.nextInt(end - start + 1), VKLAD, whole(pension * 0.3 * rng.nextDouble()), null, null, 0);
            }
            return pension;
        }
        if (a.junior && BankModel.age(a.owner.birth, start) < 18) {
            if (rng.nextDouble() < 0.9) {
                add(start + rng.nextInt(end - start + 1), VKLAD, whole(a.income * (0.6 + 0.8 * rng.nextDouble())),
                        null, null, 0);
            }
            return a.income;
        }
        if (a.salaryByTransfer) {
            add(at(start, end, a.payDay), SALARY, whole(a.income * growth * f * (0.97 + 0.06 * rng.nextDouble())),
                    null, a.payBank, a.payAccount);
            if (rng.nextDouble() < 0.1) {
                add(start + rng.nextInt(end - start + 1), VKLAD, whole(500 + 4_500 * rng.nextDouble()), null, null, 0);
            }
            return a.income * growth;
        }
        double total = a.income * growth * f * (0.85 + 0.3 * rng.nextDouble());
        if (rng.nextDouble() < 0.8) {
            add(at(start, end, a.payDay + rng.nextInt(-2, 3)), VKLAD, whole(total), null, null, 0);
        } else {
            double part = 0.3 + 0.4 * rng.nextDouble();
            add(at(start, end, a.payDay), VKLAD, whole(total * part), null, null, 0);
            add(start + rng.nextInt(end - start + 1), VKLAD, whole(total * (1 - part)), null, null, 0);
        }
        return a.income * growth;
    }

    /** The month's standing orders, an occasional one-off transfer and card payments; returns their total in cents. */
    private long payments(Account a, int m, int start, int end, double living, SplittableRandom rng) {
        long committed = 0;
        for (Order o : a.orders) {
            if (m >= o.fromMonth && m <= o.toMonth) {
                add(at(start, end, o.dayOfMonth), ORDER, o.cents, o.symbol, o.bankTo, o.accountTo);
                committed += o.cents;
            }
        }
        if (rng.nextDouble() < 0.08) {
            long c = whole(200 + 0.3 * living * rng.nextDouble());
            add(start + rng.nextInt(end - start + 1), TRANSFER_OUT, c, null,
                    BankModel.BANKS[rng.nextInt(BankModel.BANKS.length)], 10_000_000 + rng.nextInt(90_000_000));
            committed += c;
        }
        if (a.cardIssued <= end) {
            double u = rng.nextDouble();
            int k = (u < 0.3 ? 1 : 0) + (u < 0.06 ? 1 : 0);
            int from = Math.max(start, a.cardIssued);
            for (int i = 0; i < k; i++) {
                long c = 100_00L * (1 + rng.nextInt(40));
                add(from + rng.nextInt(end - from + 1), CARD, c, null, null, 0);
                committed += c;
            }
        }
        return committed;
    }

    /**
     * Cash withdrawals for living: {@code budget} crowns in up to four parts on random days (drawn from {@code rng}),
     * and in {@code extra} more small ones (drawn from {@code strainRng}) for a household under strain.
     */
    private void withdrawals(double budget, int start, int end, SplittableRandom rng, int extra,
                             SplittableRandom strainRng) {
        int w = BankModel.pick(rng, WITHDRAWALS_PER_MONTH);
        if (budget <= 100 || w + extra == 0) {
            return;
        }
        double[] parts = new double[w + extra];
        double sum = 0;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = i < w ? 0.3 + rng.nextDouble() : 0.2 + 0.3 * strainRng.nextDouble();
            sum += parts[i];
        }
        for (int i = 0; i < parts.length; i++) {
            SplittableRandom r = i < w ? rng : strainRng;
            long c = Math.max(100_00L, Math.round(budget * parts[i] / sum / 100) * 100_00L);
            add(start + r.nextInt(end - start + 1), r.nextDouble() < 0.04 ? CASH_BIG : CASH, c, null, null, 0);
        }
    }

    /** Month end: penalty interest on an overdraft, the statement fee, interest on a positive balance. */
    private void monthEnd(Sink sink, Account a, int end, int booked) throws Exception {
        if (balance < 0) {
            book(sink, a, end, PENALTY, Math.max(10, Math.round(-balance * 0.004 / 10) * 10), "SANKC. UROK", null, 0);
        }
        if (a.charged) {
            long fee = switch (a.frequency) {
                case 0 -> 14_60;
                case 1 -> 30_00;
                default -> Math.min(100_00, 150L * Math.max(1, booked));
            };
            book(sink, a, end, FEE, fee, "SLUZBY", null, 0);
        }
        if (balance > 0) {
            long interest = Math.round(balance * MONTHLY_RATE / 10) * 10;
            if (interest > 0) {
                book(sink, a, end, INTEREST, interest, "UROK", null, 0);
            }
        }
    }

    private static int at(int start, int end, int dayOfMonth) {
        return Math.min(end, Math.max(start, start + dayOfMonth - 1));
    }

    /** Whole crowns, at least one, in cents. */
    private static long whole(double crowns) {
        return Math.max(1, Math.round(crowns)) * 100;
    }

    private void add(int d, int k, long c, String s, String b, int acc) {
        if (n == day.length) {
            int size = n * 2;
            day = java.util.Arrays.copyOf(day, size);
            kind = java.util.Arrays.copyOf(kind, size);
            cents = java.util.Arrays.copyOf(cents, size);
            symbol = java.util.Arrays.copyOf(symbol, size);
            bank = java.util.Arrays.copyOf(bank, size);
            account = java.util.Arrays.copyOf(account, size);
        }
        day[n] = d;
        kind[n] = k;
        cents[n] = c;
        symbol[n] = s;
        bank[n] = b;
        account[n] = acc;
        n++;
    }

    /** Books this month's events in day order; returns how many were booked. */
    private int flush(Sink sink, Account a, boolean noReserve, long reserve) throws Exception {
        // insertion sort: a handful of events, stable by (day, kind, insertion)
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            int j = i;
            while (j > 0 && (day[idx[j - 1]] > day[i] || day[idx[j - 1]] == day[i] && kind[idx[j - 1]] > kind[i])) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = i;
        }
        // people keep enough for this month's remaining payments, next month's (which may fall due before the
        // next income) and the fees; in a spell of lost income they cannot, which is how bad loans overdraw
        long pending = 0;
        for (int i = 0; i < n; i++) {
            if (kind[i] == ORDER) {
                pending += cents[i];
            }
        }
        int booked = 0;
        for (int t = 0; t < n; t++) {
            int i = idx[t];
            if (day[i] <= a.open || day[i] > LAST_DAY) {
                continue; // before the account existed (only in the opening month)
            }
            long c = cents[i];
            int k = kind[i];
            if (k == ORDER) {
                pending -= c; // standing orders run regardless and may overdraw
            } else if (k == TRANSFER_OUT) {
                if (c > balance - pending - reserve) {
                    continue; // a one-off payment waits for money
                }
            } else if (k == CASH || k == CASH_BIG || k == CARD) {
                // cash needs money on the account
                long available = balance - (noReserve ? 0 : pending + reserve);
                if (c > available) {
                    c = available / 100_00 * 100_00;
                }
                if (c < 100_00) {
                    continue;
                }
            }
            book(sink, a, day[i], k, c, symbol[i], bank[i], account[i]);
            booked++;
        }
        return booked;
    }

    private void book(Sink sink, Account a, int d, int k, long c, String s, String b, int acc) throws Exception {
        balance += CREDIT[k] ? c : -c;
        sink.booked(a.id, d, k, c, balance, s, b, acc);
    }
}
