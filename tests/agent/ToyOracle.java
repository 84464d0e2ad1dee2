// The program of ToyMode (toy_mode_test.cpp): two methods the toy mode probes, one it does
// not, called often enough for C2 to compile them.
public class ToyOracle {
  static long hits;

  public static void hit() {
    hits++;
  }

  static int[] countedArray(int i) {
    return new int[7];
  }

  static Object countedObject(int i) {
    return new StringBuilder();
  }

  static Object plain(int i) {
    return new Object();
  }

  public static void main(String[] args) {
    long sum = 0;
    for (int i = 0; i < 50_000; i++) {
      sum += countedArray(i).length;
      sum += countedObject(i).hashCode() == 0 ? 1 : 0;
      sum += plain(i).hashCode() == 0 ? 1 : 0;
    }
    System.out.println("hits " + hits + (sum > 0 ? "" : "!"));
  }
}
