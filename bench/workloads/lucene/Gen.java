// Generates docs.txt (DOCS lines "id<TAB>title<TAB>body" of words drawn with a Zipf-like
// distribution from a synthetic vocabulary) and queries.txt (term, boolean, phrase, prefix
// and fuzzy queries in classic QueryParser syntax). Fixed seed.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  static final String[] SYL = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "ba", "do",
      "fe", "gi", "ho", "ju", "pa", "qui", "ster", "ing", "tion", "er", "ed", "ly"};

  public static void main(String[] args) throws IOException {
    File dir = new File(args[0]);
    int docs = Integer.parseInt(args[1]);
    Random r = new Random(5);
    String[] vocab = new String[8000];
    for (int i = 0; i < vocab.length; i++) {
      StringBuilder b = new StringBuilder();
      int n = 2 + r.nextInt(3);
      for (int k = 0; k < n; k++) b.append(SYL[r.nextInt(SYL.length)]);
      vocab[i] = b.toString();
    }
    try (PrintWriter w = writer(new File(dir, "docs.txt"))) {
      for (int d = 0; d < docs; d++) {
        w.print("doc" + d + "\t" + words(r, vocab, 6) + "\t");
        w.println(words(r, vocab, 40 + r.nextInt(120)));
      }
    }
    try (PrintWriter w = writer(new File(dir, "queries.txt"))) {
      for (int q = 0; q < 400; q++) {
        String a = pick(r, vocab), b = pick(r, vocab), c = pick(r, vocab);
        switch (q % 5) {
          case 0 -> w.println(a);
          case 1 -> w.println("+" + a + " +" + b + " -" + c);
          case 2 -> w.println("\"" + a + " " + b + "\"~3 title:" + c);
          case 3 -> w.println(a.substring(0, Math.min(4, a.length())) + "* " + b);
          default -> w.println(a + "~1 OR body:" + b);
        }
      }
    }
  }

  static String pick(Random r, String[] vocab) {
    return vocab[(int) (StrictMath.pow(r.nextDouble(), 3) * vocab.length)];
  }

  static String words(Random r, String[] vocab, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) b.append(i > 0 ? " " : "").append(pick(r, vocab));
    return b.toString();
  }

  static PrintWriter writer(File f) throws IOException {
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(f),
        StandardCharsets.UTF_8)));
  }
}
