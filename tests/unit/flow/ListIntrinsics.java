// Lists the methods a JDK marks @IntrinsicCandidate (the JIT's intrinsics), one
// "owner.name(descriptor)" per line, " static" after static ones, sorted; the data of
// tests/unit/flow/summaries_test.cpp. Needs JDK 24+ (java.lang.classfile) to run; reads any
// JDK 9+ image:
//   /usr/lib/jvm/temurin-25-jdk-amd64/bin/java tests/unit/flow/ListIntrinsics.java JAVA_HOME
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.reflect.AccessFlag;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

public class ListIntrinsics {
  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]);
    FileSystem fs = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home.toString()));
    List<String> out = new ArrayList<>();
    try (var files = Files.walk(fs.getPath("/modules"))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (!p.toString().endsWith(".class")) continue;
        ClassModel c = ClassFile.of().parse(Files.readAllBytes(p));
        for (MethodModel m : c.methods()) {
          if (!marked(m)) continue;
          out.add(c.thisClass().asInternalName() + "." + m.methodName().stringValue()
              + m.methodType().stringValue() + (m.flags().has(AccessFlag.STATIC) ? " static" : ""));
        }
      }
    }
    Collections.sort(out);
    String version = Files.readAllLines(home.resolve("release")).stream()
        .filter(l -> l.startsWith("JAVA_RUNTIME_VERSION=")).findFirst().orElse("?");
    System.out.println("# @IntrinsicCandidate methods of " + version.replace("JAVA_RUNTIME_VERSION=", "")
        + ", listed by");
    System.out.println("#   /usr/lib/jvm/temurin-25-jdk-amd64/bin/java tests/unit/flow/ListIntrinsics.java " + home);
    out.forEach(System.out::println);
  }

  // The annotation is retained in the class file (RuntimeVisibleAnnotations).
  static boolean marked(MethodModel m) {
    return m.findAttribute(java.lang.classfile.Attributes.runtimeVisibleAnnotations())
        .map(a -> a.annotations().stream().anyMatch(an -> an.className().stringValue()
            .equals("Ljdk/internal/vm/annotation/IntrinsicCandidate;")))
        .orElse(false);
  }
}
