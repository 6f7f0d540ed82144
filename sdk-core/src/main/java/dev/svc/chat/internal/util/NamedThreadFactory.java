package dev.svc.chat.internal.util;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Makes daemon threads named {@code prefix} or {@code prefix-k}, so a client's threads never keep a JVM alive. */
public final class NamedThreadFactory implements ThreadFactory {
  private final String name;
  private final boolean numbered;
  private final AtomicInteger count = new AtomicInteger();

  public NamedThreadFactory(String name, boolean numbered) {
    this.name = name;
    this.numbered = numbered;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, numbered ? name + "-" + count.incrementAndGet() : name);
    t.setDaemon(true);
    return t;
  }
}
