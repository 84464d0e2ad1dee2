// The per-thread views and the allocation-rate series (thread_rate_oracle_test.cpp): two
// named threads allocate known arrays, and a third allocates in two phases with a pause
// between them (-Doracle.pause ms, 4000 by default): 40 long[12,500], then 20 int[25,000].
public class ThreadRateOracle {
  static volatile Object sink;  // keeps every array allocated (sampling sees real allocations)

  static final class Worker extends Thread {
    private final int n, size;

    Worker(String name, int n, int size) {
      super(name);
      this.n = n;
      this.size = size;
    }

    @Override
    public void run() {
      for (int i = 0; i < n; i++) sink = new byte[size];
    }
  }

  static final class Phases extends Thread {
    Phases() {
      super("oracle-phases");
    }

    @Override
    public void run() {
      for (int i = 0; i < 40; i++) sink = new long[12_500];
      try {
        Thread.sleep(Long.getLong("oracle.pause", 4000));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      for (int i = 0; i < 20; i++) sink = new int[25_000];
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Thread[] threads = {new Worker("oracle-alpha", 300, 10_000),
                        new Worker("oracle-beta", 200, 8_000), new Phases()};
    for (Thread t : threads) t.start();
    for (Thread t : threads) t.join();
    System.out.println("oracle done");
  }
}
