// Oracle program for classes the class-load hook does not name (alloc_oracle_test.cpp,
// HiddenClassesAreNamed): a class defined through MethodHandles.Lookup.defineHiddenClass
// (HiddenTemplate's bytes) and a lambda (whose proxy class is hidden). Neither reaches the
// hook, so the profile must name both. HiddenTemplate.run's own 100 int[10] are not counted
// (its bytecode runs unrewritten); the 100 long[5] of the method it calls and the lambda
// body's 100 int[3] are (both are ordinary methods of HiddenOracle). And a class defined
// with a null name (NamelessTemplate's bytes), which reaches the hook without a name: it is
// rewritten like any other, its 100 short[7] counted.
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.util.function.IntFunction;

public class HiddenOracle {
  public static Object sink;

  // Defines a class without naming it.
  static class Loader extends ClassLoader {
    Loader() {
      super(HiddenOracle.class.getClassLoader());
    }

    Class<?> define(byte[] b) {
      return defineClass(null, b, 0, b.length);
    }
  }

  static byte[] bytesOf(String resource) throws Exception {
    try (InputStream in = HiddenOracle.class.getResourceAsStream(resource)) {
      return in.readAllBytes();
    }
  }

  static Runnable instance(Class<?> c) throws Exception {
    var constructor = c.getDeclaredConstructor();
    constructor.setAccessible(true);
    return (Runnable) constructor.newInstance();
  }

  public static void counted() {
    sink = new long[5];
  }

  public static void main(String[] args) throws Exception {
    byte[] bytes = bytesOf("HiddenTemplate.class");
    Class<?> hidden = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
    instance(hidden).run();
    instance(new Loader().define(bytesOf("NamelessTemplate.class"))).run();
    IntFunction<int[]> f = n -> new int[n];
    for (int i = 0; i < 100; i++) sink = f.apply(3);
    System.out.println("hidden oracle done: " + hidden.isHidden());
  }
}

// Never loaded by name: its bytes become the hidden class.
class HiddenTemplate implements Runnable {
  public void run() {
    for (int i = 0; i < 100; i++) {
      HiddenOracle.sink = new int[10];
      HiddenOracle.counted();
    }
  }
}

// Never loaded by name: defined by HiddenOracle.Loader with a null name.
class NamelessTemplate implements Runnable {
  public void run() {
    for (int i = 0; i < 100; i++) HiddenOracle.sink = new short[7];
  }
}
