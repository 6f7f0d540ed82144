package dev.svc.chat;

import java.io.File;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChatClient}'s files (contract section 9; docs/files.md): sends with files are made with
 * {@link MessagePart#file(FileSource)} and {@link ChatClient#sendMessage}, their upload followed through
 * {@link EventType#UPLOAD_PROGRESS} and {@link ChatClient#pendingSends()}; this interface cancels them and
 * downloads files. Every {@link ChatClient} is one.
 */
public interface ChatFiles {
  /**
   * Cancels a pending send whose message has not gone out yet: its upload stops (and is terminated at the
   * service), its record is deleted, and its future fails with a
   * {@link java.util.concurrent.CancellationException}. It applies from the moment {@code sendMessage} returned,
   * also while the send's record is still being written to the store.
   *
   * @param roomId the room of the send
   * @param clientMessageId the send's client message id
   * @return a future with true when the send was cancelled, false when there is no such pending send or its
   *     message is already being sent (it then completes as usual)
   */
  default CompletableFuture<Boolean> cancelSend(String roomId, String clientMessageId) {
    CompletableFuture<Boolean> f = new CompletableFuture<>();
    f.completeExceptionally(new UnsupportedOperationException("this client does not send files"));
    return f;
  }

  /**
   * Downloads a file to {@code target}: the bytes go to {@code <target>.part}, a cut is resumed with
   * {@code Range} (also by a later call after a restart, from what {@code .part} holds), and once the bytes have
   * the file's size and sha256 the part file is renamed to {@code target}.
   *
   * @param file the file, from {@link MessagePart#file()} or {@link Message#files()}
   * @param target where the file goes; replaced if it exists
   * @param listener hears the progress, or null
   * @return a future with {@code target}; failed with {@link FileException.Kind#CHECKSUM_MISMATCH} (the part
   *     file deleted) when the bytes are not the file's, an {@link ApiException} (404 when the user may not
   *     read it), or a {@link TransportException} after the retries
   */
  default CompletableFuture<File> downloadFile(FileAttachment file, File target, @Nullable TransferListener listener) {
    CompletableFuture<File> f = new CompletableFuture<>();
    f.completeExceptionally(new UnsupportedOperationException("this client does not download files"));
    return f;
  }

  /**
   * Downloads a file into {@code out} (not closed), resuming with {@code Range} after a cut, and checks the
   * bytes against the file's sha256 at the end. The stream receives the bytes before they are checked: write to a
   * file with {@link #downloadFile(FileAttachment, File, TransferListener)} to keep nothing unchecked.
   *
   * @param file the file
   * @param out where the bytes go
   * @param listener hears the progress, or null
   * @return a future completed when every byte was written and checked; failed as the file variant's
   */
  default CompletableFuture<Void> downloadFile(FileAttachment file, OutputStream out,
      @Nullable TransferListener listener) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    f.completeExceptionally(new UnsupportedOperationException("this client does not download files"));
    return f;
  }

  /**
   * Returns an image's thumbnail (contract section 9): a JPEG, or a PNG for an image with transparency, whose
   * longer side is at most {@code size}; kept in the client's thumbnail cache when it has one
   * ({@link SvcOptions.Builder#fileCache}), and read from it after.
   *
   * @param file an image ({@link FileAttachment#isImage()})
   * @param size the longest side, 64 to 1024 (320 is the service's default)
   * @return a future with the thumbnail's bytes; failed with an {@link ApiException} 404 for a file that is not
   *     an image or that the user may not read
   */
  default CompletableFuture<byte[]> thumbnail(FileAttachment file, int size) {
    CompletableFuture<byte[]> f = new CompletableFuture<>();
    f.completeExceptionally(new UnsupportedOperationException("this client does not fetch thumbnails"));
    return f;
  }
}
