package dev.svc.chat.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.SendAck;
import org.junit.jupiter.api.Test;

/**
 * A send's weight in the socket's budget bounds the UTF-8 bytes of its frame from above, whatever its text: the
 * budget then bounds the socket's queue. Characters cost 1 (ASCII) to 6 bytes (a control character escaped).
 */
class SocketSendBudgetWeightTest {
  private static final String ID = "0f8fad5b-d9cb-469f-a165-70867728950e";

  private static long frameBytes(String roomId, List<MessagePart> parts) {
    String frame = "42" + Integer.MAX_VALUE + "[\"send-message\"," + SendAck.payload(roomId, parts, ID, "alice") + "]";
    return frame.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String repeat(String s, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) b.append(s);
    return b.toString();
  }

  @Test
  void theWeightBoundsTheFrameForEveryKindOfCharacter() {
    List<String> texts = Arrays.asList(repeat("a", 4_000), repeat("\u0001", 4_000), repeat("\"\\", 2_000),
        repeat("\u00e9", 4_000), repeat("\u6f22", 4_000), repeat("\ud83d\ude00", 2_000), repeat("\u2028", 4_000),
        repeat("\n\t\u007f", 1_333), "");
    for (String text : texts) {
      List<MessagePart> parts = new ArrayList<>();
      for (int i = 0; i < 10; i++) parts.add(MessagePart.text(text));
      parts.add(MessagePart.builder("image").rawField("url", "\"https://x.test/\\u2028\"").rawField("n", "1").build());
      long weight = SocketSendBudget.weight("r\u00e9", parts, ID, "alice");
      long bytes = frameBytes("r\u00e9", parts);
      assertTrue(weight >= bytes, "text of " + (int) (text.isEmpty() ? 0 : text.charAt(0)) + ": weight " + weight
          + " < " + bytes + " bytes");
    }
  }

  @Test
  void theWeightOfTextWithoutEscapesIsNearItsBytes() {
    for (String text : Arrays.asList(repeat("a", 4_000), repeat("\u00e9", 4_000), repeat("\u6f22", 4_000),
        repeat("\ud83d\ude00", 2_000))) {
      List<MessagePart> parts = new ArrayList<>();
      for (int i = 0; i < 10; i++) parts.add(MessagePart.text(text));
      long weight = SocketSendBudget.weight("r1", parts, ID, "alice");
      long bytes = frameBytes("r1", parts);
      assertTrue(weight >= bytes && weight <= bytes + 400, "weight " + weight + " for " + bytes + " bytes");
    }
  }
}
