package dev.svc.chat.store;

/** A store could not do what was asked; {@link #kind()} says why. */
public final class StoreException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a store call failed. */
  public enum Kind {
    /** The storage could not be read or written (disk full, permissions, closed store). */
    IO,
    /** The stored data is damaged (not a database, a failed integrity check, rows that cannot be read). */
    CORRUPT,
    /** The database was written by a newer version of the SDK, whose schema this one does not know. */
    NEWER_SCHEMA
  }

  /** Why the call failed. */
  private final Kind kind;

  /**
   * Creates an exception.
   *
   * @param kind why
   * @param message what failed, never holding a credential
   * @param cause the underlying failure, or null
   */
  public StoreException(Kind kind, String message, @org.jspecify.annotations.Nullable Throwable cause) {
    super(message, cause);
    if (kind == null) throw new NullPointerException("kind == null");
    this.kind = kind;
  }

  /**
   * Returns why the call failed.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }
}
