// Known dead, predicate-only and native-bound values for mode cost (IPD, IPP, NLD). Each
// measured method (deadField, predicateOnly, toNative, deadArray) runs ROUNDS times with
// N = 50 loop iterations, from main's hot loop (C2 compiles them); none of their values
// leaves DeadValues except through `seen`, which main only compares, and through
// Double.doubleToRawLongBits, a native on JDK 17 and 25. main prints constant text only.
// Expected values: expected/DeadValues.cost; the format: README.md.
public class DeadValues {
  static final int ROUNDS = 20000;
  static final int N = 50;

  int last; // written N times per call by deadField, never read
  int seen; // counted by predicateOnly, read only by main's check

  // Dead: every value the loop computes ends in `last`, which nothing reads.
  void deadField(int n) {
    for (int i = 0; i < n; i++) { // @deadLoop
      this.last = i * 7 + 1; // @deadStore
    }
  }

  // Predicate-only: `c` and `seen` decide branches and nothing else.
  void predicateOnly(int n) {
    int c = 0; // @predInit
    for (int i = 0; i < n; i++) { // @predLoop
      c = c + 3; // @predAdd
      if (c >= 10) { // @predTest
        c = c - 10; // @predSub
        this.seen = this.seen + 1; // @predSeen
      }
    }
  }

  // Native-bound: `x` reaches only the native Double.doubleToRawLongBits, its result dropped.
  static void toNative(int n) {
    double x = 0.5; // @natInit
    for (int i = 0; i < n; i++) { // @natLoop
      x = x * 0.5 + i; // @natStep
      Double.doubleToRawLongBits(x); // @natCall
    }
  }

  // Dead array: filled and dropped; its elements are never read.
  static void deadArray(int n) {
    int[] a = new int[n]; // @arrNew
    for (int i = 0; i < n; i++) { // @arrLoop
      a[i] = i * i; // @arrStore
    }
  }

  public static void main(String[] args) {
    DeadValues d = new DeadValues(); // @site
    for (int r = 0; r < ROUNDS; r++) {
      d.deadField(N);
      d.predicateOnly(N);
      toNative(N);
      deadArray(N);
    }
    // 3 x N = 150 is added to c per call, so the branch is taken 15 times per call.
    if (d.seen != ROUNDS * 15) { // @check
      throw new IllegalStateException("predicateOnly");
    }
    System.out.println("DeadValues: 20000 rounds of 50 done");
  }
}
