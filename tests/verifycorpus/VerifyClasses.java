// Loads and links (and so verifies) a list of classes, printing one line per class:
//   "<binary name>\tOK"  or  "<binary name>\t<Throwable class>: <first line of its message>"
//
// Usage:
//   java [-XX:+UnlockDiagnosticVMOptions -XX:+BytecodeVerificationLocal] [--patch-module M=DIR]
//        --add-modules ALL-SYSTEM VerifyClasses --jdk MODULE LISTFILE
//       Loads every class of LISTFILE (binary names, one a line) with the class loader of
//       MODULE in the boot layer (null, the bootstrap loader, for boot modules).
//   java VerifyClasses --jar JAR[:JAR...] --classes LISTFILE
//       Loads every class of LISTFILE with one URLClassLoader over the jars (in that order:
//       the jar under test first, then its dependencies), whose parent is the platform loader.
//   java VerifyClasses --entries JAR[:JAR...] --classes LISTFILE
//       For the classes of the first jar that --jar cannot check: those whose entry path is
//       not their name (Jython's Lib/x$py.class holds class x$py) and those a parent loader
//       shadows (org.w3c.dom.* in a jar, also in java.xml). Each name N of LISTFILE is the
//       entry N with '.' -> '/' plus ".class"; a loader (parent: a URLClassLoader over all the
//       jars, as in --jar) defines every class entry of the first jar itself, under the name
//       in its bytes, child-first. The outcome line keeps N.
//   java VerifyClasses --isolated DIR LISTFILE
//       Checks renamed copies of the classes of LISTFILE (and of their package mates), read
//       from DIR and defined by a loader of their own (see RenamingLoader): for the java.base
//       classes that HotSpot does not verify when the boot loader defines them (on JDK 17 the
//       subclasses of jdk.internal.reflect.MagicAccessorImpl).
//   java VerifyClasses --stub-sources DIR OUTDIR
//       Writes Java sources of no-op stand-ins for the tools' runtime classes found in DIR
//       (every top-level class under DIR/dragnet/): the same public static methods (those
//       whose types are primitives or java.*), with empty bodies returning 0/false/null, and
//       no static initializer. A patched java.base runs its instrumented code from the first
//       bytecode on, long before the real runtime (shutdown hooks, lambdas) could work there.
//
// Per class: Class.forName(name, false, loader) loads the class without initializing it (no
// static initializer runs, so instrumented code never executes), then getDeclaredMethods()
// links it, which runs the verifier before any reflection object is made; a broken class
// throws VerifyError (or ClassFormatError at load time). Every Throwable is caught per class.
// A class found, but not where it was expected (another module, the platform loader or a
// dependency jar shadowing it) is reported as "NotFromSource: <where>", so that a class
// never actually read from the tested module or jar does not count as verified.
//
// Output lines are flushed one by one, so that a JVM crash loses no finished result; the
// caller can restart after the last class printed.
import java.io.File;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

public final class VerifyClasses {
  private VerifyClasses() {}

