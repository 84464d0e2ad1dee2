import java.util.ArrayList;
import java.util.List;

// Many short- and long-lived objects from a few dozen allocation sites, for the size of
// an exact lifetime profile and the cost of reporting it (bench/lifetime-scale/run.sh).
// Deterministic: `rounds` rounds of the same work; prints a checksum.
public class LifetimeScale {
  static final class Node {
    final int value;
    Node next;
    Node(int value) { this.value = value; }
  }

  static final class Pair {
    final Object left, right;
    Pair(Object left, Object right) { this.left = left; this.right = right; }
  }

  static final class Box {
    long payload;
    Box(long payload) { this.payload = payload; }
  }

  // Long-lived objects: a ring that keeps each object for `RING` insertions.
  static final int RING = 1 << 16;
  static final Object[] ring = new Object[RING];
  static int ringAt;
  static long sink;

  static void keep(Object o) {
    ring[ringAt] = o;
    ringAt = (ringAt + 1) & (RING - 1);
  }

  // Short-lived, used once.
  static long shortNodes(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      Node a = new Node(i);
      s += a.value;
    }
    return s;
  }

  // Short-lived, never used (void).
  static void voidBoxes(int n) {
    for (int i = 0; i < n; i++) {
      Box b = new Box(i);
      if (i == -1) sink += b.payload;
    }
  }

  // Lists of short-lived nodes.
  static long chains(int n) {
    Node head = null;
    for (int i = 0; i < n; i++) {
      Node x = new Node(i);
      x.next = head;
      head = x;
    }
    long s = 0;
    for (Node x = head; x != null; x = x.next) s += x.value;
    return s;
  }

  // Long-lived (kept in the ring), used once at allocation: drag.
  static void dragged(int n) {
    for (int i = 0; i < n; i++) {
      Box b = new Box(i);
      sink += b.payload;
      keep(b);
    }
  }

  // Long-lived, used again when they leave the ring.
  static void usedLate(int n) {
    for (int i = 0; i < n; i++) {
      Object old = ring[ringAt];
      if (old instanceof Pair p) sink += p.left.hashCode();
      keep(new Pair(new int[4], new Box(i)));
    }
  }

  // Arrays of several kinds and sizes.
  static long arrays(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      int[] a = new int[8 + (i & 7)];
      a[0] = i;
      byte[] b = new byte[32];
      b[1] = (byte) i;
      long[] c = new long[2];
      c[1] = i;
      s += a[0] + b[1] + c[1];
      if ((i & 255) == 0) keep(new char[64]);
    }
    return s;
  }

  static long strings(int n) {
    long s = 0;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.setLength(0);
      sb.append("item").append(i & 1023);
      String t = sb.toString();
      s += t.length();
      if ((i & 63) == 0) keep(t);
    }
    return s;
  }

  static long lists(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      List<Integer> l = new ArrayList<>(4);
      l.add(i & 127);
      l.add(1000 + i);
      s += l.get(0) + l.size();
      if ((i & 31) == 0) keep(l);
    }
    return s;
  }

  static long boxes(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      Long v = Long.valueOf(100000L + i);
      Pair p = new Pair(v, null);
      s += ((Long) p.left);
    }
    return s;
  }

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
      sum += shortNodes(100_000);
      voidBoxes(50_000);
      sum += chains(50_000);
      dragged(20_000);
      usedLate(20_000);
      sum += arrays(30_000);
      sum += strings(20_000);
      sum += lists(20_000);
      sum += boxes(30_000);
    }
    System.out.println("rounds " + rounds + " checksum " + (sum + sink));
  }
}
