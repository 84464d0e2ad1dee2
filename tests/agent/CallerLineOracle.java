import java.lang.reflect.Method;
import java.util.function.Supplier;

// Oracle program for the lines of caller frames (caller_line_test.cpp). Each case allocates
// objects of a class of its own, from calls whose lines are marked "// @NAME" below; the
// test finds the lines by the markers and expects every caller frame at exactly the line of
// its call, or no line where none can be known:
//   usage: CallerLineOracle N
// twice: Twice.make() from line @TWICE_A (3 N calls) and from @TWICE_B (N calls);
// once: Once.make() from @ONCE (N); virtual: Shape.area() from @VIRT_A on a Circle and a
// Square by turns (N each) and from @VIRT_B on a Circle (N); lambda: a lambda's body
// through its proxy from @LAMBDA (N); ctorRef: Ref's constructor (which allocates a byte[])
// through a constructor reference's proxy from @REF_A (N) and directly from @REF_B, twice
// on the line (2 N); reflect: Method.invoke from @REFLECT (N).
public class CallerLineOracle {
  static Object sink;

  static final class TwiceObj {}

  static final class OnceObj {}

  static final class LambdaObj {}

  static final class ReflectObj {}

  static final class Ref {
    final byte[] payload = new byte[3];
  }

  static final class Twice {
    static Object make() {
      return new TwiceObj();
    }
  }

  static final class Once {
    static Object make() {
      return new OnceObj();
    }
  }

  abstract static class Shape {
    abstract Object area();
  }

  static final class Circle extends Shape {
    Object area() {
      return new double[1];
    }
  }

  static final class Square extends Shape {
    Object area() {
      return new long[1];
    }
  }

  static void twice(int n) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < 3; j++) sink = Twice.make(); // @TWICE_A
      sink = Twice.make(); // @TWICE_B
    }
  }

  static void once(int n) {
    for (int i = 0; i < n; i++) {
      sink = Once.make(); // @ONCE
    }
  }

  static void virtual(int n) {
    Shape circle = new Circle(), square = new Square();
    for (int i = 0; i < 2 * n; i++) {
      Shape s = (i & 1) == 0 ? circle : square;
      sink = s.area(); // @VIRT_A
      if ((i & 1) == 0) sink = circle.area(); // @VIRT_B
    }
  }

  static void lambda(int n) {
    Supplier<Object> s = () -> new LambdaObj();
    for (int i = 0; i < n; i++) {
      sink = s.get(); // @LAMBDA
    }
  }

  static void ctorRef(int n) {
    Supplier<Ref> s = Ref::new;
    for (int i = 0; i < n; i++) {
      sink = s.get(); // @REF_A
      sink = new Ref(); sink = new Ref(); // @REF_B
    }
  }

  static Object reflected() {
    return new ReflectObj();
  }

  static void reflect(int n) throws Exception {
    Method m = CallerLineOracle.class.getDeclaredMethod("reflected");
    for (int i = 0; i < n; i++) {
      sink = m.invoke(null); // @REFLECT
    }
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    twice(n);
    once(n);
    virtual(n);
    lambda(n);
    ctorRef(n);
    reflect(n);
    System.out.println("oracle done");
  }
}
