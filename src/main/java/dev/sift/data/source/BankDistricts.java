package dev.sift.data.source;

import java.util.SplittableRandom;

/**
 * The 77 districts of the synthetic bank. Names and regions are the real (public) Czech districts of the
 * PKDD'99 layout, in its order; every number is generated here from the seed, shaped like the original
 * (four big cities fully urban, higher unemployment in the north, crime growing with urbanisation).
 */
final class BankDistricts {
    static final int COUNT = 77;
    /** The district whose 1995 figures (A12, A15) are missing, as in the original. */
    static final int MISSING_95 = 69;

    private static final String[][] NAMES = {
            {"Hl.m. Praha", "Prague"},
            {"Benesov", "central Bohemia"}, {"Beroun", "central Bohemia"}, {"Kladno", "central Bohemia"},
            {"Kolin", "central Bohemia"}, {"Kutna Hora", "central Bohemia"}, {"Melnik", "central Bohemia"},
            {"Mlada Boleslav", "central Bohemia"}, {"Nymburk", "central Bohemia"},
            {"Praha - vychod", "central Bohemia"}, {"Praha - zapad", "central Bohemia"},
            {"Pribram", "central Bohemia"}, {"Rakovnik", "central Bohemia"},
            {"Ceske Budejovice", "south Bohemia"}, {"Cesky Krumlov", "south Bohemia"},
            {"Jindrichuv Hradec", "south Bohemia"}, {"Pelhrimov", "south Bohemia"}, {"Pisek", "south Bohemia"},
            {"Prachatice", "south Bohemia"}, {"Strakonice", "south Bohemia"}, {"Tabor", "south Bohemia"},
            {"Domazlice", "west Bohemia"}, {"Cheb", "west Bohemia"}, {"Karlovy Vary", "west Bohemia"},
            {"Klatovy", "west Bohemia"}, {"Plzen - mesto", "west Bohemia"}, {"Plzen - jih", "west Bohemia"},
            {"Plzen - sever", "west Bohemia"}, {"Rokycany", "west Bohemia"}, {"Sokolov", "west Bohemia"},
            {"Tachov", "west Bohemia"},
            {"Ceska Lipa", "north Bohemia"}, {"Decin", "north Bohemia"}, {"Chomutov", "north Bohemia"},
            {"Jablonec n. Nisou", "north Bohemia"}, {"Liberec", "north Bohemia"}, {"Litomerice", "north Bohemia"},
            {"Louny", "north Bohemia"}, {"Most", "north Bohemia"}, {"Teplice", "north Bohemia"},
            {"Usti nad Labem", "north Bohemia"},
            {"Havlickuv Brod", "east Bohemia"}, {"Hradec Kralove", "east Bohemia"}, {"Chrudim", "east Bohemia"},
            {"Jicin", "east Bohemia"}, {"Nachod", "east Bohemia"}, {"Pardubice", "east Bohemia"},
            {"Rychnov nad Kneznou", "east Bohemia"}, {"Semily", "east Bohemia"}, {"Svitavy", "east Bohemia"},
            {"Trutnov", "east Bohemia"}, {"Usti nad Orlici", "east Bohemia"},
            {"Blansko", "south Moravia"}, {"Brno - mesto", "south Moravia"}, {"Brno - venkov", "south Moravia"},
            {"Breclav", "south Moravia"}, {"Hodonin", "south Moravia"}, {"Jihlava", "south Moravia"},
            {"Kromeriz", "south Moravia"}, {"Prostejov", "south Moravia"}, {"Trebic", "south Moravia"},
            {"Uherske Hradiste", "south Moravia"}, {"Vyskov", "south Moravia"}, {"Zlin", "south Moravia"},
            {"Znojmo", "south Moravia"}, {"Zdar nad Sazavou", "south Moravia"},
            {"Bruntal", "north Moravia"}, {"Frydek - Mistek", "north Moravia"}, {"Jesenik", "north Moravia"},
            {"Karvina", "north Moravia"}, {"Novy Jicin", "north Moravia"}, {"Olomouc", "north Moravia"},
            {"Opava", "north Moravia"}, {"Ostrava - mesto", "north Moravia"}, {"Prerov", "north Moravia"},
            {"Sumperk", "north Moravia"}, {"Vsetin", "north Moravia"},
    };

    // index = A1 (slot 0 unused)
    final String[] name = new String[COUNT + 1];
    final String[] region = new String[COUNT + 1];
    final int[] inhabitants = new int[COUNT + 1];
    final int[][] municipalities = new int[COUNT + 1][4]; // A5..A8: <500, 500-1999, 2000-9999, >=10000
    final int[] cities = new int[COUNT + 1];
    final double[] urbanRatio = new double[COUNT + 1];
    final int[] salary = new int[COUNT + 1];
    final double[] unemployment95 = new double[COUNT + 1]; // NaN = missing
    final double[] unemployment96 = new double[COUNT + 1];
    final int[] entrepreneurs = new int[COUNT + 1];
    final int[] crimes95 = new int[COUNT + 1]; // -1 = missing
    final int[] crimes96 = new int[COUNT + 1];

