package dev.svc.chat.bench.support;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * The main class of a benchmark's child JVM (a server under test): runs the {@code main} of the class named by its
 * first argument with the rest, and ends the JVM ({@code System.exit(0)}, so its shutdown hooks still run) once its
 * standard input ends. The benchmark holds the write end of that pipe; however the benchmark ends, a kill -9
 * included, the pipe closes with it, so no server it started outlives it. The Node children and the latency peers
 * already stop at the end of their input.
 */
public final class EndsWithParent {
    private EndsWithParent() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: EndsWithParent MAIN_CLASS [ARGS...]");
        }
        Thread watch = new Thread(() -> {
            drain(System.in);
            System.exit(0);
        }, "ends-with-parent");
        watch.setDaemon(true);
        watch.start();
        try {
            Class.forName(args[0]).getMethod("main", String[].class)
                    .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Reads {@code in} to its end (or to an error, which ends it as well). */
    static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // nothing is said on this pipe: only its end counts
            }
        } catch (IOException e) {
            // the pipe broke: the parent is gone all the same
        }
    }
}
