package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The typing line on a manual clock: a typer who vanishes without typing=false leaves it after the timeout. */
class ChatModelTypingTest {
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final ChatModel model = new ChatModel("alice", now::get);

  private void open(String roomId) {
    Room room = Room.builder().id(roomId).name(roomId).memberIds(List.of("alice", "bob", "carol"))
        .createdAt(now.get()).build();
    model.rooms(new RoomList(List.of(new RoomSummary(room, null, 0, false, now.get())), 0, false, false));
    model.select(roomId);
  }

  @Test
  void aTyperWhoGoesSilentLeavesTheLineAfterTheTimeout() {
    open("r1");
    AtomicInteger changes = new AtomicInteger();
    model.addListener(changes::incrementAndGet);
    model.typing("r1", "bob", true);
    assertEquals("bob is typing…", model.typingLine());

    now.addAndGet(ChatModel.TYPING_TIMEOUT_MILLIS - 1);
    assertFalse(model.expireTyping());
    assertEquals("bob is typing…", model.typingLine());
    model.typing("r1", "bob", true); // the typer's controller repeats typing=true while bob types
    model.typing("r1", "carol", true);
    now.addAndGet(ChatModel.TYPING_TIMEOUT_MILLIS - 1);
    assertEquals("bob and carol are typing…", model.typingLine());

    now.addAndGet(1); // no typing=false ever came: bob and carol closed their apps
    assertEquals("", model.typingLine());
    int before = changes.get();
    assertTrue(model.expireTyping());
    assertEquals(before + 1, changes.get(), "the window is told to render the empty line");
    assertFalse(model.expireTyping());
  }

  @Test
  void aMessageFromTheTyperEndsTheirTyping() {
    open("r1");
    model.typing("r1", "bob", true);
    model.typing("r1", "carol", true);
    model.arrived(Message.builder().id("m1").roomId("r1").seq(1).rev(1).senderId("bob")
        .parts(List.of(MessagePart.text("done"))).clientMessageId("c1").createdAt(now.get()).build());
    assertEquals("carol is typing…", model.typingLine());
    model.typing("r1", "carol", false);
    assertEquals("", model.typingLine());
  }
}
