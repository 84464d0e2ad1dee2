package sem.model;

import java.util.Comparator;

/** An immutable 2-D point with a natural order (x, then y). */
public record Point(double x, double y) implements Comparable<Point> {
  public static final Point ORIGIN = new Point(0, 0);
  private static final Comparator<Point> ORDER =
      Comparator.comparingDouble(Point::x).thenComparingDouble(Point::y);

  public Point translate(double dx, double dy) {
    return new Point(x + dx, y + dy);
  }

  public double distanceTo(Point other) {
    return Math.hypot(x - other.x, y - other.y);
  }

  @Override
  public int compareTo(Point o) {
    return ORDER.compare(this, o);
  }
}
