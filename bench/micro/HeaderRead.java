// What the sampled lifetime probe's header test costs C2 inside a loop, by the kind of
// object it reads (docs/PERFORMANCE.md, "Mode lifetime sampled"): a loop sums
// an int[] held in a field, with no probe ("none"), with the probe's test on the holder
// ("instance": DragnetSample.get(this)-like), or on the array ("array"). C2 brackets an
// Unsafe read at offset 0 of an object that is not known to be an array with compiler
// memory barriers, so in "instance" the field and the bound are reloaded every iteration.
//   javac --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -d /tmp/hr bench/micro/HeaderRead.java
//   for m in none instance array; do
//     java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp /tmp/hr HeaderRead $m; done
import jdk.internal.misc.Unsafe;

public class HeaderRead {
  static final Unsafe U = Unsafe.getUnsafe();
  static final long MASK = ((1L << 34) - 1) << 8 | 3;  // DragnetSample.FAST_MASK
  static int slowCalls;

  static void slow(Object o) {
    slowCalls++;
  }

  static void probe(Object o) {  // DragnetSample.get's fast path
    if (o == null) return;
    long mark = U.getLong(o, 0L);
    if ((mark & MASK) != 1) slow(o);
  }

  static final class Holder {
    final int n;
    int[] a;

    Holder(int n) {
      this.n = n;
      a = new int[n];
      for (int i = 0; i < n; i++) a[i] = i;
    }
  }

  static long none(Holder h) {
    long s = 0;
    for (int i = 0; i < h.n; i++) s += h.a[i];
    return s;
  }

  static long instance(Holder h) {
    long s = 0;
    for (int i = 0; i < h.n; i++) {
      probe(h);
      s += h.a[i];
    }
    return s;
  }

  static long array(Holder h) {
    long s = 0;
    for (int i = 0; i < h.n; i++) {
      int[] a = h.a;
      probe(a);
      s += a[i];
    }
    return s;
  }

  public static void main(String[] args) {
    String mode = args.length > 0 ? args[0] : "none";
    Holder h = new Holder(10_000);
    long sum = 0, last = 0;
    for (int rep = 0; rep < 30; rep++) {  // the last repetition's time: C2's code by then
      long t0 = System.nanoTime();
      for (int k = 0; k < 2_000; k++) {
        switch (mode) {
          case "instance" -> sum += instance(h);
          case "array" -> sum += array(h);
          default -> sum += none(h);
        }
      }
      last = System.nanoTime() - t0;
    }
    System.out.printf("%s: %.2f ms for 20 M elements (sum %d, slow calls %d)%n", mode, last / 1e6,
                      sum, slowCalls);
  }
}
