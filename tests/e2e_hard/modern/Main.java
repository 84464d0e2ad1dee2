// invokedynamic (lambdas, method references, string concatenation, record methods),
// records (compact constructor, ObjectMethods bootstrap), sealed classes
// (PermittedSubclasses) and nest mates (private access without bridges).
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

sealed interface Shape permits Circle, Square, Shape.Empty {
  int area();

  record Empty() implements Shape {
    public int area() {
      return 0;
    }
  }
}

record Circle(int r) implements Shape {
  Circle {
    if (r < 0) throw new IllegalArgumentException("radius " + r);  // @circleCheck
  }

  public int area() {
    return 3 * r * r;
  }
}

final class Square implements Shape {
  private final int side;

  Square(int side) {
    this.side = side;
  }

  public int area() {
    return side * side;
  }
}

record Point(int x, int y) {
  Point scaled(int k) {
    return new Point(x * k, y * k);
  }
}

class Outer {
  private int secret = 7;

  private static int hidden(int v) {
    return v * 2;  // @hidden
  }

  class Inner {
    private int mine = 3;

    int peek() {
      return secret + hidden(mine);  // @peek
    }
  }

  static class Nested {
    private int p;

    private Nested(int p) {
      this.p = p;
    }
  }

  int readNested(int v) {
    Nested n = new Nested(v);
    Inner i = new Inner();
    return n.p + i.mine + i.peek();
  }
}

public class Main {
  static int describe(Shape s) {
    if (s instanceof Circle c) {
      return c.r() * 1000 + c.area();  // @isCircle
    } else if (s instanceof Square q) {
      return -q.area();  // @isSquare
    }
    return 0;  // @isOther
  }

  public static void main(String[] args) {
    int base = 5;
    Function<Integer, Integer> add = x -> x + base;  // @lambda
    IntBinaryOperator mul = (a, b) -> a * b;
    Supplier<List<String>> fresh = ArrayList::new;
    List<String> list = fresh.get();
    for (int i = 0; i < 4; i++) {
      list.add("v" + add.apply(i) + ":" + mul.applyAsInt(i, i));  // @loop
    }
    System.out.println(list);
    list.sort(String::compareTo);
    System.out.println(String.join(",", list));

    List<Shape> shapes = List.of(new Circle(2), new Square(3), new Shape.Empty(), new Circle(0));
    int total = 0;
    for (Shape s : shapes) total += describe(s);
    System.out.println("total " + total);
    try {
      new Circle(-1);
    } catch (IllegalArgumentException e) {
      System.out.println("rejected " + e.getMessage());
    }
    System.out.println(Shape.class.isSealed() + " " + Arrays.toString(
        Arrays.stream(Shape.class.getPermittedSubclasses()).map(Class::getSimpleName).toArray()));

    Point p = new Point(1, 2);
    Point q = p.scaled(3);
    System.out.println(p + " " + q + " " + p.equals(new Point(1, 2)) + " " + p.equals(q) + " "
        + (p.hashCode() == new Point(1, 2).hashCode()));
    System.out.println(Point.class.isRecord() + " " + Point.class.getRecordComponents().length);

    Outer o = new Outer();
    System.out.println(o.readNested(10) + " " + o.readNested(20));
    System.out.println(Outer.Inner.class.getNestHost().getSimpleName() + " "
        + Outer.class.getNestMembers().length + " "
        + Outer.class.isNestmateOf(Outer.Nested.class));
  }
}
