package hardprobe;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The analysis class of the hard-case tests (tests/unit/instrument/hard_cases_*.cpp): instrumented code
 * calls these static methods with a site id. At exit the non-zero sites are written to the
 * file named by -Dhardprobe.out, one line each: "id count taken [class names]", where taken is
 * the number of taken branches (branch) or the sum of the values (val), and the class names
 * are those of the exceptions (exc) or references (val) seen.
 */
public final class Probe {
  private static final int SIZE = 1 << 17;
  private static final long[] COUNT = new long[SIZE];
  private static final long[] TAKEN = new long[SIZE];
  private static final Map<Integer, TreeSet<String>> SEEN = new TreeMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Probe::dump, "hardprobe-dump"));
  }

  private Probe() {}

  /** A block, an entry, a return: counts executions. */
  public static synchronized void hit(int id) {
    COUNT[id]++;
  }

  /** Before a conditional branch: counts executions and how often it is taken. */
  public static synchronized void branch(boolean taken, int id) {
    COUNT[id]++;
    if (taken) TAKEN[id]++;
  }

  /** A handler entry or an exceptional exit: counts and records the exception's class. */
  public static synchronized void exc(Throwable t, int id) {
    COUNT[id]++;
    SEEN.computeIfAbsent(id, k -> new TreeSet<>()).add(t == null ? "null" : t.getClass().getName());
  }

  /** A value (e.g. before a return): counts, and sums the value into the "taken" column. */
  public static synchronized void val(int v, int id) {
    COUNT[id]++;
    TAKEN[id] += v;
  }

  public static synchronized void val(long v, int id) {
    COUNT[id]++;
    TAKEN[id] += v;
  }

  public static synchronized void val(float v, int id) {
    COUNT[id]++;
    TAKEN[id] += (long) v;
  }

  public static synchronized void val(double v, int id) {
    COUNT[id]++;
    TAKEN[id] += (long) v;
  }

  /** A reference (a value, a field's or an array's object): counts, records its class. */
  public static synchronized void val(Object v, int id) {
    COUNT[id]++;
    SEEN.computeIfAbsent(id, k -> new TreeSet<>()).add(v == null ? "null" : v.getClass().getName());
  }

  static synchronized void dump() {
    String path = System.getProperty("hardprobe.out");
    if (path == null) return;
    try (PrintWriter out =
        new PrintWriter(Files.newBufferedWriter(Paths.get(path), StandardCharsets.UTF_8))) {
      for (int id = 0; id < SIZE; id++) {
        if (COUNT[id] == 0) continue;
        StringBuilder line = new StringBuilder();
        line.append(id).append(' ').append(COUNT[id]).append(' ').append(TAKEN[id]);
        TreeSet<String> names = SEEN.get(id);
        if (names != null) {
          for (String n : names) line.append(' ').append(n);
        }
        out.println(line);
      }
    } catch (IOException e) {
      System.err.println("hardprobe: cannot write " + path + ": " + e);
    }
  }
}
