package dev.svc.chat.bench.console;

import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What the benchmark measures inside the console's page, on the page's own clock: a script the DevTools protocol
 * adds before the page's own scripts notes, for each bench message ({@code "bench N"}), when its frame reached
 * the page's WebSocket, when its row was added to the tail (a MutationObserver on the tail's added rows: the
 * task that drew it) and the start of the next animation frame after that (the frame that paints it), in
 * {@code performance.now()} milliseconds. Nothing is polled: the benchmark drains the notes now and then, and
 * maps the page's clock onto its own ({@link #offsetMs}). Also counts the page's long tasks (over 50 ms). The
 * probe's own memory is bounded: a note leaves the page when drained, and the ids seen are kept 4,000 deep.
 */
final class PageProbe {

    /** One bench message as the page saw it, in the page's milliseconds (NaN when not seen). */
    record Seen(int index, double arrived, double row, double frame) {
    }
    private static final String SOURCE = ""
            + "(() => {"
            + "  const b = window.__bench = { arrived: new Map(), done: new Set(), out: [], longTasks: 0,"
            + "    longTaskMs: 0 };"
            + "  const re = /\"text\":\"bench (\\d+)\"/g;"
            + "  const Native = window.WebSocket;"
            + "  window.WebSocket = class extends Native {"
            + "    constructor(...args) {"
            + "      super(...args);"
            + "      this.addEventListener('message', (e) => {"
            + "        if (typeof e.data !== 'string' || e.data.indexOf('\"text\":\"bench ') < 0) return;"
            + "        const t = performance.now();"
            + "        for (const m of e.data.matchAll(re)) {"
            + "          const id = Number(m[1]);"
            + "          if (!b.arrived.has(id) && !b.done.has(id)) b.arrived.set(id, t);"
            + "        }"
            + "      });"
            + "    }"
            + "  };"
            + "  const watch = () => {"
            + "    const tail = document.getElementById('tail');"
            + "    new MutationObserver((records) => {"
            + "      const t = performance.now();"
            + "      const fresh = [];"
            + "      for (const r of records) {"
            + "        for (const n of r.addedNodes) {"
            + "          const text = n.querySelector ? n.querySelector('.text') : null;"
            + "          const m = text ? /^bench (\\d+)$/.exec(text.textContent) : null;"
            + "          if (!m) continue;"
            + "          const id = Number(m[1]);"
            + "          if (b.done.has(id)) continue;"
            + "          b.done.add(id); b.done.delete(id - 4000);" // ids go up: the set stays bounded
            + "          const at = b.arrived.has(id) ? b.arrived.get(id) : NaN;"
            + "          b.arrived.delete(id);"
            + "          fresh.push([id, at, t]);"
            + "        }"
            + "      }"
            + "      if (fresh.length) requestAnimationFrame(() => {"
            + "        const f = performance.now();"
            + "        for (const s of fresh) { s.push(f); b.out.push(s); }"
            + "      });"
            + "    }).observe(tail, { childList: true });"
            + "    new PerformanceObserver((list) => {"
            + "      for (const e of list.getEntries()) { b.longTasks++; b.longTaskMs += e.duration; }"
            + "    }).observe({ type: 'longtask' });"
            + "  };"
            + "  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);"
            + "  else watch();"
            + "})();";

    private final ChromeDriver browser;

    private PageProbe(ChromeDriver browser) {
        this.browser = browser;
    }

    /** Adds the probe to every document {@code browser} loads from now on (call before loading the page). */
    static PageProbe install(ChromeDriver browser) {
        browser.executeCdpCommand("Page.enable", Map.of());
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", SOURCE));
        return new PageProbe(browser);
    }

    /**
     * Returns the page's clock minus {@code System.nanoTime()}, in ms: the best of 5 round trips (the page's
     * time against the middle of the round trip); both are monotonic clocks, so it holds for the run (the
     * benchmark measures it again at the end to show the drift).
     */
    double offsetMs() {
        double best = Double.NaN;
        long bestRoundTrip = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            double page = ((Number) evaluate("performance.now()")).doubleValue();
            long t1 = System.nanoTime();
            if (t1 - t0 < bestRoundTrip) {
                bestRoundTrip = t1 - t0;
                best = page - (t0 + (t1 - t0) / 2) / 1e6;
            }
        }
        return best;
    }

    /** Takes the notes of the rows drawn since the last call. */
    @SuppressWarnings("unchecked")
    List<Seen> drain() {
        List<Object> taken = (List<Object>) evaluate(
                "(() => { const l = window.__bench.out; window.__bench.out = []; return l; })()");
        return taken.stream().map(o -> {
            List<Object> s = (List<Object>) o;
            return new Seen(((Number) s.get(0)).intValue(), number(s.get(1)), number(s.get(2)), number(s.get(3)));
        }).toList();
    }

    /** Returns {count, total ms} of the page's long tasks so far. */
    @SuppressWarnings("unchecked")
    double[] longTasks() {
        List<Object> l = (List<Object>) evaluate("[window.__bench.longTasks, window.__bench.longTaskMs]");
        return new double[] {number(l.get(0)), number(l.get(1))};
    }

    /** Returns the page's used JS heap after a forced collection, in MB (the DevTools protocol). */
    double heapMb() {
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

    /**
     * Returns the value of {@code expression} in the page, through the DevTools protocol by value. Not Selenium's
     * executeScript: the page's DevTools keeps each of its results in the page's JS heap (a global handle of
     * "DevTools console"), some 20 KB a drain here, which a 10-minute run would count as the page's growth.
     */
    private Object evaluate(String expression) {
        Map<String, Object> answer = browser.executeCdpCommand("Runtime.evaluate", Map.of("expression", expression,
                "returnByValue", true));
        return ((Map<?, ?>) answer.get("result")).get("value");
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
