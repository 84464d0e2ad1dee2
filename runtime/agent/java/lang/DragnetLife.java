package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;

/**
 * The probes of dragnet's lifetime mode (HUP): objects are registered with the agent when
 * they are allocated (native born0: the agent tags them and keeps their record), and their
 * uses (HUP's gets and puts) are reported when a thread uses an object for the first time
 * in a use epoch (native use0). Between those, a thread's repeated uses of the objects it
 * used last hit a small cache and cost a compare.
 *
 * <p>Time is the global allocation clock: bytes allocated by all threads, kept in native
 * memory (CLOCK, written with compare-and-set, read by the agent's GC callbacks). Each
 * thread reserves CHUNK bytes of it at a time and hands them out to its own allocations,
 * so the clock is exact for one thread and each thread is at most one chunk ahead of the
 * others. The use epoch is the clock divided by 2^epochShift.
 *
 * <p>Like DragnetRt this class must never call instrumented code.
 */
public final class DragnetLife {
  // Set by the agent at VM init (src/agent/lifetime.cpp), `on` last.
  static boolean on;
  static boolean stacks;  // record the contexts of first and last uses
  static int epochShift = 16;
  static long CLOCK;  // address of the global clock (a long in native memory)
  static long nextGc = Long.MAX_VALUE;  // clock value at which the agent wants a GC
  static Unsafe U;
  static long REF_BASE = 16;  // Unsafe.arrayBaseOffset(Object[].class), set by the agent
  // The agent's record table (native memory): record `slot` is at RECS + slot * REC_SIZE,
  // its first and last get times at REC_GET and REC_GET + 8, puts at REC_PUT.
  static long RECS, REC_SIZE, REC_GET, REC_PUT;
  static volatile int epoch;

  static final int CHUNK = 4096;
  static final int GET = 0, PUT = 1;

  private DragnetLife() {}

  // --- natives, registered by the agent ------------------------------------------------

  /** Registers a new object: the agent tags it and starts its record; returns its slot or -1. */
  private static native int born0(Object o, int key, int thread, int node, long time, long size);

  /** A use of `o` (GET or PUT) at `time` in context (thread, node); returns o's slot or -1. */
  private static native int use0(Object o, int kind, long time, int thread, int node);

  /** The size of `o` in bytes, as the JVM laid it out. */
  private static native long sizeOf(Object o);

  /** The clock passed nextGc: the agent's GC thread should collect. */
  private static native void gcDue();

  // --- probes ---------------------------------------------------------------------------

  /** Entry of an instance method (not a constructor): the call is a use of its receiver. */
  @DontInline
  public static DragnetState enter(Object self, int methodId) {
    DragnetState s = DragnetRt.enter(methodId);
    get(self, s);
    return s;
  }

  /** Entry of an instance leaf method: its call counted, its receiver used. */
  @DontInline
  public static void leaf(Object self, int methodId) {
    DragnetState s = DragnetRt.state();
    if (s == null) return;
    s.leaf(methodId);  // what DragnetRt.leaf does, without looking the state up twice
    get(self, s);
  }

  @DontInline
  public static void get(Object o, DragnetState s) {
    int e = epoch;
    if (o == s.g0 && s.ge0 == e) return;
    if (o == s.g1 && s.ge1 == e) return;
    getMiss(o, s, e);
  }

  @DontInline
  public static void put(Object o, DragnetState s) {
    int e = epoch;
    if (o == s.p0 && s.pe0 == e) return;
    putMiss(o, s, e);
  }

  /**
   * A use by native code through a JNI function (the agent's wrappers, jni_uses.cpp): at
   * the thread's own clock and context, through its caches.
   */
  static void jni(Object o, boolean isPut) {
    DragnetState s = DragnetRt.state();
    if (s == null) return;
    if (isPut) {
      put(o, s);
    } else {
      get(o, s);
    }
  }

  @DontInline
  private static void getMiss(Object o, DragnetState s, int e) {
    if (o == null || !on || s == DragnetRt.SINK) return;
    s.g1 = s.g0;
    s.ge1 = s.ge0;
    s.g0 = o;
    s.ge0 = e;
    second(o, s, e, s.got, s.gotAt, s.gotSlot, GET, REC_GET);
  }

  @DontInline
  private static void putMiss(Object o, DragnetState s, int e) {
    if (o == null || !on || s == DragnetRt.SINK) return;
    s.p0 = o;
    s.pe0 = e;
    second(o, s, e, s.put, s.putAt, s.putSlot, PUT, REC_PUT);
  }

