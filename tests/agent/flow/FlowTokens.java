import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;

// Token mismatches: a value passed through reflection, a lambda, a method reference, a method
// handle, a native, a static initializer, and callbacks from JDK code. Where an uninstrumented
// frame (a native, a hidden class) lies between caller and callee the flow is cut and counted at
// the callee's entry, never attributed to another value. Expected: expected/FlowTokens.*.edges
// (the @markers name lines).
public class FlowTokens {
  static final int N = 200;
  static final int REFLECT = 10; // below JDK 17's inflation threshold (15): the native accessor

  static final class Box {
    int v;
    Box(int v) { this.v = v; }
  }

  static final class Sink {
    Object kept;
    Object back;
    void keepDirect(Object x) { kept = x; } // @kd
    void keepReflect(Object x) { kept = x; } // @kr
    Object keepRef(Object x) { kept = x; return x; } // @kf
    void keepMh(Object x) { kept = x; } // @km
  }

  // Late.put(v) runs Late's static initializer first; it calls Peer.put, which has the same
  // name and descriptor: Late.put must not receive Peer.put's argument.
  static final class Peer {
    static Object stash;
    static Object put(Object v) { stash = v; return v; } // @pp
  }

  static final class Late {
    static Object inner = Peer.put(new Box(-1)); // @li
    static Object slot;
    static Object put(Object v) { slot = v; return v; } // @lp
  }

  static final class Item {
    final int key;
    final Integer boxedKey;
    Item(int key) { this.key = key; this.boxedKey = key; }
  }

  // A comparator called back by the JDK's TimSort (instrumented JDK code: the flow passes).
  static final class ByKey implements Comparator<Item> {
    Object last;
    public int compare(Item a, Item b) {
      last = a; // @cmp
      return a.key - b.key; // @cmpk
    }
  }

  static Object lastKeyed;
  static int keyCalls;

  // Called by Comparator.comparing's lambda through a hidden proxy: cut.
  static Integer keyOf(Item it) {
    lastKeyed = it; // @ko
    keyCalls++;
    return it.boxedKey;
  }

  public static void main(String[] args) throws Throwable {
    Sink sd = new Sink(); // @Sd
    Sink sr = new Sink(); // @Sr
    Sink sl = new Sink(); // @Sl
    Sink sf = new Sink(); // @Sf
    Sink sm = new Sink(); // @Sm
    Method m = Sink.class.getDeclaredMethod("keepReflect", Object.class); // @Gd
    Function<Object, Object> lambda = x -> { sl.kept = x; return x; }; // @lam
    Function<Object, Object> ref = sf::keepRef; // @ref
    MethodHandle mh = MethodHandles.lookup().findVirtual(Sink.class, "keepMh",
        MethodType.methodType(void.class, Object.class));
    int sum = 0;
    for (int i = 0; i < N; i++) {
      sd.keepDirect(new Box(i)); // @Vd
      sl.back = lambda.apply(new Box(i)); // @Vl
      sf.back = ref.apply(new Box(i)); // @Vf
      mh.invokeExact(sm, (Object) new Box(i)); // @Vm
    }
    for (int i = 0; i < REFLECT; i++) {
      sr.back = m.invoke(sr, new Box(i)); // @Vr
    }
    // Natives: Array.get's result and Array.set's stored value pass through native code.
    Object[] na = new Object[2]; // @Na
    na[0] = new Box(7); // @Nb
    Sink sn = new Sink(); // @Sn
    for (int i = 0; i < N; i++) {
      sn.back = Array.get(na, 0); // @nget
      Array.set(na, 1, new Box(i)); // @nset
    }
    // The static initializer.
    Late.put(new Box(1)); // @Vs
    // Callbacks from JDK code: Arrays.sort -> TimSort -> ByKey.compare (instrumented all the
    // way: the flow passes), and Comparator.comparing(keyOf) (hidden classes between: cut).
    Item[] items = new Item[8]; // @It
    for (int k = 0; k < 8; k++) {
      items[k] = new Item(k); // @Ii
    }
    Item[] work = new Item[8]; // @Wk
    ByKey byKey = new ByKey(); // @Bk
    Comparator<Item> comparing = Comparator.comparing(FlowTokens::keyOf);
    for (int r = 0; r < N; r++) {
      for (int k = 0; k < 8; k++) {
        work[k] = items[7 - k]; // @fill descending: TimSort reverses the one run
      }
      Arrays.sort(work, r % 2 == 0 ? byKey : comparing); // @sort
      sum += work[0].key; // @use
    }
    // Each heap value read here is consumed exactly once (iadd, ifnonnull); only computed
    // values reach the string concatenation (invokedynamic).
    int flows = ((Box) sd.kept).v + ((Box) sl.kept).v + ((Box) sf.kept).v + ((Box) sm.kept).v; // @chk1
    int natives = ((Box) sn.back).v + ((Box) na[1]).v; // @chk2
    int statics = ((Box) Late.inner).v + ((Box) Late.slot).v; // @chk3
    int reflected = sr.back == null ? 0 : 1; // @chk4
    int calls = keyCalls + 0; // @chk5
    System.out.println("sum " + sum + " flows " + flows + " natives " + natives + " statics "
        + statics + " reflected " + reflected + " keyCalls " + calls);
  }
}
