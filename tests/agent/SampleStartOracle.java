// Oracle program for the start of sample=SIZE (alloc_oracle_test.cpp, SampledModeLeavesTheHeap):
// a main small enough to run inside the TLAB it took during JVM start-up, which allocates
// 1,000 byte[1000] (1,016 bytes each with a 16-byte header) and nothing big enough to make
// the JVM collect.
public class SampleStartOracle {
  static byte[][] keep = new byte[1000][];

  public static void main(String[] args) {
    for (int i = 0; i < keep.length; i++) keep[i] = new byte[1000];
    System.out.println("sample start oracle done");
  }
}
