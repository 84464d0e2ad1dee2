// Oracle program for alloc mode with sample=SIZE: known totals per site, which the
// sampled estimates must approach (alloc_oracle_test.cpp, SampledEstimates).
public class SampleOracle {
  static Object sink;

  // 200,000 arrays of 128 longs (1,040 bytes each with a 16-byte header): 208,000,000 bytes.
  static void big() {
    for (int i = 0; i < 200_000; i++) sink = new long[128];
  }

  // 4,000,000 arrays of 2 references (24 bytes each with compressed oops): 96,000,000 bytes.
  static void small() {
    for (int i = 0; i < 4_000_000; i++) sink = new Object[2];
  }

  public static void main(String[] args) {
    big();
    small();
    System.out.println("sample oracle done");
  }
}
