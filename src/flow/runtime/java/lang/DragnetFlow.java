package java.lang;

import jdk.internal.misc.Unsafe;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

/**
 * The flow engine's probes (src/flow, docs/FLOW-DESIGN.md): object tags, the call transfer
 * and the nodes that shadows hold. Instrumented code calls these static methods with the
 * frame's DragnetState; an analysis (DragnetCopy) records what flows.
 *
 * <p>Nodes are longs: bits 62-63 the kind (1 object or a field of one, 2 static field,
 * 3 consumer), bits 32-61 the field id (0: the object itself; 1: ELM), bits 0-31 the tag.
 * Tags: slot << 27 | allocation-site index (slots >= 1), or an interned name (slots = 0).
 *
 * <p>Like DragnetState, this class must never call instrumented code.
 */
public final class DragnetFlow {
  static final long OBJECT = 1L << 62;
  static final long ELM = OBJECT | 1L << 32;
  static final int SITE_MASK = (1 << 27) - 1;

  // Set by the agent at VM init (agent::FlowMode), `on` last, and never changed again:
  // @Stable lets the JIT fold them once set (their default values are not folded, so code
  // compiled before VM init reads them). `slots` is 0 until then (and stays 0 for exact
  // names); no tag is made before `on`.
  @Stable static boolean on;
  @Stable static int slots;
  @Stable static Unsafe U;

  private DragnetFlow() {}

  // --- nodes ------------------------------------------------------------------------------

  /** The node of field bits `field` (kind and field id) of the object tagged `tag`. */
  @ForceInline
  public static long field(int tag, long field) {
    return field | (tag & 0xFFFFFFFFL);
  }

  // The offset of String's tag field (set by the agent; 0: none): a String returned by an
  // invokedynamic (string concatenation) has its tag there.
  @Stable static long stringTag;

  /**
   * The allocation node of an object a call site got without knowing its class (an
   * invokedynamic's result): a String's from its field, others' from the side table.
   */
  @DontInline
  public static long nodeOf(Object o, DragnetState s) {
    if (!on || s == DragnetRt.SINK || o == null) return 0;
    int t = o instanceof String && stringTag != 0 ? U.getInt(o, stringTag) : tagOf(o, s);
    return t == 0 ? 0 : OBJECT | (t & 0xFFFFFFFFL);
  }

  /** The node of an element of `array`. */
  @ForceInline
  public static long elm(Object array, DragnetState s) {
    return ELM | (tagOf(array, s) & 0xFFFFFFFFL);
  }

  // --- the side table: tags of arrays and of denied classes' objects ----------------------
  // Native memory: 2^TABLE_BITS slots of 16 bytes: the key (identity hash << 32 | length:
  // an array's length, -1 for other objects; 0: empty), the tag and 4 bytes an analysis
  // may use (entryOf). A hash's entry is in
  // one of the WAYS slots from hash & mask. Written by any thread without a lock, the tag
  // before the key. Entries of dead objects stay until a new entry takes their slot, so a
  // lookup of an untagged object may find one with its hash and length (counted neither way;
  // the key's length makes that rare); a new entry that finds its ways full replaces the
  // first (counted: that object's tag may be lost).
  static final int WAYS = 4;
  @Stable static long table;
  @Stable static int mask;
  static long evicted, missed;

  /** The tag of an array or of an object of a denied class; 0 if unknown. */
  @ForceInline
  public static int tagOf(Object o, DragnetState s) {
    if (o == s.ftagged) return s.ftag;
    return lookup(o, s);
  }

  // The side table's key of o (never 0: an identity hash is never 0).
  private static long key(Object o, int h) {
    int length = o.getClass().isArray() ? java.lang.reflect.Array.getLength(o) : -1;
    return (long) h << 32 | (length & 0xFFFFFFFFL);
  }

  @DontInline
  private static int lookup(Object o, DragnetState s) {
    if (table == 0 || o == null) return 0;
    int h = System.identityHashCode(o);
    long k = key(o, h);
    long a = table + 16L * (h & mask);
    for (int w = 0; w < WAYS; w++) {
      if (U.getLong(null, a + 16L * w) == k) {
        int t = (int) U.getLong(null, a + 16L * w + 8);
        s.ftagged = o;
        s.ftag = t;
        s.fentry = a + 16L * w;
        return t;
      }
    }
    missed++;
    return 0;
  }

