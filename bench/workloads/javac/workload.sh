# javac: compiles a generated tree of 120 classes in 20 packages (generics, lambdas and
# streams, records, inner classes, string switches, cross-package calls) with the running
# JDK's javac (java -m jdk.compiler/com.sun.tools.javac.Main).
setup() {
  rm -rf "$W/src"
  generate Gen.java src 120
}
java_args() {
  CMD=(-m jdk.compiler/com.sun.tools.javac.Main -nowarn -d "$1/classes" -sourcepath "$W/src"
       "@$W/src/sources.txt")
}
normalise() {  # every class file produced, with its checksum
  cat "$1/stdout"
  (cd "$1/classes" && find . -name '*.class' | LC_ALL=C sort | xargs sha256sum)
}
