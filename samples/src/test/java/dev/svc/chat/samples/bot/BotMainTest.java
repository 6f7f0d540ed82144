package dev.svc.chat.samples.bot;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's bot command, run in-process: alice tries every command on its embedded server. */
class BotMainTest {
  @Test
  void tryingEveryCommandGetsEveryAnswer() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      BotMain.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("bot: " + ChatBot.HELP + "  (re alice: /help)"), out);
    assertTrue(out.contains("bot: ⏰ alice, reminder: stretch your legs"), out);
    assertTrue(out.contains("reactions now {👍=[bot]}"), out);
    assertTrue(out.endsWith("the bot answered every command, voted, reminded and said thanks\n"), out);
  }
}
