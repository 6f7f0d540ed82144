package dev.svc.chat.internal.files;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.TransportException;
import dev.svc.chat.UploadProgress;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.json.FileParts;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.outbox.OutboxTransport;
import dev.svc.chat.internal.outbox.SendProgress;
import dev.svc.chat.internal.outbox.SendRoute;
import dev.svc.chat.internal.rest.RestApi;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The outbox's transport for sends with files: an attempt of a send whose parts hold files to upload first uploads
 * them ({@link SendUpload}, on an upload worker), then sends the message on the actor through the transport it
 * wraps, with the same {@code clientMessageId} as every attempt. A file part goes on the wire as
 * {@code {"type":"file","fileId":...}} only; sends without files pass straight through.
 */
public final class UploadingTransport implements OutboxTransport {
  /** The bytes of one PATCH: small enough that a cut resends little, large enough to keep the link busy. */
  public static final int DEFAULT_CHUNK_BYTES = 1024 * 1024;

  private final OutboxTransport inner;
  private final Scheduler actor;
  private final Executor workers;
  private final TusClient tus;
  private final EventHub hub;
  private final int chunkBytes;

  /**
   * Wraps {@code inner}; uploads on {@code workers} (they block) through {@code rest}, publishing
   * {@link EventType#UPLOAD_PROGRESS} on {@code hub}.
   */
  public UploadingTransport(OutboxTransport inner, Scheduler actor, Executor workers, RestApi rest, EventHub hub,
      int chunkBytes) {
    if (chunkBytes < 1) throw new IllegalArgumentException("chunkBytes < 1: " + chunkBytes);
    this.inner = inner;
    this.actor = actor;
    this.workers = workers;
    this.tus = new TusClient(rest);
    this.hub = hub;
    this.chunkBytes = chunkBytes;
  }

  @Override
  public SendRoute route(String roomId) {
    return inner.route(roomId);
  }

  @Override
  public void abandoned(SendRoute route, String roomId) {
    inner.abandoned(route, roomId);
  }

  @Override
  public CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId) {
    return inner.send(roomId, wire(parts), links, clientMessageId, senderId);
  }

  @Override
  public CompletableFuture<Message> send(SendRoute route, String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId, CompletableFuture<Void> read) {
    return inner.send(route, roomId, wire(parts), links, clientMessageId, senderId, read);
  }

  @Override
  public CompletableFuture<Message> send(final SendRoute route, final String roomId, final List<MessagePart> parts,
      final SendLinks links, final String clientMessageId, final String senderId, final CompletableFuture<Void> read,
      final SendProgress progress) {
    boolean uploads = false;
    for (MessagePart p : parts) uploads |= SendUpload.pending(p);
    if (!uploads) return send(route, roomId, parts, links, clientMessageId, senderId, read);
    final CompletableFuture<Message> result = new CompletableFuture<>();
    final SendUpload upload = new SendUpload(tus, chunkBytes, progress, (sent, total) -> {
      progress.progress(sent, total);
      hub.publish(EventType.UPLOAD_PROGRESS, new UploadProgress(roomId, clientMessageId, sent, total));
    });
    try {
      workers.execute(() -> {
        try {
          final List<MessagePart> done = upload.run(parts);
          if (!progress.beginMessage()) {
            throw progress.cancelled() ? new CancellationException("the send was cancelled")
                : new TransportException("the send ended while its files were uploading");
          }
          boolean queued = actor.execute(() -> relay(
              inner.send(route, roomId, wire(done), links, clientMessageId, senderId, read), result));
          if (!queued) throw new TransportException("the client closed");
        } catch (RuntimeException | Error e) {
          if (read != null) read.complete(null); // the message was never queued on the socket
          result.completeExceptionally(e);
        }
      });
    } catch (RuntimeException refused) { // the executor is shut down
      if (read != null) read.complete(null);
      result.completeExceptionally(new TransportException("the upload could not start", refused));
    }
    return result;
  }

  private static void relay(CompletableFuture<Message> from, final CompletableFuture<Message> to) {
    from.whenComplete((message, error) -> {
      if (error != null) {
        to.completeExceptionally(error);
      } else {
        to.complete(message);
      }
    });
  }

  /** Returns the parts as the service takes them: a file part is its {@code fileId} only. */
  static List<MessagePart> wire(List<MessagePart> parts) {
    List<MessagePart> out = null;
    for (int i = 0; i < parts.size(); i++) {
      MessagePart p = parts.get(i);
      if (!p.isFile()) continue;
      String fileId = FileParts.string(p.rawFields().get("fileId"));
      if (fileId == null || p.rawFields().size() == 1) continue;
      if (out == null) out = new ArrayList<>(parts);
      out.set(i, MessagePart.fileId(fileId));
    }
    return out == null ? parts : out;
  }
}
