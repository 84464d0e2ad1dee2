// Keeps N small records alive (four int fields each) while it makes garbage of the same
// kind, then prints a checksum: a live set that a mode adding fields to objects makes larger
// (tests/cli/run_heap_test.sh).
public class HeapHolder {
  static final class Rec {
    int a, b, c, d;

    Rec(int i) {
      a = i;
      b = i + 1;
      c = i + 2;
      d = i + 3;
    }
  }

  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]);
    Rec[] keep = new Rec[n];
    for (int i = 0; i < n; i++) keep[i] = new Rec(i);
    long sum = 0;
    for (int round = 0; round < 8; round++) {
      for (int i = 0; i < n; i += 4) sum += new Rec(i).d;
    }
    for (Rec r : keep) sum += r.a + r.b + r.c + r.d;
    System.out.println("records " + n + " sum " + sum);
  }
}
