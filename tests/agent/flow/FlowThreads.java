// Concurrency: 16 workers, each copying between its own objects W times. With "threads" each
// worker runs on its own thread (16 at once); with "single" the first thread runs all 16
// workers' work and the other 15 threads do nothing. Both runs make the same objects and the
// same threads and must give the same copy graph, frequencies included. Expected:
// expected/FlowThreads.{ci,cs}.edges (the @markers name lines).
public class FlowThreads {
  static final int T = 16;
  static final int W = 2000;

  static boolean single;
  static Worker[] workers;

  static final class Box {
    int v;
    Box(int v) { this.v = v; }
  }

  static final class Rec {
    int n;
    long t;
    Object ref;
  }

  static final class Worker implements Runnable {
    final Rec src = new Rec(); // @src
    final Rec dst = new Rec(); // @dst
    final Object[] arr = new Object[4]; // @arr
    int total;

    Worker(int seed) {
      src.n = seed;
      src.t = seed * 3L;
      src.ref = new Box(seed); // @box
    }

    void work() {
      int s = 0;
      for (int i = 0; i < W; i++) {
        dst.n = src.n; // @cn
        dst.t = src.t; // @ct
        dst.ref = src.ref; // @cr
        arr[i & 3] = dst.ref; // @ca
        s += dst.n; // @use
      }
      total = s;
    }

    // Both modes test single and compare with workers[0] in every thread: the same consumptions.
    public void run() {
      boolean first = this == workers[0]; // @first
      if (single) { // @single
        if (first) {
          for (Worker w : workers) {
            w.work();
          }
        }
      } else {
        work();
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    single = args.length > 0 && args[0].equals("single");
    workers = new Worker[T]; // @WA
    Thread[] threads = new Thread[T]; // @TA
    for (int k = 0; k < T; k++) {
      Worker w = new Worker(k); // @Wk
      workers[k] = w; // @WAs
      threads[k] = new Thread(w); // @Th
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    long sum = 0;
    for (Worker w : workers) {
      sum += w.total; // @sum
    }
    System.out.println("sum " + sum);
  }
}
