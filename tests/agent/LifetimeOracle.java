// Oracle program of mode lifetime (HUP): objects with hand-computed lag, drag and void.
// Time is bytes allocated; between two events the program allocates only pads (byte
// arrays of known size), so the expected times are sums of pad sizes. The test
// (lifetime_oracle_test.cpp) runs it with a small gc-interval and compares.
//
//   fig11b: `A a = new A(); <pad 100000>; int j = a.i;`   first get at a.i: lag = pad
//   fig11c: `A a = new A(1); <pad 100000>; int j = a.i;`  the constructor only puts
//   fig11d: `A a = new A(1); a.i = 0; <pad>; int j = a.i;` a put first, the get after
//   voided: an int[1000] never read, reachable for <pad 300000>, then dropped
//   dragged: read once, then held for <pad 300000>, then dropped
//   lagged: allocated, <pad 200000>, then read and dropped at once
//   arraycopy: two long[100], <pad 100000>, System.arraycopy(src -> dst): src got, dst put
//   monitored: an object whose monitor is inflated (Object.wait), read after <pad 100000>
//     and again after another
//   natives: objects used only by Class.isInstance, System.identityHashCode and
//     Thread.holdsLock after <pad 100000> (JVM natives that read their argument)
//   jni (with -Dlifetime.jni=LIB): objects read or written only by native code through
//     JNI after <pad 100000>: GetIntField, SetIntField, GetIntArrayRegion,
//     SetByteArrayRegion, GetPrimitiveArrayCritical, GetStringUTFLength, a critical region
//     inside another (its get reported when both end), ReleaseIntArrayElements with an
//     exception pending
//
// Each case's objects are of their own class or allocated in their own method, so the
// test finds them. Pads allocate in chunks of at most 4 KB, so a forced collection comes
// at most 4 KB after its gc-interval threshold.
// Arguments: N [serial]: the cases run in N threads, at once or (serial) one thread
// after the other; `main`: on the main thread; `clones`: the clone case alone.
public class LifetimeOracle {
  static class A {
    public int i;

    public A() {}

    public A(int j) {
      this.i = j;
    }
  }

  static class B extends A {
    public B(int j) {
      super(j);
    }
  }

  static class C extends A {
    public C(int j) {
      super(j);
    }
  }

  static class Held {
    public int v = 7;
  }

  static class Late {
    public int v = 9;
  }

  static class ViaJni {
    public int v = 5;
  }

  static class SetByJni {
    public int v;
  }

  static class Warm {
    public int v;
  }

  // Used only by a JDK native that reads its argument inside the JVM (no bytecode, no JNI).
  static class Copyable implements Cloneable {
    public int v = 4;

    Copyable copy() {
      try {
        return (Copyable) super.clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }
  }

  static class Monitored {
    public int v = 6;
  }

  static class ByIsInstance {}

  static class ByIdentityHash {}

  static class ByHoldsLock {}

  static int natives() {
    Object a = new ByIsInstance();
    pad(100000);
    int r = ByIsInstance.class.isInstance(a) ? 0 : 1;
    Object b = new ByIdentityHash();
    pad(100000);
    r += System.identityHashCode(b) == 0 ? 1 : 0;
    Object c = new ByHoldsLock();
    pad(100000);
    return r + (Thread.holdsLock(c) ? 1 : 0);
  }

  // Class loading and native linking allocate (class bytes, the native's name): done
  // once here, before the cases, so their times hold only the pads. Nothing here is of an
  // oracle class or allocated in a case's method.
  static void warmUp() throws Exception {
    for (String c :
        new String[] {
          "A", "B", "C", "Held", "Late", "ViaJni", "SetByJni", "ByIsInstance", "ByIdentityHash",
          "ByHoldsLock", "Monitored"
        }) {
      Class.forName("LifetimeOracle$" + c);
    }
    Object waited = new Object();  // what a first Object.wait links or loads
    synchronized (waited) {
      waited.wait(1);
    }
    pad(16);
    // Loads what String(char[]) needs (JDK 25 loads a class on its first call): the
    // sampled variant's clock counts the class objects the JVM allocates.
    sink = new String(new char[4]);
    if (System.getProperty("lifetime.jni") == null) return;
    Warm w = new Warm();
    setInt(w, Warm.class, getInt(w, Warm.class));
    sumInts(new int[10]);
    fillBytes(new byte[24]);
    criticalSum(new short[12]);
    utfLength("warm");
  }

  static volatile Object sink;

  static void pad(int bytes) {
    while (bytes > 0) {
      int n = Math.min(bytes, 4096);
      sink = new byte[n - 16];  // byte[n - 16] is n bytes (n a multiple of 8 and >= 16)
      bytes -= n;
    }
    sink = null;
  }

  static int copied() {
    long[] src = new long[100];
    long[] dst = new long[100];
    pad(100000);
    System.arraycopy(src, 0, dst, 0, 100);
    return 0;
  }

  static native int getInt(Object o, Class<?> c);

  static native void setInt(Object o, Class<?> c, int v);

  static native int sumInts(int[] a);

  static native void fillBytes(byte[] b);

  static native int criticalSum(short[] a);

  static native int utfLength(String s);

  static native int nestedCritical(short[] a, int[] b);

  static native void throwAfterWrite(int[] c, RuntimeException e);

  static final RuntimeException THROWN = new IllegalStateException("thrown by the native");

