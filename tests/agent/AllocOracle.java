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

  // A context with more callees than its node's cache line (7) and overflow block (16)
  // hold: 30 methods called in turn, 4 rounds; each allocates an int[N + 1].
  static void fan0() { sink = new int[1]; }
  static void fan1() { sink = new int[2]; }
  static void fan2() { sink = new int[3]; }
  static void fan3() { sink = new int[4]; }
  static void fan4() { sink = new int[5]; }
  static void fan5() { sink = new int[6]; }
  static void fan6() { sink = new int[7]; }
  static void fan7() { sink = new int[8]; }
  static void fan8() { sink = new int[9]; }
  static void fan9() { sink = new int[10]; }
  static void fan10() { sink = new int[11]; }
  static void fan11() { sink = new int[12]; }
  static void fan12() { sink = new int[13]; }
  static void fan13() { sink = new int[14]; }
  static void fan14() { sink = new int[15]; }
  static void fan15() { sink = new int[16]; }
  static void fan16() { sink = new int[17]; }
  static void fan17() { sink = new int[18]; }
  static void fan18() { sink = new int[19]; }
  static void fan19() { sink = new int[20]; }
  static void fan20() { sink = new int[21]; }
  static void fan21() { sink = new int[22]; }
  static void fan22() { sink = new int[23]; }
  static void fan23() { sink = new int[24]; }
  static void fan24() { sink = new int[25]; }
  static void fan25() { sink = new int[26]; }
  static void fan26() { sink = new int[27]; }
  static void fan27() { sink = new int[28]; }
  static void fan28() { sink = new int[29]; }
  static void fan29() { sink = new int[30]; }

  static void fanOut() {
    for (int r = 0; r < 4; r++) {
      fan0(); fan1(); fan2(); fan3(); fan4(); fan5(); fan6(); fan7(); fan8(); fan9();
      fan10(); fan11(); fan12(); fan13(); fan14(); fan15(); fan16(); fan17(); fan18(); fan19();
      fan20(); fan21(); fan22(); fan23(); fan24(); fan25(); fan26(); fan27(); fan28(); fan29();
    }
  }

  public static void main(String[] args) throws Exception {
    sink = Loud.class;
    loops();
    fanOut();
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
