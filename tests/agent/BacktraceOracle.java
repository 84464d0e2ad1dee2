// Oracle program for the backtraces the JVM allocates inside Throwable's native
// fillInStackTrace (alloc_oracle_test.cpp, BacktracesAreCounted): 50 exceptions thrown 100
// frames below main. Each backtrace holds 102 frames (the 101 of recurse and main; the
// throwable's constructors and fillInStackTrace are left out), in chunks of 32 (HotSpot's
// trace_chunk_size): 4 chunks, each with one short[32] of methods and one int[32] of bcis.
public class BacktraceOracle {
  static int recurse(int n) {
    if (n == 0) throw new IllegalStateException("bottom");
    return recurse(n - 1) + 1;
  }

  public static void main(String[] args) {
    int caught = 0;
    for (int i = 0; i < 50; i++) {
      try {
        recurse(100);
      } catch (IllegalStateException e) {
        caught++;
      }
    }
    System.out.println("backtrace oracle: " + caught + " caught");
  }
}
