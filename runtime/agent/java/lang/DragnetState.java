package java.lang;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * One thread's calling-context tree (dragnet alloc mode). Owned by its thread: only that
 * thread writes it, so nothing here locks. The agent reads it through JNI when the thread
 * ends, at VM death, and (racily, for a recent crash-safe prefix) from its flush thread.
 *
 * <p>Node 0 is the thread's root. A node is a (parent, key) pair; a key is a method id, or
 * an allocation key (high bit set) for the allocations made directly in the parent
 * context. Per node: count (invocations, or objects/arrays allocated), elements (arrays),
 * bytes (arrays; objects are sized by the analyzer from per-class sizes) and executed
 * bytecode instructions (bytecodes=on).
 *
 * <p>This class must never call instrumented code (that would recurse into the probes):
 * it uses arrays, its own methods and Thread.currentThread() (native) only.
 */
public final class DragnetState {
  public int id;  // assigned by the agent when it first records this thread (0: not yet)
  // Its place in DragnetRt's list of live virtual threads' states; -1: not listed.
  int virtualIndex = -1;
  // Nodes: parallel arrays, grown by doubling. `size` is written (volatile) only after a
  // new node's parent and key are, so a concurrent reader sees whole nodes.
  public int[] parent;
  public int[] key;
  // Per node n, STRIDE longs side by side (one cache line per step of a call):
  // calls[STRIDE n] = its count (invocations, or objects/arrays allocated), then a small
  // cache of its children (k << 32 | node; 0: none, no key is 0): the child with key k
  // goes to its own slot, STRIDE n + 1 + k % (STRIDE - 1), or if that is taken to a free
  // one, or with the line full to the node's overflow block (see miss()). A context that
  // calls up to 22 methods in turn finds them there without a lookup in the index. An allocation
  // node never has children, so its line holds its array counters instead: elements at
  // STRIDE n + ELEMENTS, bytes at STRIDE n + BYTES (no arrays of their own: 16 bytes less
  // per node, and a probe writes one cache line).
  static final int STRIDE = 8, ELEMENTS = 1, BYTES = 2;
  public long[] calls;
  // Executed bytecode instructions per node: bytecodes=on only (null otherwise, 8 bytes
  // less per node), where instrumented code adds to it inline.
  public long[] insns;
  public volatile int size;
  // Overflow blocks of the child cache: EXT more slots for a node whose line is full (the
  // line's last slot then holds the block's start + 1, with no key), taken in turn from
  // `ext` (grown by doubling) on the first miss with the line full.
  static final int EXT = 16;
  public long[] ext = new long[EXT];
  private int extUsed;

  // Open-addressing index of nodes by (parent, key), linear probing: slot s holds the pair
  // packed as parent << 32 | key in index[2s] (0: empty; no key is 0) and the node in
  // index[2s + 1]: one cache line per probe, without touching the node arrays.
  private long[] index;
  private int mask;  // slots - 1

  // Shadow stack of the instrumented frames. `sp` is the thread's depth in instrumented
  // frames, which instrumented code itself restores: each frame keeps the depth below it in
  // a local and writes it back at every exit (and depth + 1 at the start of each of its
  // exception handlers), so a frame whose exit never ran (an exception out of super())
  // cannot leave the stack out of step. stack[d] is the context at depth d for d <= lim;
  // frames deeper than lim (the depth limit, or a stack that could not grow) are collapsed
  // into the context at lim.
  private int[] stack;
  public int sp;
  private int lim;
  private boolean capped;  // the stack could not grow: lim stays
  private final int maxDepth;
  // The context of the frame entered last (for bytecodes=on, read once by the frame as
  // the node its instruction count goes to).
  public int node;
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

  // The context of the frame at depth d (frames past the limit are collapsed into lim).
  int nodeAt(int d) {
    return stack[d <= lim ? d : lim];
  }

  // The key of the context node n (a method id, or an allocation key).
  int keyOf(int n) {
    return key[n];
  }