  private static void usage() {
    System.err.println("usage: VerifyClasses --jdk MODULE LISTFILE");
    System.err.println("       VerifyClasses --jar JAR[:JAR...] --classes LISTFILE");
    System.err.println("       VerifyClasses --entries JAR[:JAR...] --classes LISTFILE");
    System.err.println("       VerifyClasses --isolated DIR LISTFILE");
    System.err.println("       VerifyClasses --stub-sources DIR OUTDIR");
    System.exit(2);
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--jdk")) {
      jdk(args[1], Paths.get(args[2]));
    } else if (args.length == 4 && args[0].equals("--jar") && args[2].equals("--classes")) {
      jars(args[1], Paths.get(args[3]));
    } else if (args.length == 4 && args[0].equals("--entries") && args[2].equals("--classes")) {
      entries(args[1], Paths.get(args[3]));
    } else if (args.length == 3 && args[0].equals("--isolated")) {
      isolated(Paths.get(args[1]), Paths.get(args[2]));
    } else if (args.length == 3 && args[0].equals("--stub-sources")) {
      stubSources(Paths.get(args[1]), Paths.get(args[2]));
    } else {
      usage();
    }
  }

  private static List<String> names(java.nio.file.Path list) throws IOException {
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
      if (!line.isEmpty()) names.add(line);
    }
    return names;
  }

  private static PrintWriter out() {
    return new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                                                  StandardCharsets.UTF_8), false);
  }

  /**
   * The outcome of Throwable t as "<class>: <first line of message>", on one line. HotSpot's
   * VerifyError details (the "Location:" and "Reason:" lines that follow) are appended in
   * brackets: they name the method and bytecode offset.
   */
  private static String describe(Throwable t) {
    String m = t.getMessage();
    if (m == null) return t.getClass().getName();
    String[] lines = m.split("\n");
    StringBuilder s = new StringBuilder(t.getClass().getName()).append(": ").append(lines[0]);
    String detail = "";
    for (int i = 1; i < lines.length; i++) {
      String l = lines[i].trim();
      if ((l.equals("Location:") || l.equals("Reason:")) && i + 1 < lines.length) {
        detail += (detail.isEmpty() ? "" : "; ") + l + " " + lines[i + 1].trim();
      }
    }
    if (!detail.isEmpty()) s.append(" [").append(detail).append(']');
    return s.toString().replace('\t', ' ').replace('\r', ' ');
  }

  interface Check {
    /** Returns null if the class is where it was expected, else where it came from. */
    String wrongSource(Class<?> c);
  }

  private static void run(List<String> names, ClassLoader loader, Check check) {
    PrintWriter out = out();
    for (String name : names) {
      String result;
      try {
        Class<?> c = Class.forName(name, false, loader);
        c.getDeclaredMethods();  // links: verification happens here
        String wrong = check.wrongSource(c);
        result = wrong == null ? "OK" : "NotFromSource: " + wrong;
      } catch (Throwable t) {
        result = describe(t);
      }
      out.print(name);
      out.print('\t');
      out.print(result);
      out.print('\n');
      out.flush();
    }
    out.flush();
  }

  private static void jdk(String moduleName, java.nio.file.Path list) throws IOException {
    List<String> names = names(list);
    Optional<Module> module = ModuleLayer.boot().findModule(moduleName);
    if (!module.isPresent()) {
      // Not resolved in the boot layer (not an error of any class): every class says so.
      PrintWriter out = out();
      for (String name : names) out.print(name + "\tModuleNotInBootLayer: " + moduleName + "\n");
      out.flush();
      return;
    }
    ClassLoader loader = module.get().getClassLoader();  // null: the bootstrap loader
    run(names, loader, c -> moduleName.equals(c.getModule().getName())
                                ? null : "module " + c.getModule().getName());
  }

  /**
   * Defines renamed copies of the classes of some packages of a directory: a class of
   * package P is defined as P with its first letter replaced by 'x' (jdk.internal.reflect ->
   * xdk.internal.reflect), from its class file with every occurrence of P's internal name
   * replaced likewise. The replacement has the same length, so the class file stays well
   * formed, and it covers the class's own name, its references to its package mates and
   * every descriptor mentioning them. HotSpot refuses a non-boot class whose superclass is
   * in jdk.internal.reflect, and skips verifying boot subclasses of MagicAccessorImpl; the
   * renamed copies are verified like any application class. Every other name is delegated.
   */
  static final class RenamingLoader extends ClassLoader {
    private final java.nio.file.Path dir;
    private final java.util.Map<String, String> packages = new java.util.HashMap<>();  // x.. -> j..

    RenamingLoader(java.nio.file.Path dir, List<String> names) {
      super("verify-corpus-renamed", ClassLoader.getPlatformClassLoader());
      this.dir = dir;
      for (String n : names) {
        String p = n.substring(0, n.lastIndexOf('.') + 1).replace('.', '/');
        packages.put(renamed(p), p);
      }
    }

    static String renamed(String name) { return "x" + name.substring(1); }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      String internal = name.replace('.', '/');
      String pkg = internal.substring(0, internal.lastIndexOf('/') + 1);
      String original = packages.get(pkg);
      if (original == null) return super.loadClass(name, resolve);
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          byte[] b;
          try {
            b = Files.readAllBytes(dir.resolve(original + internal.substring(pkg.length()) + ".class"));
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
          replaceAll(b, original.getBytes(StandardCharsets.UTF_8), pkg.getBytes(StandardCharsets.UTF_8));
          c = defineClass(name, b, 0, b.length);
        }
        if (resolve) resolveClass(c);
        return c;
      }
    }

    private static void replaceAll(byte[] b, byte[] from, byte[] to) {
      outer:
      for (int i = 0; i + from.length <= b.length; i++) {
        for (int j = 0; j < from.length; j++) {
          if (b[i + j] != from[j]) continue outer;
        }
        System.arraycopy(to, 0, b, i, to.length);
      }
    }
  }

  private static void isolated(java.nio.file.Path dir, java.nio.file.Path list) throws IOException {
    List<String> names = names(list);
    ClassLoader loader = new RenamingLoader(dir, names);
    PrintWriter out = out();
    for (String name : names) {
      String result;
      try {
        Class<?> c = Class.forName(RenamingLoader.renamed(name), false, loader);
        c.getDeclaredMethods();  // links: verification happens here
        result = c.getClassLoader() == loader ? "OK" : "NotFromSource: " + c.getClassLoader();
      } catch (Throwable t) {
        result = describe(t);
      }
      out.print(name + "\t" + result + "\n");
      out.flush();
    }
  }

  private static void jars(String path, java.nio.file.Path list) throws IOException {
    List<String> names = names(list);
    String[] jars = path.split(File.pathSeparator);
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) urls[i] = Paths.get(jars[i]).toUri().toURL();
    final URL tested = urls[0];
    URLClassLoader loader =
        new URLClassLoader("verify-corpus", urls, ClassLoader.getPlatformClassLoader());
    run(names, loader, c -> {
      if (c.getClassLoader() != loader) return "loader " + c.getClassLoader();
      CodeSource cs = c.getProtectionDomain().getCodeSource();
      URL from = cs == null ? null : cs.getLocation();
      return tested.equals(from) ? null : "jar " + from;
    });
  }

  /** The binary name of the class in a class file (this_class), or null if unreadable. */
  static String classNameOf(byte[] b) {
    try {
      java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(b));
      if (in.readInt() != 0xCAFEBABE) return null;
      in.readInt();  // minor, major
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classNames = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1: utf8[i] = in.readUTF(); break;
          case 7: classNames[i] = in.readUnsignedShort(); break;
          case 8: case 16: case 19: case 20: in.skipBytes(2); break;
          case 15: in.skipBytes(3); break;
          case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.skipBytes(4); break;
          case 5: case 6: in.skipBytes(8); i++; break;
          default: return null;
        }
      }
      in.readUnsignedShort();  // access flags
      int thisClass = in.readUnsignedShort();
      String n = utf8[classNames[thisClass]];
      return n == null ? null : n.replace('/', '.');
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Defines given jar entries itself (child-first), under the names in their bytes. */
  static final class EntryLoader extends ClassLoader {
    private final java.util.Map<String, byte[]> classes;  // binary name -> class file

    EntryLoader(java.util.Map<String, byte[]> classes, ClassLoader parent) {
      super("verify-corpus-entries", parent);
      this.classes = classes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      byte[] b = classes.get(name);
      if (b == null) return super.loadClass(name, resolve);
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) c = defineClass(name, b, 0, b.length);
        if (resolve) resolveClass(c);
        return c;
      }
    }
  }

  private static void entries(String path, java.nio.file.Path list) throws IOException {
    List<String> names = names(list);
    String[] jars = path.split(File.pathSeparator);
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) urls[i] = Paths.get(jars[i]).toUri().toURL();
    URLClassLoader deps =
        new URLClassLoader("verify-corpus", urls, ClassLoader.getPlatformClassLoader());
    // Every class entry of the jar is defined child-first (so that a package's classes stay
    // together in one runtime package), spread over as many loaders as needed for each loader
    // to hold a name once.
    List<java.util.Map<String, byte[]>> groups = new ArrayList<>();
    java.util.Map<String, String> realName = new java.util.HashMap<>();  // entry -> name
    java.util.Map<String, Integer> groupOf = new java.util.HashMap<>();  // entry -> group
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(jars[0])) {
      for (java.util.Enumeration<java.util.jar.JarEntry> it = jar.entries(); it.hasMoreElements(); ) {
        java.util.jar.JarEntry e = it.nextElement();
        String entry = e.getName();
        if (!entry.endsWith(".class") || entry.startsWith("META-INF/")
            || entry.endsWith("module-info.class")) {
          continue;
        }
        byte[] b;
        try (java.io.InputStream in = jar.getInputStream(e)) {
          b = in.readAllBytes();
        }
        String real = classNameOf(b);
        if (real == null) continue;
        int g = 0;
        while (g < groups.size() && groups.get(g).containsKey(real)) g++;
        if (g == groups.size()) groups.add(new java.util.HashMap<>());
        groups.get(g).put(real, b);
        realName.put(entry, real);
        groupOf.put(entry, g);
      }
    }
    List<ClassLoader> loaders = new ArrayList<>();
    for (java.util.Map<String, byte[]> g : groups) loaders.add(new EntryLoader(g, deps));
    PrintWriter out = out();
    for (String name : names) {
      String result;
      String entry = name.replace('.', '/') + ".class";
      String real = realName.get(entry);
      if (real == null) {
        result = "NoEntry: no readable entry for " + name;
      } else {
        ClassLoader loader = loaders.get(groupOf.get(entry));
        try {
          Class<?> c = Class.forName(real, false, loader);
          c.getDeclaredMethods();  // links: verification happens here
          result = c.getClassLoader() == loader ? "OK" : "NotFromSource: " + c.getClassLoader();
        } catch (Throwable t) {
          result = describe(t);
        }
      }
      out.print(name + "\t" + result + "\n");
      out.flush();
    }
  }

  private static boolean stubbable(Class<?> t) {
    while (t.isArray()) t = t.getComponentType();
    return t.isPrimitive() || t.getName().startsWith("java.");
  }

  private static String defaultValue(Class<?> t) {
    if (t == void.class) return null;
    if (t == boolean.class) return "false";
    if (!t.isPrimitive()) return "null";
    return "(" + t.getName() + ") 0";
  }

  private static void stubSources(java.nio.file.Path dir, java.nio.file.Path outDir)
      throws Exception {
    List<String> names = new ArrayList<>();
    try (java.util.stream.Stream<java.nio.file.Path> files = Files.walk(dir.resolve("dragnet"))) {
      files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
          .forEach(f -> {
            String rel = dir.relativize(f).toString();
            names.add(rel.substring(0, rel.length() - 6).replace(File.separatorChar, '.'));
          });
    }
    URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                                               ClassLoader.getPlatformClassLoader());
    for (String name : names) {
      Class<?> c = Class.forName(name, false, loader);
      int dot = name.lastIndexOf('.');
      StringBuilder src = new StringBuilder();
      src.append("package ").append(name, 0, dot).append(";\n");
      src.append("public final class ").append(name.substring(dot + 1)).append(" {\n");
      for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
        int mod = m.getModifiers();
        if (!java.lang.reflect.Modifier.isPublic(mod) || !java.lang.reflect.Modifier.isStatic(mod)) {
          continue;
        }
        boolean ok = stubbable(m.getReturnType());
        for (Class<?> p : m.getParameterTypes()) ok &= stubbable(p);
        if (!ok) continue;
        src.append("  public static ").append(m.getReturnType().getCanonicalName()).append(' ')
            .append(m.getName()).append('(');
        Class<?>[] ps = m.getParameterTypes();
        for (int i = 0; i < ps.length; i++) {
          src.append(i == 0 ? "" : ", ").append(ps[i].getCanonicalName()).append(" a").append(i);
        }
        String ret = defaultValue(m.getReturnType());
        src.append(") {").append(ret == null ? "" : " return " + ret + ";").append(" }\n");
      }
      src.append("}\n");
      java.nio.file.Path file = outDir.resolve(name.replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.write(file, src.toString().getBytes(StandardCharsets.UTF_8));
      System.out.println(file);
    }
  }
}
