package dev.svc.chat.internal;

import dev.svc.chat.internal.util.Inputs;

/** Checks the inputs of call and push operations before any I/O, with clear messages. */
final class CallInputs {
  private static final int MAX_DEVICE_TOKEN = 4096;

  private CallInputs() {
  }

  /** Returns a non-empty call id. */
  static String callId(String callId) {
    Inputs.nonNull(callId, "callId");
    if (callId.isEmpty()) throw new IllegalArgumentException("callId is empty");
    return callId;
  }

  /** Returns a device token of 1 to 4,096 of {@code A-Z a-z 0-9 _ - . : + = ~} (FCM and APNs tokens fit). */
  static String deviceToken(String token) {
    Inputs.nonNull(token, "token");
    if (token.isEmpty() || token.length() > MAX_DEVICE_TOKEN) {
      throw new IllegalArgumentException("a device token is 1 to " + MAX_DEVICE_TOKEN + " characters");
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || "_-.:+=~".indexOf(c) >= 0;
      if (!ok) throw new IllegalArgumentException("a device token may only hold A-Z a-z 0-9 _ - . : + = ~");
    }
    return token;
  }
}