  static void put(Object o, int tag, DragnetState s) {
    s.ftagged = o;
    s.ftag = tag;
    s.fentry = 0;
    if (table == 0) return;
    int h = System.identityHashCode(o);
    long k = key(o, h);
    long a = table + 16L * (h & mask);
    long at = a;
    for (int w = 0; w < WAYS; w++) {
      long old = U.getLong(null, a + 16L * w);
      if (old == 0 || old == k) {
        at = a + 16L * w;
        break;
      }
      if (w == WAYS - 1) evicted++;
    }
    U.putLong(null, at + 8, tag & 0xFFFFFFFFL);
    U.putLong(null, at, k);
    s.fentry = at;
  }

  /**
   * The address of the side-table entry of an array or of an object of a denied class (0:
   * none). Its last 4 bytes are free for an analysis (mode cost: the array's shadow); they
   * are zeroed when the entry is made.
   */
  @ForceInline
  public static long entryOf(Object o, DragnetState s) {
    if (o == s.ftagged) return s.fentry;
    lookup(o, s);
    return o == s.ftagged ? s.fentry : 0;
  }

  // --- allocations and contexts ------------------------------------------------------------

  /** The context an instance method's allocations get: its receiver's allocation site. */
  @ForceInline
  public static int context(int receiverTag) {
    // (A receiver has tag 0 before VM init, when slots is 0 too.)
    return slots == 0 && receiverTag != 0 ? DragnetFlowTable.siteOfName(receiverTag)
                                          : receiverTag & SITE_MASK;
  }

  // The tag of an object of site `site` allocated in context `ctx` (a site index, 0: none).
  @ForceInline
  static int tag(int site, int ctx) {
    int n = slots;
    if (n == 1) return site;
    if (n == 0) return DragnetFlowTable.name(site, ctx);
    return (ctx % n) << 27 | site;
  }

  /** Before `new`: the object's tag waits for its root constructor; its node. */
  @DontInline
  public static long newObject(DragnetState s, int site, int ctx) {
    if (!on || s == DragnetRt.SINK) return 0;
    int t = tag(site, ctx);
    pend(s, t);
    DragnetFlowTable.born(s, site, ctx);
    return OBJECT | (t & 0xFFFFFFFFL);
  }

  /**
   * After multianewarray with `dims` dimensions allocated: every array of level k tagged
   * with site `site + k` (a site per level, consecutive); the outer array's node.
   */
  @DontInline
  public static long newMulti(Object array, DragnetState s, int site, int ctx, int dims) {
    long node = newArray(array, s, site, ctx);
    if (node != 0 && dims > 1 && array instanceof Object[]) tagLevels((Object[]) array, s, site + 1, ctx, dims - 1);
    return node;
  }

  private static void tagLevels(Object[] level, DragnetState s, int site, int ctx, int dims) {
    for (Object a : level) {
      if (a == null) continue;
      newArray(a, s, site, ctx);
      if (dims > 1 && a instanceof Object[]) tagLevels((Object[]) a, s, site + 1, ctx, dims - 1);
    }
  }

  /** After newarray / anewarray / multianewarray: the array's tag; its node. */
  @DontInline
  public static long newArray(Object array, DragnetState s, int site, int ctx) {
    if (!on || s == DragnetRt.SINK) return 0;
    int t = tag(site, ctx);
    put(array, t, s);
    DragnetFlowTable.born(s, site, ctx);
    return OBJECT | (t & 0xFFFFFFFFL);
  }

  private static void pend(DragnetState s, int tag) {
    int d = s.sp, top = s.fpendTop;
    if (s.fpendTag == null) {
      s.fpendTag = new int[16];
      s.fpendDepth = new int[16];
    }
    while (top > 0 && s.fpendDepth[top - 1] > d) top--;  // their frames are gone
    if (top == s.fpendTag.length) {
      if (top >= 1024) {
        top = 0;  // aborted constructions piled up in one frame: start over
      } else {
        s.fpendTag = DragnetState.grow(s.fpendTag, top);
        s.fpendDepth = DragnetState.grow(s.fpendDepth, top);
      }
    }
    s.fpendTag[top] = tag;
    s.fpendDepth[top] = d;
    s.fpendTop = top + 1;
  }

