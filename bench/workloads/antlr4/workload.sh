# antlr4: the antlr4 4.7.2 tool generates a parser from Mini.g4 (a small C-like language with
# a left-recursive expression rule) at setup; the run parses a generated 550 KB program three
# times with the ANTLR runtime and walks the trees (Debian package antlr4).
setup() {
  rm -rf "$W/gen" && mkdir -p "$W/gen"
  "$JAVA" -cp "$(jars antlr4 antlr4-runtime antlr3-runtime stringtemplate4 treelayout)" \
    org.antlr.v4.Tool -o "$W/gen" -Xexact-output-dir "$HERE/Mini.g4"
  compile "$(jars antlr4-runtime)" "$W"/gen/*.java "$HERE/Driver.java"
  generate Gen.java input.mini 300
}
java_args() {
  CMD=(-cp "$W/classes:$(jars antlr4-runtime)" Driver "$W/input.mini" 3)
}
normalise() {
  cat "$1/stdout"
}
