package dragnet.testdata;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

// Sealed hierarchy, records and nest members.
public sealed interface Shape permits Shape.Circle, Shape.Square {
  double area();

  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.RECORD_COMPONENT)
  @interface Component {}

  record Circle(double radius) implements Shape {
    public double area() {
      return Math.PI * radius * radius;
    }
  }

  final class Square implements Shape {
    private final double side;

    Square(double side) {
      this.side = side;
    }

    public double area() {
      return side * side;
    }
  }

  record Pair<A, B>(@Component A first, List<B> second) {}
}