  /**
   * In a root class's constructor, right after super(): the tag of the object under
   * construction, the latest pending `new` whose frame lies right below a chain of
   * constructor frames; 0 for an object made without a `new` the agent saw (reflection,
   * JNI, deserialization).
   */
  @DontInline
  public static int claim(Object o, DragnetState s) {
    if (!on || s == DragnetRt.SINK || s.fpendTag == null) return 0;
    int sp = s.sp, top = s.fpendTop;
    while (top > 0 && s.fpendDepth[top - 1] >= sp) top--;
    if (top > 0 && s.constructorsAbove(s.fpendDepth[top - 1])) {
      s.fpendTop = top - 1;
      return s.fpendTag[top - 1];
    }
    s.fpendTop = top;
    // Made without a `new` the agent saw: named by its runtime class in this context.
    int key = constructedBase == 0 ? 0 : s.dynKey(constructedBase, o.getClass(), 0);
    if (key == 0) return 0;
    int site = key >>> 4 & SITE_MASK;
    DragnetFlowTable.born(s, site, 0);
    return tag(site, 0);
  }

  @Stable static int constructedBase;  // set by the agent: the site key base for such objects

  /**
   * A store into `this` before super(): the tag its object will get, the pending `new` claim
   * would take (0 if there is none: an object made without a visible `new`, or of a denied
   * class).
   */
  public static int pendingTag(DragnetState s) {
    if (!on || s == DragnetRt.SINK || s.fpendTag == null) return 0;
    int sp = s.sp, top = s.fpendTop;
    while (top > 0 && s.fpendDepth[top - 1] >= sp) top--;
    if (top > 0 && s.constructorsAbove(s.fpendDepth[top - 1])) return s.fpendTag[top - 1];
    return 0;
  }



  /**
   * Entry of a leaf method with flow probes but no frame (it calls nothing, allocates
   * nothing and copies nothing): its call counted as DragnetRt.leaf does; the thread's state.
   */
  @ForceInline
  public static DragnetState leaf(int methodId) {
    DragnetState s = DragnetRt.state();
    if (s == null) return DragnetRt.SINK;
    s.leaf(methodId);
    return s;
  }

  // --- the call transfer ------------------------------------------------------------------

  // ftok when the caller's arguments carry no node: the callee takes nothing and counts no
  // cut. (0: nothing pending, what take() leaves: an uninstrumented caller's call.)
  static final int NOTHING = -1;

  /** Before a call whose arguments carry no node. */
  @ForceInline
  public static void call0(DragnetState s) {
    s.ftok = NOTHING;
  }

  @ForceInline
  public static void call1(DragnetState s, long a0, int tok) {
    s.fa0 = a0;
    s.ftok = tok;
  }

  @ForceInline
  public static void call2(DragnetState s, long a0, long a1, int tok) {
    s.fa0 = a0;
    s.fa1 = a1;
    s.ftok = tok;
  }

  @ForceInline
  public static void call3(DragnetState s, long a0, long a1, long a2, int tok) {
    s.fa0 = a0;
    s.fa1 = a1;
    s.fa2 = a2;
    s.ftok = tok;
  }

  @ForceInline
  public static void call4(DragnetState s, long a0, long a1, long a2, long a3, int tok) {
    s.fa0 = a0;
    s.fa1 = a1;
    s.fa2 = a2;
    s.fa3 = a3;
    s.ftok = tok;
  }

  /** Arguments 4-7 of a call with more than four (before call4). */
  @ForceInline
  public static DragnetState arg(DragnetState s, long v, int k) {
    switch (k) {
      case 4:
        s.fa4 = v;
        break;
      case 5:
        s.fa5 = v;
        break;
      case 6:
        s.fa6 = v;
        break;
      default:
        s.fa7 = v;
        break;
    }
    return s;
  }

