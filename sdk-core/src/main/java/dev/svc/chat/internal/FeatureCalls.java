package dev.svc.chat.internal;

import java.io.File;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChatClient;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.TransferListener;
import dev.svc.chat.internal.files.FileCalls;

/**
 * The {@link ChatClient} calls of its features that live in objects of their own: call signaling and push
 * ({@link dev.svc.chat.ChatCalls}, by {@link CallsAndPush}) and files ({@link dev.svc.chat.ChatFiles}, by
 * {@link FileCalls}). {@link RealChatClient} gives the objects.
 */
abstract class FeatureCalls implements ChatClient {
  /** Returns the client's call signaling and push registration. */
  abstract CallsAndPush calls();

  /** Returns the client's file calls. */
  abstract FileCalls files();

  @Override
  public CompletableFuture<Call> startCall(String roomId, CallKind kind) {
    return calls().startCall(roomId, kind);
  }

  @Override
  public CompletableFuture<Call> acceptCall(String callId) {
    return calls().moveCall(callId, "accept");
  }

  @Override
  public CompletableFuture<Call> declineCall(String callId) {
    return calls().moveCall(callId, "decline");
  }

  @Override
  public CompletableFuture<Call> endCall(String callId) {
    return calls().moveCall(callId, "end");
  }

  @Override
  public CompletableFuture<Call> getActiveCall(String roomId) {
    return calls().getActiveCall(roomId);
  }

  @Override
  public CompletableFuture<Void> registerDeviceToken(String token, PushPlatform platform) {
    return calls().registerDeviceToken(token, platform);
  }

  @Override
  public CompletableFuture<Void> unregisterDeviceToken(String token) {
    return calls().unregisterDeviceToken(token);
  }

  @Override
  public CompletableFuture<Boolean> cancelSend(String roomId, String clientMessageId) {
    return files().cancelSend(roomId, clientMessageId);
  }

  @Override
  public CompletableFuture<File> downloadFile(FileAttachment file, File target, TransferListener listener) {
    return files().downloadFile(file, target, listener);
  }

  @Override
  public CompletableFuture<Void> downloadFile(FileAttachment file, OutputStream out, TransferListener listener) {
    return files().downloadFile(file, out, listener);
  }

  @Override
  public CompletableFuture<byte[]> thumbnail(FileAttachment file, int size) {
    return files().thumbnail(file, size);
  }
}
