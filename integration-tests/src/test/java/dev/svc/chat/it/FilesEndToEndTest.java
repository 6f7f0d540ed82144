package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.reference.ReferenceServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file and an image sent through the SDK's outbox to the reference server (contract section 9): the receiver
 * gets the message once with the parts the server filled from the bytes, downloads the same bytes and a thumbnail.
 */
class FilesEndToEndTest {
  @TempDir Path dir;
  private ChatFixture chat;

  @AfterEach
  void stop() {
    if (chat != null) chat.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"memory", "data-dir"})
  void aFileAndAnImageArriveOnceWithTheirBytes(String backend) throws Exception {
    ReferenceServer.Builder builder = ReferenceServer.builder().port(0);
    if (backend.equals("data-dir")) {
      assumeFalse(ChatFixture.isCluster(), "a data directory is a single server's");
      builder.dataDir(dir.resolve("server"));
    }
    chat = new ChatFixture(builder);
    String room = chat.admin().createRoom("files", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> bobSees = ChatFixture.record(bob, EventType.NEW_MESSAGE);

    File data = randomFile(dir.resolve("report.bin"), 3 * 1024 * 1024 + 17, 1);
    File png = pngFile(dir.resolve("picture.png"), 640, 480);
    String clientMessageId = UUID.randomUUID().toString();
    Message sent = await(alice.sendMessage(room, List.of(MessagePart.text("two files"),
        MessagePart.file(FileSource.of(data)), MessagePart.file(FileSource.of(png))), clientMessageId));
    assertEquals(clientMessageId, sent.clientMessageId());

    Message got = bobSees.next(WAIT);
    assertEquals(sent.id(), got.id());
    assertEquals(3, got.parts().size());
    List<FileAttachment> files = got.files();
    assertEquals(2, files.size());
    FileAttachment file = files.get(0);
    assertEquals("report.bin", file.name());
    assertEquals(data.length(), file.size());
    assertEquals(sha256(data), file.sha256());
    assertFalse(file.isImage());
    assertNull(file.width());
    FileAttachment image = files.get(1);
    assertEquals("picture.png", image.name());
    assertEquals("image/png", image.contentType());
    assertEquals(png.length(), image.size());
    assertEquals(sha256(png), image.sha256());
    assertTrue(image.isImage());
    assertEquals(640, image.width());
    assertEquals(480, image.height());
    assertEquals(files, sent.files(), "the sender's ack holds the same parts");

    File target = dir.resolve("downloaded.bin").toFile();
    assertEquals(target, await(bob.downloadFile(file, target, null)));
    assertEquals(sha256(data), sha256(target));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    await(bob.downloadFile(image, out, null));
    assertEquals(sha256(png), sha256(out.toByteArray()));

    BufferedImage thumb = ImageIO.read(new ByteArrayInputStream(await(bob.thumbnail(image, 128))));
    assertNotNull(thumb, "the thumbnail is an image");
    assertEquals(128, thumb.getWidth());
    assertEquals(96, thumb.getHeight());

    List<Message> history = await(bob.getMessages(room)).messages();
    assertEquals(1, history.size(), "the message was stored once");
    assertEquals(files, history.get(0).files());
    bobSees.assertNoMore();
  }

  static File randomFile(Path path, int size, long seed) throws Exception {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return Files.write(path, bytes).toFile();
  }

  static File pngFile(Path path, int width, int height) throws Exception {
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(width * 31L + height);
    for (int y = 0; y < height; y += 16) {
      for (int x = 0; x < width; x += 16) {
        int rgb = random.nextInt(0xffffff);
        for (int dy = 0; dy < 16 && y + dy < height; dy++) {
          for (int dx = 0; dx < 16 && x + dx < width; dx++) img.setRGB(x + dx, y + dy, rgb);
        }
      }
    }
    assertTrue(ImageIO.write(img, "png", path.toFile()));
    return path.toFile();
  }

  static String sha256(File file) throws Exception {
    return sha256(Files.readAllBytes(file.toPath()));
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
