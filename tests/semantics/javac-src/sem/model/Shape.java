package sem.model;

/** A closed hierarchy of shapes: a sealed interface with record implementations. */
public sealed interface Shape permits Shape.Circle, Shape.Rect, Shape.Polygon {
  double area();

  default String describe() {
    return getClass().getSimpleName() + String.format("[area=%.3f]", area());
  }

  record Circle(double radius) implements Shape {
    public Circle {
      if (radius < 0) throw new IllegalArgumentException("negative radius " + radius);
    }

    @Override
    public double area() {
      return Math.PI * radius * radius;
    }
  }

  record Rect(double width, double height) implements Shape {
    public static Rect square(double side) {
      return new Rect(side, side);
    }

    @Override
    public double area() {
      return width * height;
    }
  }

  record Polygon(java.util.List<Point> points) implements Shape {
    public Polygon {
      points = java.util.List.copyOf(points);
    }

    /** Shoelace formula. */
    @Override
    public double area() {
      double sum = 0;
      for (int i = 0; i < points.size(); i++) {
        Point a = points.get(i), b = points.get((i + 1) % points.size());
        sum += a.x() * b.y() - b.x() * a.y();
      }
      return Math.abs(sum) / 2;
    }
  }

  static String classify(Shape s) {
    if (s instanceof Circle c && c.radius() == 0) return "degenerate circle";
    if (s instanceof Circle c) return "circle r=" + c.radius();
    if (s instanceof Rect r) {
      return r.width() == r.height() ? "square " + r.width() : "rect " + r.width() + "x" + r.height();
    }
    Polygon p = (Polygon) s;
    int n = p.points().size();
    return switch (n) {
      case 3 -> "triangle";
      case 4 -> "quadrilateral";
      default -> {
        String name = "polygon";
        yield name + " with " + n + " vertices";
      }
    };
  }
}
