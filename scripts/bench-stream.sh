#!/usr/bin/env bash
# bench-stream.sh: peak memory of the commands that stream (issue 29 item 5),
# two binaries side by side.
#
# Usage: scripts/bench-stream.sh OLD_BINARY NEW_BINARY [--only PATTERN] [--keep DIR]
#   (run from anywhere in the repo; the data is generated into a temporary
#   folder, or DIR with --keep, where it is reused when present)
#
# Data (generated with internal/tools, the same bytes every time):
#   lm        an lm-eval output of 330,000 samples (genlmeval; 347 MB)
#   lm2       the same samples shuffled, acc and acc_norm swapped (another
#             run of the same documents in another order, 49% flipped)
#   v1, v2s   verdict files of 1M rows (genresponses seeds 1 and 2, scored by
#             OLD with exact_substring; v2s shuffled), 221 MB each
#   lb/       20 response files x 50,000 rows (genresponses seeds 1-20), m01_hi.csv ...
#   lbh/      two harness outputs: lm and lm2 again (hard links)
#   pairs     1M items x 2 raters (genlabels); units 1M x 3 raters, 10% missing
#   r10k      10,000 responses (genresponses seed 3)
# Cases, each run once per binary under GNU time (peak RSS does not depend on load):
#   import-summary            import lm (the per-task summary)
#   import-record             import lm --record --store a new store
#   import-csv|jsonl|parquet  import lm --out rows.EXT
#   compare-1M                compare --old v1 --new v2s --metric exact_substring --json
#   compare-lmeval            compare lm lm2 --json (two harness outputs, paired by doc_hash)
#   leaderboard-1M            leaderboard --dir lb --json
#   leaderboard-lmeval        leaderboard --dir lbh --json (two lm-eval runs of 330,000 samples)
#   agree-kappa-json          agree --labels pairs --raters r1,r2 --id id --json
#   alpha-1Mx3-json           agree --labels units --raters r1,r2,r3 --id id --metric alpha --level ordinal --json
#   store-rerun               score --responses r10k --record into a new store 11 times: bytes a row
#                             of the 10 reruns ((size after 11 - size after 1) / 100,000)
# It prints wall s, CPU s and peak RSS MB per case and binary, and whether the
# outputs are identical (Parquet files are compared by size: their footers'
# statistics order varies run to run). A benchmark, not a test: it fails only if
# a run fails.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
shift 2
only="" keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --only) only=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "bench-stream.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "bench-stream.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -n "$keep" ]; then
  mkdir -p "$keep"; d=$(realpath "$keep")
else
  d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fi
go build -o "$d/genr" ./internal/tools/genresponses
go build -o "$d/genl" ./internal/tools/genlabels
go build -o "$d/genlm" ./internal/tools/genlmeval
[ -d "$d/lm" ] || "$d/genlm" -rows 330000 -out "$d/lm"
if [ ! -d "$d/lm2" ]; then
  mkdir -p "$d/lm2/bench__model2"
  cp "$d"/lm/bench__model/results_*.json "$d/lm2/bench__model2/"
  shuf --random-source=<(yes) "$d"/lm/bench__model/samples_*.jsonl |
    sed -E 's/"acc": ([0-9.]+), "acc_norm": ([0-9.]+)\}$/"acc": \2, "acc_norm": \1}/' \
      >"$d/lm2/bench__model2/samples_mmlu_hi_2026-12-01T10-00-00.000000.jsonl"
fi
if [ ! -f "$d/v2s.csv" ]; then
  "$d/genr" -rows 1000000 -seed 1 -out "$d/r1.csv"
  "$d/genr" -rows 1000000 -seed 2 -out "$d/r2.csv"
  "$old" score --responses "$d/r1.csv" --metrics exact_substring --out "$d/v1.csv" 2>/dev/null
  "$old" score --responses "$d/r2.csv" --metrics exact_substring --out "$d/v2.csv" 2>/dev/null
  { head -1 "$d/v2.csv"; tail -n +2 "$d/v2.csv" | shuf --random-source=<(yes); } >"$d/v2s.csv"
  rm -f "$d/r1.csv" "$d/r2.csv" "$d/v2.csv"
