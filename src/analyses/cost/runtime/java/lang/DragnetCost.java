package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

/**
 * Mode cost's probes (Xu et al. sec. 4; docs/FLOW-DESIGN.md, "Cost-benefit analysis:
 * recording"): frames' contexts (receiver chains), the heap shadows of static fields and
 * array elements, and the records of the cost graph in the engine's table (DragnetFlowTable),
 * per thread, without a lock.
 *
 * <p>A node instance is an int, node << 5 | slot (node >= 1; 0: no node). Records (a, b):
 * <ul>
 *   <li>EDGE | dst, src: the instance dst used a value the instance src produced (counted);
 *   <li>FREQ | block << 5 | slot, 0: a block ran in a frame of that slot;
 *   <li>EFFECT | instance, tag: a heap access of the instance reached an object of that name;
 *   <li>CHAIN | method << 5 | slot, chain: a frame of the method with that raw chain;
 *   <li>the engine's births and cuts.
 * </ul>
 *
 * <p>Like DragnetState, this class must never call instrumented code.
 */
public final class DragnetCost {
  static final long EDGE = 1L << 61;
  static final long FREQ = 2L << 61;
  static final long EFFECT = 3L << 61;
  static final long CHAIN = 5L << 61;

  // Set by the agent at VM init (src/analyses/cost/agent) and never changed again: @Stable
  // lets the JIT fold them once set (`slots` is 0 until then: the slot of a frame before VM
  // init, which records nothing, is 0).
  @Stable static Unsafe U;
  @Stable static int slots;
  // Static fields' shadows: native ints by field id (statics[id]; ids >= staticCap have none).
  @Stable static long statics;
  @Stable static int staticCap;
  // Array elements' shadows (cost.arrayShadow=element): per side-table entry (its index in
  // DragnetFlow's table), the address of a native buffer in `buffers` (0: none), made by
  // the first store into an array of that entry: a header (the entry's key it holds the
  // shadows of; its capacity in elements) and one int per element. A buffer is never freed:
  // a later array of the entry reuses it (zeroed first) if it is large enough, so that a
  // thread still writing the old array's shadows writes into memory that stays valid. Past
  // `elementBudget` bytes a new array keeps one shadow (the entry's own 4 bytes), counted.
  @Stable static boolean elements;
  @Stable static long buffers;
  static long elementBudget;
  static long elementBytes, elementFallbacks;
  private static final long HEADER = 16;

  private DragnetCost() {}

  // --- frames ------------------------------------------------------------------------------

  /**
   * Entry of an instance method: the callee's chain from the transfer (its caller's chain if
   * the selector is this method's, else 0: an uninstrumented frame in between, counted as a
   * cut), extended by the receiver's allocation site: g' = 3g + site.
   */
  @ForceInline
  public static int enter(DragnetState s, int tok, int method, int receiverTag) {
    return 3 * take(s, tok, method) + (receiverTag & DragnetFlow.SITE_MASK);
  }

  /** Entry of a static method: the caller's chain. */
  @ForceInline
  public static int enterStatic(DragnetState s, int tok, int method) {
    return take(s, tok, method);
  }

  @ForceInline
  private static int take(DragnetState s, int tok, int method) {
    int t = s.ftok;
    boolean taken = t == tok;
    s.ftaken = taken;
    s.ftok = 0;
    if (!taken) {
      DragnetFlowTable.cut(s, method);
      return 0;
    }
    return s.fchain;
  }

  /** The slot of a chain: h(g) = g mod s (unsigned); the frame's distinct chains counted. */
  @ForceInline
  public static int slot(DragnetState s, int chain, int method) {
    int n = slots;
    int slot = n <= 1 ? 0 : (int) ((chain & 0xFFFFFFFFL) % n);
    if (s != DragnetRt.SINK && DragnetFlow.on) {
      DragnetFlowTable.count(s, CHAIN | (long) method << 5 | slot, chain & 0xFFFFFFFFL, 1);
    }
    return slot;
  }

