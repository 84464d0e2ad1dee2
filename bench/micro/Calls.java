// Probe cost per call: a loop calling g, which calls the leaf f twice (300 M calls), then
// 20 M small array allocations. Run with and without the agent (docs/PERFORMANCE.md):
//   javac -d /tmp/calls bench/micro/Calls.java
//   java -cp /tmp/calls Calls
//   java -agentpath:build/lib/libdragnet.so=quiet=on,out=/tmp/calls/c.dragnet -cp /tmp/calls Calls
public class Calls {
  static int f(int x) { return x + 1; }
  static int g(int x) { return f(x) ^ f(x >> 1); }
  static Object sink;
  public static void main(String[] a) {
    long t0 = System.nanoTime();
    int s = 0;
    for (int i = 0; i < 100_000_000; i++) s += g(i);
    long t1 = System.nanoTime();
    for (int i = 0; i < 20_000_000; i++) sink = new int[4];
    long t2 = System.nanoTime();
    System.out.println(s + " calls " + (t1 - t0) / 1_000_000 + " ms, allocs " + (t2 - t1) / 1_000_000 + " ms");
  }
}