fi
if [ ! -d "$d/lb" ]; then
  mkdir -p "$d/lb"
  for i in $(seq -w 1 20); do "$d/genr" -rows 50000 -seed $((10#$i)) -out "$d/lb/m${i}_hi.csv"; done
fi
if [ ! -d "$d/lbh" ]; then
  mkdir -p "$d/lbh/run-a/bench__model" "$d/lbh/run-b/bench__model2"
  ln "$d"/lm/bench__model/* "$d/lbh/run-a/bench__model/"
  ln "$d"/lm2/bench__model2/* "$d/lbh/run-b/bench__model2/"
fi
[ -f "$d/pairs.csv" ] || "$d/genl" -seed 1 -rows 1000000 -out "$d/pairs.csv"
[ -f "$d/units.csv" ] || "$d/genl" -seed 1 -rows 1000000 -raters 3 -agree 0.9 -missing 0.1 -out "$d/units.csv"
[ -f "$d/r10k.csv" ] || "$d/genr" -rows 10000 -seed 3 -out "$d/r10k.csv"

cases=(
  "import-summary|import $d/lm"
  "import-record|import $d/lm --record --store OUT/store.db"
  "import-csv|import $d/lm --out OUT/rows.csv"
  "import-jsonl|import $d/lm --out OUT/rows.jsonl"
  "import-parquet|import $d/lm --out OUT/rows.parquet"
  "compare-1M|compare --old $d/v1.csv --new $d/v2s.csv --metric exact_substring --json"
  "compare-lmeval|compare $d/lm $d/lm2 --json"
  "leaderboard-1M|leaderboard --dir $d/lb --json"
  "leaderboard-lmeval|leaderboard --dir $d/lbh --json"
  "agree-kappa-json|agree --labels $d/pairs.csv --raters r1,r2 --id id --json"
  "alpha-1Mx3-json|agree --labels $d/units.csv --raters r1,r2,r3 --id id --metric alpha --level ordinal --json"
)
printf '%-18s %-4s %8s %8s %9s  %s\n' case bin wall_s cpu_s rss_MB output
for c in "${cases[@]}"; do
  name=${c%%|*} args=${c#*|}
  [ -z "$only" ] || [[ $name == *$only* ]] || continue
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    out=$d/out-$b; rm -rf "$out"; mkdir -p "$out"
    # shellcheck disable=SC2086 # args are words
    /usr/bin/time -f "%e %U %S %M" -o "$d/t" "$bin" ${args//OUT/$out} >"$out/stdout" 2>"$d/err" ||
      { cat "$d/err" >&2; exit 1; }
    sed -i "s#$out#OUT#g" "$out/stdout"
    read -r wall user sys rss <"$d/t"
    same=""
    if [ $b = new ]; then
      same=identical
      for f in "$d/out-old"/*; do
        g=$d/out-new/$(basename "$f")
        case $f in
          *.parquet) [ "$(stat -c %s "$f")" = "$(stat -c %s "$g")" ] || same=DIFFER ;;
          *.db | *.db-*) ;; # a store differs in its times and layout: compared by the tests
          *) cmp -s "$f" "$g" || same=DIFFER ;;
        esac
      done
    fi
    printf '%-18s %-4s %8.2f %8.2f %9.1f  %s\n' "$name" $b "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
      "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')" "$same"
  done
done
if [ -z "$only" ] || [[ store-rerun == *$only* ]]; then
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    st=$d/store-$b.db; rm -f "$st" "$st-wal" "$st-shm"
    "$bin" score --responses "$d/r10k.csv" --record --store "$st" >/dev/null 2>&1
    size() { # a WAL not yet checkpointed counts too
      local n; n=$(stat -c %s "$st")
      if [ -f "$st-wal" ]; then n=$((n + $(stat -c %s "$st-wal"))); fi
      echo "$n"
    }
    one=$(size)
    for _ in $(seq 10); do "$bin" score --responses "$d/r10k.csv" --record --store "$st" >/dev/null 2>&1; done
    all=$(size)
    printf '%-18s %-4s first run %d bytes (%.1f a row), each rerun %.1f bytes a row\n' store-rerun $b "$one" \
      "$(awk -v a="$one" 'BEGIN { print a / 10000 }')" "$(awk -v a="$all" -v o="$one" 'BEGIN { print (a - o) / 100000 }')"
  done
fi
