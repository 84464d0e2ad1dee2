package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

/**
 * Mode copy's recording (Xu et al. sec. 3): the edges of the copy graph, counted per
 * thread in a table of the thread's DragnetState (native memory, no lock), which the agent
 * reads when the thread ends, at each flush and at VM death
 * (src/analyses/copy/agent/flow_records.cpp).
 *
 * <p>Its records in the engine's table (DragnetFlowTable, beside the engine's births and
 * cuts): the graph's edges (src a node, dst a location or the consumer C), counted; instance
 * clones, src = the original's allocation node, dst = CLONED | the copy's tag; and, with
 * dst 0, clones per context, src = CLONES | node << 27 | site (instance clones made in
 * context node `node` whose copies have site `site`).
 *
 * <p>Like DragnetState, this class must never call instrumented code.
 */
public final class DragnetCopy {
  static final long CONSUMER = 3L << 62;
  // dst of a clone record: the copy's tag in the low bits (src: the original's node).
  static final long CLONED = CONSUMER | 2L << 32;
  static final long CLONES = 5L << 61;
  static final long KIND = 3L << 62;

  private DragnetCopy() {}

  @Stable static Unsafe U;  // set by the agent at VM init

  /** A heap store of a value whose shadow is `src` into location `dst`. */
  @ForceInline
  public static void store(DragnetState s, long src, long dst) {
    if (src == 0 || !DragnetFlow.on || s == DragnetRt.SINK) return;
    DragnetFlowTable.count(s, src, dst, 1);
    if ((src & 0xFFFFFFFF00000000L) != DragnetFlow.OBJECT) copied(s, 1);  // a load's node: a copy
  }

  /** A value whose shadow is `src` is consumed (computation, predicate, native). */
  @ForceInline
  public static void use(DragnetState s, long src) {
    if (src == 0 || !DragnetFlow.on || s == DragnetRt.SINK) return;
    DragnetFlowTable.count(s, src, CONSUMER, 1);
  }

  /** After System.arraycopy(src, _, dst, _, n) returned: n element copies. */
  @DontInline
  public static void arraycopy(DragnetState s, Object src, Object dst, int n) {
    if (n <= 0 || !DragnetFlow.on || s == DragnetRt.SINK) return;
    DragnetFlowTable.count(s, DragnetFlow.elm(src, s), DragnetFlow.elm(dst, s), n);
    copied(s, n);
  }

  /**
   * After Arrays.copyOf / copyOfRange returned `copy` of `src` from index `from`: the copy
   * named by the call (site `site` in context `ctx`), and min(length(src) - from,
   * length(copy)) element copies; the copy's node.
   */
  @DontInline
  public static long copyOf(Object copy, DragnetState s, Object src, int from, int site, int ctx) {
    if (!DragnetFlow.on || s == DragnetRt.SINK || copy == null || src == null) return 0;
    int t = DragnetFlow.tag(site, ctx);
    DragnetFlow.put(copy, t, s);
    DragnetFlowTable.born(s, site, ctx);
    int n = java.lang.reflect.Array.getLength(copy), have = java.lang.reflect.Array.getLength(src) - from;
    if (have < n) n = have;
    if (n > 0) {
      DragnetFlowTable.count(s, DragnetFlow.elm(src, s), DragnetFlow.ELM | (t & 0xFFFFFFFFL), n);
      copied(s, n);
    }
    return DragnetFlow.OBJECT | (t & 0xFFFFFFFFL);
  }

  /**
   * After clone() returned `copy` of `orig` (whose tag is `origTag` when the caller read it
   * from its field, else 0) at allocation site `site`: the copy's tag (arrays and denied
   * classes: in the side table; with `field` the caller stores it in the copy's field), and
   * the copies: an array's elements, an instance's fields.
   */
  @DontInline
  public static int cloned(Object copy, Object orig, int origTag, DragnetState s, int site, int ctx,
      boolean field) {
    if (!DragnetFlow.on || s == DragnetRt.SINK || copy == null) return 0;
    Class<?> c = copy.getClass();
    boolean array = c.isArray();
    if (!array) {
      // super.clone(): its site is a base the copy's runtime class makes a site of, as
      // mode alloc records it (DragnetRt.dyn).
      int key = s.dynKey(0x80000000 | site << 4, c, 0);
      if (key != 0) site = key >>> 4 & DragnetFlow.SITE_MASK;
    }
    int t = DragnetFlow.tag(site, ctx);
    DragnetFlowTable.born(s, site, ctx);
    if (array) {
      int n = java.lang.reflect.Array.getLength(copy);
      long from = DragnetFlow.elm(orig, s);
      DragnetFlow.put(copy, t, s);
      if (n > 0) {
        DragnetFlowTable.count(s, from, DragnetFlow.ELM | (t & 0xFFFFFFFFL), n);
        copied(s, n);
      }
    } else {
      if (!field) DragnetFlow.put(copy, t, s);
      // Object.clone copied every instance field: the analyzer expands this record into one
      // copy per field of the class (the agent writes the classes' fields), and the clones
      // per context into the copies of this context (copied() for arrays): how many fields a
      // class has is not known here without calling instrumented code (reflection).
      int from = origTag != 0 ? origTag : DragnetFlow.tagOf(orig, s);
      if (from != 0) DragnetFlowTable.count(s, DragnetFlow.OBJECT | (from & 0xFFFFFFFFL), CLONED | (t & 0xFFFFFFFFL), 1);
      DragnetFlowTable.count(s, CLONES | (s.current() & 0xFFFFFFFFL) << 27 | (site & DragnetFlow.SITE_MASK), 0, 1);
    }
    return t;
  }

  // --- copies per context ---------------------------------------------------------------

  private static void copied(DragnetState s, long n) {
    int node = s.current();
    if (node >= s.fcopyCap && !growCopies(s, node)) {
      s.fdropped += n;
      return;
    }
    long a = s.fcopies + 8L * node;
    U.putLong(null, a, U.getLong(null, a) + n);
  }

  @DontInline
  private static boolean growCopies(DragnetState s, int node) {
    if (s.fstarved) return false;
    int cap = s.fcopyCap < 256 ? 256 : s.fcopyCap;
    while (cap <= node) cap *= 2;
    long a = DragnetState.grow0(s.fcopies, 8L * s.fcopyCap, 8L * cap);
    if (a == 0) {
      s.fstarved = true;
      return false;
    }
    long old = s.fcopies;
    s.fcopies = a;
    s.fcopyCap = cap;
    if (old != 0) DragnetState.retire0(old);
    return true;
  }

}
