// The oracle of `dragnet diff` in mode alloc (diff_demo_test.sh): the same work in every run,
// and with --planted two known changes: 100,000 more byte[16] at one site (an allocation
// that appears: 100,000 x 32 bytes = 3,200,000 on a 64-bit JVM with compressed class
// pointers: a 16-byte array header and 16 bytes of data) and 20,000 more long[4] at
// another (a site that grows: 20,000 x 48 bytes = 960,000). Prints the same either way.
public class DiffOracle {
  static Object sink;
  static long sum;

  static void planted(int n) {
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[16]; // PLANTED: the site that appears
      b[i & 15] = (byte) i;
      sum += b[i & 15];
    }
  }

  static void grows(int n) {
    for (int i = 0; i < n; i++) {
      long[] l = new long[4]; // the site that grows by 20,000 arrays
      l[i & 3] = i;
      sum += l[i & 3];
      sink = l;
    }
  }

  static void steady() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      s.setLength(0);
      s.append("item ").append(i);
      sink = s.toString();
    }
  }

  public static void main(String[] args) {
    boolean plant = args.length > 0 && args[0].equals("--planted");
    steady();
    grows(plant ? 21_000 : 1_000);
    if (plant) planted(100_000);
    // Read, so that no allocation is dead code; the output is the same either way.
    System.out.println(sink != null && sum != Long.MIN_VALUE ? "done" : "?");
  }
}
