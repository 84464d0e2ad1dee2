import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

// Oracle program for allocations that HotSpot's C2 would hide from the exact mode: every
// case runs its loop often enough that C2 compiles it (on-stack replacement) and the JDK
// methods it calls, so that a probe inside an intrinsified or fused JDK method would stop
// counting. intrinsic_oracle_test.cpp compares each case's counts at every JIT tier with
// -Xint and with the counts below, known from the program:
//   usage: IntrinsicOracle N case...   (all cases when none is named)
public class IntrinsicOracle {
  static Object sink;
  static long acc;

  // Arrays.copyOf(Object[]) (C2 intrinsic _copyOf): N Object[20].
  static void copyOf(int n, Object[] src) {
    for (int i = 0; i < n; i++) sink = Arrays.copyOf(src, 20);
  }

  // Arrays.copyOfRange(Object[]) (_copyOfRange): N Object[18].
  static void copyOfRange(int n, Object[] src) {
    for (int i = 0; i < n; i++) sink = Arrays.copyOfRange(src, 2, 20);
  }

  // Arrays.copyOf of a String[] (the intrinsic's typed path, Array.newInstance in its
  // body): N String[20].
  static void copyOfTyped(int n, String[] src) {
    for (int i = 0; i < n; i++) sink = Arrays.copyOf(src, 20);
  }

  // ArrayList growth (Arrays.copyOf): per list an ArrayList, Object[10], Object[15] and
  // Object[22] for 20 elements (small Integers come from the cache).
  static void arrayListGrowth(int n) {
    for (int i = 0; i < n; i++) {
      ArrayList<Integer> l = new ArrayList<>();
      for (int j = 0; j < 20; j++) l.add(j);
      sink = l;
    }
  }

  // Collection.toArray (Arrays.copyOf): N Object[3].
  static void toArray(int n, List<Integer> l) {
    for (int i = 0; i < n; i++) sink = l.toArray();
  }

  // Indy string concatenation (Unsafe.allocateUninitializedArray, _allocateUninitializedArray):
  // per op one byte[] and one String.
  static void concat(int n) {
    for (int i = 0; i < n; i++) sink = "x" + i;
  }

  // A StringBuilder chain (C2 would fuse it: OptimizeStringConcat): per op a StringBuilder,
  // its byte[16], the String and its byte[].
  static void builder(int n) {
    for (int i = 0; i < n; i++) sink = new StringBuilder().append("ab").append(i).toString();
  }

  // A String of UTF-16 chars (StringUTF16.toBytes, _toBytesStringU): a String and a byte[6].
  static void utf16(int n, char[] c) {
    for (int i = 0; i < n; i++) sink = new String(c);
  }

  // A box whose value is not used (C2 would drop the call: EliminateAutoBox): N Integer.
  static void boxUnused(int n) {
    for (int i = 0; i < n; i++) Integer.valueOf(1000 + (i & 1023));
  }

  // A box unboxed at once: N Integer.
  static void boxUnboxed(int n) {
    for (int i = 0; i < n; i++) acc += Integer.valueOf(1000 + (i & 1023)).intValue();
  }

  // BigInteger.multiply below the Karatsuba threshold (multiplyToLen, _multiplyToLen):
  // per op a BigInteger and its int[].
  static void bigMultiply(int n, BigInteger x, BigInteger y) {
    for (int i = 0; i < n; i++) sink = x.multiply(y);
  }

  // A SHA digest per op, cloned from a prototype: its work array (W) is allocated by the
  // first compression in Java, never by the _sha*_implCompress intrinsics.
  static void digests(int n, MessageDigest[] protos) throws Exception {
    byte[] block = new byte[64];
    for (int i = 0; i < n; i++) {
      MessageDigest md = (MessageDigest) protos[i % 3].clone();
      md.update(block);
      sink = md.digest();
    }
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    List<String> cases = Arrays.asList(args).subList(1, args.length);
    String[] all = {"copyOf", "copyOfRange", "copyOfTyped", "arrayListGrowth", "toArray",
                    "concat", "builder", "utf16", "boxUnused", "boxUnboxed", "bigMultiply",
                    "digests"};
    for (String c : cases.isEmpty() ? Arrays.asList(all) : cases) {
      switch (c) {
        case "copyOf": copyOf(n, new Object[10]); break;
        case "copyOfRange": copyOfRange(n, new Object[10]); break;
        case "copyOfTyped": copyOfTyped(n, new String[10]); break;
        case "arrayListGrowth": arrayListGrowth(n); break;
        case "toArray": toArray(n, new ArrayList<>(Arrays.asList(1, 2, 3))); break;
        case "concat": concat(n); break;
        case "builder": builder(n); break;
        case "utf16": utf16(n, new char[] {'\u0411', 'b', 'c'}); break;
        case "boxUnused": boxUnused(n); break;
        case "boxUnboxed": boxUnboxed(n); break;
        case "bigMultiply":
          bigMultiply(n, BigInteger.ONE.shiftLeft(200).add(BigInteger.TEN),
                      BigInteger.ONE.shiftLeft(300).add(BigInteger.valueOf(3)));
          break;
        case "digests":
          // Made outside the case: the provider lookup allocates what a first use does.
          digests(n, new MessageDigest[] {MessageDigest.getInstance("SHA-1"),
                                          MessageDigest.getInstance("SHA-256"),
                                          MessageDigest.getInstance("SHA-512")});
          break;
        default: throw new IllegalArgumentException(c);
      }
    }
    System.out.println("oracle done");
  }
}
