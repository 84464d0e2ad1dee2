package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

/**
 * The flow engine's per-thread record table (docs/FLOW-DESIGN.md, "Recording"): an
 * open-addressing table of (a, b, count) slots in native memory, one per thread's
 * DragnetState, written by its thread without a lock and read by the agent when the thread
 * ends, at each flush and at VM death. An analysis gives its records their meaning by the
 * key's top bits; the engine's own are births, a = BIRTH | ctx << 27 | site (objects
 * allocated at a site in a context) and cuts, a = CUT | method (flows cut at the method's
 * entry), both with b = 0. Also the object names of slots = 0 (exact contexts).
 *
 * <p>Like DragnetState, this class must never call instrumented code.
 */
public final class DragnetFlowTable {
  static final long BIRTH = 7L << 61;
  static final long CUT = 6L << 61;
  static final int SLOT = 24;

  private DragnetFlowTable() {}

  @Stable static Unsafe U;  // set by the agent at VM init

  // (Callers checked DragnetFlow.on.)
  public static void born(DragnetState s, int site, int ctx) {
    count(s, BIRTH | (long) (ctx & DragnetFlow.SITE_MASK) << 27 | site, 0, 1);
  }

  public static void cut(DragnetState s, int method) {
    if (s == DragnetRt.SINK || !DragnetFlow.on) return;
    count(s, CUT | (method & 0xFFFFFFFFL), 0, 1);
  }

  /** Adds n to the count of the record (a, b) of the thread's table. */
  @ForceInline
  public static void count(DragnetState s, long src, long dst, long n) {
    long t = s.fedges;
    if (t != 0) {
      int m = s.fedgeCap - 1;
      int i = hash(src, dst) & m;
      long a = t + (long) SLOT * i;
      if (U.getLong(null, a) == src && U.getLong(null, a + 8) == dst) {
        U.putLong(null, a + 16, U.getLong(null, a + 16) + n);
        return;
      }
    }
    countSlow(s, src, dst, n);
  }

  // The agent's reader finds records by this hash and linear probing
  // (FlowTableReader::home): change both together.
  private static int hash(long src, long dst) {
    long h = src * 0x9E3779B97F4A7C15L + dst * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ h >>> 29);
  }

  @DontInline
  private static void countSlow(DragnetState s, long src, long dst, long n) {
    if (s.fedges == 0 && !growEdges(s)) {
      s.fdropped += n;
      return;
    }
    for (;;) {
      int m = s.fedgeCap - 1;
      int i = hash(src, dst) & m;
      long t = s.fedges;
      for (int probes = 0; probes <= m; probes++, i = (i + 1) & m) {
        long a = t + (long) SLOT * i;
        long k = U.getLong(null, a);
        if (k == src && U.getLong(null, a + 8) == dst) {
          U.putLong(null, a + 16, U.getLong(null, a + 16) + n);
          return;
        }
        if (k != 0) continue;
        if (2 * (s.fedgeUsed + 1) > s.fedgeCap) break;  // half full: grow first
        // The count and dst before the key: a reader that sees the key sees the rest.
        U.putLong(null, a + 16, n);
        U.putLong(null, a + 8, dst);
        U.fullFence();
        U.putLong(null, a, src);
        s.fedgeUsed++;
        return;
      }
      if (!growEdges(s)) {
        s.fdropped += n;
        return;
      }
    }
  }

  // A table twice as large (1024 slots first), every entry moved. False without memory.
  private static boolean growEdges(DragnetState s) {
    if (s.fstarved) return false;
    int oldCap = s.fedgeCap, cap = oldCap == 0 ? 1024 : 2 * oldCap;
    long a = DragnetState.grow0(0, 0, (long) SLOT * cap);
    if (a == 0) {
      s.fstarved = true;
      return false;
    }
    long old = s.fedges;
    int m = cap - 1;
    for (int j = 0; j < oldCap; j++) {
      long o = old + (long) SLOT * j;
      long k = U.getLong(null, o);
      if (k == 0) continue;
      long d = U.getLong(null, o + 8);
      int i = hash(k, d) & m;
      while (U.getLong(null, a + (long) SLOT * i) != 0) i = (i + 1) & m;
      long b = a + (long) SLOT * i;
      U.putLong(null, b + 8, d);
      U.putLong(null, b + 16, U.getLong(null, o + 16));
      U.putLong(null, b, k);
    }
    U.fullFence();
    s.fedges = a;
    s.fedgeCap = cap;
    if (old != 0) DragnetState.retire0(old);
    return true;
  }

  // --- object names with exact contexts (slots = 0) ----------------------------------------
  // name -> (site, ctx) in NAMES (2 ints per name, name 0 unused), interned under a lock:
  // only in the test setting slots=0. The agent reads NAMES and namesUsed.
  static int[] NAMES = new int[2048];
  static int namesUsed = 1;
  private static final Object NLOCK = new Object();

  static int name(int site, int ctx) {
    synchronized (NLOCK) {
      for (int i = 1; i < namesUsed; i++) {
        if (NAMES[2 * i] == site && NAMES[2 * i + 1] == ctx) return i;
      }
      if (2 * namesUsed + 2 > NAMES.length) NAMES = DragnetState.grow(NAMES, 2 * namesUsed);
      NAMES[2 * namesUsed] = site;
      NAMES[2 * namesUsed + 1] = ctx;
      return namesUsed++;
    }
  }

  static int siteOfName(int name) {
    int[] n = NAMES;
    return name > 0 && 2 * name < n.length ? n[2 * name] : 0;
  }
}
