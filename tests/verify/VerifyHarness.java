// Links (and so verifies) every class of one or more directories of class files, printing
// one line per class: "<binary name>\tOK" or "<binary name>\t<Throwable class>: <message>".
//
// Usage: java -cp <dir of this class> VerifyHarness DIR... [-- CLASSPATH_DIR...]
// Classes are defined by one loader whose parent is the platform loader, so application
// classes are verified (HotSpot verifies every class not on the boot class path by
// default) and classes of any listed directory, before or after "--", can see each other
// (a name found in several directories comes from the first). Only the classes of the
// directories before "--" are tested; those are found by the name in their bytes, not by
// their file's path (Jython's Lib/x$py.class holds class x$py); class-path directories
// are searched by path, on demand. Class.forName(name, false,
// loader) loads without initializing (no static initializer runs) and getDeclaredMethods()
// forces linking, which runs the verifier; a broken class throws VerifyError there.
import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class VerifyHarness {
  /**
   * Defines the classes of an index (binary name -> class file) of the tested directories,
   * then those found by path in the class-path directories.
   */
  static final class DirectoryLoader extends ClassLoader {
    private final Map<String, Path> files;
    private final List<Path> classpath;

    DirectoryLoader(Map<String, Path> files, List<Path> classpath) {
      super("verify-harness", ClassLoader.getPlatformClassLoader());
      this.files = files;
      this.classpath = classpath;
    }

    private Path find(String name) {
      Path p = files.get(name);
      for (int i = 0; p == null && i < classpath.size(); i++) {
        Path candidate = classpath.get(i).resolve(name.replace('.', '/') + ".class");
        if (Files.isRegularFile(candidate)) p = candidate;
      }
      return p;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      Path p = find(name);
      if (p == null) throw new ClassNotFoundException(name);
      try {
        byte[] bytes = Files.readAllBytes(p);
        return defineClass(name, bytes, 0, bytes.length);
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
    }
  }

  /**
   * The binary name in a class file's this_class. Files are indexed by it, not by their
   * path, because jars may store classes elsewhere (e.g. Jython's Lib/x$py.class is x$py).
   */
  static String className(Path file) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      in.readInt();  // magic
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classNameIndex = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1: utf8[i] = in.readUTF(); break;
          case 7: classNameIndex[i] = in.readUnsignedShort(); break;
          case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
          case 15: in.skipBytes(3); break;
          case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
            in.skipBytes(4);
            break;
          case 5: case 6: in.skipBytes(8); i++; break;
          default: throw new IOException(file + ": constant pool tag " + tag);
        }
      }
      in.readUnsignedShort();  // access_flags
      return utf8[classNameIndex[in.readUnsignedShort()]].replace('/', '.');
    }
  }

  /** Adds the classes under root to index (first one of a name wins); returns their names. */
  static List<String> indexClasses(Path root, Map<String, Path> index) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(p -> p.toString().endsWith(".class")).sorted()
          .collect(Collectors.toList());
    }
    List<String> names = new ArrayList<>();
    for (Path f : files) {
      String name = className(f);
      if (name.equals("module-info") || index.containsKey(name)) continue;
      index.put(name, f);
      names.add(name);
    }
    Collections.sort(names);
    return names;
  }

  static String outcome(String name, ClassLoader loader) {
    try {
      Class<?> c = Class.forName(name, false, loader);
      c.getDeclaredMethods();
      return "OK";
    } catch (Throwable t) {
      String message = String.valueOf(t.getMessage()).replace('\n', ' ').replace('\t', ' ');
      return t.getClass().getName() + ": " + message;
    }
  }

  public static void main(String[] args) throws IOException {
    Map<String, Path> index = new HashMap<>();
    List<String> tested = new ArrayList<>();
    List<Path> classpath = new ArrayList<>();
    boolean classpathOnly = false;
    for (String a : args) {
      if (a.equals("--")) {
        classpathOnly = true;
      } else if (classpathOnly) {
        classpath.add(Paths.get(a));
      } else {
        tested.addAll(indexClasses(Paths.get(a), index));
      }
    }
    DirectoryLoader loader = new DirectoryLoader(index, classpath);
    try (BufferedWriter out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
      for (String name : tested) out.write(name + "\t" + outcome(name, loader) + "\n");
    }
  }
}
