# Sourced by the tests' shell scripts: `newest_jdk` prints the home of the newest JDK newer
# than 17 under /usr/lib/jvm (by its release file), or DRAGNET_NEWEST_JDK when set (a JDK
# home, or "none"); nothing when there is none. (tests/agent/newest_jdk.h looks the same way.)
newest_jdk() {
  if [[ -n "${DRAGNET_NEWEST_JDK:-}" ]]; then
    echo "$DRAGNET_NEWEST_JDK"
    return
  fi
  local best=17 found= home v
  for home in /usr/lib/jvm/*/; do
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null || true)
    if [[ -n "$v" && "$v" -gt "$best" && -x "$home/bin/java" ]]; then best=$v; found=${home%/}; fi
  done
  echo "$found"
}
