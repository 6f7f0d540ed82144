package dev.svc.chat.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's first command, run in-process: the chat completes and prints both sides. */
class DemoTest {
  @Test
  void demoChatsThroughTheSdkAndStopsItsServer() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      Demo.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertTrue(out.contains("[bot   sees] #1 alice: Hi bot, are you there?"), out);
    assertTrue(out.contains("[alice sees]") && out.contains("echo-bot: echo: Great. Bye!"), out);
    String history = out.substring(out.indexOf("history, oldest first:\n"));
    assertTrue(history.startsWith("history, oldest first:\n  #1 alice: Hi bot, are you there?\n  #2 "), out);
    assertTrue(history.contains("\n  #6 echo-bot: echo: "), out);
    assertTrue(out.lines().filter(l -> l.startsWith("  [alice sees]")).count() == 6, out);
    assertTrue(out.lines().filter(l -> l.startsWith("  [bot   sees]")).count() == 6, out);
  }
}
