package dev.sift.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app in a real headless Chromium (Debian packages chromium and chromium-driver; nothing is downloaded):
 * asks a sample question offline and sees the step trace, the answer and a chart; screenshots go to target/.
 */
class BrowserAppTest {
    @TempDir
    Path home;
    @TempDir
    Path profile;

    @Test
    void asks_offline_and_shows_trace_answer_and_chart() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            ChromeDriver driver = HeadlessChromium.start(profile, 1280, 900);
            try {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                driver.get(w.url("/"));
                List<WebElement> chips = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".chip"), 4));
                assertThat(chips).extracting(WebElement::getText).containsExactly("How many loans are there?",
                        "How many cards are gold?", "What values does loan.status take?", "What tables are there?");

                chips.get(2).click();
                WebElement answer = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".answer")));
                assertThat(answer.getText()).startsWith("loan.status has 4 distinct non-null values");
                WebElement step = driver.findElement(By.cssSelector("details.step"));
                assertThat(step.getAttribute("data-tool")).isEqualTo("sample_values");
                step.findElement(By.tagName("summary")).click();
                assertThat(step.findElement(By.cssSelector(".obs")).getText()).startsWith("loan.status has");
                assertThat(driver.findElement(By.cssSelector(".badge.rule_based")).getText()).isEqualTo("rule_based");
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chart svg .mark-rect")));
                assertThat(driver.findElements(By.cssSelector(".chart svg .mark-rect path"))).hasSize(4);
                assertThat(driver.findElements(By.cssSelector(".result table tbody tr"))).hasSize(4);

                WebElement q = driver.findElement(By.id("question"));
                q.sendKeys("How many cards are there?", Keys.ENTER);
                wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".answer"), 2));
                q.sendKeys("How many of those are gold?", Keys.ENTER);
                wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".answer"), 3));
                WebElement refine = driver.findElements(By.cssSelector(".resolved")).get(2);
                assertThat(refine.getText()).contains("refine", "How many cards are there that are gold?");
                WebElement sql = driver.findElements(By.cssSelector("details.step")).get(2);
                sql.findElement(By.tagName("summary")).click();
                assertThat(sql.findElement(By.cssSelector("pre.sql")).getText())
                        .isEqualTo("SELECT count(*) AS n FROM card WHERE card.type = 'gold'");
                assertThat(sql.findElements(By.cssSelector("pre.sql .kw"))).isNotEmpty();
                assertThat(driver.findElements(By.cssSelector("#sessions li"))).hasSize(1);
                Object errors = ((JavascriptExecutor) driver).executeScript(
                        "return document.querySelectorAll('.error').length");
                assertThat(errors).isEqualTo(0L);
                ((JavascriptExecutor) driver).executeScript("document.querySelector('.chart').scrollIntoView({block: 'start'})");
                Object chartWidth = ((JavascriptExecutor) driver).executeScript(
                        "return document.querySelector('.chart svg').getBoundingClientRect().width");
                assertThat(((Number) chartWidth).doubleValue()).isGreaterThan(400);
                screenshot(driver, "sift-app.png");

                driver.manage().window().setSize(new Dimension(390, 844));
                wait.until(d -> driver.findElement(By.id("menu")).isDisplayed());
                // the sidebar slides out (a 0.2 s transition), so wait for it rather than read it mid-way
                wait.until(d -> driver.findElement(By.id("sidebar")).getRect().getX() < 0);
                Object overflow = ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.scrollWidth > window.innerWidth");
                assertThat(overflow).isEqualTo(false);
                screenshot(driver, "sift-app-phone.png");
            } finally {
                driver.quit();
            }
        }
    }

    @Test
    void opened_on_the_users_shop_last_loaded_an_answer_is_saved_with_one_click_and_a_synonym_is_taught_in_the_knowledge_dialog() throws Exception {
        WebFixture.link(home, dev.sift.TestDatasets.shop());
        dev.sift.data.LastDataset.under(home).loaded("shop"); // as `sift load shop …` leaves it: the app opens on it
        Path file = home.resolve("kg").resolve("shop.kg.yaml");
        try (WebFixture w = new WebFixture(home)) {
            ChromeDriver driver = HeadlessChromium.start(profile, 1280, 900);
            try {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                driver.get(w.url("/"));
                wait.until(d -> !d.findElements(By.cssSelector(".chip")).isEmpty());
                assertThat(new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("dataset")))
                        .getFirstSelectedOption().getAttribute("value")).isEqualTo("shop");
                WebElement chip = wait.until(d -> d.findElements(By.cssSelector(".chip")).stream()
                        .filter(c -> c.getText().equals("How many orders are there?")).findFirst().orElse(null));
                chip.click();
                WebElement save = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector(".save-answer")));
                save.click();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".save-status"),
                        "Saved as a verified example in " + file));
                assertThat(java.nio.file.Files.readString(file)).contains("- question: \"How many orders are there?\"");

                driver.findElement(By.id("kg-open")).click();
                WebElement phrase = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("kg-phrase")));
                assertThat(driver.findElement(By.id("kg-body")).getText()).contains("orders.customer_id → customers.customer_id",
                        "approved (measured)", "How many orders are there?");
                phrase.sendKeys("buyers");
                new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("kg-target"))).selectByValue("customers");
                driver.findElement(By.id("kg-add-synonym")).click();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("kg-status"), "Saved to " + file));
                assertThat(driver.findElement(By.id("kg-body")).getText()).contains("buyers → customers");
                wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("kg-metric-name"))).sendKeys("units");
                driver.findElement(By.id("kg-metric-expression")).sendKeys("sum(orders.quantty)");
                new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("kg-metric-grain"))).selectByValue("orders");
                driver.findElement(By.id("kg-add-metric")).click();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#kg-status .error"),
                        "metrics[units]: column orders.quantty does not exist."));
                screenshot(driver, "sift-app-knowledge.png");
                driver.findElement(By.id("kg-close")).click();
                WebElement q = driver.findElement(By.id("question"));
                q.sendKeys("How many buyers are there?", Keys.ENTER);
                wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".answer"), 2));
                assertThat(driver.findElements(By.cssSelector(".answer")).get(1).getText()).contains("160");
            } finally {
                driver.quit();
            }
        }
    }

    private static void screenshot(ChromeDriver driver, String name) {
        HeadlessChromium.screenshot(driver, name);
    }
}
