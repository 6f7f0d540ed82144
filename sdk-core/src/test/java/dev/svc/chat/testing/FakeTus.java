package dev.svc.chat.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
import okio.ByteString;

/**
 * A small service of contract section 9 for {@link FakeGateway#rest}: tus 1.0.0 uploads, file downloads with
 * {@code Range}, and message sends that take file parts (idempotent on the clientMessageId). It keeps counts the
 * tests assert on, and faults on demand: a PATCH cut after some bytes (the bytes that arrived kept, as tus says),
 * a PATCH held until released, a download cut half way, wrong bytes served.
 */
public final class FakeTus implements Function<RecordedRequest, MockResponse> {
  private static final Pattern CLIENT_MESSAGE_ID = Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");
  private static final Pattern FILE_ID = Pattern.compile("\"fileId\":\"([^\"]+)\"");

  /** One upload. */
  public static final class Upload {
    public final long length;
    public final String name;
    public final String contentType;
    public final Buffer bytes = new Buffer();
    public volatile boolean deleted;

    Upload(long length, String name, String contentType) {
      this.length = length;
      this.name = name;
      this.contentType = contentType;
    }

    public synchronized boolean complete() {
      return bytes.size() == length;
    }

    public synchronized String sha256() {
      return bytes.clone().sha256().hex();
    }
  }

  public final Map<String, Upload> uploads = new ConcurrentHashMap<>();
  /** The bytes of every PATCH body that reached the service, kept or not. */
  public final AtomicLong patchBytes = new AtomicLong();
  public final AtomicInteger heads = new AtomicInteger();
  public final AtomicInteger deletes = new AtomicInteger();
  public final AtomicInteger patches = new AtomicInteger();
  /** The PATCHes that carried an {@code Upload-Checksum}. */
  public final AtomicInteger checksummed = new AtomicInteger();
  /** Every message POST, by clientMessageId, in order (repeats included). */
  public final List<String> sends = new CopyOnWriteArrayList<>();
  /** The first answer to each clientMessageId. */
  private final Map<String, String> messages = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  /** When at least 0, the next PATCH keeps this many of its bytes and its connection drops unanswered. */
  public final AtomicLong cutNextPatchAfter = new AtomicLong(-1);
  /** When set, PATCH number {@link #holdPatch} waits on it before it is handled. */
  public volatile CountDownLatch hold;
  public volatile int holdPatch = -1;
  /** Counted down when the held PATCH arrived. */
  public final CountDownLatch held = new CountDownLatch(1);
  /** Counted down when the held PATCH was handled (its kept bytes written, its answer made). */
  private final CountDownLatch heldHandled = new CountDownLatch(1);
  /** When set, the next download answer drops its connection half way. */
  public volatile boolean cutNextDownload;
  /** When set, the next download answer sends half its body, then nothing for 3 s (a stalled connection). */
  public volatile boolean stallNextDownload;
  /** When set, downloads serve other bytes than the file's. */
  public volatile boolean corruptDownloads;
  /** When set, upload requests with another token than this are answered {@code 401 token_expired}. */
  public volatile String acceptedToken;
  /** The Authorization header of every tus request, in order. */
  public final List<String> tokens = new CopyOnWriteArrayList<>();
  /** The Range headers of the downloads, in order ("" for none). */
  public final List<String> ranges = new CopyOnWriteArrayList<>();

  @Override
  public MockResponse apply(RecordedRequest request) {
    String path = request.getPath() == null ? "" : request.getPath();
    String method = request.getMethod();
    if (path.startsWith("/v1/uploads")) return upload(method, path, request);
    if (path.startsWith("/v1/files/") && path.contains("/thumbnail")) return thumbnail(path);
    if (path.startsWith("/v1/files/")) return download(path.substring("/v1/files/".length()), request);
    if (method.equals("POST") && path.matches("/v1/chat/rooms/[^/]+/messages")) return send(path, request);
    return null;
  }

