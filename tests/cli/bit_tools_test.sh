#!/usr/bin/env bash
# The BIT tools on an oracle program whose counts are known by hand, in all three container
# kinds (directory, single class, jar), run under -Xverify:all.
#
# Loop.main, as javac 17 compiles it, has four basic blocks:
#   A  0-3   iconst_0 istore_1 iconst_0 istore_2            4 instructions, runs once
#   B  4-7   iload_2 bipush if_icmpge                       3 instructions, runs 11 times
#   C  10-17 iload_1 iload_2 iadd istore_1 iinc goto        6 instructions, runs 10 times
#   D  20-27 getstatic iload_1 invokevirtual return         4 instructions, runs once
# so icount must report 4 + 33 + 60 + 4 = 101 instructions, and branches must report the
# if_icmpge at offset 7 (line 3) taken once and not taken 10 times.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$tmp/src" "$tmp/classes"
cat >"$tmp/src/Loop.java" <<'JAVA'
public class Loop {
  public static void main(String[] args) {
    int s = 0; for (int i = 0; i < 10; i++) { s += i; }
    System.out.println(s);
  }
}
JAVA
jdk_tool javac --release 17 -d "$tmp/classes" "$tmp/src/Loop.java"
jdk_tool jar --create --file "$tmp/loop.jar" --main-class Loop -C "$tmp/classes" .

run_java() {  # CLASSPATH REPORT
  jdk_tool java -Xverify:all -Ddragnet.report="$2" -cp "$1" Loop >"$tmp/out.txt"
  [[ "$(cat "$tmp/out.txt")" == 45 ]] || fail "program output changed: $(cat "$tmp/out.txt")"
}

check_icount() {  # REPORT
  grep -qx 'total instructions: 101' "$1" || fail "icount total is not 101: $(head -3 "$1")"
  grep -Eq '^ +101 +100\.00%  Loop\.main\(\[Ljava/lang/String;\)V$' "$1" ||
    fail "Loop.main is not listed with 101 instructions"
}

# Directory mode (the runtime classes and the site table go into new subdirectories).
run_dragnet instrument --tool icount "$tmp/classes" -o "$tmp/icount-dir"
expect_status 0
expect_output "$tmp/stdout" '^  methods unchanged: 0$'
[[ -f "$tmp/icount-dir/META-INF/dragnet/icount.sites" ]] || fail "no site table"
run_java "$tmp/icount-dir" "$tmp/icount-dir.txt"
check_icount "$tmp/icount-dir.txt"

# Single class: the runtime goes to the class-path root of the output class.
run_dragnet instrument --tool icount "$tmp/classes/Loop.class" -o "$tmp/icount-one/Loop.class"
expect_status 0
run_java "$tmp/icount-one" "$tmp/icount-one.txt"
check_icount "$tmp/icount-one.txt"

# Jar, with the runtime left out and supplied on the class path instead.
run_dragnet instrument --tool icount --no-runtime "$tmp/loop.jar" -o "$tmp/icount.jar"
expect_status 0
unzip -Z1 "$tmp/icount.jar" | grep -q '^dragnet/' && fail "--no-runtime added runtime classes"
run_java "$tmp/icount.jar:$RUNTIME_JAR" "$tmp/icount-jar.txt"
check_icount "$tmp/icount-jar.txt"

# Branches: the loop condition.
run_dragnet instrument --tool branches "$tmp/loop.jar" -o "$tmp/branches.jar"
expect_status 0
run_java "$tmp/branches.jar" "$tmp/branches.txt"
grep -qx 'branches executed: 1 of 1 instrumented' "$tmp/branches.txt" || fail "branch count"
grep -Eq '^ +1 +10  if_icmpge +7 +3  Loop\.main\(\[Ljava/lang/String;\)V$' "$tmp/branches.txt" ||
  fail "if_icmpge at offset 7 is not reported as taken 1, not taken 10: $(cat "$tmp/branches.txt")"

# Two runs of a deterministic program give the same counts.
run_java "$tmp/icount-dir" "$tmp/icount-again.txt"
cmp "$tmp/icount-dir.txt" "$tmp/icount-again.txt" || fail "two runs gave different reports"
echo "PASS"
