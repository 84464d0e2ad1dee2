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
    return n == 0 ? 0 : 1 + rec(n - 1);
  }

  // Never returns: its instructions are counted although its frame never exits.
  static void spinThenExit(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    System.out.println("bytecode oracle done");
    System.exit(s == 45 ? 0 : 1);
  }

  public static void main(String[] args) {
    int t = 0;
    for (int i = 0; i < 3; i++) t += loop(10);
    t += catcher();
    t += rec(10);
    if (t != 3 * 45 + 1 + 10) throw new AssertionError(t);
    spinThenExit(10);
  }
}
