package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;

/**
 * The probes of dragnet's lifetime mode (HUP). Objects are registered when they are
 * allocated, here, without a call into the agent: each gets a record slot in the agent's
 * record table (native memory, written through Unsafe), a phantom reference (REFS, by slot)
 * through which the collector tells its death, and an entry in an identity-hash index
 * (native memory: bucket heads HEADS, chains through the records) that finds the slot of
 * an object a thread meets for the first time. After each collection, scan() finds the
 * cleared references and hands their slots to the agent (died0), which completes and
 * writes the records. Not JVMTI object tags: their tag map would be most of an
 * allocation-heavy run (docs/LIFETIME-DESIGN.md, "Identity and death (exact variant)").
 *
 * <p>Uses (HUP's gets and puts) are recorded when a thread uses an object for the first
 * time in a use epoch; between those, a thread's repeated uses of the objects it used last
 * hit a small cache and cost a compare.
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
  // Set by the agent at VM init (src/analyses/lifetime/agent/lifetime_exact.cpp), `on` last.
  static boolean on;
  static boolean stacks;  // record the contexts of first and last uses
  static int epochShift = 16;
  static long CLOCK;  // address of the global clock (a long in native memory)
  static long nextGc = Long.MAX_VALUE;  // clock value at which the agent wants a GC
  static Unsafe U;
  // The agent's record table (native memory): record `slot` is at RECS + slot * REC_SIZE,
  // its first and last get times at REC_GET and REC_GET + 8, puts at REC_PUT; the other
  // offsets are its fields (lifetime_state.h, Rec), all set by the agent.
  static long RECS, REC_SIZE, REC_GET, REC_PUT;
  static long REC_ID, REC_ALLOC, REC_BYTES, REC_KEY, REC_THREAD, REC_NODE, REC_HASH, REC_NEXT;
  // With stacks: the places of the four uses, 32 bytes a slot (zeroed at birth).
  static long PLACES;
  // The identity-hash index: HMASK + 1 bucket heads (ints in native memory, slot + 1 of the
  // chain's first record, 0: empty); a record's REC_NEXT continues its chain.
  static long HEADS;
  static int HMASK;
  // Native words the agent shares: the next object id (a long), the number of slots ever
  // handed out (an int: scan() looks at [0, HIGH)), a collection not yet scanned (an int,
  // set by the agent's GarbageCollectionFinish), uses of unregistered objects (a long),
  // and the buffer of dead slots for died0 (DEAD_CAP ints).
  static long IDS, HIGH, SCAN_DUE, UNTRACKED, DEAD;
  static int DEAD_CAP;
  // java.lang.ref.Reference's referent and queue fields, and ReferenceQueue.NULL: the phantom
  // references are made with Unsafe.allocateInstance and these stores, so that no
  // instrumented constructor runs (this class must never call instrumented code).
  static long REFERENT, QUEUE;
  static Object NULL_QUEUE;
  // Set when the agent defined Ref with a constructor that runs nothing (no super() call:
  // reference_class.cpp, withEmptyConstructor), so references are made with `new`: since JDK
  // 23 Unsafe.allocateInstance is a call into the VM that posts VMObjectAlloc while an
  // agent listens for it. Unset (boot classes verified), Unsafe.allocateInstance.
  static boolean NEW_REFS;

  /**
   * The reference of a registered object: phantom, so that the collector clears it only
   * when the object is gone for good (after finalization, which may still use it: a weak
   * reference would be cleared before), as JVMTI's ObjectFree did. A class of its own, so
   * that the probes can tell it from the program's objects. The JDK's Reference Handler thread reads every
   * cleared one (instrumented code: Reference.processPendingReferences); those reads are
   * reference processing, not uses, and looking each up would cost a hash lookup per death.
   */
  static final class Ref extends java.lang.ref.PhantomReference<Object> {
    // As compiled, never runs: the agent defines the class with this constructor reduced to
    // `return` (then `new Ref()` runs no instrumented code) or makes it with
    // Unsafe.allocateInstance.
    private Ref() {
      super(null, null);
    }
  }
  /**
   * Never made: the agent defines it with its constructor reduced to `return`, as Ref's,
   * and links it first, to learn whether the JVM verifies boot classes (it then keeps
   * Ref's constructor, and NEW_REFS is false).
   */
  static final class VerifyProbe {
    VerifyProbe() {}
  }

  // The phantom references by slot, in chunks of 2^16 (the agent's record chunks).
  static final Object[][] REFS = new Object[4096][];
  static volatile int epoch;

  static final int CHUNK = 4096;
  static final int GET = 0, PUT = 1;

  private DragnetLife() {}

  // --- natives, registered by the agent ------------------------------------------------

  /** Fills `into` with free record slots; returns how many (0: the table is full). */
  private static native int refill0(int[] into);

  /** Gives back the first `n` of `slots`, never used (a virtual thread ended). */
  private static native void unused0(int[] slots, int n);

  /** A virtual thread ended: the record slots its state still holds go back to the agent. */
  static void ended(DragnetState s) {
    int n = s.slotCount;
    if (!on || n <= 0) return;
    s.slotCount = 0;  // what the thread registers after this takes a new batch
    unused0(s.slots, n);
  }

  /** The first `n` slots of DEAD belong to dead objects; `done`: the scan is complete. */
  private static native void died0(int n, boolean done);

  /** stacks=on: a use of record `slot` at `time` in context (thread, node). */
  private static native void useAt0(int slot, int kind, long time, int thread, int node);

  /** The size of `o` in bytes, as the JVM laid it out. */
  private static native long sizeOf(Object o);

  /** The clock passed nextGc: collects if no other thread did; true if this one did. */
  private static native boolean gcDue();

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

  // The first level: small direct-mapped tables (s.gets, s.puts) of the header words of
  // the objects the thread recorded last, each combined with the use epoch it was
  // recorded in (key). A registered object's header holds its identity hash (given at
  // birth), so an unlocked header names its object (two objects alike in all 31 bits of
  // their hash and their age collide: one use in an epoch may go unrecorded). Header
  // words, not references: storing a reference here would cost a G1 write barrier, with a
  // fence, at every first-level miss. Only unlocked hashed headers are entered (a locked
  // one points at a lock, which another object may use next); an entry is never 0.
  @DontInline
  public static void get(Object o, DragnetState s) {
    if (o == null || !on) return;  // U is set with `on`, at VM init
    long m = U.getLong(o, 0L);
    int e = epoch;
    long[] t = s.gets;
    if (t[slotOf(m, t)] == key(m, e)) return;
    getMiss(o, m, s, e);
  }

  @DontInline
  public static void put(Object o, DragnetState s) {
    if (o == null || !on) return;  // U is set with `on`, at VM init
    long m = U.getLong(o, 0L);
    int e = epoch;
    long[] t = s.puts;
    if (t[slotOf(m, t)] == key(m, e)) return;
    putMiss(o, m, s, e);
  }

  // The header with the epoch above bit 42 (the identity hash ends at bit 38 up to JDK 23
  // and at bit 41 since; epochs wrap after 2^22, 256 GB of allocation at the default).
  private static long key(long m, int e) {
    return m ^ ((long) e << 42);
  }

  // The hash's low bits: at bit 8 up to JDK 23, at bit 11 since.
  private static int slotOf(long m, long[] t) {
    return (int) ((m >>> 8) ^ (m >>> 12)) & (t.length - 1);
  }

  // A header names its object in the first level if it is unlocked and hashed: the
  // sampled probes' header test (DragnetSample.FAST_MASK covers the hash bits of JDK 17
  // to 25 and the lock bits; compile-time constants, so DragnetSample is not loaded).
  private static boolean names(long m) {
    return (m & 3) == DragnetSample.UNLOCKED && (m & DragnetSample.FAST_MASK) != DragnetSample.UNLOCKED;
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
  private static void getMiss(Object o, long m, DragnetState s, int e) {
    if (s == DragnetRt.SINK || o.getClass() == Ref.class) return;
    second(o, m, s, e, s.got, s.gotAt, s.gotSlot, GET, REC_GET);
    if (names(m)) s.gets[slotOf(m, s.gets)] = key(m, e);
  }

  @DontInline
  private static void putMiss(Object o, long m, DragnetState s, int e) {
    if (s == DragnetRt.SINK || o.getClass() == Ref.class) return;
    second(o, m, s, e, s.put, s.putAt, s.putSlot, PUT, REC_PUT);
    if (names(m)) s.puts[slotOf(m, s.puts)] = key(m, e);
  }

  // The second level of one kind of use: the entry for o's header holds the epoch o was
  // last recorded in (at) and its slot (-1: not registered). An object the thread has not
  // seen since the last forced collection is looked up in the identity index.
  private static void second(Object o, long m, DragnetState s, int e, Object[] c, int[] at,
      int[] slots, int kind, long field) {
    int h = headerHash(m) & (c.length - 1);
    if (c[h] == o) {
      if (at[h] == e) return;
      at[h] = e;
      int slot = slots[h];
      if (slot >= 0) recordUse(s, slot, kind, field);  // else not registered: nothing to record
      return;
    }
    c[h] = o;
    at[h] = e;
    int slot = slots[h] = find(o);
    if (slot >= 0) {
      recordUse(s, slot, kind, field);
    } else {
      U.getAndAddLong(null, UNTRACKED, 1);
    }
  }

  private static void recordUse(DragnetState s, int slot, int kind, long field) {
    if (stacks) {
      useAt0(slot, kind, s.time, s.id, s.current());
    } else {
      record(slot, field, s.time);
    }
  }

  // The slot of registered object `o`, or -1. Its identity hash picks the chain; a
  // record of the same hash is o's if its reference refers to o. (A chain may change
  // under the walk: the scanner unlinks dead records, and their slots are reused only
  // after the next scan; the walk gives up after 2^20 steps all the same.)
  private static int find(Object o) {
    Unsafe u = U;
    int h = System.identityHashCode(o);
    int v = u.getIntVolatile(null, HEADS + (long) (h & HMASK) * 4);
    for (int steps = 0; v != 0 && steps < (1 << 20); steps++) {
      int slot = v - 1;
      long r = RECS + slot * REC_SIZE;
      if (u.getInt(null, r + REC_HASH) == h) {
        Object[] chunk = REFS[slot >>> 16];
        Object w = chunk == null ? null : chunk[slot & 0xFFFF];
        if (w != null && u.getReference(w, REFERENT) == o) return slot;
      }
      v = u.getIntVolatile(null, r + REC_NEXT);
    }
    return -1;
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
    int x = headerHash(U.getLong(o, 0L));
    int h = x & (s.got.length - 1);
    s.got[h] = o;
    s.gotAt[h] = -1;
    s.gotSlot[h] = slot;
    h = x & (s.put.length - 1);
    s.put[h] = o;
    s.putAt[h] = -1;
    s.putSlot[h] = slot;
  }

  // A cache index from o's header word: a registered object got its identity hash at
  // birth, which the header holds (bits 8-38 up to JDK 23, 11-41 since) unless the object
  // is locked (then the header points at the lock, which is as good an index while it
  // lasts). The lock and age bits (0-6) are left out: they change with locking and
  // collections. Only an index: the entry's object is compared too, and an object whose
  // header changed is simply looked up again. Read with a load, where the object's address
  // (read before) took a reference store, whose G1 barrier fences.
  private static int headerHash(long m) {
    int x = (int) (m >>> 7) ^ (int) (m >>> 29);
    return x ^ (x >>> 12);
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
    if (top > 0 && s.constructorsAbove(s.pendDepth[top - 1])) {
      s.pendTop = top - 1;
      bornAt(s, o, s.pendKey[top - 1], s.nodeAt(s.pendDepth[top - 1]), s.pendTime[top - 1]);
      return;
    }
    s.pendTop = top;
    int key = s.dynKey(constructedBase, o.getClass(), DragnetRt.ELEM_OBJECT);
    if (key != 0) born(s, o, key, s.current());
  }

  static int constructedBase;  // set by the agent: the site key base for such objects



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
    int slot = register(s, o, key, node, t, size);
    if (slot >= 0) known(s, o, slot);
  }

  // Starts o's record in a slot of the thread's batch, makes its phantom reference and links
  // it into the identity index; its slot, or -1 if the record table is full.
  private static int register(DragnetState s, Object o, int key, int node, long t, long size) {
    int n = s.slotCount;
    if (n == 0 && (n = refill0(s.slots)) == 0) return -1;
    int slot = s.slots[n - 1];
    Object[] chunk = REFS[slot >>> 16];
    if (chunk == null) chunk = refsChunk(slot >>> 16);
    Unsafe u = U;
    Object w;
    if (NEW_REFS) {
      w = new Ref();
    } else {
      try {
        w = u.allocateInstance(Ref.class);
      } catch (InstantiationException e) {
        s.slotCount = n;
        return -1;
      }
    }
    s.slotCount = n - 1;
    u.putReference(w, QUEUE, NULL_QUEUE);
    u.putReference(w, REFERENT, o);
    int h = System.identityHashCode(o);
    if (s.nextId == s.idEnd) {
      s.nextId = u.getAndAddLong(null, IDS, 1024) + 1;
      s.idEnd = s.nextId + 1024;
    }
    long r = RECS + slot * REC_SIZE;
    u.putLong(null, r + REC_ID, s.nextId++);
    u.putLong(null, r + REC_ALLOC, t);
    u.putLong(null, r + REC_BYTES, size);
    u.putInt(null, r + REC_KEY, key);
    u.putInt(null, r + REC_THREAD, s.id);
    u.putInt(null, r + REC_NODE, node);
    u.putInt(null, r + REC_HASH, h);
    u.putLong(null, r + REC_GET, -1L);
    u.putLong(null, r + REC_GET + 8, -1L);
    u.putLong(null, r + REC_PUT, -1L);
    u.putLong(null, r + REC_PUT + 8, -1L);
    if (stacks) u.setMemory(PLACES + slot * 32L, 32, (byte) 0);
    // The record is complete before the scanner can see the reference, and before
    // another thread can find it through the index (the compare-and-set publishes it).
    u.storeFence();
    chunk[slot & 0xFFFF] = w;
    long head = HEADS + (long) (h & HMASK) * 4;
    int first;
    do {
      first = u.getIntVolatile(null, head);
      u.putIntVolatile(null, r + REC_NEXT, first);
    } while (!u.compareAndSetInt(null, head, first, slot + 1));
    return slot;
  }

  private static synchronized Object[] refsChunk(int c) {
    Object[] chunk = REFS[c];
    if (chunk == null) REFS[c] = chunk = new Object[1 << 16];
    return chunk;
  }

  private static final Object SCAN = new Object();

  /**
   * After a collection: every registered object whose phantom reference the collector
   * cleared is dead. Its record leaves the identity index and its slot goes to the agent,
   * which gives it the time of the latest collection (the one that cleared it, or a later
   * one that began meanwhile: never an earlier one) and writes it.
   */
  static void scan() {
    synchronized (SCAN) {
      Unsafe u = U;
      u.putIntVolatile(null, SCAN_DUE, 0);  // a collection during the scan asks again
      int high = u.getIntVolatile(null, HIGH);
      int dead = 0;
      for (int c = 0; c << 16 < high; c++) {
        Object[] chunk = REFS[c];
        if (chunk == null) continue;
        int end = Math.min(1 << 16, high - (c << 16));
        for (int i = 0; i < end; i++) {
          Object w = chunk[i];
          if (w == null || u.getReference(w, REFERENT) != null) continue;
          chunk[i] = null;
          int slot = (c << 16) | i;
          unlink(u, slot);
          u.putInt(null, DEAD + dead * 4L, slot);
          if (++dead == DEAD_CAP) {
            died0(dead, false);
            dead = 0;
          }
        }
      }
      died0(dead, true);
    }
  }

  // Removes record `slot` from its chain (only scan() removes; births push at the head).
  private static void unlink(Unsafe u, int slot) {
    long r = RECS + slot * REC_SIZE;
    int next = u.getIntVolatile(null, r + REC_NEXT);
    long head = HEADS + (long) (u.getInt(null, r + REC_HASH) & HMASK) * 4;
    if (u.compareAndSetInt(null, head, slot + 1, next)) return;
    int v = u.getIntVolatile(null, head);
    while (v != 0) {
      long p = RECS + (v - 1) * REC_SIZE + REC_NEXT;
      int after = u.getIntVolatile(null, p);
      if (after == slot + 1) {
        u.putIntVolatile(null, p, next);
        return;
      }
      v = after;
    }
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
    if (g + want >= nextGc) {
      if (gcDue()) scan();
    } else if (u.getInt(null, SCAN_DUE) != 0) {
      scan();  // the JVM collected on its own: its deaths
    }
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
