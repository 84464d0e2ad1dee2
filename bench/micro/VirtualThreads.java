// What recording costs per virtual thread (JDK 21+): N short tasks, each on a virtual thread
// of its own (Executors.newVirtualThreadPerTaskExecutor), each allocating one int[8]. Run
// with and without the agent, and with record=off (classes rewritten, nothing recorded):
//   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
//   $J/javac -d /tmp/vthreads bench/micro/VirtualThreads.java
//   /usr/bin/time -f "%e s %M KB" $J/java -cp /tmp/vthreads VirtualThreads 200000
//   /usr/bin/time -f "%e s %M KB" $J/java -agentpath:build/lib/libdragnet.so=quiet=on,out=/tmp/vthreads/v.dragnet -cp /tmp/vthreads VirtualThreads 200000
// docs/PERFORMANCE.md ("Virtual threads") has the figures.
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

public class VirtualThreads {
  static final AtomicLong sum = new AtomicLong();

  static void task(int i) {
    int[] a = new int[8];
    a[i & 7] = i;
    sum.addAndGet(a[i & 7]);
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    long t0 = System.nanoTime();
    try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < n; i++) {
        final int k = i;
        ex.submit(() -> task(k));
      }
    }
    System.out.println(sum.get() + " in " + (System.nanoTime() - t0) / 1000000 + " ms");
  }
}
