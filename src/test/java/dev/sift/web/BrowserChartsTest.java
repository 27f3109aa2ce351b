package dev.sift.web;

import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Charts, readable numbers and the clarify pause in a real headless Chromium (Debian's chromium and
 * chromium-driver): a trend answer draws its line, a prediction answer its drivers and the top cases first, a rate
 * column reads as percentages and ids are never grouped; screenshots of the trend and prediction answers go to
 * target/ (the README shows them).
 */
class BrowserChartsTest {
    @TempDir
    Path home;
    @TempDir
    Path profile;

    private void inBrowser(WebFixture w, Consumer<ChromeDriver> test) {
        ChromeDriver driver = HeadlessChromium.start(profile, 1280, 1000);
        try {
            driver.get(w.url("/"));
            new WebDriverWait(driver, Duration.ofSeconds(30))
                    .until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".chip"), 4));
            test.accept(driver);
        } finally {
            driver.quit();
        }
    }

    private static void ask(ChromeDriver driver, String question, int answers) {
        driver.findElement(By.id("question")).sendKeys(question, Keys.ENTER);
        new WebDriverWait(driver, Duration.ofSeconds(120))
                .until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".answer"), answers));
    }

    @Test
    void a_trend_draws_its_line_rates_read_as_percentages_and_a_prediction_shows_its_drivers() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            inBrowser(w, driver -> {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                ask(driver, "Is there a trend in the number of loans per month?", 1);
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".turn:nth-of-type(1) .chart svg .mark-line path")));
                assertThat(driver.findElements(By.cssSelector(".chart svg .mark-line path"))).hasSizeGreaterThanOrEqualTo(2);
                scrollTo(driver, ".turn:last-of-type .chart");
                screenshot(driver, "sift-trend.png");

                ask(driver, "default rate by region", 2);
                List<WebElement> rates = driver.findElements(By.cssSelector(".turn:last-of-type td[data-kind='rate']"));
                assertThat(rates).isNotEmpty();
                assertThat(rates).extracting(WebElement::getText).allMatch(t -> t.matches("\\d+(\\.\\d{1,2})?%"));
                assertThat(rates.get(0).getAttribute("class")).contains("num");
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".turn:last-of-type .chart svg .mark-rect path")));

                ask(driver, "Which running loans are likely to default?", 3);
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".turn:last-of-type .chart svg .mark-rect path")));
                List<WebElement> heads = driver.findElements(By.cssSelector(".turn:last-of-type .result"));
                assertThat(heads.get(0).findElement(By.cssSelector("thead")).getText()).contains("probability", "driver_1");
                List<WebElement> ids = driver.findElements(By.cssSelector(".turn:last-of-type .result td[data-kind='id']"));
                assertThat(ids).isNotEmpty();
                assertThat(ids).extracting(WebElement::getText).noneMatch(t -> t.contains(","));
                Object errors = ((JavascriptExecutor) driver).executeScript("return document.querySelectorAll('.error').length");
                assertThat(errors).isEqualTo(0L);
                scrollTo(driver, ".turn:last-of-type .chart");
                screenshot(driver, "sift-prediction.png");
            });
        }
    }

    @Test
    void the_clarify_question_pauses_the_run_and_the_persons_choice_resumes_it() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"which date?\",\"tool\":\"clarify\",\"args\":{\"question\":\"Which date do you mean?\","
                        + "\"options\":[\"loan date\",\"account date\"],\"default_option\":\"loan date\"}}",
                "{\"thought\":\"ok\",\"final_answer\":\"Using the account date.\"}");
        try (WebFixture w = new WebFixture(home, llm, WebServer.Options.defaults())) {
            inBrowser(w, driver -> {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                driver.findElement(By.id("question")).sendKeys("Loans by year", Keys.ENTER);
                WebElement box = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".clarify")));
                assertThat(box.getText()).contains("Which date do you mean?", "paused");
                List<WebElement> options = box.findElements(By.cssSelector(".options button"));
                assertThat(options).extracting(WebElement::getText).containsExactly("loan date", "account date");
                options.get(1).click();
                WebElement answer = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".answer")));
                assertThat(answer.getText()).isEqualTo("Using the account date.");
                assertThat(box.getText()).contains("You chose: account date");
            });
        }
    }

    private static void scrollTo(ChromeDriver driver, String css) {
        ((JavascriptExecutor) driver).executeScript("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", css);
    }

    private static void screenshot(ChromeDriver driver, String name) {
        HeadlessChromium.screenshot(driver, name);
    }
}
