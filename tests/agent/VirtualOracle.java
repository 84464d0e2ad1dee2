import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Virtual threads (JDK 21+; compiled with --release 11, so they are started through
 * reflection): 200 virtual threads each run vwork(k % 10 + 1), 1,100 iterations in all,
 * each allocating an Object in vwork, yielding (the thread unmounts and resumes later) and
 * allocating an int[10] in leafAlloc under it; a platform
 * thread runs vwork(7); one more virtual thread allocates 50 long[3] and then parks for
 * good, so its tree is still live when the VM dies. alloc_oracle_test.cpp checks the counts.
 */
public class VirtualOracle {
  static Object sink;

  static void leafAlloc() {
    sink = new int[10];
  }

  static void vwork(int n) {
    for (int i = 0; i < n; i++) {
      sink = new Object();
      Thread.yield(); // a virtual thread unmounts here and resumes, maybe on another carrier
      leafAlloc();
    }
  }

  static void parked(CountDownLatch ready) {
    for (int i = 0; i < 50; i++) sink = new long[3];
    ready.countDown();
    while (true) LockSupport.park();
  }

  public static void main(String[] args) throws Exception {
    Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
    Thread[] ts = new Thread[200];
    for (int i = 0; i < ts.length; i++) {
      final int k = i;
      ts[i] = (Thread) start.invoke(null, (Runnable) () -> vwork(k % 10 + 1));
    }
    for (Thread t : ts) t.join();
    Thread p = new Thread(() -> vwork(7), "platform");
    p.start();
    p.join();
    CountDownLatch ready = new CountDownLatch(1);
    start.invoke(null, (Runnable) () -> parked(ready));
    ready.await();
    System.out.println("virtual oracle done");
  }
}
