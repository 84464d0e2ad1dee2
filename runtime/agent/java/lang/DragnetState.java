package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * One thread's calling-context tree (dragnet alloc mode). Owned by its thread: only that
 * thread writes it, so nothing here locks. The agent reads it when the thread ends, at VM
 * death, and (racily, for a recent crash-safe prefix) from its flush thread.
 *
 * <p>Node 0 is the thread's root. A node is a (parent, key) pair; a key is a method id, or
 * an allocation key (high bit set) for the allocations made directly in the parent
 * context. Per node: count (invocations, or objects/arrays allocated), elements (arrays),
 * bytes (arrays; objects are sized by the analyzer from per-class sizes) and executed
 * bytecode instructions (bytecodes=on).
 *
 * <p>The tables that grow with the tree (nodes, their lines, the index, the overflow blocks
 * and the shadow stack) are native memory, not Java arrays, so that the Java heap holds
 * only this object per thread (a program runs profiled with the -Xmx it runs with). The
 * agent allocates it (grow0, within its max-memory option) and frees it (retire0: at once,
 * or after the recorder's read in progress, which may still hold the old address). The
 * tables are read and written through Unsafe's intrinsic raw-address accessors
 * (getInt/getLong/putInt/putLong with a null base, natives: never its Java wrappers, which
 * are instrumented); a table that grows is copied into a new one, whose address replaces
 * the old one's only when the copy is complete.
 *
 * <p>This class must never call instrumented code (that would recurse into the probes):
 * it uses Unsafe's natives, arrays, its own methods and Thread.currentThread() (native) only.
 */
public final class DragnetState {
  // Set by the agent at VM init, before any state with tables exists.
  static Unsafe U;

  public int id;  // assigned by the agent when it first records this thread (0: not yet)
  // Its place in DragnetRt's list of live virtual threads' states; -1: not listed.
  int virtualIndex = -1;
  // Nodes: at nodes + NODE n its parent (int) and key (int); capacity `cap`, doubled as
  // the tree grows. `size` is written (volatile) only after a new node's parent and key
  // are, so a concurrent reader sees whole nodes (in whichever copy of a table it reads).
  static final int NODE = 8;
  public long nodes;
  private int cap;
  // Per node n, one 64-byte line of STRIDE longs at calls + LINE n (the block is 64-byte
  // aligned: one cache line per step of a call): its count (invocations, or objects/arrays
  // allocated), then a small cache of its children (k << 32 | node; 0: none, no key is 0):
  // the child with key k goes to its own slot, 1 + k % (STRIDE - 1), or if that is taken
  // to a free one, or with the line full to the node's overflow block (see miss()). A
  // context that calls up to 22 methods in turn finds them there without a lookup in the
  // index. An allocation node never has children, so its line holds its array counters
  // instead: elements in slot ELEMENTS, bytes in slot BYTES (a probe writes one cache line).
  static final int STRIDE = 8, ELEMENTS = 1, BYTES = 2, LINE = 8 * STRIDE;
  public long calls;
  // Executed bytecode instructions per node: bytecodes=on only (null otherwise), where
  // instrumented code adds to it inline.
  public long[] insns;
  public volatile int size;
  // Overflow blocks of the child cache: EXT more slots (longs) for a node whose line is
  // full (the line's last slot then holds the block's start + 1, with no key), taken in
  // turn from `ext` (extCap longs, doubled) on the first miss with the line full.
  static final int EXT = 16;
  long ext;
  private int extCap, extUsed;

  // Open-addressing index of nodes by (parent, key), linear probing: slot s (16 bytes at
  // index + 16 s) holds the pair packed as parent << 32 | key (0: empty; no key is 0) and
  // the node: one cache line per probe, without touching the node tables. 2 cap slots.
  private long index;
  private int mask;  // slots - 1

  // Shadow stack of the instrumented frames. `sp` is the thread's depth in instrumented
  // frames, which instrumented code itself restores: each frame keeps the depth below it in
  // a local and writes it back at every exit (and depth + 1 at the start of each of its
  // exception handlers), so a frame whose exit never ran (an exception out of super())
  // cannot leave the stack out of step. The int at stack + 4 d is the context at depth d
  // for d <= lim; frames deeper than lim (the depth limit, or a stack that could not grow)
  // are collapsed into the context at lim.
  private long stack;
  private int stackCap;
  public int sp;
  private int lim;
  private boolean capped;  // the stack could not grow: lim stays
  private final int maxDepth;
  // The tables were first carved from one block, [home, homeEnd), given back only when
  // the state dies. `fixed`: the tables never grow (DragnetRt.SINK's, and the SINK's
  // tables shared by a state that died or got no memory: every event goes to node 0).
  private long home, homeEnd;
  private boolean fixed;
  // A growth was refused (max-memory, no memory): the tables stay as they are, and no
  // event asks the agent again (each would be a native call).
  private boolean starved;
  // The context of the frame entered last (for bytecodes=on, read once by the frame as
  // the node its instruction count goes to).
  public int node;
  // Set by a call site that passes its number (mode alloc, src/contexts/call_sites.h) just
  // before its invoke, and set back after it and in the frame's handlers to what it was at
  // the frame's entry: the calling frame's depth << 8 | the site's number; 0: none. The entries the call makes read it (slot())
  // and key their contexts by the number.
  public int callSite;
  public long collapsed;  // frames collapsed because of the depth limit
  public long dropped;  // events that went to the root because the tree could not grow
  public long lookups;  // index lookups: calls and allocations the child cache missed

  // This thread's cache of DragnetRt.globalDynKey: (base key, class) -> key, so that the
  // shared table's lock is taken once per pair and thread.
  private Class<?>[] dynClass = new Class<?>[16];
  private int[] dynBase = new int[16];
  private int[] dynKey = new int[16];
  private int dynUsed;

  // --- Mode lifetime (DragnetLife), written only by this thread -----------------------
  // The thread's allocation clock: times [time, timeEnd) are reserved for it from the
  // global clock (bytes allocated by all threads).
  long time, timeEnd;
  // First-level use caches: the header words of the objects this thread got or put last,
  // each with the use epoch it was recorded in, direct mapped by the header's hash bits
  // (DragnetLife.get: a registered object's header holds its identity hash).
  long[] gets;  // 256 entries
  long[] puts;  // 64 entries
  // Second-level use caches, looked at when the first level misses: direct mapped by the
  // object's header word (gotAt/putAt: the use epoch of each entry). Code that walks many
  // objects in turn (a loop over a list's nodes and their fields) misses the two entries
  // above all the time but hits here: each hit saves an identity-index lookup. An object
  // whose header changed (locked, aged by a collection) is looked for in another entry: a
  // miss, one more (harmless) record of the same use. Cleared by the agent before each collection it forces (until
  // then they keep up to 4352 objects per thread alive). Sizes from fop: 1024 get entries
  // left 1.42 M uses of unregistered objects to look up, 8192 left 0.76 M; 4096 costs
  // 32 KB per thread.
  Object[] got;  // 4096 entries, like gotAt and gotSlot
  int[] gotAt;
  int[] gotSlot;  // the entry's record slot (-1: not registered)
  Object[] put;  // 256 entries, like putAt and putSlot
  int[] putAt;
  int[] putSlot;
  // The object registered last (reflection registers it before its constructor runs).
  Object lastBorn;
  // Record slots taken from the agent's pool (slots[0, slotCount) are free), and the
  // object ids [nextId, idEnd) reserved for this thread's objects.
  int[] slots;  // 256 entries
  int slotCount;
  long nextId, idEnd;
  // Allocation sites (`new`) whose object's construction has not reached Object.<init>
  // yet: site key, the depth of the allocating frame and the thread's clock at the `new`.
  int[] pendKey;  // 16 entries, grown, like pendDepth and pendTime
  int[] pendDepth;
  long[] pendTime;
  int pendTop;

  // --- The flow engine (src/flow, DragnetFlow), written only by this thread -----------
  // The call transfer: a caller's selector and its arguments' shadows (the receiver
  // first); whether the frame entered last took them; the shadow a callee returned and
  // its selector.
  int ftok;
  boolean ftaken;
  long fa0, fa1, fa2, fa3, fa4, fa5, fa6, fa7;
  int frtok;
  long fret;
  // Mode cost: the caller's receiver chain (DragnetCost), passed with the transfer.
  int fchain;
  // The side table's per-thread cache: the object looked up last, its tag and its entry's
  // address (0: none).
  Object ftagged;
  int ftag;
  long fentry;
  // Tags of `new`s whose root constructor has not run yet, with their frames' depths.
  // Transfers kept across methods the JVM calls by itself (DragnetFlow.save): 10 longs
  // each (the saving frame's depth, the chain and the selector, the arguments).
  long[] fsaved;
  int fsaveTop;
  int[] fpendTag;
  int[] fpendDepth;
  int fpendTop;
  // The flow modes' record table (DragnetFlowTable) in native memory, open addressing
  // (a, b, count: 24 bytes a slot; a 0 is empty), its capacity (a power of two) and slots
  // used; mode copy's copies per context node (native, 8 bytes a node, `fcopyCap` nodes).
  long fedges;
  int fedgeCap, fedgeUsed;
  long fcopies;
  int fcopyCap;
  boolean fstarved;  // a table could not grow: what does not fit is dropped, counted
  long fdropped;

  // The context of the frame at depth d (frames past the limit are collapsed into lim).
  int nodeAt(int d) {
    return U.getInt(null, stack + 4L * (d <= lim ? d : lim));
  }

  // The key of the context node n (a method id, or an allocation key).
  int keyOf(int n) {
    return U.getInt(null, nodes + (long) NODE * n + 4);
  }

  // The bit an analysis that matches objects to their constructors sets in constructors'
  // method ids (contexts::kConstructorBit).
  static final int INIT_BIT = 1 << 30;

  // Whether every frame in (d, sp] is a constructor: an object whose `new` ran in the frame
  // at depth d is the one under construction.
  boolean constructorsAbove(int d) {
    for (int i = sp; i > d; i--) {
      if ((keyOf(nodeAt(i)) & INIT_BIT) == 0) return false;
    }
    return true;
  }

  // `lifetime`: with the caches of mode lifetime; `virtual`: a virtual thread's, which
  // starts small (16 nodes; in mode lifetime 8 KB of caches and record slots taken 32 at a
  // time): programs run many of them at once, each short-lived. A platform thread's starts
  // with 256 nodes and (mode lifetime) about 55 KB of caches and batches of 256 slots.
  // Without memory for its tables (max-memory reached) the state shares the SINK's.
  DragnetState(int maxDepth, boolean lifetime, boolean virtual, boolean bytecodes) {
    this(maxDepth, lifetime, virtual, bytecodes, true);
  }

  // `tables`: false only for DragnetRt.SINK, made before the agent can allocate (sink()).
  DragnetState(int maxDepth, boolean lifetime, boolean virtual, boolean bytecodes,
      boolean tables) {
    this.maxDepth = maxDepth;
    int n = virtual ? 16 : 256;
    if (bytecodes) insns = new long[n];
    if (tables && !carve(n)) useSink();
    if (!lifetime) return;
    int second = virtual ? 512 : 4096;  // powers of two: indexed by hash & (length - 1)
    gets = new long[256];
    puts = new long[64];
    got = new Object[second];
    gotAt = new int[second];
    gotSlot = new int[second];
    put = new Object[second / 16];
    putAt = new int[second / 16];
    putSlot = new int[second / 16];
    slots = new int[virtual ? 32 : 256];
    pendKey = new int[16];
    pendDepth = new int[16];
    pendTime = new long[16];
  }

  // The tables for `n` nodes, carved from one block. False without memory.
  private boolean carve(int n) {
    long lines = (long) LINE * n, nodeBytes = (long) NODE * n, indexBytes = 32L * n;
    long total = lines + nodeBytes + indexBytes + 8L * EXT + 4L * 64;
    long h = grow0(0, 0, total);  // 64-byte aligned, zeroed
    if (h == 0) return false;
    calls = h;  // first: its lines are cache lines
    nodes = h + lines;
    index = nodes + nodeBytes;
    ext = index + indexBytes;
    stack = ext + 8L * EXT;
    home = h;
    homeEnd = h + total;
    cap = n;
    mask = 2 * n - 1;
    extCap = EXT;
    stackCap = 64;
    lim = maxDepth < stackCap - 1 ? maxDepth : stackCap - 1;
    U.putInt(null, nodes + 4, -1);  // the root's key
    size = 1;
    return true;
  }

  // DragnetRt.SINK's tables (DragnetRt.start, at VM init): 16 nodes that stay empty.
  boolean sinkTables() {
    if (!carve(16)) return false;
    fixed = true;
    home = homeEnd = 0;  // never given back
    lim = 0;
    capped = true;
    cap = 1;
    return true;
  }

  // Shares the SINK's tables: every event goes to the root, node 0 (counted nowhere); new
  // contexts are dropped (add() fails: cap 1).
  private void useSink() {
    DragnetState k = DragnetRt.SINK;
    fixed = true;
    nodes = k.nodes;
    calls = k.calls;
    index = k.index;
    mask = k.mask;
    ext = k.ext;
    extCap = extUsed = k.extCap;
    stack = k.stack;
    stackCap = k.stackCap;
    home = homeEnd = 0;
    cap = 1;
    size = 1;
    lim = 0;
    capped = true;
  }

  /**
   * The thread of this state has ended and its tree was written or merged (called by the
   * agent, or by DragnetRt.virtualEnded, on that thread): the tables go back to the agent
   * and the state shares the SINK's, for whatever still runs on the thread (the JDK's last
   * frames of a virtual thread). Never written again (id 0).
   */
  void release() {
    if (fixed) return;
    long a = nodes, c = calls, i = index, x = ext, s = stack, h = home, e = homeEnd;
    useSink();  // first: the tables are given back below
    id = 0;
    retire(a, h, e);
    retire(c, h, e);
    retire(i, h, e);
    retire(x, h, e);
    retire(s, h, e);
    retire0(h);
    // Mode copy's tables (DragnetCopy): none grows again on this thread.
    long fe = fedges, fc = fcopies;
    fstarved = true;
    fedges = 0;
    fedgeCap = 0;
    fcopies = 0;
    fcopyCap = 0;
    if (fe != 0) retire0(fe);
    if (fc != 0) retire0(fc);
  }

  // Gives a table back unless it is part of the first block (given back by release()).
  private void retire(long a) {
    retire(a, home, homeEnd);
  }

  private static void retire(long a, long home, long homeEnd) {
    if (a < home || a >= homeEnd) retire0(a);
  }

  // The agent's allocator (src/agent/tree_memory.cpp), bound by DragnetRt.start before the
  // probes are on: a new zeroed block of `bytes` (64-byte aligned) holding the first `used`
  // bytes of `old`, or 0 when max-memory would be passed or the system has no memory.
  static native long grow0(long old, long used, long bytes);

  // Gives a block of grow0 back (0: nothing): freed at once, or after the recorder's read in
  // progress.
  static native void retire0(long address);

  // bytecodes=on keeps its instruction counts in Java arrays: together they may hold at most
  // this many longs (1/64 of the maximum heap, set by the agent before the probes are on),
  // so that the program keeps its heap. Past it a tree stops growing, as it does at
  // max-memory.
  static long insnsBudget = Long.MAX_VALUE;
  private static long insnsUsed;  // racy sum of the threads' insns lengths: a bound, not a count

  // Counts a refusal of insnsBudget and warns once on stderr; `bind` (DragnetRt.start, before
  // the probes are on: binding a native runs Java code) only binds it.
  static native void heapRefused0(boolean bind);

  // Adds the tree of `from` (a thread's that no longer runs) to this one: each of its nodes,
  // parents first (a node's parent is always older), under the node its parent became here;
  // its counters added. Growth that fails sends nodes to the root (child() counts them).
  void mergeFrom(DragnetState from) {
    Unsafe u = U;
    int n = from.size;
    int[] map = new int[n];
    for (int i = 1; i < n; i++) {
      long f = from.nodes + (long) NODE * i;
      int k = u.getInt(null, f + 4);
      int m = child(map[u.getInt(null, f)], k);
      map[i] = m;
      long src = from.calls + (long) LINE * i;
      long dst = calls + (long) LINE * m;  // after child(): it may replace the tables
      u.putLong(null, dst, u.getLong(null, dst) + u.getLong(null, src));
      if (k < 0 && m != 0) {  // an allocation node: its array counters
        long e = 8 * ELEMENTS, b = 8 * BYTES;
        u.putLong(null, dst + e, u.getLong(null, dst + e) + u.getLong(null, src + e));
        u.putLong(null, dst + b, u.getLong(null, dst + b) + u.getLong(null, src + b));
      }
      if (insns != null && from.insns != null) insns[m] += from.insns[i];
    }
    collapsed += from.collapsed;
    dropped += from.dropped;
    lookups += from.lookups;
  }

  @ForceInline
  int current() {
    int d = sp;
    return U.getInt(null, stack + 4L * (d <= lim ? d : lim));
  }

  // One more call of (or allocation in) the context n.
  @ForceInline
  void count(int n) {
    Unsafe u = U;
    long a = calls + (long) LINE * n;
    u.putLong(null, a, u.getLong(null, a) + 1);
  }

  // The key of a context of `methodId` entered at depth d + 1: with the number of the call
  // site that called it (bits 22-29, profile::kCallSlotShift) if its caller at depth d passed
  // one. Every entry at that depth until the caller sets it back was made during that call
  // (a class loader or initializer the JVM runs first, the callee, what a hidden class
  // calls); deeper entries leave it. An entry at a lesser depth means the calling frame is
  // gone (an exception left it): the number is dropped.
  @ForceInline
  private int slot(int methodId, int d) {
    int v = callSite;
    if (v == 0) return methodId;
    int at = v >>> 8;
    if (at != d) {
      if (at > d) callSite = 0;
      return methodId;
    }
    if ((methodId & SLOT_BITS) != 0) return methodId;
    return methodId | (v & 0xFF) << 22;
  }

  static final int SLOT_BITS = 0xFF << 22;

  // Entry of a frame of `methodId`: its context (depth sp + 1) is counted and current.
  @ForceInline
  void push(int methodId) {
    int d = sp;
    methodId = slot(methodId, d);
    if (d >= lim && !deeper(d)) {
      collapsed++;  // the collapsed call still counts, in the deepest context
      int n = U.getInt(null, stack + 4L * lim);
      count(n);
      node = n;
      sp = d + 1;
      return;
    }
    int n = child(U.getInt(null, stack + 4L * d), methodId);
    count(n);  // after child(): it may replace the tables
    U.putInt(null, stack + 4L * (d + 1), n);
    node = n;
    sp = d + 1;
  }

  // Whether a context can be made at depth d + 1 (d >= lim): only at lim itself (deeper
  // frames have no contexts below them), within the depth limit, if the stack grows.
  @DontInline
  private boolean deeper(int d) {
    if (d != lim || d >= maxDepth || capped) return false;
    long s = fixed || starved ? 0 : grow0(stack, 4L * stackCap, 8L * stackCap);
    if (s == 0) {
      capped = starved = true;
      return false;
    }
    long old = stack;
    stack = s;
    stackCap *= 2;
    retire(old);
    lim = maxDepth < stackCap - 1 ? maxDepth : stackCap - 1;
    return true;
  }

  // A call of a leaf method (no calls, no allocations): counted in its context, which is
  // never current, so nothing is pushed. Returns the node counted: the leaf's context, or
  // the collapsed frame's below the depth limit.
  @ForceInline
  int leaf(int methodId) {
    int d = sp;
    methodId = slot(methodId, d);
    if (d >= maxDepth || d > lim) {
      collapsed++;
      int c = U.getInt(null, stack + 4L * lim);
      count(c);
      return c;
    }
    int n = child(U.getInt(null, stack + 4L * d), methodId);
    count(n);
    return n;
  }

  // The same for a leaf whose code is one basic block (bytecodes=on): every call executes
  // its `n` instructions (all of them, as every block is counted when it is entered), so
  // they are added here, without a frame, a count local or an exit.
  @ForceInline
  void leaf(int methodId, int n) {
    int node = leaf(methodId);  // first: child() may replace the arrays
    long[] i = insns;
    if (i != null) i[node] += n;
  }

  // The key of the allocation of a `c` (element kind `kind`) at dynamic site `base`; 0 when
  // no key could be made (counted in `dropped`).
  int dynKey(int base, Class<?> c, int kind) {
    int mask = dynClass.length - 1;
    int slot = DragnetRt.dynHash(base, c) & mask;
    for (Class<?> e; (e = dynClass[slot]) != null; slot = (slot + 1) & mask) {
      if (e == c && dynBase[slot] == base) return dynKey[slot];
    }
    int k = DragnetRt.globalDynKey(base, c, kind);
    if (k == 0) {
      dropped++;
      return 0;
    }
    if (2 * (dynUsed + 1) > dynClass.length) {
      Class<?>[] oc = dynClass;
      int[] ob = dynBase, ok = dynKey;
      try {  // all three first, so that a failure leaves the old cache intact
        Class<?>[] nc = new Class<?>[2 * oc.length];
        int[] nb = new int[2 * oc.length];
        dynKey = new int[2 * oc.length];
        dynBase = nb;
        dynClass = nc;
      } catch (Throwable t) {
        return k;  // not cached: the next event asks the shared table again
      }
      dynUsed = 0;
      for (int i = 0; i < oc.length; i++) {
        if (oc[i] != null) cache(ob[i], oc[i], ok[i]);
      }
    }
    cache(base, c, k);
    return k;
  }

  private void cache(int base, Class<?> c, int k) {
    int mask = dynClass.length - 1;
    int slot = DragnetRt.dynHash(base, c) & mask;
    while (dynClass[slot] != null) slot = (slot + 1) & mask;
    dynClass[slot] = c;
    dynBase[slot] = base;
    dynKey[slot] = k;
    dynUsed++;
  }

  // The node (p, k), created on first use; 0 (the root) when it could not be made.
  @ForceInline
  int child(int p, int k) {
    int own = 1 + (k & 0x7FFFFFFF) % (STRIDE - 1);
    long c = U.getLong(null, calls + (long) LINE * p + 8 * own);
    if ((int) (c >>> 32) == k) return (int) c;
    return miss(p, k, own);
  }

  // The child's own slot `own` of the line of p holds another. A child whose own slot was
  // taken when it was first looked up went to a free slot of the line, or with the line
  // full to the node's overflow block, so the rest of the line (the same cache line: no
  // memory traffic) and the block are searched before the index: a context with up to 22
  // callees keeps them all. With both full, the child takes its slot in the block.
  @DontInline
  private int miss(int p, int k, int own) {
    Unsafe u = U;
    long line = calls + (long) LINE * p;
    int free = 0, base = -1;
    for (int i = 1; i < STRIDE; i++) {
      long c = u.getLong(null, line + 8 * i);
      if ((int) (c >>> 32) == k) return (int) c;
      if (c == 0) {
        if (free == 0) free = i;
      } else if ((c >>> 32) == 0) {
        base = (int) c - 1;  // the overflow block
      }
    }
    int xfree = -1;
    if (base >= 0) {
      long x = ext;
      for (int i = base; i < base + EXT; i++) {
        long c = u.getLong(null, x + 8L * i);
        if ((int) (c >>> 32) == k) return (int) c;
        if (c == 0 && xfree < 0) xfree = i;
      }
    }
    int n = lookup(p, k);
    if (n == 0) return 0;  // dropped, not a real child
    long e = (long) k << 32 | n;
    line = calls + (long) LINE * p;  // lookup() may have replaced the tables
    if (u.getLong(null, line + 8 * own) == 0) {
      u.putLong(null, line + 8 * own, e);
    } else if (free != 0) {
      u.putLong(null, line + 8 * free, e);
    } else if (base >= 0) {
      u.putLong(null, ext + 8L * (xfree >= 0 ? xfree : base + (k & 0x7FFFFFFF) % EXT), e);
    } else {
      overflow(p, own, e);
    }
    return n;
  }

  // The line of `p` is full: an overflow block takes the entry of its last slot and `e`,
  // and the last slot points at it. If `ext` cannot grow, `e` takes its own slot.
  private void overflow(int p, int own, long e) {
    Unsafe u = U;
    long line = calls + (long) LINE * p;
    int b = extUsed;
    if (b + EXT > extCap) {
      long x = fixed || starved ? 0 : grow0(ext, 8L * b, 16L * extCap);
      if (x == 0) {
        starved = true;
        u.putLong(null, line + 8 * own, e);
        return;
      }
      long old = ext;
      ext = x;
      extCap *= 2;
      retire(old);
    }
    long last = line + 8 * (STRIDE - 1);
    u.putLong(null, ext + 8L * b, u.getLong(null, last));
    u.putLong(null, ext + 8L * (b + 1), e);
    u.putLong(null, last, b + 1);
    extUsed = b + EXT;
  }

  @DontInline
  private int lookup(int p, int k) {
    lookups++;
    Unsafe u = U;
    long want = pair(p, k);
    long t = index;
    int m = mask;
    for (int slot = hash(want) & m;; slot = (slot + 1) & m) {
      long e = u.getLong(null, t + 16L * slot);
      if (e == want) return (int) u.getLong(null, t + 16L * slot + 8);
      if (e == 0) return add(p, k);
    }
  }

  private static long pair(int p, int k) {
    return (long) p << 32 | (k & 0xFFFFFFFFL);
  }

  // A full mix (MurmurHash3's finalizer): parents and method ids are small consecutive
  // numbers, whose plain linear combinations cluster under linear probing.
  private static int hash(long pair) {
    long h = pair * 0x9E3779B97F4A7C15L;
    h ^= h >>> 32;
    h *= 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 29));
  }

  // A new node. If the tree cannot grow (max-memory, no memory, or 2^30 nodes), the event
  // goes to the root and is counted in `dropped`: a probe must never throw.
  @DontInline
  private int add(int p, int k) {
    int n = size;
    if (n == cap && !growNodes()) {
      dropped++;
      return 0;
    }
    long a = nodes + (long) NODE * n;
    U.putInt(null, a, p);
    U.putInt(null, a + 4, k);
    size = n + 1;  // volatile: after the node's parent and key
    insert(n, pair(p, k));
    return n;
  }

  private void insert(int n, long e) {
    Unsafe u = U;
    long t = index;
    int m = mask;
    int slot = hash(e) & m;
    while (u.getLong(null, t + 16L * slot) != 0) slot = (slot + 1) & m;
    u.putLong(null, t + 16L * slot, e);
    u.putLong(null, t + 16L * slot + 8, n);
  }

  // Twice the nodes: new node tables (copies), a new index (rebuilt), then the fields; the
  // old tables go back to the agent. A failure leaves the old ones in place.
  private boolean growNodes() {
    int n = cap;
    if (fixed || starved || n >= 1 << 29) return false;
    long nn = grow0(nodes, (long) NODE * n, 2L * NODE * n);
    long nc = nn == 0 ? 0 : grow0(calls, (long) LINE * n, 2L * LINE * n);
    long ni = nc == 0 ? 0 : grow0(0, 0, 64L * n);
    long[] ins = null;
    if (ni != 0 && insns != null) {
      if (insnsUsed + n > insnsBudget) {
        heapRefused0(false);
      } else {
        try {
          ins = grow(insns, n);
          insnsUsed += n;
        } catch (Throwable t) {
          ins = null;
        }
      }
    }
    if (ni == 0 || (insns != null && ins == null)) {
      starved = true;
      retire0(nn);
      retire0(nc);
      retire0(ni);
      return false;
    }
    // The copies are complete before a concurrent reader (the recorder) can see their
    // addresses (fullFence: Unsafe's storeFence is no native on every JDK).
    U.fullFence();
    long on = nodes, oc = calls, oi = index;
    nodes = nn;
    calls = nc;
    if (ins != null) insns = ins;
    index = ni;
    mask = 4 * n - 1;
    cap = 2 * n;
    Unsafe u = U;
    for (int i = 1; i < size; i++) {
      long a = nn + (long) NODE * i;
      insert(i, pair(u.getInt(null, a), u.getInt(null, a + 4)));
    }
    retire(on);
    retire(oc);
    retire(oi);
    return true;
  }

  // Twice as long, the first `used` elements copied (shared by DragnetRt and DragnetLife).
  static int[] grow(int[] a, int used) {
    int[] b = new int[a.length * 2];
    System.arraycopy(a, 0, b, 0, used);
    return b;
  }

  static long[] grow(long[] a, int used) {
    long[] b = new long[a.length * 2];
    System.arraycopy(a, 0, b, 0, used);
    return b;
  }
}
