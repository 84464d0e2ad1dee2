import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

// The program of the `dragnet run` process tests (tests/cli/run_*_test.sh): allocates a
// known number of int[3] arrays in allocate(), then
//   RunProbe alloc N        prints "allocated N" and ends;
//   RunProbe wait N DIR     writes its pid to DIR/pid and waits to be stopped by a signal;
//                           its shutdown hook creates DIR/hook, waits for DIR/go if
//                           DIR/hold exists, and prints "stopped".
public class RunProbe {
  static int sink;

  static void allocate(int n) {
    for (int i = 0; i < n; i++) sink += new int[3].length;
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    allocate(n);
    System.out.println("allocated " + n);
    if (args[0].equals("alloc")) return;
    Path dir = Path.of(args[2]);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        Files.createFile(dir.resolve("hook"));
        while (Files.exists(dir.resolve("hold")) && !Files.exists(dir.resolve("go"))) {
          Thread.sleep(10);
        }
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
      System.out.println("stopped");
    }));
    Path tmp = dir.resolve("pid.tmp");
    Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()));
    Files.move(tmp, dir.resolve("pid"), StandardCopyOption.ATOMIC_MOVE);
    while (true) Thread.sleep(1000);
  }
}
