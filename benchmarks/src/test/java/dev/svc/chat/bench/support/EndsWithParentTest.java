package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EndsWithParentTest {

    /** A main that never returns by itself, as a server's. */
    public static final class Forever {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("STARTED " + String.join(",", args));
            System.out.flush();
            Thread keeper = new Thread(() -> {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "keeps-the-jvm");
            keeper.start();
        }
    }

    @Test
    void theChildEndsWhenItsInputEnds() throws Exception {
        Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), EndsWithParent.class.getName(),
                Forever.class.getName(), "a", "b").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("STARTED a,b", out.readLine(), "the main ran with its arguments");
            assertTrue(child.isAlive(), "a main that keeps a thread keeps its JVM");
            child.getOutputStream().close(); // what a benchmark's death does to the pipe
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child outlived its parent's pipe");
            assertEquals(0, child.exitValue());
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMainThatFailsFailsTheJvm() throws IOException, InterruptedException {
        Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), EndsWithParent.class.getName(),
                "no.such.Main").redirectErrorStream(true).start();
        try {
            String said = new String(child.getInputStream().readAllBytes());
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, child.exitValue(), said);
            assertTrue(said.contains("ClassNotFoundException"), said);
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
