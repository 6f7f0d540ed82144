package dev.svc.chat.bench.support;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** The machine's load average, which every section prints before and after its run. */
public final class LoadAverage {
    private LoadAverage() {
    }

    /** Returns the 1- and 5-minute load averages as {@code "1.23 / 4.56"}, or {@code "unknown"} without /proc. */
    public static String now() {
        try {
            String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.UTF_8).split(" ");
            return f[0] + " / " + f[1];
        } catch (Exception e) {
            return "unknown";
        }
    }
}
