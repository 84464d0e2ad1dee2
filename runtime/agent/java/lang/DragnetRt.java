package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * The probes of dragnet's alloc mode: instrumented code calls these static methods (the
 * agent defines this class into java.base at VM start, so every class can reach it).
 * Hot paths are plain Java on per-thread state (its tables in native memory): no JNI, no
 * locks, no allocation except when a thread's tree grows.
 *
 * <p>Allocation keys (see src/analyses/alloc/sites.h): bit 31 set, bits 4-30 the site
 * index, bits 0-3 the element kind of the array (ELEM_*; 0 for objects). A
 * multianewarray site has one key per allocated dimension, with consecutive indices.
 *
 * <p>Like DragnetState, this class must never call instrumented code.
 */
public final class DragnetRt {
  // Element kinds (low 4 bits of an allocation key; all ten are profile::ElemKind in
  // src/profile/format.h); the layout arrays below are indexed by them.
  static final int ELEM_OBJECT = 0, ELEM_REF = 1;

  // Set by the agent through JNI at VM init (src/agent/runtime_bridge.cpp), `on` last:
  // before that, probes do nothing. They must: early in start-up Thread.currentThread()
  // and System.arraycopy are not bound yet, and binding a native runs Java code
  // (ClassLoader.findNative) that is itself instrumented, so a probe would recurse.
  static boolean on;
  // States carry the per-thread caches of mode lifetime's probes (DragnetLife; set before
  // `on`).
  static boolean threadCaches;
  // bytecodes=on: states carry instruction counts (set before `on`; read only in create()
  // and enableVirtual, out of line, so after the probe's read of `on`).
  static boolean bytecodes;
  static int alignment = 8;
  static int maxDepth = Integer.MAX_VALUE;
  static final int[] ELEM_SIZE = new int[10];  // by element kind
  static final int[] ARRAY_BASE = new int[10];  // header bytes before element 0, by kind

  private DragnetRt() {}

  /** This thread's state; null before VM init and while a thread has no Thread object. */
  @ForceInline
  static DragnetState state() {
    if (!on) return null;
    Thread t = Thread.currentThread();
    if (t == null) return null;
    DragnetState s = t.dragnet$state;
    return s != null ? s : create(t);
  }

  // Out of line: the probes inline state(), and the JIT inlines only small compiled code.
  @DontInline
  private static DragnetState create(Thread t) {
    // SINK while the state is made: its construction runs Object.<init>, whose lifetime
    // probe asks for the state again.
    t.dragnet$state = SINK;
    Class<?> v = virtualClass;
    if (v != null && t.getClass() == v) {
      // Merged (mode alloc): id 0 (the agent finds it here, not through its thread).
      DragnetState s = new DragnetState(maxDepth, threadCaches, true, bytecodes);
      // The state first, then the lock: a virtual thread that blocks on a monitor runs JDK
      // code (instrumented) to unmount and mount again, whose probes must find a real
      // state, not SINK (whose depth is anything: see virtualEnded).
      t.dragnet$state = s;
      if (!mergeVirtual) s.id = nextThreadId();
      addVirtual(s);
      return s;
    }
    DragnetState s = new DragnetState(maxDepth, threadCaches, false, bytecodes);
    s.id = nextThreadId();
    t.dragnet$state = s;
    return s;
  }

