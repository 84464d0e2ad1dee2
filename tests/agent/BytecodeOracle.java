// The bytecodes=on oracle (alloc_oracle_test.cpp): known numbers of executed instructions
// per context, counted per basic block as JP does. The expected numbers in the test come
// from this file's bytecode (javac --release 11): keep the two in step.
public class BytecodeOracle {
  static int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
  }

  static int thrower(int n) {
    int s = n + 1;
    if (s > 0) throw new IllegalStateException();
    return s;
  }

  static int catcher() {
    int k = 0;
    try {
      thrower(5);
    } catch (IllegalStateException e) {
      k = 1;
    }
    return k;
  }

  static int rec(int n) {
    return n == 0 ? sq(0) : 1 + rec(n - 1);
  }

  // Leaves of one basic block: their instructions are counted with the call (no frame).
  static int sq(int x) {
    return x * x;
  }

  static int div(int a, int b) {
    return a / b;
  }

  static int leaves() {
    int s = 0;
    for (int i = 0; i < 5; i++) s += sq(i);
    try {
      s += div(1, 0);  // throws in the block, which counts whole
    } catch (ArithmeticException e) {
      s += 100;
    }
    return s;
  }

  // Never returns: its instructions are counted although its frame never exits.
  static void spinThenExit(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    System.out.println("bytecode oracle done");
    System.exit(s == 45 ? 0 : 1);
  }

  // Exceptions leaving frames: thrown by the frame's own instruction (element's iaload,
  // under the exit handler) and by a callee (through's call, which the handler leaves out:
  // the count was added before the call).
  static int element(int[] a, int i) {
    if (i > 0) return a[i];
    return 0;
  }

  static int through(int[] a) {
    int k = 1;
    return element(a, 5) + k;
  }

  static int unwound() {
    try {
      return through(new int[2]);
    } catch (ArrayIndexOutOfBoundsException e) {
      return 7;
    }
  }

  public static void main(String[] args) {
    int t = 0;
    for (int i = 0; i < 3; i++) t += loop(10);
    t += catcher();
    t += rec(10);
    t += leaves();
    t += unwound();
    if (t != 3 * 45 + 1 + 10 + 130 + 7) throw new AssertionError(t);
    spinThenExit(10);
  }
}
