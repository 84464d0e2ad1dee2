package java.lang;

// Compile-time stand-in for java.lang.Thread: the agent adds the field below to the real
// Thread when the JVM loads it (src/analyses/alloc/thread_field.cpp), so the runtime
// helper can reach its per-thread state in one field load. Never packaged or embedded.
public class Thread {
  public DragnetState dragnet$state;
  public long dragnet$stackLo, dragnet$stackHi;
  public boolean dragnet$clonePending;

  private Thread() {}

  public static native Thread currentThread();
}
