package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.Progress;

import java.io.IOException;
import java.sql.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A small shop as a user would export it: {@code customers.csv}, {@code products.csv} and {@code orders.csv},
 * written from a fixed seed so the suite in {@code bench/shop.yaml} always sees the same data. On purpose it
 * has what real exports have: sign-up dates as {@code DD.MM.YYYY}, order times as {@code YYYY-MM-DD HH:MM},
 * delivery dates in two formats mixed ({@code 2024-03-05} and {@code 05/03/2024}), prices stored as text with a
 * currency sign and thousands separator, NULLs (missing city, e-mail, discount, delivery date), case variants
 * ('Web'/'web', 'Retail'/'retail') and a typo'd category ('Electronic' beside 'Electronics'). As a builder
 * ({@code sift load shop}) it writes the files to a temporary folder and loads them with {@link FileLoader},
 * exactly as a user's own files are loaded.
 */
public final class ShopGenerator implements DatasetBuilder {
    public static final long DEFAULT_SEED = 20240601L;
    static final String VERSION = "shop-1";
    private final long seed;
    private dev.sift.data.LoadReport report = dev.sift.data.LoadReport.EMPTY;

    public ShopGenerator(long seed) {
        this.seed = seed;
    }

    @Override
    public String fingerprint() {
        return VERSION + "/" + seed + "/" + FileLoader.VERSION;
    }

    @Override
    public dev.sift.data.LoadReport report() {
        return report;
    }

    @Override
    public String describe() {
        return "generated shop (seed " + seed + "): customers, orders, products as CSV files";
    }

