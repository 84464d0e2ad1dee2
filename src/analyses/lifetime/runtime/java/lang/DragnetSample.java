package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

/**
 * The probes of dragnet's sampled lifetime mode (mode=lifetime,sample=SIZE): only a sample
 * of the objects is tracked (the JVM's allocation sampler picks them, src/agent/
 * lifetime_sampled.cpp), so a use probe must tell in a few instructions whether the object
 * it sees might be one of them.
 *
 * <p>The agent gives every sampled object its identity hash when it is sampled (JVMTI
 * GetObjectHashCode) and counts the hash in FILTER, a table in native memory. An identity
 * hash lives in the object's header and never changes, not even when a collection moves the
 * object, so: an object whose header holds no hash (almost all of them) is not sampled, and
 * that is one load, one mask and one compare (inlined by C2 where the probe is hot). An
 * object with a hash is looked up in FILTER (here, no call); only a hit calls the agent,
 * which finds the object's record by its JVMTI tag (only sampled objects have one).
 *
 * <p>The header's layout is compiled in (FAST_MASK) and checked by the agent at start on an
 * object it hashed, which also sets HASH_SHIFT. A locked object's header may not hold its
 * hash: JDK 17's stack locking displaces it to the lock owner's stack, where the slow path
 * reads it if the owner is this thread; other locked objects (another thread's stack lock,
 * an inflated monitor) go to the agent, which asks JVMTI. Uses through JNI do not come
 * here: the agent records them itself (jni_uses.cpp, without an upcall).
 *
 * <p>Like DragnetRt this class must never call instrumented code: Unsafe's natives only
 * (getByte(null, address), not getByte(address), whose body has an entry probe).
 */
public final class DragnetSample {
  // Set by the agent at VM init (src/analyses/lifetime/agent/lifetime_sampled.cpp), `on` last: before, the
  // slow path does nothing.
  static boolean on;
  static boolean LOCKED_KEEPS_HASH;  // lock bits 00 with the hash in place (lightweight locking)
  static boolean DISPLACED;  // lock bits 00: the header points at the displaced one (stack locking)
  static long FILTER;         // native: one byte per hash bucket, nonzero if a sampled
                              // object may have a hash in it
  static int FILTER_MASK;
  static long CLOCK;          // native: the global clock (estimated bytes allocated)
  static int epochShift = 16;

  static int HASH_SHIFT = 8;  // where the 31-bit identity hash starts in the header

  // The fast path's constants are static finals, which the JIT folds into the code. In the
  // header of HotSpot's 64-bit objects the lock is in bits 0-1 (01: unlocked) and the
  // identity hash in bits 8-38 (JDK 17 to 23) or 11-41 (JDK 24 and newer, whose bits 8-10
  // are zero); the mask covers both. The agent checks the layout on a hashed object at VM
  // init and refuses the mode if it differs.
  static final long FAST_MASK = ((1L << 34) - 1) << 8 | 3;
  static final long UNLOCKED = 1;
  // Set by the agent at VM init; null before, when the probes do nothing. Not initialized
  // here: this class is initialized by the first probe, early in the JVM's start-up, and
  // initializing Unsafe then (before the VM has set UnsafeConstants) breaks it. @Stable:
  // once set, the JIT folds it (and the probes' null test) into the compiled code.
  @Stable static Unsafe U;

  // Recent uses, by hash: hash << 32 | epoch << 1 | kind. A use of the same object, of the
  // same kind, in the same epoch, adds nothing. Shared by all threads, written racily: a
  // lost entry costs one more call into the agent.
  private static final long[] SEEN = new long[1024];
  // Recent uses of objects with an inflated monitor, by monitor (see slow()): the monitor's
  // address bits 3-46 << 20 | epoch << 1 | kind. Shared and racy like SEEN.
  private static final long[] MONITORS = new long[256];
  static final long INFLATED = 2;  // lock bits of a header that points at a monitor

  static final int GET = 0, PUT = 1;

  private DragnetSample() {}

  // get and put are deliberately not @ForceInline, and their bodies are larger than C1's
  // inlining limit (MaxInlineSize / C1MaxInlineSize, 35 bytes; ProbeSizeTest checks): C1,
  // which compiles every warm method with profiling, calls them, while C2 inlines them
  // where the call is frequent (up to FreqInlineSize, 325 bytes) and calls them elsewhere.
  // Inlined into every one of the hundreds of thousands of probe sites, the test and its
  // slow-path call would double C1's compile time, on compiler threads that share the
  // machine's cores with the program (docs/PERFORMANCE.md, "Mode lifetime sampled").

