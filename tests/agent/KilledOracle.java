// A program that allocates known objects, keeps them, says "ready" and waits to be killed
// (tests/agent/killed_profile_test.cpp): what a profile holds when the JVM is killed.
//   10,000 KilledOracle$Point (two ints), 100 KilledOracle$Fin (a finalizer),
//   1,000 int[100], 5,000 KilledOracle$Leak (a long and a reference), all reachable.
// With an argument FILE, the Leaks come only once FILE exists (so that a flush in between
// sees the other classes first).
public class KilledOracle {
  static final class Point {
    final int x, y;

    Point(int x, int y) {
      this.x = x;
      this.y = y;
    }
  }

  static final class Fin {
    int v;

    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
      v = 1;
    }
  }

  static final class Leak {
    long a;
    Leak next;
  }

  static Object keep;

  public static void main(String[] args) throws Exception {
    Point[] points = new Point[10000];
    for (int i = 0; i < points.length; i++) points[i] = new Point(i, -i);
    Fin[] fins = new Fin[100];
    for (int i = 0; i < fins.length; i++) fins[i] = new Fin();
    int[][] arrays = new int[1000][];
    for (int i = 0; i < arrays.length; i++) arrays[i] = new int[100];
    if (args.length > 0) {
      while (!new java.io.File(args[0]).exists()) Thread.sleep(20);
    }
    Leak head = null;
    for (int i = 0; i < 5000; i++) {
      Leak l = new Leak();
      l.next = head;
      head = l;
    }
    keep = new Object[] {points, fins, arrays, head};
    System.out.println("ready");
    System.out.flush();
    while (true) Thread.sleep(1000);
  }
}
