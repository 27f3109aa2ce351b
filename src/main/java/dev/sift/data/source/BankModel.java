package dev.sift.data.source;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The planned bank before any transaction is simulated: accounts with their people, cards, loans and
 * standing orders, plus each account's hidden economics (income, saving habit, a spell of lost income
 * for loans that go bad) that the ledger turns into transactions. Everything is drawn from the seed.
 */
final class BankModel {
    static final int NONE = Integer.MAX_VALUE;
    static final int FIRST_DAY = (int) LocalDate.of(1993, 1, 1).toEpochDay();
    static final int LAST_OPEN = (int) LocalDate.of(1997, 12, 31).toEpochDay();
    static final int LAST_DAY = (int) LocalDate.of(1998, 12, 31).toEpochDay();
    /** Months 0..71 = 1993-01..1998-12; MONTH_START[72] = 1999-01-01. */
    static final int MONTHS = 72;
    static final int[] MONTH_START = new int[MONTHS + 1];

    static {
        for (int m = 0; m <= MONTHS; m++) {
            MONTH_START[m] = (int) LocalDate.of(1993, 1, 1).plusMonths(m).toEpochDay();
        }
    }

    static final String[] FREQUENCIES = {"POPLATEK MESICNE", "POPLATEK TYDNE", "POPLATEK PO OBRATU"};
    static final String[] BANKS = {"AB", "CD", "EF", "GH", "IJ", "KL", "MN", "OP", "QR", "ST", "UV", "WX", "YZ"};
    static final int[] DURATIONS = {12, 24, 36, 48, 60};
    // account opening years 1993..1997, shaped like the original (a first wave, a dip, a second wave)
    private static final double[] OPEN_YEAR_WEIGHTS = {1139, 439, 661, 1363, 898};
    // standing orders per account 0..5 and their purposes
    private static final double[] ORDERS_PER_ACCOUNT = {0.165, 0.467, 0.211, 0.092, 0.051, 0.014};
    private static final String[] ORDER_SYMBOLS = {"SIPO", null, "POJISTNE", "LEASING"};
    private static final double[] ORDER_SYMBOL_WEIGHTS = {0.609, 0.24, 0.092, 0.059};
    /** How much the log-odds of default rise per unit of a borrower's strain. */
    static final double STRAIN_LOG_ODDS = 3.0;

    static final class Client {
        int id;
        int birth; // epoch day
        boolean female;
        int district;

        String birthNumber() {
            LocalDate b = LocalDate.ofEpochDay(birth);
            int month = b.getMonthValue() + (female ? 50 : 0);
            return two(b.getYear() % 100) + two(month) + two(b.getDayOfMonth());
        }

        private static String two(int v) {
            return v < 10 ? "0" + v : Integer.toString(v);
        }
    }

    static final class Order {
        int id;
        String bankTo;
        int accountTo;
        long cents;
        String symbol;
        int dayOfMonth;
        int fromMonth;
        int toMonth;
    }

    static final class Loan {
        int id;
        Account account;
        int date;
        int amount;
        int duration;
        double payments;
        String status;
        double burden;
        double risk; // default score without intercept

        int month() {
            return monthOf(date);
        }

        boolean finished() {
            return month() + duration <= MONTHS - 1;
        }
    }

    static final class Account {
        int id;
        int district;
        int frequency;
        int open;
        Client owner;
        Client disponent;
        int ownerDispId;
        int disponentDispId;
        boolean junior; // opened by a minor: pocket money, no loan
        double income;
        double pension;
        int pensionStart;
        double save; // share of income kept each month
        boolean salaryByTransfer;
        String payBank;
        int payAccount;
        int payDay;
        boolean charged; // pays the monthly statement fee
        boolean careless; // keeps nothing back for standing orders, so is overdrawn now and then
        long firstDeposit;
        long bigDeposit;
        int bigDepositDay = NONE;
        int cardId;
        String cardType;
        int cardIssued = NONE;
        Loan loan;
        final List<Order> orders = new ArrayList<>(4);
        int shortFrom = NONE; // months of lost income (bad loans)
        int shortTo = NONE;
        int drainFrom = NONE;
        double shortFactor = 1;
        /** A borrowing household's financial strain (0 for the others): thin months and less saving. */
        double strain;

