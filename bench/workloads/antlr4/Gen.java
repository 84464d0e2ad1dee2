// Generates input.mini: FUNCS functions of random statements and expressions in the Mini
// language (Mini.g4). Fixed seed.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  static Random r = new Random(9);
  static final String[] BIN = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&",
      "||"};

  public static void main(String[] args) throws IOException {
    int funcs = Integer.parseInt(args[1]);
    try (PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
        new FileOutputStream(args[0]), StandardCharsets.UTF_8)))) {
      for (int f = 0; f < funcs; f++) {
        if (f % 10 == 0) w.printf("let g%d: int = %s;%n", f, expr(3));
        w.printf("// function %d%nfn f%d(a: int, b: str, c: int[]): int {%n", f, f);
        for (int s = 0, n = 4 + r.nextInt(8); s < n; s++) statement(w, 1, 2);
        w.printf("  return %s;%n}%n", expr(2));
      }
    }
  }

  static void statement(PrintWriter w, int indent, int depth) {
    String in = "  ".repeat(indent);
    switch (depth > 0 ? r.nextInt(7) : r.nextInt(3)) {
      case 0 -> w.printf("%slet v%d = %s;%n", in, r.nextInt(20), expr(3));
      case 1 -> w.printf("%sv%d = %s;%n", in, r.nextInt(20), expr(3));
      case 2 -> w.printf("%sprint(%s, \"s%d\");%n", in, expr(2), r.nextInt(100));
      case 3, 4 -> {
        w.printf("%sif (%s) {%n", in, expr(2));
        for (int i = 0; i < 1 + r.nextInt(3); i++) statement(w, indent + 1, depth - 1);
        w.printf("%s} else {%n", in);
        statement(w, indent + 1, depth - 1);
        w.printf("%s}%n", in);
      }
      case 5 -> {
        w.printf("%sfor (i in 0 .. %s) {%n", in, expr(1));
        statement(w, indent + 1, depth - 1);
        w.printf("%s}%n", in);
      }
      default -> {
        w.printf("%swhile (%s) {%n", in, expr(2));
        statement(w, indent + 1, depth - 1);
        w.printf("%sc[%s] = %s;%n%s}%n", in + "  ", expr(1), expr(2), in);
      }
    }
  }

  static String expr(int depth) {
    if (depth == 0) {
      return switch (r.nextInt(4)) {
        case 0 -> "a";
        case 1 -> "v" + r.nextInt(20);
        case 2 -> Integer.toString(r.nextInt(1000));
        default -> "c[" + r.nextInt(10) + "]";
      };
    }
    return switch (r.nextInt(8)) {
      case 0 -> "(" + expr(depth - 1) + ")";
      case 1 -> "-" + expr(depth - 1);
      case 2 -> "f" + r.nextInt(50) + "(" + expr(depth - 1) + ", b, c)";
      case 3 -> expr(depth - 1) + " ? " + expr(depth - 1) + " : " + expr(depth - 1);
      case 4 -> "[" + expr(depth - 1) + ", " + expr(depth - 1) + "]";
      default -> expr(depth - 1) + " " + BIN[r.nextInt(BIN.length)] + " " + expr(depth - 1);
    };
  }
}
