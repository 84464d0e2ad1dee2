# jython: runs a generated Python script on Jython 2.7.3 (Debian package jython): 150
# generated functions compiled to JVM bytecode at run time, a word count with re, a
# stack-machine interpreter, an object simulation, json and sorting.
setup() {
  generate Gen.java work.py 150 60
}
java_args() {
  CMD=(-Dpython.cachedir.skip=true -jar "$(jars jython)" "$W/work.py")
}
normalise() {
  cat "$1/stdout"
}