        /** What the owner lives on in the long run: the pension once retired before the data ends. */
        double baseIncome() {
            return pensionStart <= LAST_DAY ? Math.min(income, pension) : income;
        }
    }

    final BankDistricts districts;
    final List<Account> accounts = new ArrayList<>();
    final List<Loan> loans = new ArrayList<>();

    private BankModel(BankDistricts districts) {
        this.districts = districts;
    }

    static int monthOf(int day) {
        LocalDate d = LocalDate.ofEpochDay(day);
        return (d.getYear() - 1993) * 12 + d.getMonthValue() - 1;
    }

    static double age(int birth, int day) {
        return (day - birth) / 365.25;
    }

    /** A splitmix64 finaliser: independent, reproducible streams per purpose and per account. */
    static long mix(long seed, long salt) {
        long z = seed + salt * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static BankModel plan(double scale, long seed) {
        BankModel m = new BankModel(BankDistricts.generate(new SplittableRandom(mix(seed, 1))));
        int n = Math.max(1, (int) Math.round(4_500 * scale));
        SplittableRandom rng = new SplittableRandom(mix(seed, 2));
        double[] districtWeights = new double[BankDistricts.COUNT];
        for (int i = 0; i < districtWeights.length; i++) {
            districtWeights[i] = m.districts.inhabitants[i + 1];
        }
        Ids accountIds = new Ids(1);
        Ids clientIds = new Ids(1);
        Ids dispIds = new Ids(1);
        Ids cardIds = new Ids(1);
        Ids loanIds = new Ids(4_959);
        Ids orderIds = new Ids(29_401);
        for (int i = 0; i < n; i++) {
            Account a = new Account();
            a.id = accountIds.next(rng);
            a.district = 1 + pick(rng, districtWeights);
            double f = rng.nextDouble();
            a.frequency = f < 0.92 ? 0 : f < 0.975 ? 1 : 2;
            int year = 1993 + pick(rng, OPEN_YEAR_WEIGHTS);
            int y0 = (int) LocalDate.of(year, 1, 1).toEpochDay();
            a.open = y0 + rng.nextInt((int) LocalDate.of(year + 1, 1, 1).toEpochDay() - y0);

            planPeople(rng, a, districtWeights, clientIds, dispIds);
            planMoney(rng, a, m);
            planCard(rng, a, cardIds);
            planLoan(rng, a, loanIds, m);
            planOrders(rng, a, orderIds);
            m.accounts.add(a);
        }
        double[] intercepts = decideStatuses(new SplittableRandom(mix(seed, 3)), m);
        drawStrain(new SplittableRandom(mix(seed, 6)), m, intercepts);
        return m;
    }

    /** The account's owner (a junior's or an adult's) and, for about a fifth of adults, a disponent. */
    private static void planPeople(SplittableRandom rng, Account a, double[] districtWeights, Ids clientIds,
                                   Ids dispIds) {
        a.junior = rng.nextDouble() < 0.07;
        double ownerAge = a.junior ? 12 + 6 * rng.nextDouble() : clamp(40 + 14 * rng.nextGaussian(), 18, 82);
        a.owner = person(rng, clientIds.next(rng), a.open, ownerAge, rng.nextBoolean(),
                rng.nextDouble() < 0.91 ? a.district : 1 + pick(rng, districtWeights));
        a.ownerDispId = dispIds.next(rng);
        if (!a.junior && rng.nextDouble() < 0.207) {
            // mostly a spouse of similar age living in the same district
            boolean female = rng.nextDouble() < 0.85 ? !a.owner.female : a.owner.female;
            double age = clamp(ownerAge + 4 * rng.nextGaussian(), 18, 85);
            a.disponent = person(rng, clientIds.next(rng), a.open, age, female,
                    rng.nextDouble() < 0.95 ? a.owner.district : 1 + pick(rng, districtWeights));
            a.disponentDispId = dispIds.next(rng);
        }
    }

    /** The household's money habits: income, pension, saving, how and when it is paid, its first deposits. */
    private static void planMoney(SplittableRandom rng, Account a, BankModel m) {
        int salary = m.districts.salary[a.owner.district];
        a.income = a.junior ? 300 + 2_200 * rng.nextDouble()
                : salary * Math.exp(-0.12 + 0.35 * rng.nextGaussian());
        a.pension = 3_800 + 3_000 * rng.nextDouble();
        a.pensionStart = (int) LocalDate.ofEpochDay(a.owner.birth).plusYears(a.owner.female ? 57 : 60).toEpochDay();
        a.save = clamp(0.07 + 0.07 * rng.nextGaussian(), -0.05, 0.35);
        a.salaryByTransfer = !a.junior && rng.nextDouble() < 0.3;
        a.payBank = BANKS[rng.nextInt(BANKS.length)];
        a.payAccount = 10_000_000 + rng.nextInt(90_000_000);
        a.payDay = 1 + rng.nextInt(28);
        a.charged = rng.nextDouble() < 0.75;
        a.careless = rng.nextDouble() < 0.03;
        a.firstDeposit = 100_00L * (1 + rng.nextInt(10));
        if (rng.nextDouble() < 0.5) {
            a.bigDeposit = 100 * Math.round(clamp(15_000 * Math.exp(0.8 * rng.nextGaussian()), 1_000, 150_000));
            a.bigDepositDay = a.open + 1 + rng.nextInt(40);
        }
    }

    private static Client person(SplittableRandom rng, int id, int at, double age, boolean female, int district) {
        Client c = new Client();
        c.id = id;
        c.birth = at - (int) Math.round(age * 365.25);
        c.female = female;
        c.district = district;
        return c;
    }

    private static void planCard(SplittableRandom rng, Account a, Ids ids) {
        int lo = a.open + 200 + rng.nextInt(60);
        if (lo >= LAST_DAY) {
            return;
        }
        // cards spread late (they caught on in 1997-98): sqrt skews the issue date towards the end
        int issued = lo + (int) ((LAST_DAY - lo) * Math.sqrt(rng.nextDouble()));
        boolean young = age(a.owner.birth, issued) < 21;
        double p = young ? 0.27 : 0.175 * clamp(a.income / 9_000, 0.6, 1.8);
        if (rng.nextDouble() >= p) {
            return;
        }
        a.cardId = ids.next(rng);
        a.cardIssued = issued;
        if (young) {
            a.cardType = "junior";
        } else {
            double gold = clamp(0.085 + 0.2 * (a.income / 9_000 - 0.9), 0.03, 0.5);
            a.cardType = rng.nextDouble() < gold ? "gold" : "classic";
        }
    }

    private static void planLoan(SplittableRandom rng, Account a, Ids ids, BankModel m) {
        int lo = a.open + 100;
        int hi = Math.min(a.open + 700, LAST_DAY - 20);
        // better earners borrow more often
        if (a.junior || lo > hi || rng.nextDouble() >= 0.163 * clamp(a.baseIncome() / 8_500, 0.4, 2.0)) {
            return;
        }
        // about a third of loans are finished by the end of 1998; where the window cannot fit that, the other kind
        boolean finished = rng.nextDouble() < 0.37;
        int[] window = loanWindow(rng, lo, hi, finished);
        if (window == null) {
            window = loanWindow(rng, lo, hi, !finished);
        }
        if (window == null) {
            return;
        }
        int duration = window[0];
        int from = window[1];
        int to = window[2];
        Loan l = new Loan();
        l.id = ids.next(rng);
        l.account = a;
        l.date = from + rng.nextInt(to - from + 1);
        l.duration = duration;
        l.burden = 0.1 + 0.5 * Math.pow(rng.nextDouble(), 0.8);
        double amount = a.baseIncome() * l.burden * duration * (1 + 0.025 * duration / 12.0);
        l.amount = (int) Math.round(clamp(amount, 4_000, 600_000));
        l.payments = Math.round(l.amount * 100.0 / duration) / 100.0;
        a.loan = l;
        m.loans.add(l);
    }

    /**
     * A duration and the range of loan dates {duration, from, to} inside [lo, hi] for a finished loan (last
     * instalment month, loan month + duration, by 1998-12) or a running one; null when none fits.
     */
    private static int[] loanWindow(SplittableRandom rng, int lo, int hi, boolean finished) {
        int[] feasible = new int[DURATIONS.length];
        int k = 0;
        for (int d : DURATIONS) {
            if (from(lo, d, finished) <= to(hi, d, finished)) {
                feasible[k++] = d;
            }
        }
        if (k == 0) {
            return null;
        }
        int d = feasible[rng.nextInt(k)];
        return new int[] {d, from(lo, d, finished), to(hi, d, finished)};
    }

    private static int from(int lo, int duration, boolean finished) {
        return finished ? lo : Math.max(lo, MONTH_START[MONTHS - duration]);
    }

    private static int to(int hi, int duration, boolean finished) {
        return finished ? Math.min(hi, MONTH_START[MONTHS - duration] - 1) : hi;
    }

    private static void planOrders(SplittableRandom rng, Account a, Ids ids) {
        int first = monthOf(a.open);
        double base = a.baseIncome();
        int count = a.junior ? 0 : pick(rng, ORDERS_PER_ACCOUNT);
        long total = 0;
        for (int i = 0; i < count; i++) {
            String symbol = ORDER_SYMBOLS[pick(rng, ORDER_SYMBOL_WEIGHTS)];
            double share = switch (symbol == null ? "" : symbol) {
                case "SIPO" -> 0.15 + 0.35 * rng.nextDouble();
                case "POJISTNE" -> 0.01 + 0.10 * rng.nextDouble();
                case "LEASING" -> 0.10 + 0.30 * rng.nextDouble();
                default -> 0.03 + 0.25 * rng.nextDouble();
            };
            Order o = order(rng, ids, symbol, Math.round(base * share * 10) * 10L);
            // set up once the first full month's income is in
            o.fromMonth = first + 2 + (rng.nextDouble() < 0.5 ? 0 : rng.nextInt(Math.max(1, MONTHS - first - 2)));
            o.toMonth = MONTHS - 1;
            total += o.cents;
            a.orders.add(o);
        }
        // regular payments stay within 60% of income; the loan instalment comes on top
        double cap = base * 0.60 * 100;
        if (total > cap) {
            for (Order o : a.orders) {
                o.cents = Math.max(100, Math.round(o.cents * cap / total / 10) * 10);
            }
        }
        if (a.loan != null) {
            Order o = order(rng, ids, "UVER", Math.round(a.loan.payments * 100));
            o.fromMonth = a.loan.month() + 1;
            o.toMonth = Math.min(MONTHS - 1, a.loan.month() + a.loan.duration);
            a.orders.add(o);
        } else if (!a.junior && rng.nextDouble() < 0.008) {
            // an instalment to a loan at another bank
            Order o = order(rng, ids, "UVER", Math.round(base * (0.1 + 0.2 * rng.nextDouble()) * 10) * 10L);
            o.fromMonth = first + 2;
            o.toMonth = MONTHS - 1;
            a.orders.add(o);
        }
    }

    private static Order order(SplittableRandom rng, Ids ids, String symbol, long cents) {
        Order o = new Order();
        o.id = ids.next(rng);
        o.symbol = symbol;
        o.cents = Math.max(100, cents);
        o.bankTo = BANKS[rng.nextInt(BANKS.length)];
        o.accountTo = 10_000_000 + rng.nextInt(90_000_000);
        o.dayOfMonth = 1 + rng.nextInt(28);
        return o;
    }

    /**
     * Loan outcomes. A default score rises with a poorer district, a heavier instalment, a larger loan,
     * a weak saving habit and local unemployment; the intercept is solved per group so the shares match
     * the original (about 13% of finished and 10% of running loans go bad). A bad loan then gets a spell
     * of lost income, so its account's balance (and penalty interest) shows the trouble.
     */
    private static double[] decideStatuses(SplittableRandom rng, BankModel m) {
        for (Loan l : m.loans) {
            Account a = l.account;
            l.risk = 0.7 * (8_800 - m.districts.salary[a.district]) / 1_000.0
                    + 3.0 * (l.burden - 0.3)
                    + 0.4 * Math.log(l.amount / 100_000.0)
                    - 8.0 * (a.save - 0.07)
                    + 0.2 * (m.districts.unemployment(a.district) - 3.0)
                    + 0.3 * rng.nextGaussian();
        }
        double bFinished = intercept(m.loans, true, 0.13);
        double bRunning = intercept(m.loans, false, 0.10);
        for (Loan l : m.loans) {
            boolean finished = l.finished();
            double p = sigmoid((finished ? bFinished : bRunning) + l.risk);
            boolean bad = rng.nextDouble() < p;
            l.status = finished ? (bad ? "B" : "A") : (bad ? "D" : "C");
            if (bad) {
                Account a = l.account;
                int start = l.month();
                int end = start + l.duration;
                if (finished) {
                    a.shortFrom = Math.max(start + 1, end - 3 - rng.nextInt(10));
                    a.shortTo = end + 1 + rng.nextInt(4);
                } else {
                    a.shortFrom = Math.max(start + 2, MONTHS - 3 - rng.nextInt(12));
                    a.shortTo = MONTHS - 1;
                }
                a.shortFactor = 0.2 + 0.3 * rng.nextDouble();
                a.drainFrom = start;
            }
        }
        return new double[] {bFinished, bRunning};
    }

    /**
     * Each borrower's strain, a standard normal trait its account shows before the loan (thin months, spending its
     * savings): the log-odds of default rise by {@value #STRAIN_LOG_ODDS} per unit of strain, with the intercept set
     * per loan so that averaged over strain its chance of default is the one the score above gave. Strain is drawn
     * after the status, from its distribution given that status (rejection sampling), which is the same joint
     * distribution as drawing strain first and the status from it, and leaves the loans and their statuses as they were.
     */
    private static void drawStrain(SplittableRandom rng, BankModel m, double[] intercepts) {
        for (Loan l : m.loans) {
            double p = sigmoid((l.finished() ? intercepts[0] : intercepts[1]) + l.risk);
            double a = strainIntercept(p);
            boolean bad = l.status.equals("B") || l.status.equals("D");
            double strain;
            double accept;
            do {
                strain = rng.nextGaussian();
                double q = sigmoid(a + STRAIN_LOG_ODDS * strain);
                accept = bad ? q : 1 - q;
            } while (rng.nextDouble() >= accept);
            l.account.strain = strain;
        }
    }

    /** The intercept a with E[sigmoid(a + STRAIN_LOG_ODDS * z)] = p for a standard normal z (quadrature on a grid). */
    static double strainIntercept(double p) {
        double lo = -30;
        double hi = 30;
        for (int it = 0; it < 60; it++) {
            double mid = (lo + hi) / 2;
            double sum = 0;
            double weights = 0;
            for (int i = 0; i <= 120; i++) {
                double z = -6 + i * 0.1;
                double w = Math.exp(-z * z / 2);
                sum += w * sigmoid(mid + STRAIN_LOG_ODDS * z);
                weights += w;
            }
            if (sum / weights < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    private static double intercept(List<Loan> loans, boolean finished, double target) {
        double lo = -20;
        double hi = 20;
        boolean any = loans.stream().anyMatch(l -> l.finished() == finished);
        if (!any) {
            return 0;
        }
        for (int it = 0; it < 60; it++) {
            double mid = (lo + hi) / 2;
            double sum = 0;
            int n = 0;
            for (Loan l : loans) {
                if (l.finished() == finished) {
                    sum += sigmoid(mid + l.risk);
                    n++;
                }
            }
            if (sum / n < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    static int pick(SplittableRandom rng, double[] weights) {
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double u = rng.nextDouble() * total;
        for (int i = 0; i < weights.length; i++) {
            u -= weights[i];
            if (u < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** Increasing ids with occasional gaps, like the original's (so a wrong join does not happen to work). */
    static final class Ids {
        private int last;

        Ids(int first) {
            last = first - 1;
        }

        int next(SplittableRandom rng) {
            last += rng.nextDouble() < 0.3 ? 1 + rng.nextInt(1, 4) : 1;
            return last;
        }
    }
}