  // The second level of one kind of use: the entry for o's address holds the epoch o was
  // last recorded in (at) and its slot (-1: not registered). Known slots are recorded
  // here, without the agent's tag lookup; the agent is asked only for objects the thread
  // has not seen.
  private static void second(Object o, DragnetState s, int e, Object[] c, int[] at,
      int[] slots, int kind, long field) {
    int h = addressHash(s, o) & (c.length - 1);
    if (c[h] == o) {
      if (at[h] == e) return;
      at[h] = e;
      int slot = slots[h];
      if (slot < 0) return;  // not registered: nothing to record
      if (!stacks) {
        record(slot, field, s.time);
        return;
      }
    } else {
      c[h] = o;
      at[h] = e;
    }
    slots[h] = use0(o, kind, s.time, s.id, stacks ? s.current() : 0);
  }

  // first = min(first, t), last = max(last, t) in record `slot` (what the agent's use0
  // does, by compare-and-set: other threads may use the object too). -1 is "no time".
  private static void record(int slot, long field, long t) {
    Unsafe u = U;
    long a = RECS + slot * REC_SIZE + field;
    long f = u.getLongVolatile(null, a);
    while ((f == -1 || t < f) && !u.compareAndSetLong(null, a, f, t)) {
      f = u.getLongVolatile(null, a);
    }
    long l = u.getLongVolatile(null, a + 8);
    while (t > l && !u.compareAndSetLong(null, a + 8, l, t)) {
      l = u.getLongVolatile(null, a + 8);
    }
  }

  // A new object's slot goes into both caches (not yet used in any epoch), so that its
  // first uses need no tag lookup.
  private static void known(DragnetState s, Object o, int slot) {
    int x = addressHash(s, o);
    int h = x & (s.got.length - 1);
    s.got[h] = o;
    s.gotAt[h] = -1;
    s.gotSlot[h] = slot;
    h = x & (s.put.length - 1);
    s.put[h] = o;
    s.putAt[h] = -1;
    s.putSlot[h] = slot;
  }

  // A hash of o's current address (the reference's bits as stored in an array: a
  // compressed oop, or the low half of a full one). Only a cache index: o is compared too.
  private static int addressHash(DragnetState s, Object o) {
    Object a = s.addr;
    U.putReference(a, REF_BASE, o);
    int x = U.getInt(a, REF_BASE);
    return x ^ (x >>> 11);
  }

  /** After newarray / anewarray: the array counted in its context and registered. */
  @DontInline
  public static void array(Object array, DragnetState s, int key) {
    if (s == DragnetRt.SINK && (s = DragnetRt.state()) == null) return;
    int length = java.lang.reflect.Array.getLength(array);
    DragnetRt.record(s, key, 1, length);
    if (on) born(s, array, key, s.current());
  }

  /** Before `new` (from DragnetRt.alloc): the site waits for its object's construction. */
  static void pending(DragnetState s, int key) {
    int d = s.sp, top = s.pendTop;
    while (top > 0 && s.pendDepth[top - 1] > d) top--;  // their frames are gone
    if (top == s.pendKey.length) {
      if (top >= 1024) {
        top = 0;  // aborted constructions piled up in one frame: start over
      } else {
        s.pendKey = DragnetState.grow(s.pendKey, top);
        s.pendDepth = DragnetState.grow(s.pendDepth, top);
        s.pendTime = DragnetState.grow(s.pendTime, top);
      }
    }
    s.pendKey[top] = key;
    s.pendDepth[top] = d;
    s.pendTime[top] = s.time;
    s.pendTop = top + 1;
  }

  /**
   * First thing in java.lang.Object.&lt;init&gt;: every constructor chain reaches it before
   * any constructor body runs. The object belongs to the latest pending `new` whose frame
   * is right below the chain of constructor frames on the shadow stack; otherwise it was
   * constructed without a `new` the agent saw (reflection, JNI NewObject,
   * deserialization) and is registered by its runtime class in the current context.
   */
  @DontInline
  public static void constructed(Object o) {
    if (!on) return;
    DragnetState s = DragnetRt.state();
    if (s == null || s == DragnetRt.SINK) return;
    if (o == s.lastBorn) return;  // registered already (Unsafe.allocateInstance)
    int sp = s.sp, top = s.pendTop;
    while (top > 0 && s.pendDepth[top - 1] > sp) top--;
    if (top > 0 && belowConstructors(s, s.pendDepth[top - 1], sp)) {
      s.pendTop = top - 1;
      bornAt(s, o, s.pendKey[top - 1], s.nodeAt(s.pendDepth[top - 1]), s.pendTime[top - 1]);
      return;
    }
    s.pendTop = top;
    int key = s.dynKey(constructedBase, o.getClass(), DragnetRt.ELEM_OBJECT);
    if (key != 0) born(s, o, key, s.current());
  }