  /**
   * Method entry: the caller's arguments are this method's if the selector is its own; a
   * different one means an uninstrumented frame in between (counted as a cut of `method`).
   */
  @ForceInline
  public static void take(DragnetState s, int tok, int method) {
    int t = s.ftok;
    s.ftaken = t == tok;
    s.ftok = 0;
    if (t != tok && t != NOTHING) DragnetFlowTable.cut(s, method);
  }

  @ForceInline
  public static long param(DragnetState s, int k) {
    if (!s.ftaken) return 0;
    switch (k) {
      case 0:
        return s.fa0;
      case 1:
        return s.fa1;
      case 2:
        return s.fa2;
      case 3:
        return s.fa3;
      case 4:
        return s.fa4;
      case 5:
        return s.fa5;
      case 6:
        return s.fa6;
      default:
        return s.fa7;
    }
  }

  /** Before a return: the value's shadow for the caller. */
  @ForceInline
  public static void ret(DragnetState s, long v, int tok) {
    s.fret = v;
    s.frtok = tok;
  }

  /**
   * Entry of a method the JVM itself may call between a caller's transfer and its
   * callee's entry (class loading, static initializers, method-handle linkage): the
   * pending transfer is kept and given back at the method's exits (restore), so that the
   * call that triggered it still finds its arguments.
   */
  @DontInline
  public static void save(DragnetState s) {
    if (s == DragnetRt.SINK) return;
    long[] a = s.fsaved;
    int top = s.fsaveTop;
    if (a == null) a = s.fsaved = new long[10 * 8];
    int below = s.sp - 1;  // the depth the frame's exits restore
    while (top > 0 && (int) a[top - 10] >= below + 1) top -= 10;  // frames an exception left
    if (top + 10 > a.length) a = s.fsaved = DragnetState.grow(a, top);
    a[top] = below;
    a[top + 1] = (long) s.fchain << 32 | (s.ftok & 0xFFFFFFFFL);
    a[top + 2] = s.fa0;
    a[top + 3] = s.fa1;
    a[top + 4] = s.fa2;
    a[top + 5] = s.fa3;
    a[top + 6] = s.fa4;
    a[top + 7] = s.fa5;
    a[top + 8] = s.fa6;
    a[top + 9] = s.fa7;
    s.fsaveTop = top + 10;
  }

  /** Exits of a method that saved the transfer at its entry: the transfer given back. */
  @DontInline
  public static void restore(DragnetState s) {
    if (s == DragnetRt.SINK) return;
    long[] a = s.fsaved;
    int top = s.fsaveTop;
    if (a == null) return;
    // At a return the frame's exit code ran already (sp is the depth below it); at an
    // exceptional exit it did not.
    int sp = s.sp;
    while (top > 0 && (int) a[top - 10] > sp) top -= 10;
    if (top == 0 || (int) a[top - 10] < sp - 1) {
      s.fsaveTop = top;
      return;
    }
    top -= 10;
    s.ftok = (int) a[top + 1];
    s.fchain = (int) (a[top + 1] >>> 32);
    s.fa0 = a[top + 2];
    s.fa1 = a[top + 3];
    s.fa2 = a[top + 4];
    s.fa3 = a[top + 5];
    s.fa4 = a[top + 6];
    s.fa5 = a[top + 7];
    s.fa6 = a[top + 8];
    s.fa7 = a[top + 9];
    s.fsaveTop = top;
  }

  /**
   * After `new` of a denied class at site `site` in context `ctx` and its constructor: its
   * tag in the side table.
   */
  @DontInline
  public static void bindNew(Object o, DragnetState s, int site, int ctx) {
    if (!on || s == DragnetRt.SINK) return;
    put(o, tag(site, ctx), s);
  }

  /** Before `new` of a denied class: its node (the tag goes to the side table afterwards). */
  @DontInline
  public static long newDenied(DragnetState s, int site, int ctx) {
    if (!on || s == DragnetRt.SINK) return 0;
    int t = tag(site, ctx);
    DragnetFlowTable.born(s, site, ctx);
    return OBJECT | (t & 0xFFFFFFFFL);
  }

  /** After a call: the result's shadow if the callee's return wrote it. */
  @ForceInline
  public static long result(DragnetState s, int tok) {
    long v = s.frtok == tok ? s.fret : 0;
    s.frtok = 0;
    return v;
  }
}
