package sem.util;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** String utilities: streams, collectors, varargs, method references, text blocks. */
public final class Text {
  private Text() {}

  public static final String BANNER = """
      +----------------------+
      |  semantics workload  |
      +----------------------+
      """;

  @SafeVarargs
  public static <T> List<T> listOf(T... items) {
    List<T> out = new ArrayList<>();
    Collections.addAll(out, items);
    return out;
  }

  public static Map<Character, Long> letterHistogram(String text) {
    return text.chars()
        .filter(Character::isLetter)
        .map(Character::toLowerCase)
        .mapToObj(c -> (char) c)
        .collect(Collectors.groupingBy(c -> c, TreeMap::new, Collectors.counting()));
  }

  public static String caesar(String s, int shift) {
    StringBuilder sb = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      if (c >= 'a' && c <= 'z') sb.append((char) ('a' + (c - 'a' + shift + 26) % 26));
      else if (c >= 'A' && c <= 'Z') sb.append((char) ('A' + (c - 'A' + shift + 26) % 26));
      else sb.append(c);
    }
    return sb.toString();
  }

  public static String table(int n, BiFunction<Integer, Integer, Integer> f) {
    return IntStream.rangeClosed(1, n)
        .mapToObj(i -> IntStream.rangeClosed(1, n)
            .mapToObj(j -> String.format("%4d", f.apply(i, j)))
            .collect(Collectors.joining()))
        .collect(Collectors.joining("\n"));
  }

  public static <T> T orElse(T value, Supplier<? extends T> fallback) {
    return value != null ? value : fallback.get();
  }

  @Deprecated
  public static String legacyUpper(String s) {
    return s.toUpperCase(java.util.Locale.ROOT);
  }
}
