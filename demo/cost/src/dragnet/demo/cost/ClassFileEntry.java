package dragnet.demo.cost;

/** One file on the classpath: its directory ("org/acme/p07"), file name and size. */
final class ClassFileEntry {
  final String dir;
  final String name;
  final int size;

  ClassFileEntry(String dir, String name, int size) {
    this.dir = dir;
    this.name = name;
    this.size = size;
  }
}
