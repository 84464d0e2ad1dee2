package dragnet.testdata;

import java.io.IOException;
import java.util.List;

// Code shapes: line numbers, locals, generics, lambdas, switches, try/finally, inner and
// anonymous classes. The "@line" markers are looked up by the test.
public class Features {
  public static final int CONST = 42;
  public static final String SCONST = "s";

  public static int lines(int x) {
    int y = x + 1; // @line lines.1
    return y * 2; // @line lines.2
  }

  public static <T extends Comparable<T>> T max(List<? extends T> list) {
    T best = null;
    for (T t : list) {
      if (best == null || t.compareTo(best) > 0) {
        best = t;
      }
    }
    return best;
  }

  public Runnable lambda(String message) {
    return () -> System.out.println(message);
  }

  public String concat(String a, int b) {
    return a + b;
  }

  public static int stringSwitch(String s) {
    switch (s) {
      case "a":
        return 1;
      case "b":
        return 2;
      default:
        return 0;
    }
  }

  public static int tableSwitch(int i) {
    switch (i) {
      case 10:
        return 5;
      case 11:
        return 7;
      case 12:
        return 9;
      case 13:
        return 11;
      default:
        return -1;
    }
  }

  public static int tryFinally(int x) {
    try {
      return 100 / x;
    } finally {
      System.out.println("finally"); // @line finally
    }
  }

  public static long wideLocals(long a, double b) {
    long[] arr = new long[3];
    int big = 0;
    for (int i = 0; i < 3000; i += 200) { // wide iinc
      big += i;
    }
    return a + (long) b + arr.length + big;
  }

  @Deprecated
  public void old() {}

  public void throwsIt() throws IOException {
    throw new IOException("x");
  }

  public class Inner {
    int value() {
      return CONST;
    }
  }

  public Object anon() {
    return new Object() {
      @Override
      public String toString() {
        return "anon";
      }
    };
  }

  public synchronized int sync(Object o) {
    synchronized (o) {
      return o.hashCode();
    }
  }

  // A branch between `new` and its constructor call: frames with Uninitialized types.
  public static Object uninit(boolean c) {
    return new StringBuilder(c ? "a" : "b");
  }

  public static int[][] arrays(int n) {
    int[][] grid = new int[n][n];
    grid[0] = new int[] {1, 2};
    return grid;
  }
}
