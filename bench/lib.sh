# Helpers for the workload scripts (bench/workloads/*/workload.sh), sourced by bench/run.
# Set by bench/run: JAVA_HOME, JAVA, JAVAC, W (the workload's work dir), HERE (its sources).

# jars NAME...: the class path of /usr/share/java/NAME.jar, failing if one is missing.
jars() {
  local cp="" name
  for name in "$@"; do
    local jar=/usr/share/java/$name.jar
    [[ -f $jar ]] || { echo "bench: $jar is missing (run scripts/install-deps.sh)" >&2; return 1; }
    cp+=${cp:+:}$jar
  done
  printf '%s\n' "$cp"
}

# generate GEN.java ARGS...: runs a generator (single-file source launch) in $W.
generate() {
  (cd "$W" && "$JAVA" "$HERE/$1" "${@:2}")
}

# compile CLASSPATH SOURCES...: compiles into $W/classes for release 17 (runs on 17 and up).
compile() {
  mkdir -p "$W/classes"
  "$JAVAC" -nowarn --release 17 -encoding UTF-8 -cp "$1" -d "$W/classes" "${@:2}"
}
