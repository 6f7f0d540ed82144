package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.Message;
import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.testing.Await;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop client's files, headless through {@link FileTransfers}: alice's client sends an image (as the attach
 * button does, with a path), its pending row follows the upload's progress, bob's client shows the message with
 * the image's dimensions and its thumbnail, and saves the same bytes; a send cancelled before its message goes out
 * leaves the list.
 */
class DesktopFilesTest {
  @TempDir Path dir;

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  private static void connected(DesktopApp app, String roomId) throws InterruptedException {
    ChatModel model = app.model();
    Await.until(model.me() + " connected in the room", () -> model.connectionState() == ConnectionState.CONNECTED
        && roomId.equals(model.selectedRoom()), model::statusLine);
  }

  @Test
  void anImageShowsWithItsThumbnailOnTheOtherDesktopAndSavesTheSameBytes() throws Exception {
    // noise: a PNG of about 3 MB, uploaded in several chunks
    Path png = dir.resolve("harbour.png");
    BufferedImage picture = new BufferedImage(1000, 750, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(3);
    for (int y = 0; y < 750; y++) {
      for (int x = 0; x < 1000; x++) picture.setRGB(x, y, random.nextInt(0x1000000));
    }
    assertTrue(ImageIO.write(picture, "png", png.toFile()));
    long length = Files.size(png);

    try (ServiceTarget target = ServiceTarget.start(null);
        TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        DesktopApp alice = new DesktopApp(backend.url(), "alice", null, dir.resolve("alice").toFile());
        DesktopApp bob = new DesktopApp(backend.url(), "bob", null, dir.resolve("bob").toFile())) {
      String room = target.serverClient().createRoom("photos", List.of("alice", "bob")).id();
      alice.start();
      bob.start();
      connected(alice, room);
      connected(bob, room);

      // the pending row's upload, as its progress bar shows it
      AtomicLong total = new AtomicLong();
      AtomicLong sent = new AtomicLong();
      ChatModel aliceModel = alice.model();
      aliceModel.addListener(() -> {
        for (ChatModel.MessageRow r : aliceModel.messageRows()) {
          FileTransfers.Upload up = r.pending() ? alice.controller().files().upload(r.id()) : null;
          if (up == null || !r.uploading().equals(List.of("harbour.png"))) continue;
          total.set(up.total());
          sent.accumulateAndGet(up.sent(), Math::max);
        }
      });
      Message message = alice.controller().files().attach(png).get(60, TimeUnit.SECONDS);
      assertEquals(length, total.get(), "the pending row's upload counts the file's bytes");
      assertTrue(sent.get() > 0, "the progress bar moved: " + sent.get() + " of " + length);
      Await.until("alice's row stored, with its file", () -> aliceModel.messageRows().stream()
          .anyMatch(r -> r.id().equals(message.id()) && !r.pending() && r.files().size() == 1), aliceModel::statusLine);
      assertFalse(aliceModel.messageRows().stream().anyMatch(ChatModel.MessageRow::pending), "no pending row left");

      ChatModel bobModel = bob.model();
      FileTransfers bobFiles = bob.controller().files();
      Await.until("bob's row with the image and its thumbnail", () -> bobModel.messageRows().stream()
          .anyMatch(r -> r.id().equals(message.id()) && r.files().size() == 1
              && bobFiles.thumbnail(r.files().get(0).fileId()) != null), bobModel::statusLine);
      ChatModel.MessageRow row = bobModel.messageRows().stream().filter(r -> r.id().equals(message.id()))
          .findFirst().orElseThrow();
      FileAttachment image = row.files().get(0);
      assertTrue(image.isImage(), image.toString());
      assertEquals("harbour.png", image.name());
      assertEquals(1000, image.width());
      assertEquals(750, image.height());
      BufferedImage thumbnail = bobFiles.thumbnail(image.fileId());
      assertEquals(FileTransfers.THUMBNAIL, thumbnail.getWidth(), "the longer side");
      assertEquals(240, thumbnail.getHeight());

      Path copy = dir.resolve("saved").resolve("harbour-copy.png");
      Files.createDirectories(copy.getParent());
      AtomicLong downloaded = new AtomicLong();
      File saved = bobFiles.save(image, copy, (done, all) -> downloaded.set(done)).get(60, TimeUnit.SECONDS);
      assertEquals(copy.toFile(), saved);
      assertEquals(sha256(png), sha256(copy));
      assertEquals(image.sha256(), sha256(copy));
      assertEquals(length, downloaded.get());
    }
  }

  @Test
  void aSendCancelledBeforeItsMessageGoesOutLeavesTheList() throws Exception {
    Path big = dir.resolve("archive.bin"); // 32 MiB: far from uploaded when the cancel comes
    byte[] chunk = new byte[1 << 20];
    new Random(5).nextBytes(chunk);
    try (var out = Files.newOutputStream(big)) {
      for (int i = 0; i < 32; i++) out.write(chunk);
    }
    try (ServiceTarget target = ServiceTarget.start(null);
        TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        DesktopApp alice = new DesktopApp(backend.url(), "alice", null, dir.resolve("alice").toFile())) {
      String room = target.serverClient().createRoom("files", List.of("alice", "bob")).id();
      alice.start();
      connected(alice, room);
      ChatModel model = alice.model();
      CompletableFuture<Message> send = alice.controller().files().attach(big);
      ChatModel.MessageRow pending = model.messageRows().stream().filter(ChatModel.MessageRow::pending)
          .findFirst().orElseThrow();
      assertEquals(List.of("archive.bin"), pending.uploading());
      assertNotNull(alice.controller().files().upload(pending.id()));

      // the outbox lists a send once it recorded it (cancelSend finds nothing before); the upload goes on
      Await.until("the outbox recording the send", () -> alice.controller().client().pendingSends(room).stream()
          .anyMatch(p -> p.clientMessageId().equals(pending.id())), model::statusLine);
      assertTrue(alice.controller().files().cancel(room, pending.id()).get(10, TimeUnit.SECONDS));
      Exception e = assertThrows(Exception.class, () -> send.get(10, TimeUnit.SECONDS));
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      assertInstanceOf(CancellationException.class, cause, e.toString());
      Await.until("the pending row gone", () -> model.messageRows().isEmpty(), model::statusLine);
      assertNull(alice.controller().files().upload(pending.id()));
    }
  }
}
