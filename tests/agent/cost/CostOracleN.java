public class CostOracleN {
  static class A {
    int t;
    int getT() { return this.t; }
    void foo(int n) {
      int s = 0;
      for (int i = 0; i < n; i++) {
        s = s + i * 3;
      }
      this.t = s;
    }
  }
  static class IntList {
    int[] arr = new int[10];
    int pos;
    void add(int v) { arr[pos++] = v; }
  }
  public static void main(String[] args) {
    IntList list = new IntList();
    A a = new A();
    a.foo(Integer.parseInt(args[0]));
    int v = a.getT();
    list.add(v);
    System.out.println("done");
  }
}