  static int throwCaught(int[] c) {
    try {
      throwAfterWrite(c, THROWN);
      return -1;
    } catch (IllegalStateException e) {
      return 0;
    }
  }

  static int jniNested() {
    short[] a = new short[4];
    int[] b = new int[8];
    pad(100000);
    return nestedCritical(a, b);
  }

  static int jniPending() {
    int[] c = new int[6];
    pad(100000);
    return throwCaught(c);
  }

  static int jniInts() {
    int[] a = new int[10];
    pad(100000);
    return sumInts(a);
  }

  static int jniBytes() {
    byte[] b = new byte[24];
    pad(100000);
    fillBytes(b);
    return 0;
  }

  static int jniCritical() {
    short[] a = new short[12];
    pad(100000);
    return criticalSum(a);
  }

  static int jniString() {
    String s = new String(new char[] {'d', 'r', 'a', 'g'});
    pad(100000);
    return utfLength(s);
  }

  static int jni() {
    // These two natives are linked here, before the case's first object, not in warmUp.
    nestedCritical(new short[4], new int[8]);
    throwCaught(new int[6]);
    ViaJni r = new ViaJni();
    pad(100000);
    int v = getInt(r, ViaJni.class);
    SetByJni w = new SetByJni();
    pad(100000);
    setInt(w, SetByJni.class, 3);
    return v + jniInts() + jniBytes() + jniCritical() + jniString() + jniNested() + jniPending();
  }

  static int fig11() {
    A a = new A();
    pad(100000);
    int j = a.i;
    B b = new B(1);
    pad(100000);
    j += b.i;
    C c = new C(1);
    c.i = 0;
    pad(100000);
    j += c.i;
    return j;
  }

  // Object.clone allocates inside the JVM (and resets the copy's header after allocating
  // it): the copies belong to the method calling clone, and the checkcast after the call
  // is their first get.
  static int cloned() {
    int[] src = new int[250];
    int[] copy = src.clone();
    pad(100000);
    int r = copy[0];
    Copyable c = new Copyable();
    pad(100000);
    Copyable d = c.copy();
    pad(100000);
    return r + d.v - 4;
  }

  // Runs cloned() on a thread of its own, as all() runs (a named class, not a lambda: the
  // other cases' runs must load the same classes as before).
  static class Clones implements Runnable {
    int result;

    public void run() {
      result = cloned();
      pad(1000000);
    }
  }

  // Object.wait inflates the object's monitor, and an idle monitor stays inflated, so its
  // header points at the monitor (DragnetSample.slow's INFLATED path): read after each of
  // two pads, in two use epochs.
  static int monitored() {
    Monitored m = new Monitored();
    synchronized (m) {
      try {
        m.wait(1);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    pad(100000);
    int v = m.v;
    pad(100000);
    return v + m.v - 12;
  }

  static int voided() {
    int[] never = new int[1000];
    Object[] holder = {never};
    pad(300000);
    holder[0] = null;
    return holder.length;
  }

  static int dragged() {
    Held h = new Held();
    int v = h.v;
    Object keep = h;
    pad(300000);
    keep = null;
    return v + (keep == null ? 0 : 1);
  }

  static int lagged() {
    Late l = new Late();
    pad(200000);
    return l.v;
  }

  static int all() {
    int r = fig11() + voided() + dragged() + lagged() + copied() + natives() + monitored();
    if (System.getProperty("lifetime.jni") != null) r += jni();
    pad(1000000);  // the dropped objects die in a collection within this
    return r;
  }

  public static void main(String[] args) throws Exception {
    String lib = System.getProperty("lifetime.jni");
    if (lib != null) System.load(lib);
    warmUp();
    if (args.length > 0 && args[0].equals("clones")) {  // alone: lifetime_oracle_test
      Class.forName("LifetimeOracle$Copyable");
      Clones c = new Clones();
      Thread t = new Thread(c);
      t.start();
      t.join();
      System.out.println("lifetime oracle: 1 thread(s), result " + (27 + c.result));
      return;
    }
    boolean hashedUnsafe = args.length > 0 && args[0].equals("hashedUnsafe");
    if (hashedUnsafe) {
      // The JDK's own Unsafe given an identity hash (as any program may, through an
      // IdentityHashMap): the sampled probes' slow path, which runs for every hashed object,
      // must not call Unsafe's Java methods, whose entry probes see that Unsafe.
      java.lang.reflect.Field f =
          Class.forName("sun.misc.Unsafe").getDeclaredField("theInternalUnsafe");
      f.setAccessible(true);
      System.identityHashCode(f.get(null));
    }
    if (hashedUnsafe || (args.length > 0 && args[0].equals("main"))) {  // on the main thread
      System.out.println("lifetime oracle: 1 thread(s), result " + all());
      return;
    }
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    boolean serial = args.length > 1 && args[1].equals("serial");
    int[] results = new int[threads];
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int k = t;
      ts[t] =
          new Thread(
              () -> {
                if (serial) {
                  synchronized (LifetimeOracle.class) {
                    results[k] = all();
                  }
                } else {
                  results[k] = all();
                }
              });
      ts[t].start();
    }
    for (Thread t : ts) t.join();
    int sum = 0;
    for (int r : results) sum += r;
    System.out.println("lifetime oracle: " + threads + " thread(s), result " + sum);
  }
}