  private MockResponse upload(String method, String path, RecordedRequest request) {
    tokens.add(String.valueOf(request.getHeader("Authorization")));
    String token = acceptedToken;
    if (token != null && !("Bearer " + token).equals(request.getHeader("Authorization"))) {
      return error(401, "token_expired");
    }
    if (!"1.0.0".equals(request.getHeader("Tus-Resumable"))) return error(412, "precondition_failed");
    if (method.equals("POST")) {
      long length = Long.parseLong(request.getHeader("Upload-Length"));
      String name = null;
      String contentType = "application/octet-stream";
      for (String pair : request.getHeader("Upload-Metadata").split(",")) {
        String[] kv = pair.trim().split(" ");
        String value = ByteString.decodeBase64(kv[1]).utf8();
        if (kv[0].equals("filename")) name = value;
        if (kv[0].equals("contentType")) contentType = value;
      }
      String id = "file-" + ids.incrementAndGet();
      uploads.put(id, new Upload(length, name, contentType));
      return new MockResponse().setResponseCode(201).setHeader("Location", "/v1/uploads/" + id)
          .setHeader("Tus-Resumable", "1.0.0").setHeader("Upload-Expires", "Mon, 30 Nov 2026 10:00:00 GMT");
    }
    Upload u = uploads.get(path.substring("/v1/uploads/".length()));
    if (u == null || u.deleted) return error(404, "not_found");
    switch (method) {
      case "HEAD":
        heads.incrementAndGet();
        synchronized (u) {
          return new MockResponse().setResponseCode(200).setHeader("Upload-Offset", u.bytes.size())
              .setHeader("Upload-Length", u.length).setHeader("Tus-Resumable", "1.0.0");
        }
      case "DELETE":
        deletes.incrementAndGet();
        u.deleted = true;
        return new MockResponse().setResponseCode(204);
      case "PATCH":
        return patch(u, request);
      default:
        return error(404, "not_found");
    }
  }

  /**
   * Releases the held PATCH and returns once it was handled: a client started after this sees the service's state
   * after that PATCH, as a process started after another ended sees a service that had long read its request.
   */
  public void releaseHeldPatch() throws InterruptedException {
    hold.countDown();
    if (!heldHandled.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      throw new AssertionError("the held PATCH was not handled within " + FakeGateway.TIMEOUT_SECONDS + " s");
    }
  }

