package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/** The kind of a call: voice only, or with video. Media itself belongs to the separate media kit. */
public enum CallKind {
  /** A voice call (wire value {@code audio}). */
  AUDIO("audio"),
  /** A video call (wire value {@code video}). */
  VIDEO("video");

  private final String wireName;

  CallKind(String wireName) {
    this.wireName = wireName;
  }

  /**
   * Returns the value the service uses, {@code audio} or {@code video}.
   *
   * @return the wire value
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Returns the kind of a wire value.
   *
   * @param wireName {@code audio} or {@code video}
   * @return the kind, or null for a value this SDK version does not know
   */
  public static @Nullable CallKind fromWire(String wireName) {
    for (CallKind k : values()) {
      if (k.wireName.equals(wireName)) return k;
    }
    return null;
  }
}
