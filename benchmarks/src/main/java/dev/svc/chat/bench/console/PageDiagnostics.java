package dev.svc.chat.bench.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.bench.support.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * What the benchmark can record of the page over the measured run, to find where its time and memory go
 * (DevTools opens each file): {@code --cpu-profile FILE} (the JS CPU profile, sampled every 1 ms),
 * {@code --trace FILE} (Chromium's timeline trace events, one JSON message a line: layout, paint, tasks, with
 * their thread CPU time), {@code --heap-profile FILE} (the sampled allocations still alive at the end) and
 * {@code --heap-snapshots PREFIX} (PREFIX-start.heapsnapshot and PREFIX-end.heapsnapshot). None by default:
 * each costs the page some time.
 */
final class PageDiagnostics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChromeDriver browser;
    private final String cpuProfile;
    private final String trace;
    private final String heapProfile;
    private final String snapshots;

    /** Asks {@code options} for the trace's events when {@code --trace} is given (before the browser starts). */
    static void configure(ChromeOptions options, String[] args) {
        if (!Report.option(args, "--trace", "").isEmpty()) {
            options.setExperimentalOption("perfLoggingPrefs", Map.of("traceCategories",
                    "devtools.timeline,disabled-by-default-devtools.timeline"));
            LoggingPreferences logs = new LoggingPreferences();
            logs.enable(LogType.PERFORMANCE, Level.ALL);
            options.setCapability("goog:loggingPrefs", logs);
        }
    }

    PageDiagnostics(ChromeDriver browser, String[] args) {
        this.browser = browser;
        this.cpuProfile = Report.option(args, "--cpu-profile", "");
        this.trace = Report.option(args, "--trace", "");
        this.heapProfile = Report.option(args, "--heap-profile", "");
        this.snapshots = Report.option(args, "--heap-snapshots", "");
    }

    /** Starts what was asked for, at the start of the measured run. */
    void start() throws Exception {
        if (!snapshots.isEmpty()) {
            writeHeapSnapshot(Path.of(snapshots + "-start.heapsnapshot"));
        }
        if (!cpuProfile.isEmpty()) {
            startProfile();
        }
        if (!heapProfile.isEmpty()) {
            startHeapSampling();
        }
    }

    /** Stops what was asked for and writes its files, at the end of the measured run. */
    void stop() throws Exception {
        if (!cpuProfile.isEmpty()) {
            stopProfile(Path.of(cpuProfile));
        }
        if (!heapProfile.isEmpty()) {
            stopHeapSampling(Path.of(heapProfile));
        }
        if (!snapshots.isEmpty()) {
            writeHeapSnapshot(Path.of(snapshots + "-end.heapsnapshot"));
        }
        if (!trace.isEmpty()) {
            try (PrintWriter w = new PrintWriter(trace)) {
                for (LogEntry e : browser.manage().logs().get(LogType.PERFORMANCE)) {
                    w.println(e.getMessage());
                }
            }
        }
    }

    /** Starts the page's JS CPU profiler (the DevTools protocol), sampling every 1 ms. */
    private void startProfile() {
        browser.executeCdpCommand("Profiler.enable", Map.of());
        browser.executeCdpCommand("Profiler.setSamplingInterval", Map.of("interval", 1000));
        browser.executeCdpCommand("Profiler.start", Map.of());
    }

    /** Stops the profiler and writes its profile to {@code file} (a .cpuprofile DevTools opens). */
    private void stopProfile(Path file) throws IOException {
        Object profile = browser.executeCdpCommand("Profiler.stop", Map.of()).get("profile");
        Files.writeString(file, JSON.writeValueAsString(profile));
    }

    /** Starts sampling the page's allocations (the DevTools protocol), one sample per 8 KiB on average. */
    private void startHeapSampling() {
        browser.executeCdpCommand("HeapProfiler.enable", Map.of());
        browser.executeCdpCommand("HeapProfiler.startSampling", Map.of("samplingInterval", 8192));
    }

    /**
     * After a forced collection, writes what is still alive of the sampled allocations to {@code file} (a
     * .heapprofile DevTools opens: the stacks that allocated what the page holds).
     */
    private void stopHeapSampling(Path file) throws IOException {
        browser.executeCdpCommand("HeapProfiler.collectGarbage", Map.of());
        Object profile = browser.executeCdpCommand("HeapProfiler.stopSampling", Map.of()).get("profile");
        Files.writeString(file, JSON.writeValueAsString(profile));
    }

    /**
     * Writes a heap snapshot of the page to {@code file} (a .heapsnapshot DevTools opens: what holds what),
     * taken over a DevTools WebSocket of its own to the page, which delivers the snapshot's chunks in order.
     */
    private void writeHeapSnapshot(Path file) throws Exception {
        Map<?, ?> chrome = (Map<?, ?>) browser.getCapabilities().getCapability("goog:chromeOptions");
        String address = (String) chrome.get("debuggerAddress");
        HttpClient http = HttpClient.newHttpClient();
        JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/json"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        String url = null;
        for (JsonNode t : targets) {
            if ("page".equals(t.path("type").asText())) {
                url = t.path("webSocketDebuggerUrl").asText();
            }
        }
        Writer out = Files.newBufferedWriter(file);
        CompletableFuture<Void> done = new CompletableFuture<>();
        StringBuilder frame = new StringBuilder();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(url),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        frame.append(data);
                        if (last) {
                            try {
                                JsonNode m = JSON.readTree(frame.toString());
                                if ("HeapProfiler.addHeapSnapshotChunk".equals(m.path("method").asText())) {
                                    out.write(m.path("params").path("chunk").asText());
                                } else if (m.path("id").asInt() == 1) {
                                    done.complete(null);
                                }
                            } catch (IOException e) {
                                done.completeExceptionally(e);
                            }
                            frame.setLength(0);
                        }
                        w.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        ws.sendText("{\"id\":1,\"method\":\"HeapProfiler.takeHeapSnapshot\",\"params\":{\"reportProgress\":false}}",
                true);
        done.get(300, TimeUnit.SECONDS);
        ws.abort();
        out.close();
    }
}
