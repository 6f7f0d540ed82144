package dev.svc.chat.it;

import dev.svc.chat.reference.ReferenceServer;
import org.junit.jupiter.api.Test;

/** After close(), a JVM whose only other threads are the client's exits at once. */
class JvmExitAfterCloseTest {
  @Test
  void childJvmExitsPromptlyAfterClose() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().port(0).build().start()) {
      Admin admin = new Admin(server.apiUrl(), server.apiKey());
      String room = admin.createRoom("exit", "alice");
      ChildJvm.assertExitsAfter(ChatThenCloseMain.class, "closed", server.apiUrl(), "alice", admin.mint("alice"),
          room);
    }
  }
}