  // --- Virtual threads (JDK 21+) ---------------------------------------------------------
  // A virtual thread runs its frames on a stack of its own, so it needs a state of its own
  // (Thread.currentThread() is the virtual thread, which has the field too). But JVMTI
  // lists platform threads only, and virtual threads come by the million, each short-lived:
  // so a virtual thread's state starts small and is listed in `virtuals` while the thread
  // lives, and when the thread ends (JVMTI VirtualThreadEnd: the agent calls virtualEnded)
  // its tree is added to `merged`, one state for all virtual threads, which the agent
  // writes as one thread. In mode lifetime, whose records name contexts of their thread's
  // tree, nothing is merged: the agent writes each virtual thread's tree as a thread's
  // when it ends, and those of the live ones (liveVirtuals) at VM death. Set up by the
  // agent (enableVirtual) when it gets that event; otherwise a virtual thread's state is
  // made like a platform thread's, and never found.
  private static Class<?> virtualClass;
  private static boolean mergeVirtual;
  static DragnetState merged;
  private static final Object VLOCK = new Object();
  private static DragnetState[] virtuals = new DragnetState[16];
  private static int virtualCount;
  static long virtualsEnded;  // virtual threads that ended or were alive at VM death

  /** Called by the agent at VM init with java.lang.VirtualThread. */
  static void enableVirtual(Class<?> c, boolean merge) {
    if (merge) {
      DragnetState m = new DragnetState(maxDepth, false, false, bytecodes);
      m.id = nextThreadId();
      merged = m;
    }
    mergeVirtual = merge;
    virtualClass = c;
  }

  private static void addVirtual(DragnetState s) {
    synchronized (VLOCK) {
      if (virtualCount == virtuals.length) {
        DragnetState[] a = new DragnetState[2 * virtualCount];
        System.arraycopy(virtuals, 0, a, 0, virtualCount);
        virtuals = a;
      }
      s.virtualIndex = virtualCount;
      virtuals[virtualCount++] = s;
    }
  }

  /**
   * Called by the agent (JNI, from the JVMTI VirtualThreadEnd event, on the ending thread)
   * when virtual thread `t` ends: its tree goes into `merged`. What the few frames of the
   * JDK that still run on the thread after the event record (the end of VirtualThread.run,
   * the notification of joiners) stays in the thread's own state and is lost with it. (Not
   * SINK: the frames that run before VM init leave its depth at any value, so it must never
   * be pushed on.)
   */
  static void virtualEnded(Thread t) {
    DragnetState s = t.dragnet$state;
    if (s == null || s == SINK || s.virtualIndex < 0) return;
    if (threadCaches) DragnetLife.ended(s);
    synchronized (VLOCK) {
      int i = s.virtualIndex;
      DragnetState last = virtuals[--virtualCount];
      virtuals[i] = last;
      last.virtualIndex = i;
      virtuals[virtualCount] = null;
      s.virtualIndex = -1;
      if (mergeVirtual) {
        merged.mergeFrom(s);
        s.release();  // mode lifetime: the agent released it when it wrote the tree
      }
      virtualsEnded++;
    }
  }

  /** The states of the live virtual threads (the agent writes or clears them). */
  static DragnetState[] liveVirtuals() {
    synchronized (VLOCK) {
      DragnetState[] a = new DragnetState[virtualCount];
      System.arraycopy(virtuals, 0, a, 0, virtualCount);
      return a;
    }
  }

  /** Called by the agent at VM death: the trees of the virtual threads still alive. */
  static void mergeLiveVirtuals() {
    if (!mergeVirtual) return;
    synchronized (VLOCK) {
      for (int i = 0; i < virtualCount; i++) {
        DragnetState s = virtuals[i];
        s.virtualIndex = -1;
        merged.mergeFrom(s);
        virtuals[i] = null;
        virtualsEnded++;
      }
      virtualCount = 0;
    }
  }

  private static int threads;

  // Threads are numbered as they get a state (1, 2, ...); the agent reads `id`.
  private static synchronized int nextThreadId() {
    return ++threads;
  }

  // The probes themselves are @DontInline: every instrumented method calls them, and
  // inlined (by @ForceInline or by the JIT's own choice) their bodies make each caller's
  // compiled code several times bigger: C1 compiles five times slower and C2 has three
  // times the work, which costs more than the calls (docs/PERFORMANCE.md, "Mode alloc").
  // Their helpers (state(), push(), child()) are inlined into the probe bodies, where they
  // are compiled once.

