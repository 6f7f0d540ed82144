package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertSame;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.FakeChatClient;
import dev.svc.chat.testing.RecordingLogger;
import org.junit.jupiter.api.Test;

class ClientLoggersTest {
  @Test
  void aClientMadeBySvcInitLendsItsOptionsLoggerToItsHelpers() {
    RecordingLogger logger = new RecordingLogger();
    try (ChatClient client = Svc.init(SvcOptions.builder("http://127.0.0.1:9/v1").logger(logger).build())) {
      assertSame(logger, ClientLoggers.of(client));
    }
  }

  @Test
  void anyOtherClientHasNone() {
    assertSame(ChatLogger.NONE, ClientLoggers.of(new FakeChatClient()));
  }
}
