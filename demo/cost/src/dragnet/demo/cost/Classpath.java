package dragnet.demo.cost;

import java.util.ArrayList;
import java.util.List;

/** The files of a classpath in the order a directory walk found them (not grouped). */
final class Classpath {
  static final int PACKAGES = 32;
  static final int TYPES = 40;

  /** Directories ("org/acme/p00" ...), simple class names and class file names, made once. */
  static final String[] PACKAGE_PATHS = new String[PACKAGES + 8];
  static final String[] TYPE_NAMES = new String[TYPES];
  static final String[] CLASS_FILES = new String[TYPES];

  private static final String[] PREFIXES = {
    "Abstract", "Default", "Concurrent", "Buffered", "Remote", "Cached", "Simple", "Composite"
  };
  private static final String[] SUFFIXES = {
    "RequestHandler", "ConnectionPool", "EventListener", "ResourceLoader", "ConfigParser"
  };

  static {
    for (int p = 0; p < PACKAGE_PATHS.length; p++) {
      PACKAGE_PATHS[p] = String.format("org/acme/p%02d", p);
    }
    for (int t = 0; t < TYPES; t++) {
      TYPE_NAMES[t] = PREFIXES[t % PREFIXES.length].concat(SUFFIXES[t / PREFIXES.length]);
      CLASS_FILES[t] = TYPE_NAMES[t].concat(".class");
    }
  }

  final ClassFileEntry[] files;

  private Classpath(ClassFileEntry[] files) {
    this.files = files;
  }

  /** PACKAGES packages of up to TYPES classes each plus one resource, interleaved. */
  static Classpath generate() {
    List<ClassFileEntry> files = new ArrayList<>();
    long seed = 7;
    for (int t = 0; t <= TYPES; t++) {
      for (int p = 0; p < PACKAGES; p++) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        int size = 200 + (int) ((seed >>> 33) % 9000);
        if (t == TYPES) {
          files.add(new ClassFileEntry(PACKAGE_PATHS[p], "messages.properties", size));
        } else if ((p * 7 + t) % 5 != 0) {
          files.add(new ClassFileEntry(PACKAGE_PATHS[p], CLASS_FILES[t], size));
        }
      }
    }
    return new Classpath(files.toArray(new ClassFileEntry[0]));
  }

  /** The file {@code dir/fileName}, or null. */
  ClassFileEntry find(String dir, String fileName) {
    for (ClassFileEntry f : files) {
      if (f.dir.equals(dir) && f.name.equals(fileName)) {
        return f;
      }
    }
    return null;
  }

  // PLANTED (Fig. 14 of Xu et al.): isPackage asks a yes/no question by building the
  // directory's whole listing, a DirEntry per file, and testing the list for null.
  boolean isPackage(String dir) {
    return directoryList(dir) != null;
  }

  /** The listing of {@code dir}, or null when it has no files. */
  List<DirEntry> directoryList(String dir) {
    List<DirEntry> ret = new ArrayList<>();
    for (int i = 0; i < files.length; i++) {
      if (files[i].dir.equals(dir)) {
        ret.add(new DirEntry(i, files[i]));
      }
    }
    return ret.isEmpty() ? null : ret;
  }

  /** The fix: the same answer, returning at the first file of {@code dir}. */
  boolean hasPackage(String dir) {
    for (ClassFileEntry f : files) {
      if (f.dir.equals(dir)) {
        return true;
      }
    }
    return false;
  }
}
