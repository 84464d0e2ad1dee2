package dragnet.rt;

/**
 * Outcomes of conditional branches, computed from operands that instrumented code duplicates
 * just before the branch. Keeping the comparison here means inserted code never branches,
 * so instrumentation never needs new stack-map frames. Method names are the opcodes' names.
 */
public final class Bit {
  private Bit() {}

  public static boolean ifeq(int v) { return v == 0; }
  public static boolean ifne(int v) { return v != 0; }
  public static boolean iflt(int v) { return v < 0; }
  public static boolean ifge(int v) { return v >= 0; }
  public static boolean ifgt(int v) { return v > 0; }
  public static boolean ifle(int v) { return v <= 0; }
  public static boolean if_icmpeq(int a, int b) { return a == b; }
  public static boolean if_icmpne(int a, int b) { return a != b; }
  public static boolean if_icmplt(int a, int b) { return a < b; }
  public static boolean if_icmpge(int a, int b) { return a >= b; }
  public static boolean if_icmpgt(int a, int b) { return a > b; }
  public static boolean if_icmple(int a, int b) { return a <= b; }
  public static boolean if_acmpeq(Object a, Object b) { return a == b; }
  public static boolean if_acmpne(Object a, Object b) { return a != b; }
  public static boolean ifnull(Object a) { return a == null; }
  public static boolean ifnonnull(Object a) { return a != null; }
}
