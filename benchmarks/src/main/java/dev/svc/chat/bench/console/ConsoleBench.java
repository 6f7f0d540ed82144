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
import java.util.stream.Collectors;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console under load: a reference server with {@code --clients} gateway connections
 * (raw Engine.IO/Socket.IO clients on the JDK's WebSocket, answering pings) and {@code --rate} REST sends a
 * second into the room the console has open, watched by the console in Debian's headless Chromium (Selenium,
 * chromedriver). Each message's text is {@code "bench N"}; the page notes when its frame arrived and its row was
 * drawn, on its own clock ({@link PageProbe}), and the latency is from just before the send's request to that
 * note. The page's JS heap is read through the DevTools protocol after a forced collection, every
 * {@code --heap-every} seconds, over {@code --seconds} (600 for the heap measurement, a section of its own).
 *
 * <p>Arguments: {@code --clients 1000}, {@code --rate 200}, {@code --seconds 90}, {@code --heap-every 15},
 * {@code --out FILE}, and those of {@link PageDiagnostics}. Needs /usr/bin/chromium and /usr/bin/chromedriver.
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
            PageDiagnostics.configure(options, args);
            browser = new ChromeDriver(service, options);
            PageProbe probe = PageProbe.install(browser);
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            browser.get(server.consoleUrl().orElseThrow());
            browser.findElement(By.id("api-key")).sendKeys(key);
            browser.findElement(By.id("sign-in")).click();
            wait.until(ExpectedConditions.textToBe(By.id("live-status"), "Live."));
            wait.until(ExpectedConditions.elementToBeClickable(
                    By.cssSelector("tr[data-room-id='" + room + "'] button"))).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-room"), "#watched"));
            // as a developer watching the tail has it: in view (below the thousand users' rows)
            browser.executeScript("document.getElementById('tail-section').scrollIntoView();");

            ConsoleRun run = new ConsoleRun(probe, (int) Math.ceil(rate * seconds) + 1);
            run.offsetStart = probe.offsetMs();
            PageDiagnostics diagnostics = new PageDiagnostics(browser, args);
            diagnostics.start();
            run.heap.add(new double[] {0, probe.heapMb()});
            AtomicInteger failed = new AtomicInteger();
            Semaphore window = new Semaphore(IN_FLIGHT);
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            // The browser is driven from this one thread (chromedriver takes one command at a time): the sends
            // keep their schedule while it drains the notes and forces the collections.
            Thread monitor = new Thread(() -> run.monitor(start, end, heapEvery), "console-bench-monitor");
            monitor.start();
            int sent = 0;
            for (int i = 0; i < run.sentAt.length; i++) {
                long due = start + (long) (i * 1e9 / rate);
                if (due >= end) {
                    break;
                }
                for (long wait2 = due - System.nanoTime(); wait2 > 0; wait2 = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait2);
                }
                window.acquire();
                String body = JSON.writeValueAsString(Map.of("clientMessageId", "b" + i,
                        "parts", List.of(Map.of("type", "text", "text", "bench " + i))));
                run.sentAt[i] = System.nanoTime();
                http.sendAsync(request(api + "/chat/rooms/" + room + "/messages", tokens.get(i % ROOM_MEMBERS),
                        body), HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
                            if (e != null || r.statusCode() / 100 != 2) {
                                failed.incrementAndGet();
                            }
                            window.release();
                        });
                sent++;
            }
            window.acquire(IN_FLIGHT);
            monitor.join();
            run.rethrow();
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < settle && run.seen.size() < sent - failed.get()) {
                run.drain();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a deadline-bounded wait for rows
            }
            run.drain();
            run.offsetEnd = probe.offsetMs();
            diagnostics.stop();
            run.heap.add(new double[] {(System.nanoTime() - start) / 1e9, probe.heapMb()});
            report(args, new int[] {clients, seconds, heapEvery}, rate, connectSeconds, sent, failed.get(), run,
                    framesIn.get());
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

    /** Writes the section; {@code run} is {clients, seconds, heapEvery}. */
    private static void report(String[] args, int[] run, double rate, double connectSeconds, int sent, int failed,
                               ConsoleRun r, long framesIn) throws Exception {
        int clients = run[0];
        int seconds = run[1];
        boolean long10 = seconds >= 600;
        String load = java.nio.file.Files.exists(Path.of("/proc/loadavg"))
                ? java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim() : "unknown";
        double[] row = r.latencies(ConsoleRun.ROW);
        double[] frame = r.latencies(ConsoleRun.FRAME);
        double[] socket = r.latencies(ConsoleRun.SOCKET);
        double[] inPage = r.latencies(ConsoleRun.IN_PAGE);
        double heapFirst = r.heap.get(0)[1];
        double heapLast = r.heap.get(r.heap.size() - 1)[1];
        double heapMax = r.heap.stream().mapToDouble(h -> h[1]).max().orElse(Double.NaN);
        double[] longTasks = r.longTasks;
        Report report = new Report(long10 ? "Console under load: " + seconds / 60 + " minutes" : "Console under load");
        report.paragraph("The web console (docs/console.md) in Debian's headless Chromium (1280×800), signed in and "
                + "watching a room with its message tail scrolled into view, while the reference server has "
                + clients + " connected gateway clients (raw Socket.IO clients on the JDK's WebSocket, in rooms of "
                + ROOM_MEMBERS + ") and " + Report.num(rate, 0) + " REST sends a second go into the watched room, "
                + "for " + seconds + " s (connecting them took " + Report.num(connectSeconds, 1) + " s). The page "
                + "notes its own times, on its monotonic clock (a script the DevTools protocol adds before the "
                + "console's): when a message's frame is handed to its WebSocket's listeners (on the page's main "
                + "thread, so a busy page delays it too), when its row is added to the tail (a MutationObserver) "
                + "and the start of the next animation frame (the frame that paints it). The benchmark maps that "
                + "clock onto its `System.nanoTime()` by the best of 5 round trips (the drift over the run is "
                + "shown) and drains the notes every second from a thread of its own: nothing is polled, and "
                + "the sends keep their schedule. Latency is from just before a send's request to each note. The "
                + "JS heap is the page's used heap after a forced collection (DevTools protocol), every " + run[2]
                + " s. "
                + (long10 ? "This run is the heap measurement: is the page's heap flat over 10 minutes of "
                        + "that load? (`benchmarks/run console` measures the latency over 90 s.) "
                        : "The targets: p99 at most 250 ms (this run) and a flat heap over 10 minutes "
                        + "(`benchmarks/run console-10min`: the same load for 600 s, the heap every 30 s). ")
                + "Load average: 1, 5 and 15 minutes, at the end, " + Runtime.getRuntime().availableProcessors()
                + " cores; on a loaded machine the page waits for a core, and its latencies with it.");
        report.table("measure", "p50 (ms)", "p99 (ms)", "max (ms)")
                .row("send to row in the tail", pct(row, 50), pct(row, 99), pct(row, 100))
                .row("send to the next frame after the row", pct(frame, 50), pct(frame, 99), pct(frame, 100))
                .row("of which: send to the page's WebSocket", pct(socket, 50), pct(socket, 99), pct(socket, 100))
                .row("of which: WebSocket to row (the page)", pct(inPage, 50), pct(inPage, 99), pct(inPage, 100))
                .end();
        report.table("measure", "value")
                .row("sends (failed)", sent + " (" + failed + ")")
                .row("rows seen in the page", row.length)
                .row("page clock offset drift over the run", Report.num(r.offsetEnd - r.offsetStart, 2) + " ms")
                .row("page long tasks (over 50 ms): count, total", Report.num(longTasks[0], 0) + ", "
                        + Report.num(longTasks[1], 0) + " ms")
                .row("JS heap first / last / max", Report.num(heapFirst, 2) + " / " + Report.num(heapLast, 2)
                        + " / " + Report.num(heapMax, 2) + " MB")
                .row("JS heap every " + run[2] + " s (MB)", r.heap.stream().map(h -> Report.num(h[1], 2))
                        .collect(Collectors.joining(" ")))
                .row("frames the clients received", framesIn)
                .row("load average at the end", load)
                .end();
        String prefix = long10 ? "console.10min." : "console.";
        if (!long10) {
            report.result("console.row.p99", Report.percentile(row, 99), Double.NaN, "ms");
        }
        report.result(prefix + "heap.growth", heapLast - heapFirst, Double.NaN, "MB");
        report.write(args);
    }

    private static String pct(double[] sorted, double p) {
        return sorted.length == 0 ? "-" : Report.num(Report.percentile(sorted, p), 1);
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
