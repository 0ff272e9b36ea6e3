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
# quiet spells fall on every binary and both formats alike. Each run writes to
# a path that does not exist: the previous round's file is removed first,
# outside the timing. (Replacing a file charges the freeing of the old one's
# cached pages to the writer's system time, and a CSV verdict file is four
# times the Parquet one: runs over the files of the round before made the
# ratio look 1-2% better than a first write's.) It prints every
# run's wall time, CPU time (user + system) and peak RSS, then per binary and
# format the median CPU, the median wall and the largest peak RSS, and the
# Parquet/CSV ratio of the median CPU. Each round's own ratio (its Parquet run
# over the CSV run just before it) gives a second figure that the host's
# spells move less: their median, with a 95% interval that assumes nothing of
# their distribution (order statistics: with 21 rounds, the 6th and the 16th
# smallest; 6 rounds at least). The CSV files of all binaries must be
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
  rm -f "$dir/v-$1.$2"
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
  awk -v i="$i" -v bin="${bins[$i]}" '
    $1 == i && $2 == "csv" { c[++nc] = $4 }
    $1 == i && $2 == "parquet" { p[++np] = $4 }
    END {
      n = 0
      for (k = 1; k <= np; k++) if (c[k] > 0) r[++n] = p[k] / c[k]
      for (a = 2; a <= n; a++) { x = r[a]; for (b = a - 1; b >= 1 && r[b] > x; b--) r[b + 1] = r[b]; r[b + 1] = x }
      med = (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
      # the largest k with P(Binomial(n, 1/2) <= k - 1) <= 0.025
      pk = 0.5 ^ n; cdf = 0; k = 0
      for (j = 0; j < n; j++) { cdf += pk; if (cdf > 0.025) break; k = j + 1; pk = pk * (n - j) / (j + 1) }
      if (k >= 1) printf "%s per-round Parquet/CSV: median %.2fx, 95%% interval [%.2f, %.2f] (rounds %d and %d of %d, sorted)\n", bin, med, r[k], r[n - k + 1], k, n - k + 1, n
      else printf "%s per-round Parquet/CSV: median %.2fx over %d rounds (a 95%% interval needs 6)\n", bin, med, n
    }' "$dir/all"
done
for i in "${!bins[@]}"; do
  cmp -s "$dir/v-0.csv" "$dir/v-$i.csv" || { echo "verdict CSV of ${bins[$i]} differs from ${bins[0]}'s" >&2; exit 1; }
  echo "${bins[$i]}: Parquet file $(stat -c %s "$dir/v-$i.parquet") bytes"
done
echo "verdict CSV files: identical"
