// Runs a SQL script (one statement per line, ending in ';') on an in-memory H2 database and
// prints every query's rows and every update's count: the output to compare.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.sql.*;

public class Driver {
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:bench", "sa", "");
         Statement s = c.createStatement();
         BufferedReader in = new BufferedReader(new InputStreamReader(
             new FileInputStream(args[0]), StandardCharsets.UTF_8));
         PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
             System.out, StandardCharsets.UTF_8)))) {
      int n = 0;
      long updated = 0;
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank()) continue;
        String sql = line.substring(0, line.lastIndexOf(';'));
        n++;
        if (s.execute(sql)) {
          out.println("-- " + n + ": " + sql);
          try (ResultSet rs = s.getResultSet()) {
            int cols = rs.getMetaData().getColumnCount();
            while (rs.next()) {
              StringBuilder b = new StringBuilder();
              for (int i = 1; i <= cols; i++) b.append(i > 1 ? " | " : "").append(rs.getString(i));
              out.println(b);
            }
          }
        } else if (!sql.startsWith("INSERT")) {
          out.println("-- " + n + ": " + s.getUpdateCount() + " rows: " + sql);
        } else {
          updated += s.getUpdateCount();
        }
      }
      out.println("-- " + n + " statements, " + updated + " rows inserted");
    }
  }
}
