package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * sdk-core is the jar an app bundles, and an API key never belongs in an app: no class of its main output
 * may send the {@code x-api-key} header, offer an {@code apiKey} handshake, or reach the server package
 * ({@code dev.svc.chat.server}, the artifact {@code svc-chat-server-sdk}). Class files keep every string
 * constant and every referenced class name in their constant pool as (modified) UTF-8, which is plain ASCII
 * for these needles, so a case-insensitive search of the bytes finds any use; it can only over-report.
 */
class NoApiKeyPathTest {
  private static final String[] FORBIDDEN = {"x-api-key", "apikey", "dev/svc/chat/server", "dev.svc.chat.server"};

  @Test
  void noMainClassSendsAnApiKeyOrReachesTheServerPackage() throws IOException, URISyntaxException {
    Path classes = Paths.get(ChatClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(Files.isDirectory(classes.resolve("dev/svc/chat")), "not sdk-core's main output: " + classes);
    List<String> found = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        scanned++;
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        for (String needle : FORBIDDEN) {
          if (text.contains(needle)) found.add(classes.relativize(file) + ": " + needle);
        }
      }
    }
    assertTrue(scanned > 100, "only " + scanned + " classes under " + classes);
    assertEquals(List.of(), found, "API-key code paths in the client jar");
  }
}
