package dev.sift.web;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Debian's headless Chromium for the browser tests (nothing is downloaded); skips the test when it is missing. */
final class HeadlessChromium {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() { }

    /** A fresh browser with its own profile folder and a window of the given size. */
    static ChromeDriver start(Path profile, int width, int height) {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "Skipping the browser test: /usr/bin/chromium and /usr/bin/chromedriver are needed"
                        + " (apt-get install chromium chromium-driver; .ci/run does this in CI).");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height, "--force-device-scale-factor=1");
        return new ChromeDriver(service, options);
    }

    /** Saves what the browser shows as target/{@code name}. */
    static void screenshot(ChromeDriver driver, String name) {
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Path target = Path.of("target", name);
            Files.createDirectories(target.getParent());
            Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
