package dev.svc.chat.transport.jdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The server's side of a WebSocket upgrade (RFC 6455, section 4.2), byte by byte, for the test servers here. */
final class RawHandshake {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final Pattern KEY = Pattern.compile("(?im)^Sec-WebSocket-Key:\\s*(\\S+)\\s*$");

  private RawHandshake() {
  }

  /** Reads an HTTP request's head, up to and with its blank line. */
  static String readHeaders(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 4 || !sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("the client closed before its headers ended");
      sb.append((char) b);
    }
    return sb.toString();
  }

  /** Answers the upgrade {@code request} with 101; returns false (and writes nothing) when it has no key. */
  static boolean accept(String request, OutputStream out) throws IOException {
    Matcher m = KEY.matcher(request);
    if (!m.find()) return false;
    String accept = Base64.getEncoder().encodeToString(sha1(m.group(1) + GUID));
    out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return true;
  }

  private static byte[] sha1(String s) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.ISO_8859_1));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
