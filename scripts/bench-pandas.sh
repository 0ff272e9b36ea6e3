#!/usr/bin/env bash
# bench-pandas.sh: score against the seed scripts in pandas and against a
# parse-only encoding/csv pass, interleaved, on one response file (issue 29).
#
# Usage: scripts/bench-pandas.sh FILE [ROUNDS] [BINARY...]
#   (default 3 rounds; default binary build/evalbook, built first if missing)
#
# Each round runs, in this order and each once:
#   python3 scripts/seedref/exact_substring.py --responses FILE
#   python3 scripts/seedref/word_overlap.py --responses FILE --out DIR/pandas.csv
#   csvparse FILE                      (internal/tools/csvparse: encoding/csv, nothing else)
#   BINARY score --responses FILE --metrics exact_substring,word_overlap --out DIR/verdicts-K.csv
#     for each BINARY (K its position)
# measured with GNU time. The pandas figure of a round is the sum of the two
# scripts (the seed README runs both to get both protocols; score computes
# both in one run). It prints every run's wall and CPU time (user + system)
# and peak RSS, then per program the median wall and CPU, and the ratios
# pandas/score and score/csvparse of the medians, in wall and in CPU time.
# The verdict files of all binaries must be byte-identical (exit 1 if not).
# pandas comes from Debian (apt-get install python3-pandas); the scripts use
# /usr/bin/python3 so that a pyenv python without pandas is not picked.
# It is a benchmark, not a test: missing a target does not fail it.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
file=$1 rounds=${2:-3}
shift $(($# >= 2 ? 2 : 1))
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  [ -x build/evalbook ] || go build -o build/evalbook ./report
  bins=(build/evalbook)
fi
py=/usr/bin/python3
command -v /usr/bin/time >/dev/null || { echo "bench-pandas.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
$py -c 'import pandas' 2>/dev/null || { echo "bench-pandas.sh: needs pandas for $py (apt-get install python3-pandas)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/csvparse" ./internal/tools/csvparse
one() { # LABEL COMMAND...
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$dir/t" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
  read -r wall user sys rss <"$dir/t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "$label $wall $cpu $rss" | tee -a "$dir/all"
}
echo "label wall_s cpu_s peak_rss_kb"
for _ in $(seq "$rounds"); do
  one pandas_exact $py scripts/seedref/exact_substring.py --responses "$file"
  one pandas_overlap $py scripts/seedref/word_overlap.py --responses "$file" --out "$dir/pandas.csv"
  one csvparse "$dir/csvparse" "$file"
  for k in "${!bins[@]}"; do
    one "score$k" "${bins[$k]}" score --responses "$file" --metrics exact_substring,word_overlap --out "$dir/verdicts-$k.csv"
  done
done
med() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# The pandas figure of each round: the two scripts' sum.
awk '$1 == "pandas_exact" { w = $2; c = $3 } $1 == "pandas_overlap" { print "pandas", w + $2, c + $3, $4 }' "$dir/all" >>"$dir/all"
labels=(pandas csvparse)
for k in "${!bins[@]}"; do labels+=("score$k"); done
for l in "${labels[@]}"; do
  w=$(awk -v l="$l" '$1 == l { print $2 }' "$dir/all" | med)
  c=$(awk -v l="$l" '$1 == l { print $3 }' "$dir/all" | med)
  r=$(awk -v l="$l" '$1 == l { print $4 }' "$dir/all" | sort -n | tail -1)
  echo "$l: median wall ${w} s, median CPU ${c} s, peak RSS $((r / 1024)) MB"
  echo "$l $w $c" >>"$dir/med"
done
for k in "${!bins[@]}"; do
  awk -v k="score$k" -v b="${bins[$k]}" '{ w[$1] = $2; c[$1] = $3 } END {
    printf "%s (%s): pandas/score %.1fx wall, %.1fx CPU; score/csvparse %.2fx wall, %.2fx CPU\n", k, b,
      w["pandas"] / w[k], c["pandas"] / c[k], w[k] / w["csvparse"], c[k] / c["csvparse"] }' "$dir/med"
done
for k in "${!bins[@]}"; do
  cmp -s "$dir/verdicts-0.csv" "$dir/verdicts-$k.csv" || { echo "verdict files of ${bins[0]} and ${bins[$k]}: DIFFER" >&2; exit 1; }
done
[ ${#bins[@]} -gt 1 ] && echo "verdict files: identical"
exit 0