  // Returned by enter() while nothing is recorded (before VM init, or on a thread without
  // a Thread object), so that the frame's inlined exits have a state to write to: its
  // fields are written racily by all such frames and never read.
  // With instruction counts whatever the mode: made before the agent sets `bytecodes`.
  // Its tables (shared by states that died or got no memory) come with start().
  static final DragnetState SINK = new DragnetState(0, true, false, true, false);

  /**
   * Called by the agent at VM init, after setting DragnetState.U and before `on`: binds
   * the allocator's natives (binding runs Java code, which must find the probes off) and
   * makes the SINK's tables. False without memory for them.
   */
  static boolean start() {
    DragnetState.retire0(0);
    DragnetState.heapRefused0(true);
    return SINK.sinkTables();
  }

  /**
   * Method entry: the context of the method `methodId` under the current one becomes
   * current. Returns the thread's state, which the frame keeps in a local: its exits
   * restore the depth inline (state.sp = the depth read here, minus one), no call.
   */
  @DontInline
  public static DragnetState enter(int methodId) {
    DragnetState s = state();
    if (s == null) return SINK;
    s.push(methodId);
    return s;
  }

  /**
   * Entry of a method the JVM calls when an uncaught exception has unwound every frame of
   * the thread (Thread.dispatchUncaughtException, Thread.exit): without exceptional-exit
   * code the unwound frames left their depth behind, so the context starts at the root.
   */
  @DontInline
  public static DragnetState enterRoot(int methodId) {
    DragnetState s = state();
    if (s != null) s.sp = 0;
    return enter(methodId);
  }

  /**
   * Entry of a leaf method (one that calls nothing and allocates nothing, so no context
   * can be made under it): its call is counted, with no exit to pair.
   */
  @DontInline
  public static void leaf(int methodId) {
    DragnetState s = state();
    if (s != null) s.leaf(methodId);
  }

  /**
   * Entry of a leaf method whose code is one basic block, with bytecodes=on: its call and
   * its `insns` instructions are counted, with no frame and no exit.
   */
  @DontInline
  public static void leafBlock(int methodId, int insns) {
    DragnetState s = state();
    if (s != null) s.leaf(methodId, insns);
  }

  /** Before `new`: one object of the site's class; `s` is what the frame's enter() gave. */
  @DontInline
  public static void alloc(DragnetState s, int key) {
    if (s == SINK && (s = state()) == null) return;  // the frame began before recording
    s.count(s.child(s.current(), key));  // child() first: it may replace the tables
    if (DragnetLife.on) DragnetLife.pending(s, key);
  }

  /** Before newarray and anewarray: one array of `length` elements. */
  @DontInline
  public static void array(int length, DragnetState s, int key) {
    if (length < 0) return;  // NegativeArraySizeException: nothing is allocated
    if (s == SINK && (s = state()) == null) return;
    record(s, key, 1, length);
  }

  /**
   * After multianewarray of `dims` dimensions (so a failed allocation is not counted): the
   * arrays of every allocated dimension, level l under the site index of `key` plus l
   * (element kind Ref, `lastKind` for the last level). The arrays of one
   * level all have the same length, so the first one of each level tells it.
   */
  public static void multi(Object array, int dims, int key, int lastKind) {
    DragnetState s = state();
    if (s == null) return;
    long arrays = 1;
    Object first = array;
    for (int level = 0; level < dims; level++) {
      int length = 0;
      if (first instanceof Object[]) {
        length = ((Object[]) first).length;
      } else if (first != null) {
        length = java.lang.reflect.Array.getLength(first);
      }
      // Every level but the last holds arrays; the last one's kind comes from the site.
      int levelKey = (key & ~15) + 16 * level | (level == dims - 1 ? lastKind : ELEM_REF);
      record(s, levelKey, arrays, length);
      arrays *= length;
      first = arrays > 0 && first instanceof Object[] ? ((Object[]) first)[0] : null;
    }
    if (DragnetLife.on) DragnetLife.bornAll(s, array, key, dims, lastKind);
  }