  /** Before a call: the caller's chain and the callee's selector (arguments: DragnetFlow.arg). */
  @ForceInline
  public static void call(DragnetState s, int chain, int tok) {
    s.fchain = chain;
    s.ftok = tok;
  }

  /** A block of the frame ran. */
  @ForceInline
  public static void block(DragnetState s, int blockSlot) {
    if (s == DragnetRt.SINK || !DragnetFlow.on) return;
    DragnetFlowTable.count(s, FREQ | blockSlot, 0, 1);
  }

  /** A block of `n` executions ran (a summarised copy's load and store, once per element). */
  @ForceInline
  public static void blockN(DragnetState s, int blockSlot, int n) {
    if (s == DragnetRt.SINK || n <= 0 || !DragnetFlow.on) return;
    DragnetFlowTable.count(s, FREQ | blockSlot, 0, n);
  }

  // --- dependences ---------------------------------------------------------------------------

  /** The instance dst used a value whose shadow is src (no record for 0). */
  @ForceInline
  public static void edge(DragnetState s, int dst, long src) {
    if (src == 0 || s == DragnetRt.SINK || !DragnetFlow.on) return;
    DragnetFlowTable.count(s, EDGE | dst, src, 1);
  }

  /**
   * A heap access of the instance reached the object tagged `tag` (0: an object without a
   * name, which the side table's lookups count already).
   */
  @ForceInline
  public static void effect(DragnetState s, int inst, int tag) {
    if (tag == 0 || s == DragnetRt.SINK || !DragnetFlow.on) return;
    DragnetFlowTable.count(s, EFFECT | inst, tag & 0xFFFFFFFFL, 1);
  }

  /** An instance field read: the writer's instance (the field's shadow) and the object. */
  @ForceInline
  public static void load(DragnetState s, int inst, int shadow, int tag) {
    edge(s, inst, shadow & 0xFFFFFFFFL);
    effect(s, inst, tag);
  }

  // --- static fields -------------------------------------------------------------------------

  @ForceInline
  public static void loadStatic(DragnetState s, int inst, int field) {
    if (field < staticCap && DragnetFlow.on) edge(s, inst, U.getInt(null, statics + 4L * field) & 0xFFFFFFFFL);
  }

  @ForceInline
  public static void storeStatic(int inst, int field) {
    if (field < staticCap && DragnetFlow.on) U.putInt(null, statics + 4L * field, inst);
  }

  // --- array elements ------------------------------------------------------------------------

  /** xaload of array[index] by instance inst. */
  @ForceInline
  public static void aload(DragnetState s, int inst, Object array, int index) {
    long e = accessed(s, inst, array);
    if (e != 0) edge(s, inst, U.getInt(null, shadowOf(e, index)) & 0xFFFFFFFFL);
  }

  /** xastore into array[index] by instance inst. */
  @ForceInline
  public static void astore(DragnetState s, int inst, Object array, int index) {
    long e = accessed(s, inst, array);
    if (e != 0) U.putInt(null, shadowFor(s, e, array, index), inst);
  }

  // An array access's effect (the array's name); the array's side-table entry (0: none).
  @ForceInline
  private static long accessed(DragnetState s, int inst, Object array) {
    if (!DragnetFlow.on) return 0;
    long e = DragnetFlow.entryOf(array, s);
    effect(s, inst, e == 0 ? 0 : (int) U.getLong(null, e + 8));
    return e;
  }

  // The address of the shadow of element `index` of the array of entry e, to read: its
  // buffer's int if it has one, else the entry's own 4 bytes (one shadow for the array:
  // cost.arrayShadow=array, an array without a buffer yet, or a fallback).
  @ForceInline
  private static long shadowOf(long e, int index) {
    if (elements) {
      long b = U.getLong(null, buffers + 8 * ((e - DragnetFlow.table) >>> 4));
      if (b != 0 && U.getLong(null, b) == U.getLong(null, e) && index < U.getInt(null, b + 8)) {
        return b + HEADER + 4L * index;
      }
    }
    return e + 12;
  }

