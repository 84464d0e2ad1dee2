#!/usr/bin/env bash
# bench/summary.sh RESULTS.tsv: the summary of a bench/run results file (bench/run prints it
# at the end of a run): median wall and CPU seconds per workload and mode, ratios to the run
# without the agent and their geometric mean per mode, peak RSS, profile sizes, start-up.
# Exit status 1 when a run failed or changed the output.
set -uo pipefail
tsv=${1:?usage: bench/summary.sh RESULTS.tsv}
[[ -f $tsv ]] || { echo "bench/summary.sh: no file $tsv" >&2; exit 2; }

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%.15g\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# col WORKLOAD MODE COLUMN: the values of one .tsv column over the good rounds (rep > 0)
col() { awk -F'\t' -v w="$1" -v m="$2" -v c="$3" '$1 == w && $2 == m && $3 > 0 && $8 == "ok" { print $c }' "$tsv"; }
statuses() { awk -F'\t' -v w="$1" -v m="$2" '$1 == w && $2 == m && $3 > 0 && $8 != "ok" { print $8 }' "$tsv" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? "," : ""), $2, $1 }'; }
# table COLUMN UNIT: median per workload and mode, ratio to base, geometric mean of the ratios
table() {
  local header w m base med bad row
  header=$(printf '%-9s %8s' workload base)
  for m in "${ml[@]}"; do header+=$(printf ' %11s %7s' "$m" ratio); done
  echo "$header"
  local -A logsum=() count=()
  for w in "${wl[@]}"; do
    base=$(col "$w" base "$1" | median)
    row=$(printf '%-9s %8s' "$w" "$([[ -n $base ]] && printf '%.2f' "$base" || echo -)")
    for m in "${ml[@]}"; do
      med=$(col "$w" "$m" "$1" | median) bad=$(statuses "$w" "$m")
      if [[ -n $med && -n $base ]]; then
        row+=$(awk -v a="$med" -v b="$base" 'BEGIN { printf " %11.2f %6.2fx", a, a / b }')
        logsum[$m]=$(awk -v s="${logsum[$m]:-0}" -v a="$med" -v b="$base" 'BEGIN { print s + log(a / b) }')
        count[$m]=$((${count[$m]:-0} + 1))
      else
        row+=$(printf ' %11s %7s' "$(echo "${bad:-none}" | cut -d" " -f1)" "")
      fi
      [[ -n $bad && -n $med ]] && row+=" ($bad)"
    done
    echo "$row"
  done
  row=$(printf '%-9s %8s' geomean "")
  for m in "${ml[@]}"; do
    if ((${count[$m]:-0})); then
      row+=$(awk -v s="${logsum[$m]}" -v n="${count[$m]}" 'BEGIN { printf " %11s %6.2fx", "", exp(s / n) }')
    else
      row+=$(printf ' %11s %7s' - -)
    fi
  done
  echo "$row"
}
summary() {
  local w m rss prof row base med ctx heap
  sed -n 's/^# //p' "$tsv"
  echo
  echo "median wall seconds; xN = ratio to base"
  table 4
  echo
  echo "median CPU seconds (user + sys, all threads; less sensitive to other load)"
  table 5
  echo
  echo "peak RSS, MB (median; /usr/bin/time %M of the JVM) and profile size, MB (median)"
  row=$(printf '%-9s %8s' workload base)
  for m in "${ml[@]}"; do row+=$(printf ' %11s %7s' "$m" profile); done
  echo "$row"
  for w in "${wl[@]}" $( ((startup)) && echo hello); do
    rss=$(col "$w" base 6 | median)
    row=$(printf '%-9s %8s' "$w" "$(awk -v k="${rss:-0}" 'BEGIN { printf "%.0f", k / 1024 }')")
    for m in "${ml[@]}"; do
      rss=$(col "$w" "$m" 6 | median) prof=$(col "$w" "$m" 9 | median)
      if [[ -n $rss ]]; then
        row+=$(awk -v k="$rss" -v p="${prof:-0}" 'BEGIN { printf " %11.0f %7.1f", k / 1024, p / 1048576 }')
      else
        row+=$(printf ' %11s %7s' - -)
      fi
    done
    echo "$row"
  done
  if awk -F'\t' '$11 ~ /^[0-9]+$/ { f = 1 } END { exit !f }' "$tsv"; then
    echo
    echo "the agent's calling-context trees (median): contexts, and MB of Java heap they hold"
    row=$(printf '%-9s' workload)
    for m in "${ml[@]}"; do row+=$(printf ' %11s %7s' "$m" heap); done
    echo "$row"
    for w in "${wl[@]}"; do
      row=$(printf '%-9s' "$w")
      for m in "${ml[@]}"; do
        ctx=$(col "$w" "$m" 11 | median) heap=$(col "$w" "$m" 12 | median)
        row+=$(awk -v c="${ctx:--}" -v h="${heap:--}" 'BEGIN { printf " %11s %7s", c, (h == "-" ? h : sprintf("%.1f", h / 1048576)) }')
      done
      echo "$row"
    done
  fi
  if ((startup)); then
    echo
    base=$(col hello base 4 | median)
    row="start-up (hello world, median of $(col hello base 4 | wc -l)): base $(awk -v b="$base" 'BEGIN { printf "%.0f", b * 1000 }') ms"
    for m in "${ml[@]}"; do
      med=$(col hello "$m" 4 | median)
      [[ -n $med ]] && row+=$(awk -v a="$med" -v b="$base" -v m="$m" 'BEGIN { printf ", %s %.0f ms (+%.0f ms)", m, a * 1000, (a - b) * 1000 }')
    done
    echo "$row"
  fi
  if awk -F'\t' '$3 ~ /^[1-9][0-9]*$/ && $8 != "ok" && $8 != "unsupported" { bad = 1 } END { exit !bad }' "$tsv"; then
    echo "FAILURES: some runs failed or changed the output (MISMATCH); see $tsv"
    return 1
  fi
}


mapfile -t wl < <(awk -F'\t' '!/^#/ && $1 != "workload" && $1 != "hello" && !seen[$1]++ { print $1 }' "$tsv")
mapfile -t ml < <(awk -F'\t' '!/^#/ && $2 != "mode" && $2 != "base" && !seen[$2]++ { print $2 }' "$tsv")
startup=$(awk -F'\t' '$1 == "hello" && $3 > 0 { n = 1 } END { print n + 0 }' "$tsv")
summary
