#!/usr/bin/env bash
# bench-score.sh: the end-to-end scoring benchmark of issue 2.
#
# Usage: scripts/bench-score.sh [--runs N] [--rows N] [--seed S]
#   (defaults: 5 runs, 1,000,000 rows, seed 1; run from anywhere in the repo)
#
# Builds build/evalbook, generates build/bench/responses-ROWS-sSEED.csv with
# internal/tools/genresponses if it is not there yet (1,000,000 rows is about
# 215 MB, mixed English, Hindi and Bengali), then runs
#
#   build/evalbook score --responses FILE --metrics exact_substring,word_overlap \
#     --out build/bench/verdicts.csv
#
# once to warm the page cache and N times measured with GNU time (/usr/bin/time -v,
# installed from apt if missing). It prints each run's wall time, CPU time and
# peak RSS, then the median wall time and the largest peak RSS, against the
# targets of issue 2 (1 s median wall, 64 MB peak memory on 2 cores).
# It is a benchmark, not a test: missing the targets does not fail it; a
# failing or inconsistent run (wrong number of verdict rows) does.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
  PATH=/usr/local/go/bin:$PATH
fi

runs=5
rows=1000000
seed=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-score.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$runs" "$rows" "$seed"; do
  case $v in '' | *[!0-9]*) echo "bench-score.sh: --runs, --rows and --seed take non-negative integers" >&2; exit 2 ;; esac
done
[ "$runs" -ge 1 ] || { echo "bench-score.sh: --runs must be at least 1" >&2; exit 2; }

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time from apt"
  sudo_=""
  [ "$(id -u)" -eq 0 ] || sudo_=sudo
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -q --no-install-recommends time ||
    { $sudo_ apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -q --no-install-recommends time; }
fi

dir=build/bench
mkdir -p "$dir"
echo "building build/evalbook"
go build -o build/evalbook ./report

data=$dir/responses-$rows-s$seed.csv
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
if [ -s "$data" ]; then
  echo "using $data ($(size_mb "$data"))"
else
  echo "generating $data ($rows rows, seed $seed)"
  go run ./internal/tools/genresponses -rows "$rows" -seed "$seed" -out "$data"
  echo "generated $data ($(size_mb "$data"))"
fi

verdicts=$dir/verdicts.csv
# shellcheck disable=SC2054 # the comma separates metric ids, not array elements
cmd=(build/evalbook score --responses "$data" --metrics exact_substring,word_overlap --out "$verdicts")
echo "command: ${cmd[*]}"

# measure N: one run under GNU time; sets wall (s), cpu (s) and rss (KB).
measure() {
  local t=$dir/time-$1.txt
  if ! /usr/bin/time -v -o "$t" "${cmd[@]}" >"$dir/score-$1.stdout" 2>"$dir/score-$1.stderr"; then
    echo "run $1 failed:"
    sed 's/^/  /' "$dir/score-$1.stderr" | tail -n 20
    exit 1
  fi
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$t")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$t")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$t")
}

measure warmup
# The verdict file has the header plus one line per input row, unless a
# field holds a newline (genresponses never writes one).
want=$(wc -l <"$data")
got=$(wc -l <"$verdicts")
if [ "$got" != "$want" ]; then
  echo "verdict file has $got lines, input has $want: the run is not complete"
  exit 1
fi
# GNU time reports RSS in KiB; print MB (10^6 bytes) like the targets.
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
echo "warm-up: ${wall}s wall, ${cpu}s CPU, $(mb "$rss") MB peak RSS; $((got - 1)) verdict rows"

walls=()
max_rss=0
for i in $(seq 1 "$runs"); do
  measure "$i"
  walls+=("$wall")
  [ "$rss" -gt "$max_rss" ] && max_rss=$rss
  printf 'run %d: %6.2fs wall  %6.2fs CPU  %6s MB peak RSS\n' "$i" "$wall" "$cpu" "$(mb "$rss")"
done

median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
max_mb=$(mb "$max_rss")
echo
echo "median wall: ${median}s over $runs runs (target <= 1 s)"
echo "max peak RSS: ${max_mb} MB (target <= 64 MB)"
awk -v m="$median" -v r="$max_rss" 'BEGIN {
  printf "targets: wall %s, memory %s\n", (m <= 1 ? "met" : "MISSED"), (r * 1024 <= 64e6 ? "met" : "MISSED")
}'
