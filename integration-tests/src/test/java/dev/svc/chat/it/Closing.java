package dev.svc.chat.it;

import java.util.List;

/** Ends what a test opened: the latest first, then the rest in order; the first failure is thrown at the end. */
final class Closing {
  private Closing() {
  }

  /** Closes {@code opened} from its last to its first, then each of {@code after} that is not null. */
  static void inReverse(List<? extends AutoCloseable> opened, AutoCloseable... after) throws Exception {
    Exception first = null;
    for (int i = opened.size() - 1; i >= 0; i--) {
      first = close(opened.get(i), first);
    }
    for (AutoCloseable c : after) {
      if (c != null) first = close(c, first);
    }
    if (first != null) throw first;
  }

  private static Exception close(AutoCloseable c, Exception first) {
    try {
      c.close();
    } catch (Exception e) {
      if (first == null) return e;
      first.addSuppressed(e);
    }
    return first;
  }
}
