// Each opcode family of the flow engine: heap loads and stores of every type (getfield/putfield,
// getstatic/putstatic, xaload/xastore), values moved through locals, parameters and returns, the
// stack shuffles javac emits (dup, dup2, dup_x1, dup_x2, dup2_x1, dup2_x2), checkcast, and the
// consumers (computations, iinc, conversions, predicates, switches). Each work method runs K
// times. Expected: expected/FlowOpcodes.{ci,cs}.edges, which names lines by the @markers here.
public class FlowOpcodes {
  static final int K = 30000;

  static final class Box {
    int v;
  }

  static final class Rec {
    boolean z; byte b; char c; short s; int i; long j; float f; double d; Object a; Box k;
  }

  static boolean sz; static byte sb; static char sc; static short ss; static int si;
  static long sj; static float sf; static double sd; static Object sa;
  static boolean tz; static byte tb; static char tc; static short ts; static int ti;
  static long tj; static float tf; static double td; static Object ta;
  static int ui; static long uj;

  // getfield -> putfield, every type.
  static void fields(Rec p, Rec q) {
    q.z = p.z; // @fz
    q.b = p.b; // @fb
    q.c = p.c; // @fc
    q.s = p.s; // @fs
    q.i = p.i; // @fi
    q.j = p.j; // @fj
    q.f = p.f; // @ff
    q.d = p.d; // @fd
    q.a = p.a; // @fa
  }

  // getstatic -> putstatic, every type.
  static void statics() {
    tz = sz; // @sz
    tb = sb; // @sb
    tc = sc; // @sc
    ts = ss; // @ss
    ti = si; // @si
    tj = sj; // @sj
    tf = sf; // @sf
    td = sd; // @sd
    ta = sa; // @sa
  }

  // xaload -> xastore, every array type (baload/bastore serve boolean[] and byte[]).
  static void arrays(boolean[] z, byte[] b, char[] c, short[] s, int[] i, long[] j, float[] f,
      double[] d, Object[] a) {
    z[1] = z[0]; // @az
    b[1] = b[0]; // @ab
    c[1] = c[0]; // @ac
    s[1] = s[0]; // @as
    i[1] = i[0]; // @ai
    j[1] = j[0]; // @aj
    f[1] = f[0]; // @af
    d[1] = d[0]; // @ad
    a[1] = a[0]; // @aa
  }

  static int idI(int x) {
    return x;
  }

  static long idJ(long x) {
    int pad = 0;
    long y = x;
    return y;
  }

  static Object idA(Object x) {
    return x;
  }

  // Through locals, parameters (a long takes two slots) and returns; checkcast passes the value.
  static void moves(Rec p, Rec r) {
    double v = p.d; // @md1
    double w = v;
    r.d = w; // @md2
    r.i = idI(p.i); // @mi
    r.j = idJ(p.j); // @mj
    r.a = idA(p.a); // @ma
    r.k = (Box) p.a; // @mk
  }

  // The stack shuffles: each stores one loaded value twice.
  static void dups(Rec p, Rec u, Rec w, int[] ia, int[] ib, long[] la, long[] lb) {
    u.i = w.i = p.i; // @dx1 dup_x1
    u.j = w.j = p.j; // @d2x1 dup2_x1
    ia[0] = ib[0] = p.i; // @dx2 dup_x2
    la[0] = lb[0] = p.j; // @d2x2 dup2_x2
    int x = ui = p.i; // @dup dup
    ia[1] = x; // @dupuse
    long y = uj = p.j; // @dup2 dup2
    la[1] = y; // @dup2use
    ib[1] += p.s; // @dup2a dup2 of (array, index), then iaload, iadd, iastore
  }

  // Consumers. The result is computed: the caller's use of it records nothing.
  static int consume(Rec p, int[] ix) {
    int n = 0;
    n += p.i; // @cadd iadd
    if (p.j > 5L) { // @clcmp lcmp
      n++;
    }
    if (p.i < p.s) { // @cicmp if_icmpge
      n += 2;
    }
    if (p.a == p.k) { // @cacmp if_acmpne
      n += 3;
    }
    if (p.a == null) { // @cnull ifnonnull
      n += 4;
    }
    if (p.a instanceof Box) { // @cinst instanceof
      n += 5;
    }
    switch (p.b) { // @ctable tableswitch
      case 1: n += 6; break;
      case 2: n += 7; break;
      case 3: n += 8; break;
      default: n += 9;
    }
    switch (p.c) { // @clookup lookupswitch
      case 'a': n += 10; break;
      case 'x': n += 11; break;
      case 1000: n += 12; break;
      default: n += 13;
    }
    if (p.f > 0.5f) { // @cfcmp fcmpl
      n++;
    }
    if (p.d < 0.25) { // @cdcmp dcmpg
      n++;
    }
    if (p.z) { // @cz ifeq
      n++;
    }
    long t = p.i; // @ci2l i2l
    n += (int) t;
    int v = p.s; // @cinc iinc on a local holding a loaded value
    v++;
    ix[2] = v; // @cincstore stores a computed value: no edge
    ix[3] = ix[p.s]; // @cindex the index p.s is no dependence
    n += -p.b; // @cneg ineg
    return n;
  }

  public static void main(String[] args) {
    Rec p = new Rec(); // @P
    p.z = true; p.b = 2; p.c = 'x'; p.s = 1; p.i = 3; p.j = 9L; p.f = 0.75f; p.d = 0.125;
    p.a = new Box(); // @Pa
    p.k = new Box(); // @Pk
    Rec q = new Rec(); // @Q
    Rec r = new Rec(); // @R
    Rec u = new Rec(); // @U
    Rec w = new Rec(); // @W
    sz = true; sb = 4; sc = 'q'; ss = 5; si = 6; sj = 7L; sf = 1.5f; sd = 2.5;
    sa = new Box(); // @Sa
    boolean[] az = {true, false}; // @Az
    byte[] ab = {1, 2}; // @Ab
    char[] ac = {'a', 'b'}; // @Ac
    short[] as = {3, 4}; // @As
    int[] ai = {5, 6}; // @Ai
    long[] aj = {7L, 8L}; // @Aj
    float[] af = {0.5f, 1f}; // @Af
    double[] ad = {0.25, 1.0}; // @Ad
    Object[] aa = {new Box(), null}; // @Aa
    int[] ia = new int[2]; // @Ia
    int[] ib = new int[2]; // @Ib
    long[] la = new long[2]; // @La
    long[] lb = new long[2]; // @Lb
    int[] ix = {0, 1, 2, 3}; // @Ix
    long total = 0;
    for (int k = 0; k < K; k++) {
      fields(p, q);
      statics();
      arrays(az, ab, ac, as, ai, aj, af, ad, aa);
      moves(p, r);
      dups(p, u, w, ia, ib, la, lb);
      total += consume(p, ix);
    }
    long check = total + (q.b == ab[1] ? 1 : 0); // @check
    System.out.println("total " + check);
  }
}