  private MockResponse patch(Upload u, RecordedRequest request) {
    int number = patches.incrementAndGet();
    CountDownLatch gate = hold;
    if (gate == null || number != holdPatch) return handlePatch(u, request);
    held.countDown();
    try {
      if (!gate.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS)) throw new AssertionError("never released");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      return handlePatch(u, request);
    } finally {
      heldHandled.countDown();
    }
  }

  private MockResponse handlePatch(Upload u, RecordedRequest request) {
    if (!"application/offset+octet-stream".equals(request.getHeader("Content-Type"))) {
      return error(415, "unsupported_media_type");
    }
    ByteString body = request.getBody().clone().readByteString();
    if (request.getHeader("Upload-Checksum") != null) checksummed.incrementAndGet();
    patchBytes.addAndGet(body.size());
    long offset = Long.parseLong(request.getHeader("Upload-Offset"));
    synchronized (u) {
      if (offset != u.bytes.size() || u.complete()) return error(409, "conflict"); // complete: no more PATCHes
      if (offset + body.size() > u.length) return error(413, "payload_too_large");
      long cut = cutNextPatchAfter.getAndSet(-1);
      if (cut >= 0) { // what arrived before the cut is kept, unchecked, as tus advises
        u.bytes.write(body.substring(0, (int) Math.min(cut, body.size())));
        return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
      }
      String checksum = request.getHeader("Upload-Checksum"); // optional in tus: checked when sent
      if (checksum != null && !checksum.equals("sha256 " + body.sha256().base64())) {
        return error(460, "checksum_mismatch");
      }
      u.bytes.write(body);
      return new MockResponse().setResponseCode(204).setHeader("Upload-Offset", u.bytes.size())
          .setHeader("Tus-Resumable", "1.0.0");
    }
  }

  private MockResponse download(String fileId, RecordedRequest request) {
    Upload u = uploads.get(fileId);
    if (u == null || u.deleted || !u.complete()) return error(404, "not_found");
    ByteString bytes;
    synchronized (u) {
      bytes = u.bytes.clone().readByteString();
    }
    if (corruptDownloads) bytes = flip(bytes);
    String range = request.getHeader("Range");
    ranges.add(range == null ? "" : range);
    MockResponse response = new MockResponse().setHeader("ETag", "\"" + u.sha256() + "\"")
        .setHeader("Content-Type", u.contentType).setHeader("X-Content-Type-Options", "nosniff");
    if (range != null) {
      long from = Long.parseLong(range.substring("bytes=".length(), range.indexOf('-')));
      response.setResponseCode(206).setHeader("Content-Range", "bytes " + from + "-" + (bytes.size() - 1) + "/"
          + bytes.size());
      bytes = bytes.substring((int) from);
    } else {
      response.setResponseCode(200);
    }
    response.setBody(new Buffer().write(bytes));
    if (stallNextDownload) {
      stallNextDownload = false;
      response.throttleBody(Math.max(1, bytes.size() / 2), 3, TimeUnit.SECONDS);
    }
    if (cutNextDownload) {
      cutNextDownload = false;
      response.setSocketPolicy(SocketPolicy.DISCONNECT_DURING_RESPONSE_BODY);
    }
    return response;
  }

  public final AtomicInteger thumbnails = new AtomicInteger();

  private MockResponse thumbnail(String path) {
    thumbnails.incrementAndGet();
    String fileId = path.substring("/v1/files/".length(), path.indexOf("/thumbnail"));
    if (!uploads.containsKey(fileId)) return error(404, "not_found");
    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "image/jpeg")
        .setBody("thumb " + fileId + " " + path.substring(path.indexOf("size=") + 5));
  }

  private static ByteString flip(ByteString bytes) {
    byte[] b = bytes.toByteArray();
    b[b.length / 2] ^= 1;
    return ByteString.of(b);
  }

  private MockResponse send(String path, RecordedRequest request) {
    String body = request.getBody().clone().readUtf8();
    Matcher m = CLIENT_MESSAGE_ID.matcher(body);
    if (!m.find()) return error(400, "bad_request");
    String clientMessageId = m.group(1);
    sends.add(clientMessageId);
    String roomId = path.split("/")[4];
    List<String> parts = new ArrayList<>();
    Matcher files = FILE_ID.matcher(body);
    while (files.find()) {
      Upload u = uploads.get(files.group(1));
      if (u == null || u.deleted || !u.complete()) return error(400, "bad_request");
      parts.add("{\"type\":\"file\",\"fileId\":\"" + files.group(1) + "\",\"name\":\"" + u.name + "\",\"contentType\":\""
          + u.contentType + "\",\"size\":" + u.length + ",\"sha256\":\"" + u.sha256() + "\"}");
    }
    String first = messages.get(clientMessageId);
    if (first != null) return json(200, first);
    String message = "{\"id\":\"m-" + clientMessageId + "\",\"roomId\":\"" + roomId + "\",\"seq\":" + (messages.size() + 1)
        + ",\"rev\":" + (messages.size() + 1) + ",\"senderId\":\"alice\",\"parts\":[" + String.join(",", parts)
        + "],\"clientMessageId\":\"" + clientMessageId + "\",\"createdAt\":\"2026-11-21T10:00:00.000Z\","
        + "\"reactions\":{}}";
    messages.put(clientMessageId, message);
    return json(201, message);
  }

  /** Returns how many message POSTs carried {@code clientMessageId}. */
  public long sendsOf(String clientMessageId) {
    return sends.stream().filter(clientMessageId::equals).count();
  }

  /** Returns how many distinct messages were made. */
  public int messagesMade() {
    return messages.size();
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  private static MockResponse error(int status, String code) {
    return json(status, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + code + "\"}}");
  }
}
