// Indexes docs.txt into an in-memory Lucene 4.10 index (EnglishAnalyzer, one thread, serial
// merges of adjacent segments, so doc ids and scores are the same on every run), then runs
// every query of queries.txt and prints its hit count and top 10 (id and score).
import java.io.*;
import java.nio.charset.StandardCharsets;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.*;
import org.apache.lucene.store.RAMDirectory;
import org.apache.lucene.util.Version;

public class Driver {
  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    Analyzer analyzer = new EnglishAnalyzer();
    RAMDirectory index = new RAMDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(Version.LUCENE_4_10_4, analyzer);
    cfg.setMergeScheduler(new SerialMergeScheduler());
    cfg.setMergePolicy(new LogDocMergePolicy());
    cfg.setRAMBufferSizeMB(16);
    int docs = 0;
    try (IndexWriter w = new IndexWriter(index, cfg);
         BufferedReader in = reader(new File(dir, "docs.txt"))) {
      for (String line; (line = in.readLine()) != null; docs++) {
        String[] f = line.split("\t");
        Document d = new Document();
        d.add(new StringField("id", f[0], Field.Store.YES));
        d.add(new TextField("title", f[1], Field.Store.YES));
        d.add(new TextField("body", f[2], Field.Store.NO));
        d.add(new IntField("length", f[2].length(), Field.Store.NO));
        w.addDocument(d);
      }
      w.forceMerge(1);
    }
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    try (DirectoryReader r = DirectoryReader.open(index);
         BufferedReader in = reader(new File(dir, "queries.txt"))) {
      out.println(docs + " docs, " + r.numDocs() + " in index, " + r.leaves().size() + " segment");
      IndexSearcher s = new IndexSearcher(r);
      QueryParser parser = new QueryParser("body", analyzer);
      for (String line; (line = in.readLine()) != null; ) {
        Query q = parser.parse(line);
        TopDocs top = s.search(q, 10);
        StringBuilder b = new StringBuilder(line).append(" -> ").append(top.totalHits);
        for (ScoreDoc sd : top.scoreDocs) {
          b.append(' ').append(s.doc(sd.doc).get("id")).append(String.format(":%.4f", sd.score));
        }
        out.println(b);
      }
      Query range = NumericRangeQuery.newIntRange("length", 400, 600, true, true);
      out.println("length 400..600 -> " + s.search(range, 1).totalHits);
    }
    out.flush();
  }

  static BufferedReader reader(File f) throws IOException {
    return new BufferedReader(new InputStreamReader(new FileInputStream(f),
        StandardCharsets.UTF_8));
  }
}