    private BankDistricts() { }

    static BankDistricts generate(SplittableRandom rng) {
        if (NAMES.length != COUNT) {
            throw new IllegalStateException("district table has " + NAMES.length + " rows, expected " + COUNT);
        }
        BankDistricts d = new BankDistricts();
        for (int id = 1; id <= COUNT; id++) {
            d.name[id] = NAMES[id - 1][0];
            d.region[id] = NAMES[id - 1][1];
            boolean prague = id == 1;
            boolean city = prague || d.name[id].endsWith(" - mesto");
            int pop;
            double urban;
            int salary;
            if (city) {
                // the four cities are known: Prague, Brno, Ostrava, Plzen in that order of size
                pop = switch (id) {
                    case 1 -> 1_150_000 + rng.nextInt(100_000);
                    case 54 -> 360_000 + rng.nextInt(40_000);
                    case 74 -> 300_000 + rng.nextInt(40_000);
                    default -> 160_000 + rng.nextInt(20_000);
                };
                urban = 100.0;
                salary = prague ? 12_000 + rng.nextInt(800) : 9_800 + rng.nextInt(1_100);
                d.municipalities[id] = new int[] {0, 0, 0, 1};
                d.cities[id] = 1;
            } else {
                pop = (int) redraw(rng, Math.log(105_000), 0.35, 40_000, 300_000);
                urban = Math.round(clamp(33 + 57 * Math.pow(rng.nextDouble(), 0.8), 33, 90) * 10) / 10.0;
                // wages rise with urbanisation; the Prague belt earns more
                double s = 8_100 + 1_800 * (urban - 33) / 57 * (0.5 + 0.7 * rng.nextDouble())
                        + 250 * rng.nextGaussian() + ("central Bohemia".equals(d.region[id]) ? 300 : 0);
                salary = s < 8_050 ? 8_050 + rng.nextInt(200) : (int) Math.min(s, 11_400);
                double rural = 1.2 - urban / 100;
                int large = (int) clamp(Math.round(pop * urban / 100 / 45_000 + 0.7 * rng.nextGaussian()), 0, 5);
                d.municipalities[id] = new int[] {
                        (int) Math.round((4 + 150 * rng.nextDouble()) * rural),
                        (int) Math.round((4 + 60 * rng.nextDouble()) * (rural + 0.1)),
                        1 + rng.nextInt(20),
                        large};
                d.cities[id] = (int) clamp(Math.round(2 + pop / 25_000.0 * (0.5 + 0.7 * rng.nextDouble())), 1, 11);
            }
            d.inhabitants[id] = pop;
            d.urbanRatio[id] = urban;
            d.salary[id] = salary;
            double u95 = redraw(rng, Math.log(unemploymentBase(d.region[id])), 0.3, 0.2, 9.5);
            d.unemployment95[id] = round2(u95);
            d.unemployment96[id] = round2(u95 * (1.0 + 0.35 * rng.nextDouble()));
            d.entrepreneurs[id] = (int) Math.round(clamp(112 + 14 * rng.nextGaussian()
                    + (prague || "central Bohemia".equals(d.region[id]) ? 22 : 0), 80, 170));
            double perCapita = (prague ? 0.07 : 0.010 + 0.045 * Math.pow(urban / 100, 1.5))
                    * (0.85 + 0.3 * rng.nextDouble());
            d.crimes95[id] = (int) Math.round(pop * perCapita);
            d.crimes96[id] = (int) Math.round(d.crimes95[id] * (0.92 + 0.2 * rng.nextDouble()));
        }
        d.unemployment95[MISSING_95] = Double.NaN;
        d.crimes95[MISSING_95] = -1;
        return d;
    }

    private static double unemploymentBase(String region) {
        return switch (region) {
            case "Prague" -> 0.35;
            case "north Bohemia", "north Moravia" -> 4.5;
            case "south Moravia" -> 3.3;
            default -> 2.3;
        };
    }

    /** 1995 unemployment, falling back to 1996 where 1995 is missing (for the generator's own use). */
    double unemployment(int id) {
        return Double.isNaN(unemployment95[id]) ? unemployment96[id] : unemployment95[id];
    }

    /** A log-normal draw inside [lo, hi], drawn again rather than clamped so no value piles up at a bound. */
    private static double redraw(SplittableRandom rng, double mu, double sigma, double lo, double hi) {
        for (int i = 0; i < 20; i++) {
            double v = Math.exp(mu + sigma * rng.nextGaussian());
            if (v >= lo && v <= hi) {
                return v;
            }
        }
        return Math.exp(mu);
    }

    static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
