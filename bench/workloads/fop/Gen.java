// Generates book.fo: an XSL-FO document of CHAPTERS chapters (paragraphs of pseudo-random
// words, a table and a list per chapter). Fixed seed: the same bytes on every run and JDK.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  static final String[] WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do "
      + "eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis "
      + "nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute "
      + "irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
      + "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est "
      + "laborum allocation context profile heap object array thread").split(" ");

  public static void main(String[] args) throws IOException {
    int chapters = Integer.parseInt(args[1]);
    Random r = new Random(42);
    try (PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
        new FileOutputStream(args[0]), StandardCharsets.UTF_8)))) {
      w.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
      w.println("<fo:root xmlns:fo=\"http://www.w3.org/1999/XSL/Format\">");
      w.println("<fo:layout-master-set><fo:simple-page-master master-name=\"A4\""
          + " page-height=\"29.7cm\" page-width=\"21cm\" margin=\"2cm\">"
          + "<fo:region-body margin-bottom=\"1.5cm\"/><fo:region-after extent=\"1cm\"/>"
          + "</fo:simple-page-master></fo:layout-master-set>");
      w.println("<fo:page-sequence master-reference=\"A4\">");
      w.println("<fo:static-content flow-name=\"xsl-region-after\"><fo:block text-align=\"center\""
          + " font-size=\"9pt\">Page <fo:page-number/></fo:block></fo:static-content>");
      w.println("<fo:flow flow-name=\"xsl-region-body\" font-family=\"serif\" font-size=\"11pt\">");
      for (int c = 1; c <= chapters; c++) {
        w.printf("<fo:block font-size=\"16pt\" font-weight=\"bold\" space-before=\"12pt\""
            + " break-before=\"page\" id=\"ch%d\">Chapter %d: %s</fo:block>%n", c, c, words(r, 4));
        for (int p = 0; p < 8; p++) {
          w.printf("<fo:block text-align=\"justify\" space-before=\"6pt\">%s <fo:inline"
              + " font-style=\"italic\">%s</fo:inline> %s.</fo:block>%n",
              words(r, 40 + r.nextInt(60)), words(r, 3), words(r, 20 + r.nextInt(40)));
        }
        w.println("<fo:table table-layout=\"fixed\" width=\"100%\" border=\"0.5pt solid black\">"
            + "<fo:table-column column-width=\"15%\"/><fo:table-column column-width=\"55%\"/>"
            + "<fo:table-column column-width=\"30%\"/><fo:table-body>");
        for (int row = 0; row < 12; row++) {
          w.printf("<fo:table-row><fo:table-cell border=\"0.5pt solid black\"><fo:block>%d.%d"
              + "</fo:block></fo:table-cell><fo:table-cell border=\"0.5pt solid black\"><fo:block>"
              + "%s</fo:block></fo:table-cell><fo:table-cell border=\"0.5pt solid black\">"
              + "<fo:block text-align=\"end\">%d</fo:block></fo:table-cell></fo:table-row>%n",
              c, row, words(r, 5 + r.nextInt(10)), r.nextInt(1000000));
        }
        w.println("</fo:table-body></fo:table>");
        w.println("<fo:list-block space-before=\"6pt\">");
        for (int i = 0; i < 6; i++) {
          w.printf("<fo:list-item><fo:list-item-label end-indent=\"label-end()\"><fo:block>%d)"
              + "</fo:block></fo:list-item-label><fo:list-item-body start-indent=\"body-start()\">"
              + "<fo:block>%s</fo:block></fo:list-item-body></fo:list-item>%n", i + 1,
              words(r, 10 + r.nextInt(20)));
        }
        w.println("</fo:list-block>");
      }
      w.println("</fo:flow></fo:page-sequence></fo:root>");
    }
  }

  static String words(Random r, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) b.append(' ');
      b.append(WORDS[r.nextInt(WORDS.length)]);
    }
    return b.toString();
  }
}
