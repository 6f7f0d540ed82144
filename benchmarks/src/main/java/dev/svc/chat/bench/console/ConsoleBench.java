package dev.svc.chat.bench.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.reference.ReferenceServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console under load (issue 33's figures): a reference server with {@code --clients} gateway connections
 * (raw Engine.IO/Socket.IO clients on the JDK's WebSocket, answering pings) and {@code --rate} REST sends a
 * second into the room the console has open, watched by the console in Debian's headless Chromium (Selenium,
 * chromedriver). Each message's text carries its send time; a MutationObserver in the page notes when its row
 * is added, so the latency is from just before the send's request to the row in the DOM (the same machine's
 * wall clock on both sides, to the millisecond). The page's JS heap is read through the DevTools protocol after
 * a forced collection, every {@code --heap-every} seconds, over {@code --seconds}.
 *
 * <p>Arguments: {@code --clients 1000}, {@code --rate 200}, {@code --seconds 90}, {@code --heap-every 15},
 * {@code --out FILE}. Needs /usr/bin/chromium and /usr/bin/chromedriver.
 */
public final class ConsoleBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROOM_MEMBERS = 20;
    private static final int IN_FLIGHT = 16;

    private ConsoleBench() {
    }

    public static void main(String[] args) throws Exception {
        int clients = Integer.parseInt(Report.option(args, "--clients", "1000"));
        double rate = Double.parseDouble(Report.option(args, "--rate", "200"));
        int seconds = Integer.parseInt(Report.option(args, "--seconds", "90"));
        int heapEvery = Integer.parseInt(Report.option(args, "--heap-every", "15"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<WebSocket> sockets = new ArrayList<>();
        ChromeDriverService service = null;
        ChromeDriver browser = null;
        try (ReferenceServer server = ReferenceServer.builder().sendRateLimit(10_000, 10_000).build().start()) {
            String api = server.apiUrl();
            String key = server.apiKey();
            List<String> members = new ArrayList<>();
            for (int i = 0; i < ROOM_MEMBERS; i++) {
                members.add("member" + i);
            }
            String room = post(http, api + "/chat/rooms", key, Map.of("name", "watched", "memberIds", members))
                    .get("id").textValue();
            // The other clients: rooms of ROOM_MEMBERS each, connected and idle, as a busy tenant's would be.
            List<String> users = new ArrayList<>(members);
            for (int i = ROOM_MEMBERS; i < clients; i++) {
                users.add("user" + i);
            }
            for (int i = ROOM_MEMBERS; i < clients; i += ROOM_MEMBERS) {
                post(http, api + "/chat/rooms", key, Map.of("memberIds", users.subList(i, Math.min(clients,
                        i + ROOM_MEMBERS))));
            }
            List<String> tokens = new ArrayList<>();
            for (String user : users) {
                tokens.add(post(http, api + "/auth/token", key, Map.of("userId", user, "expiresIn", 86_400))
                        .get("token").textValue());
            }
            long connectStart = System.nanoTime();
            AtomicLong framesIn = new AtomicLong();
            List<CompletableFuture<WebSocket>> opening = new ArrayList<>();
            Semaphore handshakes = new Semaphore(64);
            for (String token : tokens) {
                handshakes.acquire();
                CompletableFuture<Void> connected = new CompletableFuture<>();
                opening.add(http.newWebSocketBuilder().buildAsync(URI.create(server.socketUrl()),
                        new Client(token, framesIn, connected)).thenCompose(ws -> connected.thenApply(v -> ws))
                        .whenComplete((ws, e) -> handshakes.release()));
            }
            for (CompletableFuture<WebSocket> f : opening) {
                sockets.add(f.get(120, TimeUnit.SECONDS));
            }
            double connectSeconds = (System.nanoTime() - connectStart) / 1e9;

            service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of("/usr/bin/chromedriver")
                    .toFile()).usingAnyFreePort().build();
            ChromeOptions options = new ChromeOptions();
            options.setBinary(Path.of("/usr/bin/chromium").toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1280,800", "--no-first-run", "--disable-extensions");
            browser = new ChromeDriver(service, options);
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            browser.get(server.consoleUrl().orElseThrow());
            browser.findElement(By.id("api-key")).sendKeys(key);
            browser.findElement(By.id("sign-in")).click();
            wait.until(ExpectedConditions.textToBe(By.id("live-status"), "Live."));
            wait.until(ExpectedConditions.elementToBeClickable(
                    By.cssSelector("tr[data-room-id='" + room + "'] button"))).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-room"), "#watched"));
            browser.executeScript(OBSERVER);

            List<Double> latencies = new ArrayList<>();
            List<double[]> heap = new ArrayList<>();
            heap.add(new double[] {0, heapMb(browser)});
            AtomicInteger failed = new AtomicInteger();
            AtomicInteger sent = new AtomicInteger();
            Semaphore window = new Semaphore(IN_FLIGHT);
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long nextHeap = start + TimeUnit.SECONDS.toNanos(heapEvery);
            for (int i = 0; System.nanoTime() < end; i++) {
                long due = start + (long) (i * 1e9 / rate);
                for (long wait2 = due - System.nanoTime(); wait2 > 0; wait2 = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait2);
                }
                if (System.nanoTime() >= nextHeap) {
                    collect(browser, latencies);
                    heap.add(new double[] {(System.nanoTime() - start) / 1e9, heapMb(browser)});
                    nextHeap += TimeUnit.SECONDS.toNanos(heapEvery);
                    continue; // the measurement held this thread: catch up, at the same schedule
                }
                window.acquire();
                String text = "bench " + System.currentTimeMillis();
                String body = JSON.writeValueAsString(Map.of("clientMessageId", "b" + i,
                        "parts", List.of(Map.of("type", "text", "text", text))));
                http.sendAsync(request(api + "/chat/rooms/" + room + "/messages", tokens.get(i % ROOM_MEMBERS),
                        body), HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
                            if (e != null || r.statusCode() / 100 != 2) {
                                failed.incrementAndGet();
                            }
                            window.release();
                        });
                sent.incrementAndGet();
            }
            window.acquire(IN_FLIGHT);
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < settle && latencies.size() < sent.get() - failed.get()) {
                collect(browser, latencies);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a deadline-bounded wait for rows
            }
            collect(browser, latencies);
            heap.add(new double[] {(System.nanoTime() - start) / 1e9, heapMb(browser)});
            report(args, new int[] {clients, seconds, heapEvery}, rate, connectSeconds, sent.get(), failed.get(),
                    latencies, heap, framesIn.get());
        } finally {
            if (browser != null) {
                browser.quit();
            }
            if (service != null) {
                service.stop();
            }
            for (WebSocket ws : sockets) {
                ws.abort();
            }
        }
    }

    /**
     * Notes the latency of each row the tail gets (its text carries the send time), in window.benchLatencies;
     * the tail's rows are replaced on every draw, so a message is counted once, by its id.
     */
    private static final String OBSERVER = ""
            + "window.benchLatencies = []; window.benchSeen = new Set();"
            + "new MutationObserver(() => {"
            + "  const now = performance.timeOrigin + performance.now();"
            + "  for (const li of document.querySelectorAll('#tail li')) {"
            + "    const id = li.dataset.messageId;"
            + "    if (window.benchSeen.has(id)) continue;"
            + "    window.benchSeen.add(id);"
            + "    const m = /bench (\\d+)/.exec(li.textContent);"
            + "    if (m) window.benchLatencies.push(now - Number(m[1]));"
            + "  }"
            + "  if (window.benchSeen.size > 5000) window.benchSeen = new Set([...window.benchSeen].slice(-1000));"
            + "}).observe(document.getElementById('tail'), { childList: true });";

    @SuppressWarnings("unchecked")
    private static void collect(ChromeDriver browser, List<Double> into) {
        List<Object> taken = (List<Object>) browser.executeScript(
                "const l = window.benchLatencies; window.benchLatencies = []; return l;");
        for (Object o : taken) {
            into.add(((Number) o).doubleValue());
        }
    }

    /** Returns the page's used JS heap after a forced collection, in MB (the DevTools protocol). */
    private static double heapMb(ChromeDriver browser) {
        browser.executeCdpCommand("HeapProfiler.collectGarbage", Map.of());
        browser.executeCdpCommand("Performance.enable", Map.of());
        Map<String, Object> metrics = browser.executeCdpCommand("Performance.getMetrics", Map.of());
        for (Object m : (List<?>) metrics.get("metrics")) {
            Map<?, ?> metric = (Map<?, ?>) m;
            if ("JSHeapUsedSize".equals(metric.get("name"))) {
                return ((Number) metric.get("value")).doubleValue() / 1e6;
            }
        }
        return Double.NaN;
    }

    /** Writes the section; {@code run} is {clients, seconds, heapEvery}. */
    private static void report(String[] args, int[] run, double rate, double connectSeconds, int sent, int failed,
                               List<Double> latencies, List<double[]> heap, long framesIn) throws Exception {
        int clients = run[0];
        int seconds = run[1];
        String load = java.nio.file.Files.exists(Path.of("/proc/loadavg"))
                ? java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0] : "unknown";
        double[] values = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double p50 = values.length > 0 ? Report.percentile(values, 50) : Double.NaN;
        double p99 = values.length > 0 ? Report.percentile(values, 99) : Double.NaN;
        double heapFirst = heap.get(0)[1];
        double heapLast = heap.get(heap.size() - 1)[1];
        double heapMax = heap.stream().mapToDouble(h -> h[1]).max().orElse(Double.NaN);
        Report report = new Report("Console under load");
        report.paragraph("The web console (docs/console.md) in Debian's headless Chromium, signed in and watching a "
                + "room, while the reference server has " + clients + " connected gateway clients (raw Socket.IO "
                + "clients on the JDK's WebSocket, in rooms of " + ROOM_MEMBERS + ") and " + Report.num(rate, 0)
                + " REST sends a second go into the watched room, for " + seconds + " s (connecting them took "
                + Report.num(connectSeconds, 1) + " s). Latency is from just before a send's request to its row "
                + "in the page's message tail (a MutationObserver, same wall clock); the page draws the dev "
                + "channel's events in 50 ms batches and keeps 200 rows. The JS heap is the page's used heap after "
                + "a forced collection (DevTools protocol), every " + run[2] + " s. Issue 33's targets: p99 at most 250 ms, a "
                + "flat heap over 10 minutes (this run is shorter: `--seconds 600` for the issue's length).");
        report.table("measure", "value")
                .row("sends (failed)", sent + " (" + failed + ")")
                .row("rows seen in the page", values.length)
                .row("send to row p50", Report.num(p50, 1) + " ms")
                .row("send to row p99", Report.num(p99, 1) + " ms")
                .row("JS heap first / last / max", Report.num(heapFirst, 1) + " / " + Report.num(heapLast, 1)
                        + " / " + Report.num(heapMax, 1) + " MB")
                .row("frames the clients received", framesIn)
                .row("load average (1 min) at the end, " + Runtime.getRuntime().availableProcessors() + " cores", load)
                .end();
        report.result("console.row.p99", p99, Double.NaN, "ms");
        report.result("console.heap.growth", heapLast - heapFirst, Double.NaN, "MB");
        report.write(args);
    }

    private static JsonNode post(HttpClient http, String url, String credential, Object body) throws Exception {
        HttpResponse<String> r = http.send(request(url, credential, JSON.writeValueAsString(body)),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("POST " + url + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private static HttpRequest request(String url, String credential, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        return credential.startsWith("sk_") ? b.header("x-api-key", credential).build()
                : b.header("authorization", "Bearer " + credential).build();
    }

    /** One gateway client: CONNECTs with its token, answers pings, counts what it receives. */
    private static final class Client implements WebSocket.Listener {
        private final String token;
        private final AtomicLong framesIn;
        private final CompletableFuture<Void> connected;
        private final StringBuilder partial = new StringBuilder();

        Client(String token, AtomicLong framesIn, CompletableFuture<Void> connected) {
            this.token = token;
            this.framesIn = framesIn;
            this.connected = connected;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String frame = partial.toString();
                partial.setLength(0);
                framesIn.incrementAndGet();
                if (frame.startsWith("0{")) {
                    ws.sendText("40{\"token\":\"" + token + "\"}", true);
                } else if (frame.equals("2")) {
                    ws.sendText("3", true);
                } else if (frame.startsWith("40{")) {
                    connected.complete(null);
                } else if (frame.startsWith("44")) {
                    connected.completeExceptionally(new IllegalStateException(frame));
                }
            }
            ws.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            connected.completeExceptionally(error);
        }
    }
}