  /** A use of `o` that does not change it (HUP's get). */
  public static void get(Object o) {
    Unsafe u = U;
    if (o == null || u == null) return;
    long mark = u.getLong(o, 0L);
    if ((mark & FAST_MASK) != UNLOCKED) slow(o, mark, GET);
  }

  /** A use of `o` that writes to it (HUP's put). */
  public static void put(Object o) {
    Unsafe u = U;
    if (o == null || u == null) return;
    long mark = u.getLong(o, 0L);
    if ((mark & FAST_MASK) != UNLOCKED) slow(o, mark, PUT);
  }

  // The object has a hash, or is locked (`mark`: its header as the probe read it).
  @DontInline
  private static void slow(Object o, long mark, int kind) {
    if (!on) return;
    Unsafe u = U;
    long lock = mark & 3;
    if (lock == 0 && DISPLACED) {
      // Stack locking: the header points at a BasicLock whose first word is the displaced
      // header. Read only from this thread's own stack (a lock this thread holds, in one
      // of its live frames); another thread's lock may be gone by the time it is read.
      Thread t = Thread.currentThread();
      if (mark >= t.dragnet$stackLo && mark < t.dragnet$stackHi) {
        mark = u.getLong(null, mark);
        lock = mark & 3;
      }
    }
    if (lock == UNLOCKED || (lock == 0 && LOCKED_KEEPS_HASH)) {
      int h = (int) (mark >>> HASH_SHIFT) & 0x7FFFFFFF;
      if (h == 0 || u.getByte(null, FILTER + (h & FILTER_MASK)) == 0) return;  // not sampled
      long e = u.getLongVolatile(null, CLOCK) >>> epochShift;
      long seen = (long) h << 32 | (e & 0x7FFFFFFF) << 1 | kind;
      int i = (h ^ kind) & (SEEN.length - 1);
      if (SEEN[i] == seen) return;
      SEEN[i] = seen;
    } else if (lock == INFLATED) {
      // The header points at the object's monitor, which holds the displaced header (and
      // its hash); only the agent can read that safely (a monitor not owned by this thread
      // may be deflated and freed at any safepoint). Programs that once contended for or
      // waited on an object keep its monitor inflated (jython: 25 M uses of such objects,
      // each a call into the agent), so what the agent did for a monitor is remembered,
      // like SEEN's entries, for the rest of the use epoch: nothing more to record then.
      // Within an epoch (64 KB of allocation by default) a monitor is very unlikely to be deflated and
      // reused for another object; and an entry's epoch wraps only after 2^19 epochs.
      long e = u.getLongVolatile(null, CLOCK) >>> epochShift;
      long entry = (mark >>> 3) << 20 | (e & 0x7FFFF) << 1 | kind;
      int i = (int) (mark >>> 3 ^ mark >>> 12) & (MONITORS.length - 1);
      if (MONITORS[i] == entry) return;
      MONITORS[i] = entry;
    }
    use0(o, kind);
  }

  /**
   * After a call of a clone() method, with its result: if this thread's last sample was
   * allocated by the native Object.clone, which resets the new object's header after the
   * agent saw it (identity hash included), the agent registers it now, with `o` in hand.
   */
  @ForceInline
  public static void cloned(Object o) {
    if (U != null && Thread.currentThread().dragnet$clonePending) clonedSlow(o);
  }

  @DontInline
  private static void clonedSlow(Object o) {
    Thread.currentThread().dragnet$clonePending = false;
    if (on) cloned0(o);
  }

  /** The header of `o` while this thread holds its lock (the agent measures the layout). */
  static long lockedMark(Object o) {
    synchronized (o) {
      return U.getLong(o, 0L);
    }
  }

  /**
   * The word a stack-locked header points at, while this thread holds the lock: the
   * displaced header (the agent checks it; called only when the header is such a pointer).
   */
  static long displacedMark(Object o) {
    synchronized (o) {
      return U.getLong(null, U.getLong(o, 0L));
    }
  }

  /** Records a use of `o` if it is a sampled object (the agent looks it up by tag). */
  private static native void use0(Object o, int kind);

  /** Registers the thread's pending sampled clone (`o`, unless its probe never came). */
  private static native void cloned0(Object o);
}
