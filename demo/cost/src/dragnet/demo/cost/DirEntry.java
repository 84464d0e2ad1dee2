package dragnet.demo.cost;

/** One file of a directory listing: its index on the classpath, size and name hash. */
final class DirEntry {
  final int index;
  final int size;
  final int nameHash;

  DirEntry(int index, ClassFileEntry file) {
    this.index = index;
    this.size = file.size;
    int h = 0;
    String name = file.name;
    for (int i = 0; i < name.length(); i++) {
      h = 31 * h + name.charAt(i);
    }
    this.nameHash = h;
  }
}
