package dragnet.tools;

import dragnet.rt.Counters;
import dragnet.rt.Sites;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * BIT's dynamic instruction counter: instrumented code calls {@link #block} at the start of
 * every basic block with its method's id and the block's size in instructions. At exit the
 * counts per method and in total are written to dragnet-icount.txt (or -Ddragnet.report).
 */
public final class ICount {
  private static final Counters COUNTS = new Counters();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ICount::report, "dragnet-icount-report"));
  }

  private ICount() {}

  public static void block(int method, int size) {
    COUNTS.add(method, size);
  }

  static void report() {
    Sites.Table sites = Sites.load("icount");
    final List<long[]> rows = new ArrayList<>();  // {count, id}
    COUNTS.forEachNonZero(id -> rows.add(new long[] {COUNTS.get(id), id}));
    rows.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
    long total = 0;
    for (long[] r : rows) total += r[0];
    String path = Sites.reportPath("icount");
    try (PrintWriter out = Sites.open(path)) {
      out.println("# dragnet icount: executed bytecode instructions, counted per basic block");
      out.println("total instructions: " + total);
      out.println("methods executed: " + rows.size() + " of " + sites.rows.size() + " instrumented");
      if (sites.conflicts > 0) {
        out.println("warning: " + sites.conflicts + " site ids defined twice (use --id-base)");
      }
      out.println();
      out.printf("%16s %7s  %s%n", "instructions", "share", "method");
      for (long[] r : rows) {
        String[] s = sites.rows.get((int) r[1]);
        String name = s == null ? "<unknown method id " + r[1] + ">" : s[0] + "." + s[1] + s[2];
        out.printf("%16d %6.2f%%  %s%n", r[0], 100.0 * r[0] / Math.max(total, 1), name);
      }
    } catch (Exception e) {
      System.err.println("dragnet: cannot write " + path + ": " + e);
    }
  }
}