  // The address of that shadow, to write: the array's buffer, made (or taken over) first.
  @ForceInline
  private static long shadowFor(DragnetState s, long e, Object array, int index) {
    if (!elements) return e + 12;
    long b = U.getLong(null, buffers + 8 * ((e - DragnetFlow.table) >>> 4));
    if (b == 0 || U.getLong(null, b) != U.getLong(null, e)) b = buffer(s, e, array);
    return b != 0 && index < U.getInt(null, b + 8) ? b + HEADER + 4L * index : e + 12;
  }

  // The buffer of entry e for `array`: the entry's buffer zeroed for it if large enough, else a
  // new one (the old one is left: see `buffers`); 0 past the budget or without memory.
  @DontInline
  private static long buffer(DragnetState s, long e, Object array) {
    if (s == DragnetRt.SINK) return 0;
    long dir = buffers + 8 * ((e - DragnetFlow.table) >>> 4);
    int n = java.lang.reflect.Array.getLength(array);
    long b = U.getLong(null, dir);
    if (b != 0 && U.getInt(null, b + 8) >= n) {
      // (Unsafe.setMemory is instrumented Java code: this class must not call it.)
      for (long a = b + HEADER, end = a + 4L * n; a < end; a += 4) U.putInt(null, a, 0);
    } else {
      long bytes = HEADER + 4L * n;
      if (elementBytes + bytes > elementBudget) {
        elementFallbacks++;
        return 0;
      }
      b = DragnetState.grow0(0, 0, bytes);
      if (b == 0) {
        elementFallbacks++;
        return 0;
      }
      elementBytes += bytes;
      U.putInt(null, b + 8, n);
    }
    U.putLong(null, b, U.getLong(null, e));
    U.fullFence();
    U.putLong(null, dir, b);
    return b;
  }

  /**
   * System.arraycopy returned: n element copies from src[srcPos..] to dst[dstPos..], counted as
   * n executions of the call's load and store instances (in a block of their own); the load
   * depends on the shadows of the elements read, the elements written take the store's.
   */
  @DontInline
  public static void arraycopy(DragnetState s, int blockSlot, int load, int store, Object src,
      int srcPos, Object dst, int dstPos, int n) {
    if (n <= 0 || src == null || dst == null || s == DragnetRt.SINK || !DragnetFlow.on) return;
    blockN(s, blockSlot, n);
    long from = accessed(s, load, src);
    // Shadows read before any is written: src and dst may be one array.
    long last = 0;
    if (from != 0) {
      for (int k = 0; k < n; k++) {
        long v = U.getInt(null, shadowOf(from, srcPos + k)) & 0xFFFFFFFFL;
        if (v != last) edge(s, load, v);
        last = v;
        if (!elements) break;
      }
    }
    long to = accessed(s, store, dst);
    if (to == 0) return;
    for (int k = 0; k < n; k++) {
      U.putInt(null, shadowFor(s, to, dst, dstPos + k), store);
      if (!elements) break;
    }
  }

  /** Arrays.copyOf / copyOfRange (from `from`) or an array's clone returned `copy` of `src`. */
  @DontInline
  public static void copyOf(DragnetState s, int blockSlot, int load, int store, Object src,
      Object copy, int from) {
    if (src == null || copy == null || !src.getClass().isArray() || !copy.getClass().isArray()) {
      return;
    }
    int n = java.lang.reflect.Array.getLength(copy);
    int have = java.lang.reflect.Array.getLength(src) - from;
    arraycopy(s, blockSlot, load, store, src, from, copy, 0, have < n ? have : n);
  }

  /** A clone or copy made at a summarised call: its tag (arrays and denied classes: side table). */
  @DontInline
  public static int tagCopy(Object copy, DragnetState s, int site, int ctx, boolean field) {
    if (!DragnetFlow.on || s == DragnetRt.SINK || copy == null) return 0;
    int t = DragnetFlow.tag(site, ctx);
    if (!field) DragnetFlow.put(copy, t, s);
    DragnetFlowTable.born(s, site, ctx);
    return t;
  }
}
