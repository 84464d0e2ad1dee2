// Constructors with code before super()/this() (javac 17 allows it only inside the call's
// arguments) and `new` inside conditional expressions (Uninitialized(offset) types in the
// stack-map frames at the joins). Markers (@name) tell the test which source line is which.
import java.util.ArrayList;
import java.util.List;

class Base {
  final int v;

  Base(int v) {
    this.v = v;
  }
}

class Derived extends Base {
  final String tag;

  // A conditional before super(): UninitializedThis on the stack at the join.
  Derived(int x) {
    super(x > 0
        ? x * 2  // @pos
        : -x);  // @neg
    tag = "i";
  }

  // Delegation with a conditional and a static call before this().
  Derived(int x, int y) {
    this(x < y ? pick(x, y) : y);  // @delegate
  }

  // A switch expression before super().
  Derived(long code) {
    super(switch ((int) code) {
      case 1 -> 10;  // @case1
      case 2 -> {
        int t = (int) code * 3;  // @case2
        yield t;
      }
      default -> -1;  // @caseDefault
    });
    tag = "l";
  }

  // Throws after super(): the exceptional-exit probe sees it.
  Derived(String s) {
    super(s == null ? 0 : s.length());
    if (s == null) throw new IllegalArgumentException("null tag");  // @throwAfter
    tag = s;
  }

  // Throws before super() (array index): not covered by the exceptional-exit handler,
  // which starts after super().
  Derived(int[] a) {
    super(a[0]);
    tag = "a";
  }

  static int pick(int x, int y) {
    return x * 100 + y;
  }
}

// A loop inside a switch expression in super(...): UninitializedThis in local 0 and on the
// stack across the loop's backward branch.
class Looping extends Base {
  Looping(int k) {
    super(switch (k) {
      case 0 -> -1;
      default -> {
        int t = 0;
        for (int i = 0; i < k; i++) {
          t += i;  // @ctorLoop
        }
        yield t;
      }
    });
  }
}

class Outer {
  final int base;

  Outer(int base) {
    this.base = base;
  }

  // javac stores this$0 into the uninitialized `this` before super().
  class Inner extends Base {
    Inner(int d) {
      super(d > 0 ? base + d : base - d);  // @inner
    }
  }
}

final class Box {
  final int v;

  Box(int v) {
    this.v = v;
  }

  Box(Box a, int w) {
    this.v = a.v * 1000 + w;
  }
}

public class Main {
  // new Box(c ? a : b): Uninitialized(new Box) twice on the stack at the join.
  static Box pick(boolean c, int a, int b) {
    return new Box(c ? a : b);  // @pick
  }

  // Nested: an uninitialized Box under another uninitialized Box, each with a conditional.
  static Box nested(int a, int b) {
    return new Box(new Box(a > b ? a : b),  // @nestedOuter
        b != 0 ? a / b : -1);  // @nestedInner
  }

  // A `new` that is itself the target of a branch (first instruction of a block).
  static Box either(boolean c, int x) {
    return c ? new Box(x)  // @eitherThen
        : new Box(new Box(x > 5 ? 5 : x), 7);  // @eitherElse
  }

  // A loop inside new Box(...)'s argument: Uninitialized(new Box) twice on the stack across
  // the backward branch.
  static Box loopArg(int k) {
    return new Box(switch (k) {
      case 0 -> -1;
      default -> {
        int t = 1;
        for (int i = 0; i < k; i++) {
          t *= 2;  // @argLoop
        }
        yield t;
      }
    });
  }

  // In a loop, with a StringBuilder built from a conditional.
  static String text(int n) {
    List<Box> boxes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boxes.add(new Box(i % 2 == 0 ? i : -i));  // @loopNew
    }
    StringBuilder sb = new StringBuilder(n > 2 ? "many:" : "few:");  // @sb
    for (Box b : boxes) sb.append(b.v).append(',');
    return sb.toString();
  }

  public static void main(String[] args) {
    System.out.println(new Derived(3).v);
    System.out.println(new Derived(-4).v);
    System.out.println(new Derived(2, 5).v);
    System.out.println(new Derived(7, 5).v);
    System.out.println(new Derived(1L).v + " " + new Derived(2L).v + " " + new Derived(9L).v);
    System.out.println(new Derived("abc").tag);
    try {
      new Derived((String) null);
    } catch (IllegalArgumentException e) {
      System.out.println("caught " + e.getMessage());
    }
    try {
      new Derived(new int[0]);
    } catch (ArrayIndexOutOfBoundsException e) {
      System.out.println("caught AIOOBE");
    }
    Outer o = new Outer(100);
    System.out.println(o.new Inner(5).v + " " + o.new Inner(-5).v);
    System.out.println(pick(true, 1, 2).v + " " + pick(false, 1, 2).v);
    System.out.println(nested(6, 3).v + " " + nested(2, 0).v);
    System.out.println(either(true, 9).v + " " + either(false, 9).v + " " + either(false, 2).v);
    System.out.println(new Looping(4).v + " " + new Looping(0).v + " " + loopArg(5).v + " "
        + loopArg(0).v);
    System.out.println(text(5));
    System.out.println(text(1));
  }
}
