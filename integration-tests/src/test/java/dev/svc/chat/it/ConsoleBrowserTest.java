package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.reference.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console (docs/console.md) in a real browser: Debian's headless Chromium driven by its chromedriver
 * through Selenium. Signs in with the API key, watches a message an SDK client sent appear in the room's
 * tail live (over the dev channel, with no request of the page), sends as a user from the page and sees the
 * SDK client receive it, finds a message text that is HTML rendered as text, edits and deletes as the sender,
 * injects a fault, redelivers a webhook, and drops a user's fan-out, which the SDK client recovers from history.
 * A failure leaves a screenshot in {@code target/}; the run leaves the console's screenshots there too
 * (docs/console.md's images come from them).
 */
class ConsoleBrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  /** Generous for a loaded 2-core machine, and bounded: every wait in the page has this deadline. */
  private static final Duration PAGE_WAIT = Duration.ofSeconds(60);
  private static final String XSS = "<img src=x onerror=alert(1)>";

  @TempDir
  Path files;
  private ChatFixture chat;
  private WebDriver browser;
  private ChromeDriverService driverService;

  @BeforeEach
  void start() {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      fail("the console's browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", "
          + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver (.ci/run installs them)");
    }
    chat = new ChatFixture(ReferenceServer.builder().port(0));
    // The driver named explicitly, and the browser binary too: Selenium Manager never looks for either.
    driverService = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,800", "--no-first-run", "--disable-extensions");
    options.setPageLoadTimeout(PAGE_WAIT);
    options.setScriptTimeout(PAGE_WAIT);
    browser = new ChromeDriver(driverService, options);
  }

  @AfterEach
  void stop() {
    try {
      if (browser != null) {
        browser.quit();
      }
    } finally {
      if (driverService != null) {
        driverService.stop();
      }
      if (chat != null) {
        chat.close();
      }
    }
  }

  @Test
  void signInWatchTheTailSendAsAUserAndSeeHtmlAsText() throws Exception {
    Admin admin = chat.admin();
    ReferenceServer server = chat.server();
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> bobSees = ChatFixture.record(bob, EventType.NEW_MESSAGE);
    try {
      WebDriverWait wait = signIn(server);
      assertTrue(browser.getCurrentUrl().endsWith("/console/"), "the key never goes into the URL");
      assertEquals("", browser.findElement(By.id("api-key")).getAttribute("value"), "the field keeps nothing");

      // A message sent by an SDK client appears in the tail, without a reload and without a request: the dev
      // channel pushed it.
      By openButton = By.cssSelector("tr[data-room-id='" + room + "'] button");
      wait.until(ExpectedConditions.elementToBeClickable(openButton)).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-room"), "#general"));
      Object sentAt = ((JavascriptExecutor) browser).executeScript("return performance.now()");
      await(alice.sendText(room, "hello from the SDK"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail"), "hello from the SDK"));
      assertEquals(0L, devRequestsSince(sentAt), "the page fetched something to show the message");
      bobSees.next(m -> "hello from the SDK".equals(m.text()));
      screenshot("console-rooms");

      // Send as alice from the page: bob's SDK client receives it; the HTML in it is shown as text.
      wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#send-as option[value='alice']")));
      new Select(browser.findElement(By.id("send-as"))).selectByValue("alice");
      browser.findElement(By.id("send-text")).sendKeys(XSS);
      browser.findElement(By.id("send-button")).click();
      Message received = bobSees.next(m -> XSS.equals(m.text()));
      assertEquals("alice", received.senderId());
      // Located again at each poll: the tail redraws its rows as events land.
      wait.until(ExpectedConditions.textToBe(By.xpath("//ol[@id='tail']/li[@data-seq='" + received.seq()
          + "']//*[contains(concat(' ', @class, ' '), ' text ')]"), XSS));
      assertTrue(browser.findElements(By.cssSelector("#tail img")).isEmpty(), "the text became an element");
      assertThrows(NoAlertPresentException.class, () -> browser.switchTo().alert());

      // Edit, then delete, as the sender, from the page.
      clickWhenReady(wait, By.xpath("//ol[@id='tail']/li[@data-seq='1']//button[text()='Edit']"));
      WebElement text = browser.findElement(By.id("send-text"));
      text.clear();
      text.sendKeys("edited from the page");
      browser.findElement(By.id("send-button")).click();
      By first = By.xpath("//ol[@id='tail']/li[@data-seq='1']");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(first, "edited from the page"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(first, "(edited)"));
      clickWhenReady(wait, By.xpath("//ol[@id='tail']/li[@data-seq='1']//button[text()='Delete']"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(first, "deleted"));

      // An image an SDK client sends shows as its thumbnail, fetched with the key in a header, never a URL.
      Message image = await(alice.sendMessage(room, List.of(MessagePart.text("the mockup"),
          MessagePart.file(FileSource.of(FilesEndToEndTest.pngFile(files.resolve("mockup.png"), 640, 480))))));
      String fileId = image.parts().get(1).file().fileId();
      By thumb = By.cssSelector("#tail img.thumb[data-file-id='" + fileId + "']");
      wait.until(d -> {
        try {
          Object width = ((JavascriptExecutor) d).executeScript("const i = document.querySelector(arguments[0]);"
              + " return i && i.complete ? i.naturalWidth : 0;", "#tail img.thumb[data-file-id='" + fileId + "']");
          return ((Number) width).intValue() > 0;
        } catch (StaleElementReferenceException redrawn) {
          return false;
        }
      });
      assertTrue(browser.findElement(thumb).getAttribute("src").startsWith("blob:"), "a blob: URL, no key in it");
      assertTrue(browser.findElement(By.id("tail")).getText().contains("the mockup"));

      // A fault injected from the page answers the tenant's next request; the request log shows it.
      browser.findElement(By.cssSelector("#fault-form button[type='submit']")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("faults"), "500 on /v1/"));
      assertEquals(500, admin.call("GET", "/v1/tenant/settings", null, admin.apiKeyHeader()).status());
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("requests"), "500 (fault)"));
      browser.findElement(By.id("clear-faults")).click();
      wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("#faults li")));
      assertEquals(200, admin.call("GET", "/v1/tenant/settings", null, admin.apiKeyHeader()).status());

      browser.manage().window().setSize(new Dimension(1280, 1500));
      screenshot("console-tail");
      browser.manage().window().setSize(new Dimension(390, 844));
      screenshot("console-narrow");
    } catch (Exception | AssertionError e) {
      screenshot("console-failure");
      throw e;
    }
  }

  @Test
  void redeliverAWebhookFromThePage() throws Exception {
    BlockingQueue<String> ids = new LinkedBlockingQueue<>();
    com.sun.net.httpserver.HttpServer receiver = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/hooks", exchange -> {
      exchange.getRequestBody().readAllBytes();
      ids.add(exchange.getRequestHeaders().getFirst("webhook-id"));
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    receiver.start();
    try {
      Admin admin = chat.admin();
      admin.call("PATCH", "/v1/tenant/settings", Map.of("webhookUrl",
          "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks"), admin.apiKeyHeader());
      String room = admin.createRoom("hooks", "alice", "bob");
      WebDriverWait wait = signIn(chat.server());
      ChatClient alice = chat.connected("alice");
      await(alice.sendText(room, "hook me"));
      String id = ids.poll(60, TimeUnit.SECONDS);
      assertTrue(id != null, "no webhook delivered");
      By row = By.cssSelector("#webhooks tr[data-webhook-id='" + id + "']");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "delivered"));
      wait.until(ExpectedConditions.elementToBeClickable(
          By.cssSelector("#webhooks tr[data-webhook-id='" + id + "'] button"))).click();
      assertEquals(id, ids.poll(60, TimeUnit.SECONDS), "the redelivery keeps the webhook-id");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "redelivered 1×"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(
          By.cssSelector("#webhooks tr[data-webhook-id='" + id + "'] .webhook-status"), "delivered"));
      browser.manage().window().setSize(new Dimension(1280, 800));
      browser.findElement(By.id("webhooks-section")).getLocation();
      ((JavascriptExecutor) browser).executeScript(
          "document.getElementById('webhooks-section').scrollIntoView()");
      screenshot("console-webhooks");
    } catch (Exception | AssertionError e) {
      screenshot("console-failure-webhooks");
      throw e;
    } finally {
      receiver.stop(0);
    }
  }

  @Test
  void aDroppedFanOutIsRecoveredByTheSdkClientFromHistory() throws Exception {
    Admin admin = chat.admin();
    String room = admin.createRoom("drops", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> bobSees = ChatFixture.record(bob, EventType.NEW_MESSAGE);
    try {
      WebDriverWait wait = signIn(chat.server());
      wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#drop-user option[value='bob']")));
      new Select(browser.findElement(By.id("drop-user"))).selectByValue("bob");
      WebElement count = browser.findElement(By.id("drop-count"));
      count.clear();
      count.sendKeys("1");
      browser.findElement(By.cssSelector("#drop-form button[type='submit']")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("faults"),
          "fan-out to bob dropped for the next 1 events"));

      Message missed = await(alice.sendText(room, "bob's fan-out drops this"));
      Message after = await(alice.sendText(room, "and this one reaches him"));
      // In order and once each: the first bob gets is the dropped one, back-filled from history when the
      // next one showed the gap.
      assertEquals(missed.id(), bobSees.next(m -> room.equals(m.roomId())).id());
      assertEquals(after.id(), bobSees.next(m -> room.equals(m.roomId())).id());
      wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("#faults li")));
    } catch (Exception | AssertionError e) {
      screenshot("console-failure-drops");
      throw e;
    }
  }

  @Test
  void aChangeRedrawsOnlyItsUsersRowAndTheTailFollowsItsEndUntilScrolledUp() throws Exception {
    Admin admin = chat.admin();
    String room = admin.createRoom("busy", "alice", "bob");
    admin.createRoom("idle", "dave"); // dave has no connection: his row never changes
    ChatClient alice = chat.connected("alice");
    JavascriptExecutor page = (JavascriptExecutor) browser;
    try {
      WebDriverWait wait = signIn(chat.server());
      By daveRow = By.cssSelector("#users tr[data-user-id='dave']");
      wait.until(ExpectedConditions.presenceOfElementLocated(daveRow));
      By aliceConnection = By.cssSelector("#users tr[data-user-id='alice'] .conn");
      String before = wait.until(ExpectedConditions.presenceOfElementLocated(aliceConnection)).getText();
      page.executeScript("arguments[0].keptMark = true;", browser.findElement(daveRow));

      // alice's frame counts change (the connections event): her row is drawn again, dave's is the same element.
      By openButton = By.cssSelector("tr[data-room-id='" + room + "'] button");
      wait.until(ExpectedConditions.elementToBeClickable(openButton)).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-room"), "#busy"));
      for (int i = 0; i < 40; i++) {
        await(alice.sendText(room, "line " + i));
      }
      wait.until(d -> !d.findElement(aliceConnection).getText().equals(before));
      assertEquals(Boolean.TRUE, page.executeScript("return document.querySelector(arguments[0]).keptMark === true;",
          "#users tr[data-user-id='dave']"), "an unchanged user's row was drawn again");

      // The tail follows its newest row; scrolled up, it stays; back at the bottom, it follows again.
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail"), "line 39"));
      wait.until(d -> tailAtBottom(page));
      page.executeScript("document.getElementById('tail').scrollTop = 0;");
      await(alice.sendText(room, "while scrolled up"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail"), "while scrolled up"));
      assertEquals(0L, ((Number) page.executeAsyncScript("const done = arguments[0];"
          + " requestAnimationFrame(() => requestAnimationFrame(() => done(document.getElementById('tail')"
          + ".scrollTop)));")).longValue(), "the tail moved while scrolled up");
      page.executeScript("const t = document.getElementById('tail'); t.scrollTop = t.scrollHeight;");
      await(alice.sendText(room, "back at the end"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail"), "back at the end"));
      wait.until(d -> tailAtBottom(page));
    } catch (Exception | AssertionError e) {
      screenshot("console-failure-redraws");
      throw e;
    }
  }

  private static boolean tailAtBottom(JavascriptExecutor page) {
    return (Boolean) page.executeScript("const t = document.getElementById('tail');"
        + " return t.scrollHeight > t.clientHeight && t.scrollTop + t.clientHeight >= t.scrollHeight - 4;");
  }

  /** Clicks what {@code by} finds, finding it again while the page redraws it between the find and the click. */
  private static void clickWhenReady(WebDriverWait wait, By by) {
    wait.until(d -> {
      try {
        WebElement e = d.findElement(by);
        if (!e.isDisplayed() || !e.isEnabled()) return false;
        e.click();
        return true;
      } catch (StaleElementReferenceException | NoSuchElementException redrawn) {
        return false;
      }
    });
  }

  /** Opens the console, signs in with the dev tenant's key and waits until the dev channel is live. */
  private WebDriverWait signIn(ReferenceServer server) {
    browser.get(server.consoleUrl().orElseThrow());
    WebDriverWait wait = new WebDriverWait(browser, PAGE_WAIT);
    browser.findElement(By.id("api-key")).sendKeys(server.apiKey());
    browser.findElement(By.id("sign-in")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("workbench")));
    wait.until(ExpectedConditions.textToBe(By.id("live-status"), "Live."));
    return wait;
  }

  /** Returns how many requests to the dev API the page started after {@code since} (its resource timing). */
  private long devRequestsSince(Object since) {
    Object n = ((JavascriptExecutor) browser).executeScript("return performance.getEntriesByType('resource')"
        + ".filter((e) => e.name.includes('/v1/dev/') && !e.name.includes('socket.io')"
        + " && e.startTime > arguments[0]).length", since);
    return ((Number) n).longValue();
  }

  /** Writes the page as target/NAME.png (best effort: a failed screenshot must not hide the test's failure). */
  private void screenshot(String name) {
    if (ChatFixture.isCluster()) {
      name += "-cluster"; // the console shows the connections of the node it was opened on only
    }
    try {
      File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
      Files.copy(shot.toPath(), Path.of("target", name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      System.err.println("no screenshot " + name + ": " + e);
    }
  }
}
