package dragnet.rt;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;

/**
 * The site tables that `dragnet instrument` writes next to instrumented classes
 * (META-INF/dragnet/TOOL.sites: one line per id, tab-separated, id first), and where a tool
 * writes its report: the system property dragnet.report, else dragnet-TOOL.txt in the
 * working directory.
 */
public final class Sites {
  private Sites() {}

  /** id -> the table line's fields after the id; conflicting ids are counted. */
  public static final class Table {
    public final Map<Integer, String[]> rows = new HashMap<>();
    public int conflicts;
    public int maxId = -1;
  }

  public static Table load(String tool) {
    Table t = new Table();
    String name = "META-INF/dragnet/" + tool + ".sites";
    try {
      ClassLoader cl = Sites.class.getClassLoader();
      Enumeration<URL> urls =
          cl != null ? cl.getResources(name) : ClassLoader.getSystemResources(name);
      while (urls.hasMoreElements()) read(urls.nextElement(), t);
    } catch (IOException e) {
      System.err.println("dragnet: cannot read site tables: " + e);
    }
    return t;
  }

  private static void read(URL url, Table t) throws IOException {
    try (InputStream in = url.openStream();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isEmpty() || line.charAt(0) == '#') continue;
        String[] f = line.split("\t", -1);
        int id = Integer.parseInt(f[0]);
        String[] rest = new String[f.length - 1];
        System.arraycopy(f, 1, rest, 0, rest.length);
        String[] old = t.rows.put(id, rest);
        if (old != null && !java.util.Arrays.equals(old, rest)) t.conflicts++;
        t.maxId = Math.max(t.maxId, id);
      }
    }
  }

  public static String reportPath(String tool) {
    String p = System.getProperty("dragnet.report");
    return p != null ? p : "dragnet-" + tool + ".txt";
  }

  public static PrintWriter open(String path) throws IOException {
    return new PrintWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
  }
}