  /**
   * After array.clone(): the copy the JVM makes natively, which no `new` shows. (The copy
   * of super.clone() is recorded by its runtime class, with dyn.)
   */
  public static void cloned(Object copy, int key) {
    if (copy == null) return;
    DragnetState s = state();
    if (s == null) return;
    record(s, key, 1, java.lang.reflect.Array.getLength(copy));
    if (DragnetLife.on) DragnetLife.born(s, copy, key, s.current());
  }


  /**
   * An allocation whose type is known only at run time, in the current context: the result
   * of Array.newInstance / Unsafe.allocateInstance (reflection), a capturing lambda's
   * instance, and (called by the agent through JNI) objects the JVM allocates natively:
   * VMObjectAlloc events and JNI New* functions. `base` is the site key of the call site
   * (or the agent's key for VM / JNI allocations); the allocation is recorded under a key
   * for the pair (base, runtime class): dynKey().
   */
  public static void dyn(Object obj, int base) {
    if (obj == null) return;
    DragnetState s = state();
    if (s == null) return;
    one(s, obj, base);
  }

  /**
   * After Array.multiNewArray (reflective multi-dimensional arrays): every allocated
   * level, as multi() does for multianewarray. Levels the JVM did not allocate are null.
   */
  public static void dynMulti(Object array, int base) {
    if (array == null) return;
    DragnetState s = state();
    if (s == null) return;
    if (DragnetLife.on) DragnetLife.bornTree(s, array, base, s.current());
    long arrays = 1;
    Object first = array;
    while (first != null && arrays > 0) {
      int length = java.lang.reflect.Array.getLength(first);
      int key = s.dynKey(base, first.getClass(), kindOf(first));
      if (key == 0) return;
      record(s, key, arrays, length);
      arrays *= length;
      first = length > 0 && first instanceof Object[] ? ((Object[]) first)[0] : null;
    }
  }

  /**
   * After Throwable's native fillInStackTrace(int): `backtrace` is what it stored in the
   * throwable's hidden field, arrays the JVM allocated without any event: a chain of Object[]
   * chunks of one length, each holding arrays of the frames' methods, bcis, classes and
   * names (fewer than a chunk's length apart from the classes' Object[], whose elements
   * are classes, not new objects) and the next chunk. Each array is recorded by its runtime
   * class under the call's site, as dyn() does. The chain is walked in a loop: the throwable
   * may be a StackOverflowError, with little stack left.
   */
  public static void backtrace(Object backtrace, int base) {
    if (!(backtrace instanceof Object[])) return;
    DragnetState s = state();
    if (s == null) return;
    Object[] chunk = (Object[]) backtrace;
    for (int n = 0; chunk != null && n < (1 << 20); n++) {
      one(s, chunk, base);
      Object[] next = null;
      for (Object e : chunk) {
        if (e == null || !e.getClass().isArray()) continue;
        if (next == null && e instanceof Object[] && ((Object[]) e).length == chunk.length) {
          next = (Object[]) e;
        } else {
          one(s, e, base);
        }
      }
      chunk = next;
    }
  }

  private static void one(DragnetState s, Object obj, int base) {
    int kind = kindOf(obj);
    int key = s.dynKey(base, obj.getClass(), kind);
    if (key == 0) return;
    if (DragnetLife.on) DragnetLife.born(s, obj, key, s.current());
    if (kind == ELEM_OBJECT) {
      s.count(s.child(s.current(), key));
    } else {
      record(s, key, 1, java.lang.reflect.Array.getLength(obj));
    }
  }

