package sem.app;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import sem.model.Color;
import sem.model.Point;
import sem.model.Shape;
import sem.util.Cache;
import sem.util.Text;

/** Ties the other files together; compiled (and optionally run) by the semantics check. */
public class Main {
  interface Visitor<R> {
    R visit(Node n);
  }

  /** A small expression tree with an abstract nested class and local/anonymous classes. */
  abstract static class Node {
    abstract <R> R accept(Visitor<R> v);

    static Node num(int v) {
      return new Node() {
        @Override
        <R> R accept(Visitor<R> vis) {
          return vis.visit(this);
        }

        @Override
        public String toString() {
          return Integer.toString(v);
        }
      };
    }
  }

  @SuppressWarnings("rawtypes")
  static int rawSize(List list) {
    return list.size();
  }

  static long fib(int n) {
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
      long t = a + b;
      a = b;
      b = t;
    }
    return a;
  }

  public static void main(String[] args) throws Exception {
    System.out.print(Text.BANNER);
    List<Shape> shapes = new ArrayList<>();
    shapes.add(new Shape.Circle(1.5));
    shapes.add(Shape.Rect.square(2));
    shapes.add(new Shape.Rect(2, 3));
    shapes.add(new Shape.Polygon(List.of(Point.ORIGIN, new Point(4, 0), new Point(4, 3))));
    shapes.sort(Comparator.comparingDouble(Shape::area).reversed());
    for (Shape s : shapes) System.out.println(Shape.classify(s) + " -> " + s.describe());

    Map<Boolean, List<String>> parts = shapes.stream()
        .collect(Collectors.partitioningBy(s -> s.area() > 5,
            Collectors.mapping(s -> s.getClass().getSimpleName(), Collectors.toList())));
    System.out.println("large/small: " + parts);

    AtomicInteger loads = new AtomicInteger();
    Cache<Integer, Long> cache = new Cache<>(8, n -> {
      loads.incrementAndGet();
      return fib(n);
    });
    long sum = 0;
    for (int i = 0; i < 40; i++) sum += cache.get((i * 7) % 10);
    System.out.println("fib sum " + sum + ", " + cache.stats() + ", loads " + loads.get());
    System.out.println(Cache.Pair.of("pair", Optional.of(42)));

    for (Color c : Color.values()) System.out.println(c + " " + c.hex() + " complement " + c.complement());

    String msg = "The Quick Brown Fox Jumps Over The Lazy Dog";
    String enc = Text.caesar(msg, 3);
    System.out.println(enc + " | " + Text.caesar(enc, -3));
    System.out.println(Text.letterHistogram(msg));
    System.out.println(Text.table(4, (i, j) -> i * j));
    System.out.println(Text.legacyUpper(Text.orElse(null, () -> "fallback")));
    System.out.println("raw size " + rawSize(Text.listOf(1, 2, 3)));
    Node n = Node.num(7);
    System.out.println("visited " + n.<String>accept(x -> "node " + x));
    try {
      new Shape.Circle(-1);
    } catch (IllegalArgumentException e) {
      System.out.println("caught " + e.getMessage());
    }
  }
}
