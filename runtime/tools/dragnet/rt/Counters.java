package dragnet.rt;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Exact counters indexed by a non-negative int id, safe under any number of threads. Ids
 * come from the instrumenter and need not be dense: storage is allocated in chunks of 32768
 * counters on first use, so no update is lost while storage grows.
 */
public final class Counters {
  private static final int SHIFT = 15;
  private static final int MASK = (1 << SHIFT) - 1;
  private final AtomicReferenceArray<AtomicLongArray> chunks =
      new AtomicReferenceArray<>(1 << (31 - SHIFT));

  public void add(int id, long delta) {
    AtomicLongArray c = chunks.get(id >>> SHIFT);
    if (c == null) c = create(id >>> SHIFT);
    c.addAndGet(id & MASK, delta);
  }

  public long get(int id) {
    AtomicLongArray c = chunks.get(id >>> SHIFT);
    return c == null ? 0 : c.get(id & MASK);
  }

  private AtomicLongArray create(int chunk) {
    chunks.compareAndSet(chunk, null, new AtomicLongArray(1 << SHIFT));
    return chunks.get(chunk);
  }

  /** Calls visitor for every id with a nonzero count, in id order. */
  public void forEachNonZero(java.util.function.IntConsumer visitor) {
    for (int k = 0; k < chunks.length(); k++) {
      AtomicLongArray c = chunks.get(k);
      if (c == null) continue;
      for (int i = 0; i < c.length(); i++) {
        if (c.get(i) != 0) visitor.accept((k << SHIFT) | i);
      }
    }
  }
}