  // The element kind of obj's class, with instanceof only (Class methods are instrumented).
  static int kindOf(Object o) {
    if (o instanceof Object[]) return ELEM_REF;
    if (o instanceof boolean[]) return 2;
    if (o instanceof byte[]) return 3;
    if (o instanceof char[]) return 4;
    if (o instanceof short[]) return 5;
    if (o instanceof int[]) return 6;
    if (o instanceof float[]) return 7;
    if (o instanceof long[]) return 8;
    if (o instanceof double[]) return 9;
    return ELEM_OBJECT;
  }

  // Keys for (base site, runtime class) pairs, shared by all threads. Entry i has site index
  // DYN_TOP - i (the agent's static sites count up from 1, so the two never meet). The
  // agent reads dynCount, then entries below it, and writes a site definition for each.
  static final int DYN_TOP = (1 << 27) - 1;
  private static final Object DYN_LOCK = new Object();
  static Class<?>[] dynClass = new Class<?>[64];
  static int[] dynBase = new int[64];
  static int[] dynKeys = new int[64];
  static volatile int dynCount;
  private static int[] dynIndex = new int[128];  // open addressing: entry + 1, 0 = empty

  /** The key of (base, c); 0 if no more keys can be made (the event is dropped). */
  static int globalDynKey(int base, Class<?> c, int kind) {
    synchronized (DYN_LOCK) {
      int mask = dynIndex.length - 1;
      int slot = dynHash(base, c) & mask;
      for (int e; (e = dynIndex[slot]) != 0; slot = (slot + 1) & mask) {
        if (dynClass[e - 1] == c && dynBase[e - 1] == base) return dynKeys[e - 1];
      }
      int n = dynCount;
      if (n >= DYN_TOP / 2) return 0;
      try {
        if (n == dynClass.length) {
          Class<?>[] cs = new Class<?>[2 * n];
          System.arraycopy(dynClass, 0, cs, 0, n);
          dynBase = DragnetState.grow(dynBase, n);
          dynKeys = DragnetState.grow(dynKeys, n);
          dynClass = cs;
        }
        if (2 * (n + 1) > dynIndex.length) {
          dynIndex = new int[2 * dynIndex.length];
          mask = dynIndex.length - 1;
          for (int i = 0; i < n; i++) dynInsert(i, mask);
        }
      } catch (Throwable t) {
        return 0;
      }
      int key = 0x80000000 | (DYN_TOP - n) << 4 | kind;
      dynClass[n] = c;
      dynBase[n] = base;
      dynKeys[n] = key;
      dynInsert(n, mask);
      dynCount = n + 1;  // volatile: the agent reads entries below it
      return key;
    }
  }

  static int dynHash(int base, Class<?> c) {
    int h = System.identityHashCode(c) * 0x9E3779B1 + base * 0x85EBCA6B;
    return h ^ (h >>> 15);
  }

  private static void dynInsert(int entry, int mask) {
    int slot = dynHash(dynBase[entry], dynClass[entry]) & mask;
    while (dynIndex[slot] != 0) slot = (slot + 1) & mask;
    dynIndex[slot] = entry + 1;
  }

  // `arrays` arrays of `length` elements each, in the current context.
  @ForceInline
  static void record(DragnetState s, int key, long arrays, int length) {
    int node = s.child(s.current(), key);
    if (node == 0) return;  // dropped: the root's line is its child cache, not counters
    Unsafe u = DragnetState.U;
    long line = s.calls + (long) DragnetState.LINE * node;
    u.putLong(null, line, u.getLong(null, line) + arrays);
    long e = line + 8 * DragnetState.ELEMENTS, b = line + 8 * DragnetState.BYTES;
    u.putLong(null, e, u.getLong(null, e) + arrays * length);
    int kind = key & 15;
    long one = ARRAY_BASE[kind] + (long) length * ELEM_SIZE[kind];
    one = (one + alignment - 1) / alignment * alignment;
    u.putLong(null, b, u.getLong(null, b) + arrays * one);
  }
}
