package dragnet.tools;

import dragnet.rt.Counters;
import dragnet.rt.Sites;
import java.io.PrintWriter;

/**
 * BIT's branch-outcome counter: instrumented code calls {@link #branch} before every
 * conditional branch with the outcome and the branch's site id. At exit, per branch (class,
 * method, offset, line, opcode) the taken and not-taken counts are written to
 * dragnet-branches.txt (or -Ddragnet.report).
 */
public final class Branches {
  private static final Counters TAKEN = new Counters();
  private static final Counters NOT_TAKEN = new Counters();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Branches::report, "dragnet-branches-report"));
  }

  private Branches() {}

  public static void branch(boolean taken, int site) {
    (taken ? TAKEN : NOT_TAKEN).add(site, 1);
  }

  static void report() {
    Sites.Table sites = Sites.load("branches");
    String path = Sites.reportPath("branches");
    try (PrintWriter out = Sites.open(path)) {
      long[] totals = new long[3];  // taken, not taken, sites executed
      StringBuilder body = new StringBuilder();
      for (int id = 0; id <= sites.maxId; id++) line(sites, id, body, totals);
      out.println("# dragnet branches: outcomes of conditional branches");
      out.println("branches executed: " + totals[2] + " of " + sites.rows.size() + " instrumented");
      out.println("taken: " + totals[0] + "  not taken: " + totals[1]);
      if (sites.conflicts > 0) {
        out.println("warning: " + sites.conflicts + " site ids defined twice (use --id-base)");
      }
      out.println();
      out.printf("%12s %12s  %-8s %6s %6s  %s%n", "taken", "not-taken", "opcode", "offset",
          "line", "method");
      out.print(body);
    } catch (Exception e) {
      System.err.println("dragnet: cannot write " + path + ": " + e);
    }
  }

  // Site table fields: class, method, descriptor, offset, line, opcode.
  private static void line(Sites.Table sites, int id, StringBuilder body, long[] totals) {
    String[] s = sites.rows.get(id);
    long t = TAKEN.get(id), n = NOT_TAKEN.get(id);
    if (s == null || t + n == 0) return;
    totals[0] += t;
    totals[1] += n;
    totals[2]++;
    body.append(String.format("%12d %12d  %-8s %6s %6s  %s.%s%s%n", t, n, s[5], s[3], s[4],
        s[0], s[1], s[2]));
  }
}
