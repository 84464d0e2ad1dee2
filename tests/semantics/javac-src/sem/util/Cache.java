package sem.util;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A bounded LRU cache: generic bounds, an anonymous subclass, a non-static inner class and a
 * static nested class.
 */
public final class Cache<K extends Comparable<? super K>, V> {
  private final int capacity;
  private final Function<? super K, ? extends V> loader;
  private int hits, misses;
  private final Map<K, V> map;

  public Cache(int capacity, Function<? super K, ? extends V> loader) {
    this.capacity = capacity;
    this.loader = Objects.requireNonNull(loader);
    this.map = new LinkedHashMap<K, V>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > Cache.this.capacity;
      }
    };
  }

  public V get(K key) {
    V v = map.get(key);
    if (v != null) {
      hits++;
      return v;
    }
    misses++;
    v = loader.apply(key);
    map.put(key, v);
    return v;
  }

  public Stats stats() {
    return new Stats();
  }

  /** A view of this cache's counters (an inner class reading the outer instance). */
  public final class Stats {
    public int hits() {
      return hits;
    }

    public int misses() {
      return misses;
    }

    public int size() {
      return map.size();
    }

    @Override
    public String toString() {
      return "hits=" + hits + " misses=" + misses + " size=" + map.size() + "/" + capacity;
    }
  }

  public static final class Pair<A, B> {
    public final A first;
    public final B second;

    public Pair(A first, B second) {
      this.first = first;
      this.second = second;
    }

    public static <A, B> Pair<A, B> of(A a, B b) {
      return new Pair<>(a, b);
    }

    @Override
    public String toString() {
      return "(" + first + ", " + second + ")";
    }
  }
}
