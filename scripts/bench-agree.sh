#!/usr/bin/env bash
# bench-agree.sh: wall time, CPU time and peak RSS of `evalbook agree` at scale.
#
# Usage: scripts/bench-agree.sh [ROUNDS] [BINARY...]
#   (default 5 rounds, run from the repository's root; with no BINARY it builds
#   ./report as evalbook into a temporary directory. Several binaries (say the
#   old one and the new) are run interleaved, round by round, so that the shared
#   host's slow and quiet spells fall on all alike.)
#
# It generates the files with internal/tools/genlabels (the same bytes every time):
#   pairs     1M items x 2 raters, 5 labels, 80% agreement (17 MB)
#   units-N   N units x 3 raters, 90% agreement, 5% missing, N = 250k, 500k, 1M, 2M
#   big-S-C   1,000 pairs whose first row's field C (id or r1) is S MiB (15, 50)
#   tiny      two rows
# and runs each case with `--id id` (--raters r1,r2 or r1,r2,r3), output to md5sum:
#   kappa-1M        pairs, default interval (10,000 resamples)
#   kappa-1M-point  pairs, --resamples 1 (the point estimate; one resample is the least)
#   alpha-N         units-N, default interval; alpha-1M-point with --resamples 1
#   big-S-C         the big-field files, default interval
#   tiny            the baseline: what the binary costs before it reads anything
# For each case and binary it prints the median wall s, the median CPU s (user +
# system) and the median peak RSS (GNU time %M), and the RSS above the tiny file's
# median. A benchmark, not a test: it fails only if a run fails, or if the binaries'
# outputs differ.
set -euo pipefail
rounds=${1:-5}
shift || true
command -v /usr/bin/time >/dev/null || { echo "bench-agree.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$dir/evalbook" ./report
  bins=("$dir/evalbook")
fi
gen() { go run ./internal/tools/genlabels -seed 1 "$@"; }
gen -rows 1000000 -out "$dir/pairs.csv"
for n in 250000 500000 1000000 2000000; do
  gen -rows $n -raters 3 -agree 0.9 -missing 0.05 -out "$dir/units-$n.csv"
done
for s in 15 50; do
  for c in id r1; do gen -rows 1000 -big $((s << 20)) -big-column $c -out "$dir/big-$s-$c.csv"; done
done
printf 'id,r1,r2\na,x,y\nb,x,x\n' >"$dir/tiny.csv"

cases=(
  "tiny|tiny.csv|r1,r2|"
  "kappa-1M|pairs.csv|r1,r2|"
  "kappa-1M-point|pairs.csv|r1,r2|--resamples 1"
  "alpha-250k|units-250000.csv|r1,r2,r3|"
  "alpha-500k|units-500000.csv|r1,r2,r3|"
  "alpha-1M|units-1000000.csv|r1,r2,r3|"
  "alpha-1M-point|units-1000000.csv|r1,r2,r3|--resamples 1"
  "alpha-2M|units-2000000.csv|r1,r2,r3|"
  "big-15-id|big-15-id.csv|r1,r2|"
  "big-50-id|big-50-id.csv|r1,r2|"
  "big-15-r1|big-15-r1.csv|r1,r2|"
  "big-50-r1|big-50-r1.csv|r1,r2|"
)
echo "uptime before: $(uptime)"
for round in $(seq "$rounds"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name file raters extra <<<"$c"
    for b in "${!bins[@]}"; do
      # shellcheck disable=SC2086 # $extra is flags
      # The output goes to md5sum, not to a file: with a 50 MiB label every
      # row of the disagreements is padded to its width (gigabytes).
      /usr/bin/time -f "%e %U %S %M" -o "$dir/t" "${bins[$b]}" agree --labels "$dir/$file" --raters "$raters" --id id $extra \
        2>"$dir/err" | md5sum >"$dir/out-$b" || { cat "$dir/err" >&2; exit 1; }
      read -r wall user sys rss <"$dir/t"
      echo "$name $b $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $rss" >>"$dir/all"
      if [ "$b" -gt 0 ] && [ "$round" -eq 1 ] && ! cmp -s "$dir/out-0" "$dir/out-$b"; then
        echo "bench-agree.sh: $name: ${bins[$b]} and ${bins[0]} print different outputs" >&2
        exit 1
      fi
    done
  done
done
echo "uptime after: $(uptime)"
echo "median of $rounds rounds; RSS above: minus the tiny file's median RSS for the same binary"
printf '%-16s %-4s %8s %8s %12s %12s\n' case bin wall_s cpu_s rss_MB above_MB
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for b in "${!bins[@]}"; do
  base=$(awk -v b="$b" '$1 == "tiny" && $2 == b { print $5 }' "$dir/all" | median)
  for c in "${cases[@]}"; do
    name=${c%%|*}
    sel() { awk -v n="$name" -v b="$b" -v f="$1" '$1 == n && $2 == b { print $f }' "$dir/all" | median; }
    rss=$(sel 5)
    printf '%-16s %-4s %8.2f %8.2f %12.1f %12.1f\n' "$name" "$b" "$(sel 3)" "$(sel 4)" \
      "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')" "$(awk -v r="$rss" -v t="$base" 'BEGIN { print (r - t) / 1024 }')"
  done
done