    @Override
    public void build(Connection db, Progress progress) throws Exception {
        Path dir = Files.createTempDirectory("sift-shop");
        try {
            FileLoader files = new FileLoader(write(dir, seed));
            files.build(db, progress);
            report = files.report();
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }
    static final String[] FIRST = {"Alice", "Ben", "Chloe", "Daniel", "Emma", "Finn", "Grace", "Harry", "Isla", "Jack",
        "Kate", "Liam", "Mia", "Noah", "Olivia", "Paul", "Ruby", "Sam", "Tara", "Will"};
    static final String[] LAST = {"Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Thomas", "Roberts", "Walker",
        "Wright", "Green", "Hall"};
    static final String[] CITIES = {"London", "London", "London", "Manchester", "Manchester", "Leeds", "Bristol",
        "Glasgow", "Cardiff"};
    /** name, category, price in pounds. */
    static final Object[][] PRODUCTS = {
        {"Laptop", "Electronics", 899.0}, {"Headphones", "Electronics", 79.5}, {"Smartphone", "Electronics", 649.0},
        {"Tablet", "Electronics", 329.0}, {"Smart Watch", "Electronics", 199.0}, {"Speaker", "Electronic", 59.0},
        {"Monitor", "Electronics", 1249.0}, {"Keyboard", "Electronics", 45.0},
        {"Cookbook", "Books", 18.0}, {"Novel", "Books", 9.99}, {"Atlas", "Books", 35.0}, {"Comic", "Books", 6.5},
        {"Dictionary", "Books", 24.0},
        {"Lamp", "Home", 39.0}, {"Rug", "Home", 120.0}, {"Kettle", "Home", 29.0}, {"Toaster", "Home", 34.0},
        {"Armchair", "Home", 1450.0}, {"Candle", "Home", 8.0},
        {"Puzzle", "Toys", 14.0}, {"Robot Kit", "Toys", 89.0}, {"Board Game", "Toys", 32.0}, {"Teddy Bear", "Toys", 19.0},
        {"Kite", "Toys", 22.0},
        {"Hose", "Garden", 27.0}, {"Shovel", "Garden", 31.0}, {"Planter", "Garden", 16.0}, {"Barbecue", "Garden", 1099.0}};

    /** Writes the three CSV files into {@code dir} and returns their paths (customers, orders, products). */
    public static List<Path> write(Path dir, long seed) throws IOException {
        Files.createDirectories(dir);
        Random r = new Random(seed);
        int customers = 160;
        StringBuilder c = new StringBuilder("customer_id,name,city,segment,email,signup_date\n");
        for (int i = 1; i <= customers; i++) {
            String first = FIRST[r.nextInt(FIRST.length)];
            String last = LAST[r.nextInt(LAST.length)];
            String city = r.nextInt(20) == 0 ? "" : CITIES[r.nextInt(CITIES.length)];
            int s = r.nextInt(10);
            String segment = s < 6 ? "Retail" : s < 7 ? "retail" : "Business";
            String email = r.nextInt(8) == 0 ? "" : (first + "." + last + i + "@example.com").toLowerCase(Locale.ROOT);
            LocalDate signup = LocalDate.of(2021, 1, 1).plusDays(r.nextInt(3 * 365));
            c.append(i).append(',').append(first).append(' ').append(last).append(',').append(city).append(',')
                    .append(segment).append(',').append(email).append(',')
                    .append(String.format(Locale.ROOT, "%02d.%02d.%04d", signup.getDayOfMonth(), signup.getMonthValue(),
                            signup.getYear())).append('\n');
        }
        StringBuilder p = new StringBuilder("product_id,product_name,category,unit_price,unit_cost\n");
        for (int i = 0; i < PRODUCTS.length; i++) {
            double price = (Double) PRODUCTS[i][2];
            double cost = Math.round(price * (0.45 + 0.3 * r.nextDouble()) * 100) / 100.0;
            p.append(i + 1).append(',').append(PRODUCTS[i][0]).append(',').append(PRODUCTS[i][1]).append(',')
                    .append('"').append(pounds(price)).append('"').append(',')
                    .append(String.format(Locale.ROOT, "%.2f", cost)).append('\n');
        }
        StringBuilder o = new StringBuilder("order_id,customer_id,product_id,order_date,quantity,channel,status,discount,"
                + "delivery_date\n");
        LocalDateTime start = LocalDateTime.of(2023, 1, 1, 8, 0);
        for (int i = 1; i <= 1800; i++) {
            int customer = 1 + (int) Math.floor(Math.pow(r.nextDouble(), 1.6) * customers);
            int product = 1 + r.nextInt(PRODUCTS.length);
            LocalDateTime at = start.plusMinutes((long) r.nextInt(2 * 365 * 24 * 60));
            int quantity = 1 + (r.nextInt(10) < 7 ? r.nextInt(2) : r.nextInt(5));
            int ch = r.nextInt(20);
            String channel = ch < 10 ? "Web" : ch < 12 ? "web" : ch < 17 ? "Store" : "Phone";
            int st = r.nextInt(20);
            String status = st < 16 ? "shipped" : st < 18 ? "returned" : "cancelled";
            String discount = r.nextInt(4) == 0 ? String.format(Locale.ROOT, "%.2f", 0.05 * (1 + r.nextInt(4))) : "";
            String delivery = "";
            if (!status.equals("cancelled")) {
                LocalDate d = at.toLocalDate().plusDays(1 + r.nextInt(6));
                delivery = r.nextInt(3) == 0
                        ? String.format(Locale.ROOT, "%02d/%02d/%04d", d.getDayOfMonth(), d.getMonthValue(), d.getYear())
                        : d.toString();
            }
            o.append(i).append(',').append(customer).append(',').append(product).append(',')
                    .append(String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d", at.getYear(), at.getMonthValue(),
                            at.getDayOfMonth(), at.getHour(), at.getMinute())).append(',')
                    .append(quantity).append(',').append(channel).append(',').append(status).append(',')
                    .append(discount).append(',').append(delivery).append('\n');
        }
        List<Path> out = new ArrayList<>();
        out.add(Files.writeString(dir.resolve("customers.csv"), c));
        out.add(Files.writeString(dir.resolve("orders.csv"), o));
        out.add(Files.writeString(dir.resolve("products.csv"), p));
        return out;
    }

    /** {@code £1,249.00}: a price as a spreadsheet exports it. */
    static String pounds(double v) {
        return "£" + String.format(Locale.ROOT, "%,.2f", v);
    }
}
