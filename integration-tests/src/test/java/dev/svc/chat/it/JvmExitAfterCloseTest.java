package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.ReferenceServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** After close(), a JVM whose only other threads are the client's exits at once. */
class JvmExitAfterCloseTest {
  @Test
  void childJvmExitsPromptlyAfterClose() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().port(0).build().start()) {
      Admin admin = new Admin(server.apiUrl(), server.apiKey());
      String room = admin.createRoom("exit", "alice");
      String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
      Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
          ChatThenCloseMain.class.getName(), server.apiUrl(), "alice", admin.mint("alice"), room)
          .redirectErrorStream(true)
          .start();
      try {
        StringBuilder output = new StringBuilder();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
          try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
              synchronized (output) {
                output.append(line).append('\n');
              }
              if (line.equals("closed")) closed.complete(null);
            }
          } catch (Exception ignored) {
            // The child is gone.
          }
          closed.complete(null);
        }, "child-output");
        reader.setDaemon(true);
        reader.start();

        closed.get(60, TimeUnit.SECONDS);
        // main() has returned; a leaked non-daemon thread (OkHttp's dispatcher keeps idle ones for
        // 60 s, a forgotten executor forever) would keep the JVM alive well past this.
        boolean exited = child.waitFor(5, TimeUnit.SECONDS);
        reader.join(5000);
        String out;
        synchronized (output) {
          out = output.toString();
        }
        assertTrue(out.contains("closed"), out);
        assertTrue(exited, "child JVM still running 5 s after close() returned; output:\n" + out);
        assertEquals(0, child.exitValue(), out);
      } finally {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
