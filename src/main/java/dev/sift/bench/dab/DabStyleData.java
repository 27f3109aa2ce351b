package dev.sift.bench.dab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The rows of the DAB-style set {@code pkgdesk} (a package registry's support desk), generated from one seed, with the
 * truth each question is scored against kept beside them: each ticket's topic and overcharged amount, each invoice's
 * real account. Text is written the ways real exports write it: dates in words, lists as Python literals, ids with a
 * {@code #} and spaces, company names typed by hand.
 */
public final class DabStyleData {
    static final String[] SYSTEMS = {"NPM", "PYPI", "CARGO"};
    static final String[] PLANS = {"Free", "Team", "Enterprise"};
    static final String[] PRIORITIES = {"low", "normal", "high"};
    static final String[] TOPICS = {"billing", "bug", "security", "feature"};
    static final String[] LICENCES = {"MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause"};
    private static final String[] NAMES = {"left-pad", "fastjson", "tiny-http", "yaml-lite", "color-term", "date-kit",
        "fuzzy-find", "log-spout", "retry-me", "tar-stream", "uuid-gen", "csv-parse", "img-shrink", "env-load", "md-render"};
    private static final String[] VERSIONS = {"1.0.0", "1.4.2", "2.0.1"};
    private static final String[] KEYWORDS = {"http", "cli", "parser", "async", "json", "testing", "logging", "images"};
    private static final String[] COMPANIES = {"Acme Analytics", "Borealis Labs", "Cobalt Ridge Software",
        "Dunmore Logistics", "Evergreen Robotics", "Foxglove Media", "Granite Peak Finance", "Halcyon Health",
        "Ironbark Systems", "Juniper Freight", "Kestrel Aerospace", "Lumen Optics", "Marigold Foods", "Northwind Traders",
        "Obsidian Security", "Pinecrest Insurance", "Quasar Gaming", "Redwood Energy", "Saffron Textiles",
        "Tidewater Shipping", "Umbra Design", "Vantage Retail", "Willow Education", "Xenon Biotech", "Yellowstone Outdoor",
        "Zephyr Airlines", "Amber Valley Wines", "Blue Heron Travel", "Crescent Moon Bakery", "Driftwood Studios",
        "Ember Forge Tools", "Falcon Crest Hotels", "Golden Gate Dental", "Harbor Light Marine", "Indigo Fabrics",
        "Jasper Mining", "Kingfisher Pools", "Lakeside Clinics", "Meridian Pharma", "Nimbus Cloudworks"};
    private static final String[] SUFFIXES = {"Inc.", "Ltd.", "GmbH", "LLC", "Corp."};
    private static final String[] COUNTRIES = {"Germany", "France", "United States", "Japan", "Brazil"};
    private static final String[] ORDINALS = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
        "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
        "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth",
        "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth"};
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December"};

    /** An account of the CRM (a MongoDB collection). */
    public record Account(String id, String company, String plan, String country) { }

    /** A support ticket: {@code ref} is the account id as the desk typed it; {@code topic} and {@code amount} are truth. */
    public record Ticket(int id, String account, String ref, String priority, String opened, String body, String topic,
                         Double amount) { }

    /** An invoice naming its customer as typed by hand; {@code account} is the truth. */
    public record Invoice(int id, String customer, double amount, String account) { }

    /** A package version: {@code published} in words, {@code year} the truth; {@code keywords} as a Python literal. */
    public record Package(String system, String name, String version, String licence, String published, int year,
                          String keywords, List<String> keywordList) { }

    /** Monthly downloads of a package version ({@code month} 1–12 of 2024). */
    public record Download(int month, String system, String name, String version, long downloads) { }

    /** A security advisory about a package version. */
    public record Advisory(int id, String system, String name, String version, String severity) { }

    public final List<Account> accounts = new ArrayList<>();
    public final List<Ticket> tickets = new ArrayList<>();
    public final List<Invoice> invoices = new ArrayList<>();
    public final List<Package> packages = new ArrayList<>();
    public final List<Download> downloads = new ArrayList<>();
    public final List<Advisory> advisories = new ArrayList<>();

    /** The rows of seed {@code seed}: the same seed gives the same rows. */
    public static DabStyleData generate(long seed) {
        DabStyleData d = new DabStyleData();
        Random rnd = new Random(seed);
        d.accounts(rnd);
        d.tickets(rnd, 400);
        d.invoices(rnd, 150);
        d.packages(rnd);
        d.downloads(rnd);
        d.advisories(rnd, 70);
        return d;
    }

    private void accounts(Random rnd) {
        for (int i = 0; i < COMPANIES.length; i++) {
            accounts.add(new Account(String.format(Locale.ROOT, "ACC-%04d", i + 1), COMPANIES[i] + " "
                    + SUFFIXES[rnd.nextInt(SUFFIXES.length)], PLANS[rnd.nextInt(3)], COUNTRIES[rnd.nextInt(COUNTRIES.length)]));
        }
    }

    /** Priority leans on the plan (Enterprise tickets are more often high), so the chi-square test finds it. */
    private void tickets(Random rnd, int n) {
        for (int i = 1; i <= n; i++) {
            Account a = accounts.get(rnd.nextInt(accounts.size()));
            double high = a.plan().equals("Enterprise") ? 0.5 : a.plan().equals("Team") ? 0.3 : 0.12;
            double r = rnd.nextDouble();
            String priority = r < high ? "high" : r < high + (1 - high) / 2 ? "normal" : "low";
            String ref = switch (rnd.nextInt(4)) {
                case 0 -> " #" + a.id() + " ";
                case 1 -> "#" + a.id();
                case 2 -> a.id() + "  ";
                default -> a.id();
            };
            String topic = TOPICS[rnd.nextInt(TOPICS.length)];
            String pkg = NAMES[rnd.nextInt(NAMES.length)];
            Double amount = topic.equals("billing") ? (5 + rnd.nextInt(400)) + rnd.nextInt(100) / 100.0 : null;
            String opened = String.format(Locale.ROOT, "2024-%02d-%02d", 1 + rnd.nextInt(12), 1 + rnd.nextInt(28));
            tickets.add(new Ticket(i, a.id(), ref, priority, opened, body(rnd, topic, pkg, amount, a.plan()), topic, amount));
        }
    }

    private static String body(Random rnd, String topic, String pkg, Double amount, String plan) {
        String amt = amount == null ? "" : String.format(Locale.ROOT, "$%.2f", amount);
        String ver = VERSIONS[rnd.nextInt(VERSIONS.length)];
        int k = rnd.nextInt(3);
        return switch (topic) {
            case "billing" -> k == 0 ? "We were charged " + amt + " more than our " + plan + " plan costs this month;"
                    + " please refund the difference."
                    : k == 1 ? "Our invoice shows an extra " + amt + " that we never agreed to. We were overcharged."
                    : "The card on file was billed twice, " + amt + " too much. Can you refund it?";
            case "bug" -> k == 0 ? "The CLI crashes with a stack trace when installing " + pkg + " " + ver + "."
                    : k == 1 ? "Publishing a new version of " + pkg + " fails with error 500 since yesterday."
                    : "Search returns nothing for " + pkg + " although the page shows it; looks broken.";
            case "security" -> k == 0 ? "We found a leaked API token for " + pkg + " in a public repository; revoke it."
                    : k == 1 ? "Version " + ver + " of " + pkg + " has a known vulnerability (remote code execution)."
                    : "The build logs of " + pkg + " show an exposed secret key.";
            default -> k == 0 ? "It would be great if the dashboard could show weekly numbers for " + pkg + "."
                    : k == 1 ? "Please add support for scoped names like @team/" + pkg + " in search."
                    : "Could you add a dark theme to the package pages?";
        };
    }

    /** Invoices name their customer as typed: case, another legal suffix, a typo, a leading '#', extra spaces. */
    private void invoices(Random rnd, int n) {
        for (int i = 1; i <= n; i++) {
            Account a = accounts.get(rnd.nextInt(accounts.size()));
            String base = a.company().substring(0, a.company().lastIndexOf(' '));
            String typed = switch (rnd.nextInt(6)) {
                case 0 -> a.company().toUpperCase(Locale.ROOT);
                case 1 -> base + " " + SUFFIXES[rnd.nextInt(SUFFIXES.length)];
                case 2 -> typo(base, rnd);
                case 3 -> "#" + base.toLowerCase(Locale.ROOT);
                case 4 -> "  " + base + ",  " + a.company().substring(a.company().lastIndexOf(' ') + 1);
                default -> a.company();
            };
            invoices.add(new Invoice(i, typed, (50 + rnd.nextInt(5000)) + rnd.nextInt(100) / 100.0, a.id()));
        }
    }

    /** Two neighbouring letters inside the first long word swapped ("Borealsi Labs"). */
    private static String typo(String s, Random rnd) {
        int start = 0;
        for (String w : s.split(" ")) {
            if (w.length() >= 6) {
                int at = start + 2 + rnd.nextInt(w.length() - 4);
                return s.substring(0, at) + s.charAt(at + 1) + s.charAt(at) + s.substring(at + 2);
            }
            start += w.length() + 1;
        }
        return s.toLowerCase(Locale.ROOT);
    }

    /** Every name in every system with the same versions, so only system, name and version together identify one. */
    private void packages(Random rnd) {
        for (String system : SYSTEMS) {
            for (String name : NAMES) {
                for (String version : VERSIONS) {
                    int year = 2021 + rnd.nextInt(4);
                    int month = rnd.nextInt(12);
                    int day = 1 + rnd.nextInt(28);
                    List<String> kw = new ArrayList<>();
                    kw.add(rnd.nextInt(3) == 0 ? KEYWORDS[rnd.nextInt(KEYWORDS.length)] : "cli"); // cli leads
                    for (int j = rnd.nextInt(3); j > 0; j--) {
                        String w = KEYWORDS[rnd.nextInt(KEYWORDS.length)];
                        if (!kw.contains(w)) {
                            kw.add(w);
                        }
                    }
                    String literal = rnd.nextBoolean() ? "[" + String.join(", ", kw.stream().map(w -> "'" + w + "'").toList()) + "]"
                            : "[" + String.join(", ", kw.stream().map(w -> "\"" + w + "\"").toList()) + "]";
                    packages.add(new Package(system, name, version, LICENCES[rnd.nextInt(LICENCES.length)],
                            inWords(rnd, year, month, day), year, literal, List.copyOf(kw)));
                }
            }
        }
    }

    /** A date as people write it: "the fifth of March, 2023", "March 5th 2023", "5 Mar 23". */
    static String inWords(Random rnd, int year, int month, int day) {
        String suffix = day % 10 == 1 && day != 11 ? "st" : day % 10 == 2 && day != 12 ? "nd" : day % 10 == 3 && day != 13 ? "rd" : "th";
        return switch (rnd.nextInt(3)) {
            case 0 -> "the " + ORDINALS[day - 1] + " of " + MONTHS[month] + ", " + year;
            case 1 -> MONTHS[month] + " " + day + suffix + " " + year;
            default -> day + " " + MONTHS[month].substring(0, 3) + " " + String.format(Locale.ROOT, "%02d", year % 100);
        };
    }

    /** The latest version of every package, each month of 2024: one table per month. */
    private void downloads(Random rnd) {
        for (int month = 1; month <= 12; month++) {
            for (String system : SYSTEMS) {
                for (String name : NAMES) {
                    downloads.add(new Download(month, system, name, VERSIONS[VERSIONS.length - 1],
                            100 + rnd.nextInt(20_000)));
                }
            }
        }
    }

    /** Advisories point at package versions, several at some. */
    private void advisories(Random rnd, int n) {
        String[] severities = {"low", "moderate", "high", "critical"};
        for (int i = 1; i <= n; i++) {
            Package p = packages.get(rnd.nextInt(packages.size()));
            advisories.add(new Advisory(i, p.system(), p.name(), p.version(), severities[rnd.nextInt(severities.length)]));
        }
    }

    /** The plan × priority contingency table of the tickets (rows in {@link #PLANS} order, columns in {@link #PRIORITIES}). */
    long[][] planPriority() {
        Map<String, String> plan = new LinkedHashMap<>();
        accounts.forEach(a -> plan.put(a.id(), a.plan()));
        long[][] t = new long[PLANS.length][PRIORITIES.length];
        for (Ticket k : tickets) {
            t[List.of(PLANS).indexOf(plan.get(k.account()))][List.of(PRIORITIES).indexOf(k.priority())]++;
        }
        return t;
    }

    /** Pearson's chi-square of a contingency table, by the textbook sum of (observed − expected)² / expected. */
    static double chiSquare(long[][] t) {
        double total = 0;
        double[] rows = new double[t.length];
        double[] cols = new double[t[0].length];
        for (int i = 0; i < t.length; i++) {
            for (int j = 0; j < t[0].length; j++) {
                rows[i] += t[i][j];
                cols[j] += t[i][j];
                total += t[i][j];
            }
        }
        double chi = 0;
        for (int i = 0; i < t.length; i++) {
            for (int j = 0; j < t[0].length; j++) {
                double e = rows[i] * cols[j] / total;
                chi += (t[i][j] - e) * (t[i][j] - e) / e;
            }
        }
        return chi;
    }
}
