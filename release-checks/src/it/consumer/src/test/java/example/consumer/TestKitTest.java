package example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.testkit.SvcTestServer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test kit on the user's JUnit (the oldest JUnit 5 the kit supports), with the user's Java and Kotlin. */
class TestKitTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();

  @Test
  void aMessageGoesFromOneUserToAnother() throws Exception {
    String room = svc.createRoom("support", "alice", "bob");
    ChatClient bob = svc.connect("bob");
    BlockingQueue<Message> bobSees = new LinkedBlockingQueue<>();
    ChatFeature.collect(bob, bobSees);
    bob.joinRoom(room).get(30, TimeUnit.SECONDS);

    Message sent = KotlinChat.send(svc.connect("alice"), room, "hello bob");
    assertEquals("hello bob", sent.text());
    Message received = bobSees.poll(30, TimeUnit.SECONDS);
    assertNotNull(received, "bob received nothing within 30 s");
    assertEquals("alice", received.senderId());
    assertEquals("hello bob", received.text());
  }
}
