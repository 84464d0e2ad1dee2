// Generates a source tree of CLASSES classes in 20 packages (generics, lambdas and streams,
// records, inner classes, string switches, cross-package calls) and sources.txt listing them
// for javac's @file. Fixed seed.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class Gen {
  public static void main(String[] args) throws IOException {
    File root = new File(args[0]);
    int classes = Integer.parseInt(args[1]);
    Random r = new Random(13);
    List<String> files = new ArrayList<>();
    for (int c = 0; c < classes; c++) {
      String pkg = "gen.p" + (c % 20);
      File dir = new File(root, pkg.replace('.', '/'));
      dir.mkdirs();
      File f = new File(dir, "C" + c + ".java");
      files.add(f.getAbsolutePath());
      try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(f),
          StandardCharsets.UTF_8))) {
        w.printf("package %s;%n%nimport java.util.*;%nimport java.util.function.*;%n"
            + "import java.util.stream.*;%n%n", pkg);
        w.printf("public class C%d<T extends Comparable<T>> implements Iterable<T> {%n", c);
        w.printf("  public record Pair(String name, int value) {}%n");
        w.printf("  private final List<T> items = new ArrayList<>();%n");
        w.printf("  private final Map<String, Integer> counts = new TreeMap<>();%n");
        w.printf("  public Iterator<T> iterator() { return items.iterator(); }%n");
        w.printf("  public C%d<T> add(T t) { items.add(t); counts.merge(String.valueOf(t), 1,"
            + " Integer::sum); return this; }%n", c);
        for (int m = 0; m < 6 + r.nextInt(6); m++) method(w, r, c, m, classes);
        w.printf("  class Inner { int depth(int n) { return n <= 0 ? items.size() : depth(n - 1)"
            + " + 1; } }%n");
        w.printf("  public static String kind(String s) {%n    switch (s) {%n");
        for (int k = 0; k < 5; k++) w.printf("      case \"k%d\": return \"K%d\";%n", k, c + k);
        w.printf("      default: return s.toUpperCase();%n    }%n  }%n}%n");
      }
    }
    try (PrintWriter w = new PrintWriter(new File(root, "sources.txt"), "UTF-8")) {
      files.forEach(w::println);
    }
  }

  static void method(PrintWriter w, Random r, int c, int m, int classes) {
    int other = r.nextInt(classes);
    switch (r.nextInt(4)) {
      case 0 -> w.printf("  public List<Pair> m%d(List<String> in) {%n    return in.stream()"
          + ".filter(s -> s.length() > %d).map(s -> new Pair(s, s.hashCode() %% %d))"
          + ".sorted(Comparator.comparingInt(Pair::value).thenComparing(Pair::name))"
          + ".collect(Collectors.toList());%n  }%n", m, r.nextInt(5), 1 + r.nextInt(100));
      case 1 -> w.printf("  public int m%d(int x) {%n    int acc = %d;%n    for (int i = 0; i < x;"
          + " i++) {%n      acc += (i %% 3 == 0) ? i * %d : gen.p%d.C%d.kind(\"k\" + i).length();"
          + "%n    }%n    return acc;%n  }%n", m, r.nextInt(100), 1 + r.nextInt(9), other % 20,
          other);
      case 2 -> w.printf("  public <U extends Number> double m%d(Map<String, ? extends U> map,"
          + " Function<? super U, Double> f) {%n    double s = 0;%n    for (Map.Entry<String, ?"
          + " extends U> e : map.entrySet()) {%n      s += f.apply(e.getValue()) * e.getKey()"
          + ".length();%n    }%n    return s + new Inner().depth(%d);%n  }%n", m,
          r.nextInt(5));
      default -> w.printf("  public Optional<T> m%d(Predicate<? super T> p) {%n    T best = null;"
          + "%n    for (T t : this) {%n      if (p.test(t) && (best == null || t.compareTo(best)"
          + " > 0)) best = t;%n    }%n    return Optional.ofNullable(best);%n  }%n", m);
    }
  }
}
