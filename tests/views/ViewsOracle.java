// Oracle program for the report views (tests/views/views_oracle_test.cpp): allocations whose
// stacks, first application frames and filtered totals are known exactly. The allocating
// lines are found by the test from the markers at their ends.
import java.util.ArrayList;

public class ViewsOracle {
  static final class P {
    int x;
  }

  static Object sink;

  // 1,000 P allocated here: their first application frame is this method, at this line.
  static void direct() {
    for (int i = 0; i < 1000; i++) sink = new P(); // @direct
  }

  // 100 ArrayList here (first application frame: this method at this line) and their
  // Object[50] in java.util.ArrayList.<init> (first application frame: this method, its
  // line not recorded).
  static void viaJdk() {
    for (int i = 0; i < 100; i++) sink = new ArrayList<Object>(50); // @viaJdk
  }

  // 200 int[10] in lib.Helper.make: its first application frame, or with --app-exclude lib.
  // this method.
  static void viaLib() {
    for (int i = 0; i < 200; i++) sink = lib.Helper.make(10);
  }

  // Resolves the classes the methods below use, so that loading them (the class loader's
  // allocations) happens here and not in them.
  static void warm() {
    sink = new P();
    sink = new ArrayList<Object>(0);
    lib.Helper.touch();
  }

  public static void main(String[] args) {
    warm();
    direct();
    viaJdk();
    viaLib();
    System.out.println("views oracle done");
  }
}
