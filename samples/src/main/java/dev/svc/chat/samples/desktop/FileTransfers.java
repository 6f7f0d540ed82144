package dev.svc.chat.samples.desktop;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLists;
import dev.svc.chat.MessagePart;
import dev.svc.chat.TransferListener;
import dev.svc.chat.UploadProgress;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.imageio.ImageIO;

/**
 * The desktop client's files ({@code docs/files.md}), without Swing: a file attached to the room on screen goes
 * through the outbox ({@link MessagePart#file(FileSource)}) and shows at once as a pending message whose upload
 * progress ({@link dev.svc.chat.EventType#UPLOAD_PROGRESS}) is kept here, cancellable until its message goes out;
 * the images of the messages shown get their thumbnails ({@link ChatClient#thumbnail}, decoded off the callback
 * thread, kept for the run); a file is saved with {@link ChatClient#downloadFile}, which checks its sha256.
 * Thread-safe; it tells the model's listeners when a progress or a thumbnail changes what rows show.
 */
public final class FileTransfers {
  /** The thumbnails' longest side, in pixels (the service's default). */
  static final int THUMBNAIL = 320;

  /**
   * How far an upload got.
   *
   * @param sent the bytes the service holds
   * @param total the bytes of the send's files
   */
  public record Upload(long sent, long total) {}

  private final ChatController chat;
  private final ChatModel model;

  // guarded by this
  /** The uploads of this run's sends, by client message id (the pending message's id). */
  private final Map<String, Upload> uploads = new HashMap<>();
  private final Map<String, BufferedImage> thumbnails = new HashMap<>();
  /** The file ids whose thumbnail is fetched or under way. */
  private final Set<String> asked = new HashSet<>();
  /** The file ids whose thumbnail failed while offline: asked again once connected. */
  private final Set<String> retry = new HashSet<>();

  FileTransfers(ChatController chat) {
    this.chat = chat;
    this.model = chat.model();
    model.addListener(this::fetchThumbnails);
  }

  /**
   * Sends a file to the room on screen: at once a pending message with an upload at 0, then its progress, then the
   * stored message; a send that fails or is cancelled leaves the list.
   *
   * @param file the file
   * @return the stored message
   */
  public CompletableFuture<Message> attach(Path file) {
    ChatClient c = chat.client();
    String roomId = model.selectedRoom();
    if (c == null || roomId == null) return CompletableFuture.failedFuture(new IllegalStateException("no room"));
    FileSource source = FileSource.of(file.toFile());
    String id = UUID.randomUUID().toString();
    synchronized (this) {
      uploads.put(id, new Upload(0, source.length()));
    }
    List<MessagePart> parts = List.of(MessagePart.file(source));
    // shown before the outbox lists it (it measures and records the file first)
    model.merge(roomId, List.of(MessageLists.pendingMessage(roomId, model.me(), id, parts, System.currentTimeMillis())));
    CompletableFuture<Message> sent = c.sendMessage(roomId, parts, id);
    return sent.whenComplete((m, e) -> {
      synchronized (this) {
        uploads.remove(id);
      }
      if (m != null) model.sent(m); else model.dropPending(roomId, id);
    });
  }

  /**
   * Cancels a send with files while its message has not gone out.
   *
   * @param roomId its room
   * @param clientMessageId its pending message's id
   * @return true when it was cancelled, false when its message is already on its way (it then arrives)
   */
  public CompletableFuture<Boolean> cancel(String roomId, String clientMessageId) {
    ChatClient c = chat.client();
    return c == null ? CompletableFuture.completedFuture(false) : c.cancelSend(roomId, clientMessageId);
  }

  /**
   * Downloads a file to {@code target}; it is there only once its size and sha256 match.
   *
   * @param file the file
   * @param target where it goes
   * @param listener hears the progress, or null
   * @return the file written
   */
  public CompletableFuture<File> save(FileAttachment file, Path target, TransferListener listener) {
    ChatClient c = chat.client();
    if (c == null) return CompletableFuture.failedFuture(new IllegalStateException("not signed in"));
    return c.downloadFile(file, target.toFile(), listener);
  }

  /** Follows an upload's progress ({@link dev.svc.chat.EventType#UPLOAD_PROGRESS}). */
  void progress(UploadProgress p) {
    synchronized (this) {
      if (!uploads.containsKey(p.clientMessageId())) return; // a send of an earlier run: its row says "sending…"
      uploads.put(p.clientMessageId(), new Upload(p.bytesSent(), p.bytesTotal()));
    }
    model.refresh();
  }

  /** Returns the upload of a pending message of this run, or null. */
  public synchronized Upload upload(String messageId) {
    return uploads.get(messageId);
  }

  /** Returns an image's thumbnail once fetched, or null. */
  public synchronized BufferedImage thumbnail(String fileId) {
    return thumbnails.get(fileId);
  }

  /**
   * Fetches the thumbnails of the images the model shows that have none yet (offline too: the client's disk cache
   * may hold them). One that failed offline is asked again once connected; one the service refused is not.
   */
  private void fetchThumbnails() {
    ChatClient c = chat.client();
    if (c == null) return;
    boolean connected = model.connectionState() == ConnectionState.CONNECTED;
    if (connected) {
      synchronized (this) {
        asked.removeAll(retry);
        retry.clear();
      }
    }
    List<FileAttachment> images = new ArrayList<>();
    List<ChatModel.MessageRow> rows = new ArrayList<>(model.messageRows());
    rows.addAll(model.threadRows());
    for (ChatModel.MessageRow r : rows) {
      for (FileAttachment f : r.files()) {
        if (f.isImage()) images.add(f);
      }
    }
    for (FileAttachment f : images) {
      synchronized (this) {
        if (!asked.add(f.fileId())) continue;
      }
      // the SDK fetches off the caller's thread; decoding is moved off the callback executor (the EDT in the app)
      c.thumbnail(f, THUMBNAIL).thenApplyAsync(FileTransfers::decode).whenComplete((image, e) -> {
        synchronized (this) {
          if (image != null) thumbnails.put(f.fileId(), image); else if (!connected) retry.add(f.fileId());
        }
        if (image != null) model.refresh();
      });
    }
  }

  private static BufferedImage decode(byte[] bytes) {
    try {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
      if (image == null) throw new IOException("not an image ImageIO reads");
      return image;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
