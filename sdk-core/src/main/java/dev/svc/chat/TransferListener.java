package dev.svc.chat;

/**
 * Hears how far a download got; called on the client's callback executor, in order, as chunks arrive.
 */
public interface TransferListener {
  /**
   * Invoked when more bytes arrived.
   *
   * @param bytesDone the bytes received so far (a resumed download counts those it already had)
   * @param bytesTotal the file's size
   */
  void onProgress(long bytesDone, long bytesTotal);
}