  static int constructedBase;  // set by the agent: the site key base for such objects

  // Whether every frame in (d, sp] is a constructor (method ids with INIT_BIT).
  private static boolean belowConstructors(DragnetState s, int d, int sp) {
    for (int i = sp; i > d; i--) {
      if ((s.keyOf(s.nodeAt(i)) & INIT_BIT) == 0) return false;
    }
    return true;
  }

  static final int INIT_BIT = 1 << 30;

  // --- registration ---------------------------------------------------------------------

  private static int[] keySize = new int[1024];  // instance size by static site index

  /** Registers `o` (allocated at site `key` in context `node`) at the thread's clock. */
  static void born(DragnetState s, Object o, int key, int node) {
    bornAt(s, o, key, node, 0);
  }

  /**
   * Registers `o` with allocation time `newAt` (the clock when its `new` ran; 0: now). The
   * object is registered when its construction reaches Object.&lt;init&gt;, after the
   * constructor's arguments were evaluated; what they allocated came after the `new` on
   * the clock, so the object's own bytes go on the clock now but its time is its `new`'s.
   */
  private static void bornAt(DragnetState s, Object o, int key, int node, long newAt) {
    long size = sizeOf(o, key);
    long t = advance(s, size);
    if (newAt > 0 && newAt < t) t = newAt;
    s.lastBorn = o;
    int slot = born0(o, key, s.id, node, t, size);
    if (slot >= 0) known(s, o, slot);
  }

  private static long sizeOf(Object o, int key) {
    int kind = key & 15;
    if (kind != DragnetRt.ELEM_OBJECT) {
      long one = DragnetRt.ARRAY_BASE[kind]
          + (long) java.lang.reflect.Array.getLength(o) * DragnetRt.ELEM_SIZE[kind];
      int a = DragnetRt.alignment;
      return (one + a - 1) / a * a;
    }
    int index = (key >>> 4) & 0x7FFFFFF;
    int[] sizes = keySize;
    if (index < sizes.length && sizes[index] != 0) return sizes[index];
    long size = sizeOf(o);
    if (index < (1 << 20)) {  // static sites; dynamic ones count down from 2^27
      while (index >= sizes.length) keySize = sizes = DragnetState.grow(sizes, sizes.length);
      sizes[index] = (int) size;
    }
    return size;
  }

  // The allocation time of `size` bytes on this thread's clock.
  private static long advance(DragnetState s, long size) {
    long t = s.time;
    if (t + size > s.timeEnd) t = reserve(s, size);
    s.time = t + size;
    return t;
  }

  // Reserves the next chunk of the global clock. If no other thread reserved since this
  // thread's last chunk, the new one continues it (no gap: one thread's times are exactly
  // the bytes allocated); else the thread's times jump to the global clock.
  @DontInline
  private static long reserve(DragnetState s, long size) {
    long want = size > CHUNK ? size : CHUNK;
    Unsafe u = U;
    long g;
    do {
      g = u.getLongVolatile(null, CLOCK);
    } while (!u.compareAndSetLong(null, CLOCK, g, g + want));
    long start = g == s.timeEnd ? s.time : g;
    s.timeEnd = g + want;
    epoch = (int) ((g + want) >>> epochShift);
    if (g + want >= nextGc) gcDue();
    return start;
  }

  /** After multianewarray: every allocated array of every level. */
  static void bornAll(DragnetState s, Object array, int key, int dims, int lastKind) {
    bornLevels(s, array, key, 0, dims, lastKind, s.current());
  }

  private static void bornLevels(DragnetState s, Object a, int key, int level, int dims,
                                 int lastKind, int node) {
    if (a == null) return;
    int levelKey = (key & ~15) + 16 * level | (level == dims - 1 ? lastKind : DragnetRt.ELEM_REF);
    born(s, a, levelKey, node);
    if (level + 1 < dims && a instanceof Object[]) {
      for (Object e : (Object[]) a) bornLevels(s, e, key, level + 1, dims, lastKind, node);
    }
  }

  /** After Array.multiNewArray: every array, keyed by its runtime class at site `base`. */
  static void bornTree(DragnetState s, Object a, int base, int node) {
    if (a == null) return;
    int key = s.dynKey(base, a.getClass(), DragnetRt.kindOf(a));
    if (key != 0) born(s, a, key, node);
    if (a instanceof Object[]) {
      for (Object e : (Object[]) a) {
        if (e != null && e.getClass().isArray()) bornTree(s, e, base, node);
      }
    }
  }
}