  // `lifetime`: with the caches of mode lifetime; `virtual`: a virtual thread's, which
  // starts small (16 nodes; in mode lifetime 8 KB of caches and record slots taken 32 at a
  // time): programs run many of them at once, each short-lived. A platform thread's starts
  // with 256 nodes and (mode lifetime) about 55 KB of caches and batches of 256 slots.
  DragnetState(int maxDepth, boolean lifetime, boolean virtual, boolean bytecodes) {
    this.maxDepth = maxDepth;
    int n = virtual ? 16 : 256;
    parent = new int[n];
    key = new int[n];
    calls = new long[STRIDE * n];
    if (bytecodes) insns = new long[n];
    index = new long[2 * 2 * n];
    mask = 2 * n - 1;
    stack = new int[64];
    lim = maxDepth < stack.length - 1 ? maxDepth : stack.length - 1;
    key[0] = -1;  // the root
    size = 1;
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

  // Adds the tree of `from` (a thread's that no longer runs) to this one: each of its nodes,
  // parents first (a node's parent is always older), under the node its parent became here;
  // its counters added. Growth that fails sends nodes to the root (child() counts them).
  void mergeFrom(DragnetState from) {
    int n = from.size;
    int[] map = new int[n];
    for (int i = 1; i < n; i++) {
      int m = child(map[from.parent[i]], from.key[i]);
      map[i] = m;
      calls[STRIDE * m] += from.calls[STRIDE * i];  // after child(): it may replace the arrays
      if (from.key[i] < 0) {  // an allocation node: its array counters
        calls[STRIDE * m + ELEMENTS] += from.calls[STRIDE * i + ELEMENTS];
        calls[STRIDE * m + BYTES] += from.calls[STRIDE * i + BYTES];
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
    return stack[d <= lim ? d : lim];
  }

  // Entry of a frame of `methodId`: its context (depth sp + 1) is counted and current.
  @ForceInline
  void push(int methodId) {
    int d = sp;
    if (d >= lim && !deeper(d)) {
      collapsed++;  // the collapsed call still counts, in the deepest context
      int n = stack[lim];
      calls[STRIDE * n]++;
      node = n;
      sp = d + 1;
      return;
    }
    int n = child(stack[d], methodId);
    calls[STRIDE * n]++;
    stack[d + 1] = n;
    node = n;
    sp = d + 1;
  }

  // Whether a context can be made at depth d + 1 (d >= lim): only at lim itself (deeper
  // frames have no contexts below them), within the depth limit, if the stack grows.
  @DontInline
  private boolean deeper(int d) {
    if (d != lim || d >= maxDepth || capped) return false;
    try {
      stack = grow(stack, d + 1);
    } catch (Throwable t) {
      capped = true;
      return false;
    }
    lim = maxDepth < stack.length - 1 ? maxDepth : stack.length - 1;
    return true;
  }

  // A call of a leaf method (no calls, no allocations): counted in its context, which is
  // never current, so nothing is pushed. Returns the node counted: the leaf's context, or
  // the collapsed frame's below the depth limit.
  @ForceInline
  int leaf(int methodId) {
    int d = sp;
    if (d >= maxDepth || d > lim) {
      collapsed++;
      int c = stack[lim];
      calls[STRIDE * c]++;
      return c;
    }
    int n = child(stack[d], methodId);
    calls[STRIDE * n]++;
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

  // The node (p, k), created on first use.
  @ForceInline
  int child(int p, int k) {
    int slot = STRIDE * p + 1 + (k & 0x7FFFFFFF) % (STRIDE - 1);
    long c = calls[slot];
    if ((int) (c >>> 32) == k) return (int) c;
    return miss(p, k, slot);
  }

  // The child's own slot holds another. A child whose own slot was taken when it was first
  // looked up went to a free slot of the line, or with the line full to the node's
  // overflow block, so the rest of the line (the same cache line: no memory traffic) and
  // the block are searched before the index: a context with up to 22 callees keeps them
  // all. With both full, the child takes its slot in the block.
  @DontInline
  private int miss(int p, int k, int slot) {
    long[] cs = calls;
    int line = STRIDE * p, free = 0, base = -1;
    for (int i = line + 1; i < line + STRIDE; i++) {
      long c = cs[i];
      if ((int) (c >>> 32) == k) return (int) c;
      if (c == 0) {
        if (free == 0) free = i;
      } else if ((c >>> 32) == 0) {
        base = (int) c - 1;  // the overflow block
      }
    }
    int xfree = -1;
    if (base >= 0) {
      long[] x = ext;
      for (int i = base; i < base + EXT; i++) {
        long c = x[i];
        if ((int) (c >>> 32) == k) return (int) c;
        if (c == 0 && xfree < 0) xfree = i;
      }
    }
    int n = lookup(p, k);
    if (n == 0) return 0;  // dropped, not a real child
    long e = (long) k << 32 | n;
    cs = calls;  // lookup() may have grown the arrays
    if (cs[slot] == 0) {
      cs[slot] = e;
    } else if (free != 0) {
      cs[free] = e;
    } else if (base >= 0) {
      ext[xfree >= 0 ? xfree : base + (k & 0x7FFFFFFF) % EXT] = e;
    } else {
      overflow(p, slot, e);
    }
    return n;
  }

  // The line of `p` is full: an overflow block takes the entry of its last slot and `e`,
  // and the last slot points at it. If `ext` cannot grow, `e` takes its own slot.
  private void overflow(int p, int slot, long e) {
    int b = extUsed;
    if (b + EXT > ext.length) {
      try {
        ext = grow(ext, b);
      } catch (Throwable t) {
        calls[slot] = e;
        return;
      }
    }
    int last = STRIDE * p + STRIDE - 1;
    long[] x = ext;
    x[b] = calls[last];
    x[b + 1] = e;
    calls[last] = b + 1;
    extUsed = b + EXT;
  }

  @DontInline
  private int lookup(int p, int k) {
    lookups++;
    long want = pair(p, k);
    long[] t = index;
    int m = mask;
    for (int slot = hash(want) & m;; slot = (slot + 1) & m) {
      long e = t[2 * slot];
      if (e == want) return (int) t[2 * slot + 1];
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

  // A new node. If the tree cannot grow (OutOfMemoryError, or 2^31 nodes), the event
  // goes to the root and is counted in `dropped`: a probe must never throw.
  @DontInline
  private int add(int p, int k) {
    int n = size;
    if (n == parent.length) {
      try {
        growNodes();
      } catch (Throwable t) {
        dropped++;
        return 0;
      }
    }
    parent[n] = p;
    key[n] = k;
    size = n + 1;
    if (2 * (n + 1) > mask + 1) {
      try {
        rehash();
      } catch (Throwable t) {  // the old table is intact but full: stop adding
        size = n;
        dropped++;
        return 0;
      }
    } else {
      insert(n);
    }
    return n;
  }

  private void insert(int n) {
    long e = pair(parent[n], key[n]);
    int slot = hash(e) & mask;
    while (index[2 * slot] != 0) slot = (slot + 1) & mask;
    index[2 * slot] = e;
    index[2 * slot + 1] = n;
  }

  // An OutOfMemoryError here leaves the old (intact, full) index.
  private void rehash() {
    index = new long[index.length * 2];
    mask = index.length / 2 - 1;
    for (int i = 1; i < size; i++) insert(i);
  }

  // All arrays first, then the fields: an OutOfMemoryError midway leaves the old ones.
  private void growNodes() {
    int n = parent.length;
    int[] p = grow(parent, n), k = grow(key, n);
    long[] c = grow(calls, STRIDE * n), i = insns != null ? grow(insns, n) : null;
    parent = p;
    key = k;
    calls = c;
    insns = i;
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
