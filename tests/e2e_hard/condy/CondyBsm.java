// Bootstrap methods and printers for the hand-assembled class Condy (hard_cases_modern_test),
// which loads dynamic constants (CONSTANT_Dynamic) with ldc and ldc2_w.
import java.lang.invoke.MethodHandles;

public class CondyBsm {
  static int calls;

  // Condy "answer" of type int.
  public static Object answer(MethodHandles.Lookup lookup, String name, Class<?> type) {
    calls++;
    return 42;
  }

  // Condy "big" of type long, with a static argument.
  public static Object big(MethodHandles.Lookup lookup, String name, Class<?> type, long base) {
    calls++;
    return base * 1000 + name.length();
  }

  public static void show(int v) {
    System.out.println("int " + v);
  }

  public static void show(long v) {
    System.out.println("long " + v);
  }

  public static void show(Object v) {
    System.out.println("object " + v);
  }

  public static void report() {
    System.out.println("bootstrap calls " + calls);
  }
}
