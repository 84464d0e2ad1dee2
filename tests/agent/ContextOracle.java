// A tree of 3.5 million distinct calling contexts made by four methods and a small heap:
// main calls m0(DEPTH), and every mK(d) with d > 0 calls m0, m1, m2 and m3 with d - 1, so
// each call path is taken once: (4^(DEPTH+1) - 1) / 3 method contexts of one call each
// and, at depth 0, one Leaf allocated in each of the 4^DEPTH paths (the allocation's
// context and its constructor's). The four bodies are alike on purpose: a shared helper
// would be a frame of its own in every path. The program itself
// needs almost no heap (it runs with -Xmx32m); the agent's trees must not take theirs
// from it (alloc_oracle_test.cpp, AllocOracle.ContextTreeOutsideTheJavaHeap).
public class ContextOracle {
  static final int DEPTH = 10;
  static final class Leaf {}

  static Object sink;
  static long leaves;

  public static void main(String[] args) {
    m0(DEPTH);
    System.out.println("contexts done: " + leaves + " leaves");
  }

  static void m0(int d) {
    if (d == 0) {
      sink = new Leaf();
      leaves++;
      return;
    }
    m0(d - 1);
    m1(d - 1);
    m2(d - 1);
    m3(d - 1);
  }

  static void m1(int d) {
    if (d == 0) {
      sink = new Leaf();
      leaves++;
      return;
    }
    m0(d - 1);
    m1(d - 1);
    m2(d - 1);
    m3(d - 1);
  }

  static void m2(int d) {
    if (d == 0) {
      sink = new Leaf();
      leaves++;
      return;
    }
    m0(d - 1);
    m1(d - 1);
    m2(d - 1);
    m3(d - 1);
  }

  static void m3(int d) {
    if (d == 0) {
      sink = new Leaf();
      leaves++;
      return;
    }
    m0(d - 1);
    m1(d - 1);
    m2(d - 1);
    m3(d - 1);
  }
}
