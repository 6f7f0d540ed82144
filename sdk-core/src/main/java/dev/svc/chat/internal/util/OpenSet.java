package dev.svc.chat.internal.util;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;

/**
 * A small thread-safe set of what a client has open (calls in flight, futures not yet complete), for
 * {@code close()} to cancel or fail: any thread adds and removes, under this set's lock. Its storage exists
 * only while something is open and is dropped when the last element goes, so an idle client holds an empty
 * object instead of a {@code ConcurrentHashMap} with its table (a fleet of 10,000 idle clients keeps several
 * such sets each). Iteration and {@link #toArray()} work on a snapshot: {@code close()} may fail or cancel
 * what it iterates, which removes it meanwhile.
 */
public final class OpenSet<E> extends AbstractSet<E> {
  private HashSet<E> items;

  @Override
  public synchronized boolean add(E e) {
    if (items == null) items = new HashSet<>(4);
    return items.add(e);
  }

  @Override
  public synchronized boolean remove(Object o) {
    if (items == null || !items.remove(o)) return false;
    if (items.isEmpty()) items = null;
    return true;
  }

  @Override
  public synchronized boolean contains(Object o) {
    return items != null && items.contains(o);
  }

  @Override
  public synchronized int size() {
    return items == null ? 0 : items.size();
  }

  @Override
  public synchronized Object[] toArray() {
    return items == null ? new Object[0] : items.toArray();
  }

  @Override
  public <T> T[] toArray(T[] a) {
    return Arrays.asList(toArray()).toArray(a); // the snapshot, with the Collection contract for a
  }

  /** Iterates over a snapshot; its {@code remove} removes from this set. */
  @Override
  public Iterator<E> iterator() {
    final Object[] snapshot = toArray();
    return new Iterator<E>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < snapshot.length;
      }

      @Override
      @SuppressWarnings("unchecked")
      public E next() {
        if (next >= snapshot.length) throw new java.util.NoSuchElementException();
        return (E) snapshot[next++];
      }

      @Override
      public void remove() {
        if (next == 0) throw new IllegalStateException();
        OpenSet.this.remove(snapshot[next - 1]);
      }
    };
  }
}
