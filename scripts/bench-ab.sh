#!/usr/bin/env bash
# bench-ab.sh: time two evalbook binaries on the same scoring run, interleaved,
# so that the shared host's slow and quiet spells fall on both alike.
#
# Usage: scripts/bench-ab.sh OLD_BINARY NEW_BINARY FILE [ROUNDS]
#   (default 7 rounds; each round runs OLD then NEW once, after one warm-up run each)
#
# Each run is
#   BINARY score --responses FILE --metrics exact_substring,word_overlap --out DIR/verdicts-X.csv
# measured with GNU time. It prints every run's wall time, CPU time (user + system)
# and peak RSS, then per binary the median wall, the median CPU and the largest
# RSS, and checks that the two verdict files are byte-identical (exit 1 if not).
# It is a benchmark, not a test: a slower NEW does not fail it.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
old=$1 new=$2 file=$3 rounds=${4:-7}
command -v /usr/bin/time >/dev/null || { echo "bench-ab.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
one() { # LABEL BINARY
  /usr/bin/time -f "%e %U %S %M" -o "$dir/t" "$2" score --responses "$file" \
    --metrics exact_substring,word_overlap --out "$dir/verdicts-$1.csv" >/dev/null 2>"$dir/err" ||
    { cat "$dir/err" >&2; exit 1; }
  read -r wall user sys rss <"$dir/t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "$1 $wall $cpu $rss" | tee -a "$dir/all"
}
one old "$old" >/dev/null; one new "$new" >/dev/null; : >"$dir/all"
echo "label wall_s cpu_s peak_rss_kb"
for _ in $(seq "$rounds"); do one old "$old"; one new "$new"; done
med() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for l in old new; do
  w=$(awk -v l=$l '$1 == l { print $2 }' "$dir/all" | med)
  c=$(awk -v l=$l '$1 == l { print $3 }' "$dir/all" | med)
  r=$(awk -v l=$l '$1 == l { print $4 }' "$dir/all" | sort -n | tail -1)
  echo "$l: median wall ${w} s, median CPU ${c} s, peak RSS $((r / 1024)) MB"
done
if cmp -s "$dir/verdicts-old.csv" "$dir/verdicts-new.csv"; then
  echo "verdict files: identical"
else
  echo "verdict files: DIFFER" >&2; exit 1
fi
