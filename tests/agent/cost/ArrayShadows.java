// Mode cost's array shadows (tests/agent/cost_array_shadows_test.cpp): with one shadow per
// element a load depends on the store of its own element; with one per array, on the
// array's last store. System.arraycopy moves the elements' shadows with them.
public class ArrayShadows {
  static int sum(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
  }

  public static void main(String[] args) {
    int[] b = new int[2];
    b[1] = 7;
    b[0] = sum(1000);
    int v = b[1];
    int[] c = new int[3];
    c[2] = 5;
    System.arraycopy(b, 0, c, 0, 2);
    int w = c[2];
    int x = c[0];
    System.out.println(v + " " + w + " " + x);
  }
}
