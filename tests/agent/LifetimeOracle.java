// Oracle program of mode lifetime (HUP): objects with hand-computed lag, drag and void.
// Time is bytes allocated; between two events the program allocates only pads (byte
// arrays of known size), so the expected times are sums of pad sizes. The test
// (lifetime_oracle_test.cpp) runs it with a small gc-interval and compares.
//
//   fig11b: `A a = new A(); <pad 100000>; int j = a.i;`   first get at a.i: lag = pad
//   fig11c: `A a = new A(1); <pad 100000>; int j = a.i;`  the constructor only puts
//   fig11d: `A a = new A(1); a.i = 0; <pad>; int j = a.i;` a put first, the get after
//   voided: an int[1000] never read, reachable for <pad 300000>, then dropped
//   dragged: read once, then held for <pad 300000>, then dropped
//   lagged: allocated, <pad 200000>, then read and dropped at once
//
// Each case's objects are of their own class, so the test finds them by class.
// With an argument N > 1 the cases run in N threads at once (the multithreaded oracle);
// each thread makes the same objects.
public class LifetimeOracle {
  static class A {
    public int i;

    public A() {}

    public A(int j) {
      this.i = j;
    }
  }

  static class B extends A {
    public B(int j) {
      super(j);
    }
  }

  static class C extends A {
    public C(int j) {
      super(j);
    }
  }

  static class Held {
    public int v = 7;
  }

  static class Late {
    public int v = 9;
  }

  static volatile Object sink;

  static void pad(int bytes) {
    sink = new byte[bytes - 16];  // byte[n] is 16 + n bytes with compressed class pointers
    sink = null;
  }

  static int fig11() {
    A a = new A();
    pad(100000);
    int j = a.i;
    B b = new B(1);
    pad(100000);
    j += b.i;
    C c = new C(1);
    c.i = 0;
    pad(100000);
    j += c.i;
    return j;
  }

  static int voided() {
    int[] never = new int[1000];
    Object[] holder = {never};
    pad(300000);
    holder[0] = null;
    return holder.length;
  }

  static int dragged() {
    Held h = new Held();
    int v = h.v;
    Object keep = h;
    pad(300000);
    keep = null;
    return v + (keep == null ? 0 : 1);
  }

  static int lagged() {
    Late l = new Late();
    pad(200000);
    return l.v;
  }

  static int all() {
    int r = fig11() + voided() + dragged() + lagged();
    pad(1000000);  // the dropped objects die in a collection within this
    return r;
  }

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    int[] results = new int[threads];
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int k = t;
      ts[t] = new Thread(() -> results[k] = all());
      ts[t].start();
    }
    for (Thread t : ts) t.join();
    int sum = 0;
    for (int r : results) sum += r;
    System.out.println("lifetime oracle: " + threads + " thread(s), result " + sum);
  }
}
