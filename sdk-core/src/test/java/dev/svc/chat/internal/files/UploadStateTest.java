package dev.svc.chat.internal.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.List;

import dev.svc.chat.FileSource;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.MessagePartJsonAdapter;
import org.junit.jupiter.api.Test;

/** A file part's upload state as the outbox record keeps it, and the parts as they go on the wire. */
class UploadStateTest {
  @Test
  void theStateGoesThroughThePartsJsonAsTheOutboxRecordWritesIt() throws Exception {
    MessagePart part = MessagePart.file(FileSource.of(new File("/data/photo.jpg")));
    UploadState first = UploadState.of(part);
    assertEquals(new File("/data/photo.jpg").getAbsolutePath(), first.file);
    assertEquals(-1, first.length);
    SourceDigests digests = SourceDigests.measure(new java.io.ByteArrayInputStream(new byte[42]), new byte[16], 42, 2);
    MessagePart measured = first.covering(digests).at("http://h/v1/uploads/f1").applyTo(part);
    String json = Json.write(MessagePartJsonAdapter.INSTANCE, measured);
    MessagePart read = MessagePartJsonAdapter.INSTANCE.fromJson(Json.reader(json));
    UploadState back = UploadState.of(read);
    assertEquals(first.file, back.file);
    assertEquals(42, back.length);
    assertEquals(16, back.chunk);
    assertEquals(digests.fingerprint(), back.digest);
    assertEquals(2, back.chunks, "the chunks whose digests were recorded");
    assertEquals("http://h/v1/uploads/f1", back.url);
    assertEquals("photo.jpg", read.rawFields().get("name").replace("\"", ""));
    assertTrue(SendUpload.pending(read));
    assertNull(read.upload(), "the source object does not survive the record");
  }

  @Test
  void aStateWithoutItsChunkCountCoversEveryChunk() {
    MessagePart part = MessagePart.builder("file").rawField(MessagePart.UPLOAD_FIELD,
        "{\"length\":42,\"chunk\":16,\"digest\":\"ab\",\"url\":\"http://h/v1/uploads/f1\"}").build();
    assertEquals(3, UploadState.of(part).chunks, "measured whole before its upload was created");
  }

  @Test
  void anUnreadableStateCountsAsNoneSoTheUploadStartsOver() {
    MessagePart part = MessagePart.builder("file").rawField(MessagePart.UPLOAD_FIELD, "{\"length\":\"x\"}").build();
    UploadState state = UploadState.of(part);
    assertEquals(-1, state.length);
    assertNull(state.url);
  }

  @Test
  void aFilePartGoesOnTheWireAsItsFileIdOnly() {
    MessagePart done = MessagePart.builder("file").rawField("name", "\"a.png\"").rawField("fileId", "\"f1\"").build();
    MessagePart text = MessagePart.text("hi");
    List<MessagePart> wire = UploadingTransport.wire(Arrays.asList(text, done));
    assertSame(text, wire.get(0));
    assertEquals(MessagePart.fileId("f1"), wire.get(1));
    List<MessagePart> plain = Arrays.asList(text, MessagePart.fileId("f2"));
    assertSame(plain, UploadingTransport.wire(plain), "nothing to strip: the same list");
    assertFalse(SendUpload.pending(done));
  }
}
