import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The program `dragnet attach` is tested on: a fixed allocation workload in a loop until
 * told to stop. Ten sites, each a method of its own, allocate byte arrays of 1 to 10 units
 * per round, so site k holds k/55 of the workload's bytes, whenever the profile starts.
 * The arrays go to a ring that keeps them reachable for a while, so no JIT removes them.
 *
 * java AttachTarget DIR: writes DIR/pid and, after its warm-up, DIR/ready; stops when
 * DIR/stop exists, prints "stopped" and exits with status 7. Its output is the same
 * however long it runs.
 */
public class AttachTarget {
  static final int UNIT = 1000;  // bytes of one unit; far below the sampling intervals used
  static final Object[] ring = new Object[4096];
  static int next;

  static void keep(Object o) {
    ring[next++ & (ring.length - 1)] = o;
  }

  static void site1() { keep(new byte[1 * UNIT]); }
  static void site2() { keep(new byte[2 * UNIT]); }
  static void site3() { keep(new byte[3 * UNIT]); }
  static void site4() { keep(new byte[4 * UNIT]); }
  static void site5() { keep(new byte[5 * UNIT]); }
  static void site6() { keep(new byte[6 * UNIT]); }
  static void site7() { keep(new byte[7 * UNIT]); }
  static void site8() { keep(new byte[8 * UNIT]); }
  static void site9() { keep(new byte[9 * UNIT]); }
  static void site10() { keep(new byte[10 * UNIT]); }

  // Each round runs the ten sites in an order of its own: a fixed order would line the same
  // sites up with the allocation buffers' ends, where the JVM's sampler takes its samples.
  static final java.util.Random order = new java.util.Random(42);
  static final int[] sites = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

  static void round() {
    for (int i = sites.length - 1; i > 0; i--) {
      int j = order.nextInt(i + 1), t = sites[i];
      sites[i] = sites[j];
      sites[j] = t;
    }
    for (int k : sites) {
      switch (k) {
        case 1: site1(); break;
        case 2: site2(); break;
        case 3: site3(); break;
        case 4: site4(); break;
        case 5: site5(); break;
        case 6: site6(); break;
        case 7: site7(); break;
        case 8: site8(); break;
        case 9: site9(); break;
        default: site10();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Files.writeString(dir.resolve("pid"), Long.toString(ProcessHandle.current().pid()));
    for (int i = 0; i < 20_000; i++) round();  // the warm-up: every site compiled
    Files.writeString(dir.resolve("ready"), "");
    Path stop = dir.resolve("stop");
    while (!Files.exists(stop)) {
      for (int i = 0; i < 1000; i++) round();
    }
    System.out.println("stopped");
    System.exit(7);
  }
}
