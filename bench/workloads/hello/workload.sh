# hello: prints one line; bench/run uses it for the start-up cost of the agent (not part of
# the suite's geometric mean).
setup() {
  compile "" "$HERE/Hello.java"
}
java_args() {
  CMD=(-cp "$W/classes" Hello)
}
normalise() {
  cat "$1/stdout"
}
