package dragnet.testdata;

/**
 * Methods for the flow engine's shadow-plan test (tests/unit/flow/shadow_plan_test.cpp): how
 * the shadows of loaded values move through locals, merges, loops and handlers.
 */
public class Shadows {
  static class Box {
    Object v;
    Object w;
  }

  // One producer, moved through two locals: no move at run time.
  static Object straight(Box a) {
    Object o = a.v;
    Object p = o;
    return p;
  }

  // Two producers meet on the stack: the value lives in the stack depth's canonical local,
  // written at the end of each branch.
  static Object pick(Box a, Box b, boolean f) {
    return f ? a.v : b.v;
  }

  // A computed value has no node.
  static int computed(int x) {
    int y = x + 1;
    return y;
  }

  // Exceptional flow is not followed: the handler starts with bottom shadows.
  static Object handler(Box a) {
    Object o = a.v;
    try {
      o = a.w;
    } catch (RuntimeException e) {
      return o;
    }
    return o;
  }

  // Two locals swap their values around a loop: the block end's moves form a cycle.
  static Object swapLoop(Box a, Box b, int n) {
    Object x = a.v;
    Object y = b.v;
    for (int i = 0; i < n; i++) {
      Object t = x;
      x = y;
      y = t;
    }
    return x;
  }
}
