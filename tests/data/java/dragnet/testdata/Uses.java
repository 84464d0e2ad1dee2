package dragnet.testdata;

/**
 * Uses of objects for the lifetime planner's test (tests/unit/heap_access/use_plan_test.cpp): which
 * uses need a probe, per method, is written next to each use. A use needs none when, on
 * every path to it since the last call or allocation, the same kind of use of the object
 * in the same local was probed (or, for `this`, recorded by the entry probe).
 */
public class Uses {
  int a, b;

  int twice() {
    return 2 * a; // none: `this` is recorded at entry
  }

  static int branches(Uses o, boolean c) {
    int x = o.a; // probe
    if (c) {
      x += o.b; // none
    } else {
      x -= o.a; // none
    }
    return x + o.b; // none
  }

  static int afterCall(Uses o) {
    int x = o.a; // probe
    x += o.twice(); // (the receiver is a use at the callee's entry)
    return x + o.b; // probe: the call may have advanced the clock
  }

  static int oneBranch(Uses o, boolean c) {
    int x = 0;
    if (c) {
      x = o.a; // probe
    }
    return x + o.b; // probe: not read on the other path
  }

  static int loop(int[] v) {
    int s = v.length; // probe
    for (int i = 0; i < 10; i++) {
      s += v[i]; // thread's clock: none; global clock: probe
    }
    return s;
  }

  static int reassigned(Uses o, Uses p, boolean c) {
    int x = o.a; // probe
    if (c) {
      o = p;
    }
    return x + o.b; // probe: o may hold another object
  }

  static void getThenPut(Uses o) {
    int x = o.a; // get probe
    o.b = x; // put probe
    o.a = x + 1; // none
  }

  static int handler(Uses o) {
    int x = o.a; // probe
    try {
      x += o.b; // none
    } catch (RuntimeException e) {
      x += o.a; // probe: a handler starts afresh
    }
    return x;
  }

  int self(boolean c) {
    int x;
    if (c) {
      x = a; // none
    } else {
      x = b; // none
    }
    return x + a; // none
  }

  static int[] table() {
    return new int[] {3, 1, 4, 1, 5}; // one put probe: each store uses the new array on the stack
  }

  static String[] names(String s) {
    String[] v = {"a", s, "c"}; // one put probe
    v[1] = "b"; // none: v holds the array just probed
    return v;
  }

  static Object[] withCall(Uses o) {
    return new Object[] {o, o.twice(), o}; // put probes at 0 and 1: the call may advance the clock
  }

  static int cast(Object o) {
    return ((Uses) o).a; // checkcast probe only: the same object stays on the stack
  }
}
