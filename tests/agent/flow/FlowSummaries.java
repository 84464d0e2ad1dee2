import java.util.Arrays;

// The summaries of FLOW-DESIGN.md: System.arraycopy (reference and primitive arrays, and
// overlapping within one array), Object.clone of arrays and of an instance, Arrays.copyOf and
// copyOfRange. Each runs N times in one hot loop (C2 compiles it with its intrinsics): the
// expected graph (expected/FlowSummaries.{ci,cs}.edges) must not depend on the JIT tier.
public class FlowSummaries {
  static final int N = 30000;

  static final class Box {
    int v;
    Box(int v) { this.v = v; }
  }

  static final class Pt implements Cloneable {
    int x; long y; double d; boolean b; char c; Object ref;
    Pt copy() throws CloneNotSupportedException {
      return (Pt) super.clone();
    }
  }

  // Reads every element once: length consumptions of a.ELM.
  static int sum(int[] a) {
    int s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i];
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    Object[] refs = new Object[6];
    for (int i = 0; i < 6; i++) {
      refs[i] = new Box(i);
    }
    int[] ints = new int[10];
    for (int i = 0; i < 10; i++) {
      ints[i] = 3 * i;
    }
    Pt p = new Pt();
    p.x = 7; p.y = 8L; p.d = 0.5; p.b = true; p.c = 'c';
    p.ref = new Box(99);
    Object[] r2 = null, r3 = null, r4 = null, r5 = null;
    int[] i2 = null, i3 = null, i4 = null, i5 = null;
    Pt q = null;
    for (int k = 0; k < N; k++) {
      r2 = new Object[6];
      System.arraycopy(refs, 0, r2, 0, 6);
      i2 = new int[10];
      System.arraycopy(ints, 2, i2, 0, 8);
      System.arraycopy(i2, 0, i2, 1, 5);
      i3 = ints.clone();
      r3 = refs.clone();
      q = p.copy();
      r4 = Arrays.copyOf(refs, 4);
      i4 = Arrays.copyOf(ints, 12);
      r5 = Arrays.copyOfRange(refs, 1, 5);
      i5 = Arrays.copyOfRange(ints, 3, 7);
    }
    // Each heap value read below is consumed exactly once in this method (an add, a test, a
    // comparison); only computed values reach the string concatenations (invokedynamic).
    int s2 = sum(i2), s3 = sum(i3), s4 = sum(i4), s5 = sum(i5);
    int v2 = ((Box) r2[5]).v + 1, v3 = ((Box) r3[0]).v + 1, v4 = ((Box) r4[3]).v + 1;
    int v5 = ((Box) r5[0]).v + 1;
    int qx = q.x + 1; long qy = q.y + 1; double qd = q.d + 1; int qb = q.b ? 1 : 0; int qc = q.c + 1;
    int same = q.ref == p.ref ? 1 : 0;
    System.out.println(s2 + " " + s3 + " " + s4 + " " + s5 + " " + v2 + " " + v3 + " " + v4 + " " + v5);
    System.out.println(qx + " " + qy + " " + qd + " " + qb + " " + qc + " " + same);
  }
}
