// Nested try/finally with synchronized blocks and methods: javac's monitor handlers cover
// themselves, finally bodies are duplicated on every path, and exceptions leave through
// several monitors at once. After each call no monitor may still be held.
public class Main {
  static final Object A = new Object();
  static final Object B = new Object();
  static int innerFinally, outerFinally, lastFinally, caught;

  static int nested(int mode) {
    int r = 0;
    try {
      synchronized (A) {
        r += 1;
        try {
          synchronized (B) {
            r += 10;
            if (mode == 1) throw new IllegalStateException("inner");  // @throwInner
            try {
              if (mode == 2) return r + 1000;  // @earlyReturn
            } finally {
              r += 100;
              innerFinally++;  // @innerFinally
            }
          }
        } finally {
          r += 10000;
          outerFinally++;  // @outerFinally
          if (mode == 3) throw new UnsupportedOperationException("from finally");  // @throwFinally
        }
      }
    } catch (IllegalStateException e) {  // @catch
      r = -r;
      caught++;  // @caught
    } finally {
      lastFinally++;  // @lastFinally
    }
    return r;
  }

  private int counter;

  synchronized int bump(int by) {
    if (by < 0) throw new IllegalArgumentException("negative");  // @bumpThrow
    synchronized (this) {  // reentrant
      counter += by;
    }
    return counter;
  }

  static synchronized String both(Main m, int k) {
    synchronized (m) {
      try {
        return "k" + m.bump(k);
      } catch (IllegalArgumentException e) {  // @bothCatch
        return "rejected";
      } finally {
        lastFinally += 100;
      }
    }
  }

  static String held() {
    return Thread.holdsLock(A) + " " + Thread.holdsLock(B) + " " + Thread.holdsLock(Main.class);
  }

  public static void main(String[] args) {
    for (int mode = 0; mode < 4; mode++) {
      try {
        System.out.println("mode " + mode + ": " + nested(mode) + " " + held());
      } catch (RuntimeException e) {
        System.out.println("mode " + mode + ": " + e.getClass().getSimpleName() + " " + held());
      }
    }
    System.out.println(innerFinally + " " + outerFinally + " " + lastFinally + " " + caught);
    Main m = new Main();
    System.out.println(both(m, 5) + " " + both(m, -1) + " " + both(m, 2) + " " + held()
        + " " + Thread.holdsLock(m));
    System.out.println(lastFinally);
  }
}
