// Oracle program for the alloc mode: every allocation count below is known exactly and
// asserted by alloc_oracle_test.cpp.
public class AllocOracle {
  static final class Point {
    int x, y;
  }

  // JP Fig. 1: A() allocates one Object before this(...); A(Object) allocates nothing.
  static class A {
    A() {
      this(new Object());
    }

    A(Object o) {
      super();
    }
  }

  static class Base {
    Base(boolean fail) {
      if (fail) throw new IllegalStateException("base");
    }
  }

  static class Derived extends Base {
    Derived(boolean fail) {
      super(fail);
    }
  }

  static Object sink;

  // Object.clone without a `new`: C overrides clone(), D inherits it (called as this.clone()).
  static final class C implements Cloneable {
    long a;

    @Override
    public C clone() {
      try {
        return (C) super.clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }
  }

  static final class D implements Cloneable {
    int a, b, c;

    D copy() throws CloneNotSupportedException {
      return (D) this.clone();
    }
  }

  // super.clone() in an abstract class: the copy is of the runtime (concrete) class.
  abstract static class Shape implements Cloneable {
    int id;

    Shape copy() throws CloneNotSupportedException {
      return (Shape) super.clone();
    }
  }

  static final class Square extends Shape {
    long side;
  }

  static void abstractClones() throws Exception {
    Square s = new Square();
    for (int i = 0; i < 10; i++) sink = s.copy();
  }

  public static final class R {
    public R() {}
  }

  // Allocations no `new` shows (JP misses them). Enough iterations that the JIT compiles
  // the loops: compiled code allocates clones and reflective arrays inline.
  static void objectClones() throws Exception {
    C c = new C();
    D d = new D();
    for (int i = 0; i < 20000; i++) {
      sink = c.clone();
      sink = d.copy();
    }
  }

  static void reflection() throws Exception {
    java.lang.reflect.Constructor<R> ctor = R.class.getConstructor();
    for (int i = 0; i < 50; i++) sink = ctor.newInstance();
  }

  static void reflectArrays() {
    for (int i = 0; i < 20000; i++) sink = java.lang.reflect.Array.newInstance(int.class, 4);
    for (int i = 0; i < 30; i++) sink = java.lang.reflect.Array.newInstance(String.class, 2);
    sink = java.lang.reflect.Array.newInstance(long.class, 3, 2);
  }

  static void lambdas() {
    for (int i = 0; i < 100; i++) {
      int k = i;
      java.util.function.IntSupplier s = () -> k + 1;
      sink = s;
    }
  }

  static void concat(String a, String b) {
    for (int i = 0; i < 100; i++) sink = a + b;
  }

  // File.list allocates its String[] and Strings natively, through JNI.
  static void jni(java.io.File dir) {
    for (int i = 0; i < 10; i++) sink = dir.list();
  }

  static void loops() {
    for (int i = 0; i < 1000; i++) sink = new Point();
    for (int i = 0; i < 10; i++) sink = new long[i];  // 10 arrays, 45 elements
    int s = 0;
    for (int i = 0; i < 700; i++) s += leaf(i) + middle(i);
    sink = s;
  }

  // A leaf (counted without a frame) and a method calling it: 700 calls each from loops(),
  // and 700 calls of leaf() under middle().
  static int leaf(int x) {
    return x * 2;
  }

  static int middle(int x) {
    return leaf(x) + 1;
  }

  // An empty finalize(): HotSpot does not register Quiet's objects for finalization, and
  // rewriting must not change that (a probe in it would: a java.lang.ref.Finalizer
  // allocated with each object, under this context).
  static class Quiet {
    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {}
  }

  static void quiet() {
    for (int i = 0; i < 100; i++) sink = new Quiet();
  }

  static void figure1() {
    sink = new A();
  }

  // JP Fig. 3, one row per method.
  static void f3a() { sink = new Object[2][3][5]; }
  static void f3b() { sink = new Object[2][3][0]; }
  static void f3c() { sink = new Object[2][0][5]; }
  static void f3d() { sink = new Object[0][3][5]; }
  static void f3e() { sink = new int[2][3][5]; }
  static void f3f() { sink = new int[2][3][0]; }
  static void f3g() { sink = new int[2][0][5]; }
  static void f3h() { sink = new int[0][3][5]; }

  static void clones() {
    int[] a = new int[7];
    for (int i = 0; i < 3; i++) sink = a.clone();
  }

  static void thrower() {
    sink = new Point();
    throw new IllegalArgumentException("x");
  }

  // After each caught exception the context is the catching method again.
  static void exceptions() {
    for (int i = 0; i < 5; i++) {
      try {
        thrower();
      } catch (IllegalArgumentException e) {
        sink = new Point();
      }
      try {
        sink = new Derived(true);
      } catch (IllegalStateException e) {
        sink = new StringBuilder();
      }
    }
  }

  static void worker() {
    for (int i = 0; i < 500; i++) sink = new Point();
  }

  // An exception no Java frame catches: the JVM calls the thread's uncaught-exception
  // handler once every frame is gone, so its allocations are made at the thread's root.
  static void dies(int depth) {
    if (depth == 0) throw new IllegalStateException("uncaught");
    dies(depth - 1);
  }

  static void uncaught() throws InterruptedException {
    Thread t = new Thread(() -> dies(3), "dying");
    t.setUncaughtExceptionHandler((th, e) -> {
      for (int i = 0; i < 7; i++) sink = new Point();
    });
    t.start();
    t.join();
  }

  // Loaded (by the class literal in main) but never initialized: its initializer must not
  // run, not even at exit, when the agent measures the classes that `new` sites name.
  static final class Loud {
    static {
      System.out.println("Loud initialized");
    }
  }

  static Object neverCalled() {
    return new Loud();
  }

  public static void main(String[] args) throws Exception {
    sink = Loud.class;
    loops();
    quiet();
    figure1();
    f3a(); f3b(); f3c(); f3d(); f3e(); f3f(); f3g(); f3h();
    clones();
    exceptions();
    objectClones();
    abstractClones();
    reflection();
    reflectArrays();
    lambdas();
    concat(args.length > 0 ? args[0] : "left", "right");
    java.io.File dir = java.nio.file.Files.createTempDirectory("oracle").toFile();
    for (String n : new String[] {"a", "b", "c"}) new java.io.File(dir, n).createNewFile();
    jni(dir);
    for (java.io.File f : dir.listFiles()) f.delete();
    dir.delete();
    uncaught();
    Thread[] ts = new Thread[Integer.getInteger("oracle.threads", 16)];
    for (int i = 0; i < ts.length; i++) ts[i] = new Thread(AllocOracle::worker, "worker-" + i);
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    System.out.println("oracle done");
  }
}
