#!/usr/bin/env bash
# bench-parquet.sh: what Parquet output costs against CSV output (issue 29: at
# most 1.5x the CPU), for one or more evalbook binaries, interleaved.
#
# Usage: scripts/bench-parquet.sh FILE ROUNDS BINARY [BINARY...]
#
# Each round runs, for each binary in turn,
#   BINARY score --responses FILE --metrics exact_substring,word_overlap --out DIR/v-B.csv
#   BINARY score --responses FILE --metrics exact_substring,word_overlap --out DIR/v-B.parquet
# under GNU time, after one warm-up round, so that the shared host's slow and
# quiet spells fall on every binary and both formats alike. It prints every
# run's wall time, CPU time (user + system) and peak RSS, then per binary and
# format the median CPU, the median wall and the largest peak RSS, and the
# Parquet/CSV ratio of the median CPU. The CSV files of all binaries must be
# byte-identical (exit 1 if not); the Parquet files are listed with their sizes.
# It is a benchmark, not a test: a ratio above 1.5 does not fail it.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
file=$1 rounds=$2
shift 2
bins=("$@")
command -v /usr/bin/time >/dev/null || { echo "bench-parquet.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
one() { # INDEX EXT
  local b=${bins[$1]}
  /usr/bin/time -f "%e %U %S %M" -o "$dir/t" "$b" score --responses "$file" \
    --metrics exact_substring,word_overlap --out "$dir/v-$1.$2" >/dev/null 2>"$dir/err" ||
    { cat "$dir/err" >&2; exit 1; }
  read -r wall user sys rss <"$dir/t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "$1 $2 $wall $cpu $rss" | tee -a "$dir/all"
}
for i in "${!bins[@]}"; do one "$i" csv >/dev/null; one "$i" parquet >/dev/null; done
: >"$dir/all"
echo "binary format wall_s cpu_s peak_rss_kb"
for _ in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do one "$i" csv; one "$i" parquet; done
done
med() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo
for i in "${!bins[@]}"; do
  for x in csv parquet; do
    w=$(awk -v i="$i" -v x=$x '$1 == i && $2 == x { print $3 }' "$dir/all" | med)
    c=$(awk -v i="$i" -v x=$x '$1 == i && $2 == x { print $4 }' "$dir/all" | med)
    r=$(awk -v i="$i" -v x=$x '$1 == i && $2 == x { print $5 }' "$dir/all" | sort -n | tail -1)
    eval "c_$x=\$c"
    printf '%s %-7s median CPU %5.2f s, median wall %5.2f s, peak RSS %4d MB\n' "${bins[$i]}" $x "$c" "$w" $((r / 1024))
  done
  printf '%s Parquet/CSV CPU: %s\n' "${bins[$i]}" "$(awk -v p="$c_parquet" -v c="$c_csv" 'BEGIN { printf "%.2fx", p / c }')"
done
for i in "${!bins[@]}"; do
  cmp -s "$dir/v-0.csv" "$dir/v-$i.csv" || { echo "verdict CSV of ${bins[$i]} differs from ${bins[0]}'s" >&2; exit 1; }
  echo "${bins[$i]}: Parquet file $(stat -c %s "$dir/v-$i.parquet") bytes"
done
echo "verdict CSV files: identical"
