#!/usr/bin/env bash
# bench-bigfield.sh: what one big field costs in memory (issue 17).
#
# Usage: scripts/bench-bigfield.sh [--sizes "15 50"] [--runs N] [--only PATTERN]
#   (defaults: fields of 15 and 50 MB, 1 run each (peak RSS is not
#   load-sensitive), every case; run from anywhere in the repo)
#
# Builds build/evalbook, writes small tables with one field of SIZE MB
# (10^6 bytes) to build/bigfield/ (text like "the answer is 42, ok", so the
# CSV field is quoted) and a tiny table of the same shape as a baseline, and
# runs each case under GNU time (/usr/bin/time -f '%M %e'):
#
#   score-csv        evalbook score --responses F.csv --out V.csv   (big response)
#   score-jsonl      evalbook score --responses F.jsonl --out V.csv (big response)
#   compare-id       evalbook compare --old A --new B --metric exact_match (big id in both)
#   compare-other    the same, a big column compare does not use (the response of a verdict file)
#   compare-by       the same with --by group, a big group value
#   agree-label      evalbook agree --labels F --raters a,b --id id (big label of rater a)
#   agree-id         the same, a big id
#   compare-lmeval   evalbook compare OLD/ NEW/ (two lm-eval output folders, a big response
#                    in one sample of each)
#
# For each it prints the peak RSS, the RSS above its tiny baseline and that
# excess divided by the field's size (issue 17's target: below 3). It is a
# benchmark, not a test: a ratio above 3 does not fail it; a failing run does.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
  PATH=/usr/local/go/bin:$PATH
fi

sizes="15 50"
runs=1
only=""
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-bigfield.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for v in $sizes $runs; do
  case $v in '' | *[!0-9]*) echo "bench-bigfield.sh: --sizes and --runs take non-negative integers" >&2; exit 2 ;; esac
done
[ -x /usr/bin/time ] || { echo "bench-bigfield.sh: needs GNU time (apt-get install time)" >&2; exit 2; }

dir=build/bigfield
mkdir -p "$dir"
echo "building build/evalbook"
go build -o build/evalbook ./report
# Run a copy: the file go build writes is mapped with more pages resident
# at start (here 43 MB against 34 MB for a copy of it), which would only
# shift every figure.
bin=$dir/evalbook
cp build/evalbook "$bin"

# text N: N bytes of answer-like text, no newline, no double quote.
text() { head -c "$1" < <(yes 'the Answer is 42, ok') | tr '\n' ' '; }

# gen SIZE_BYTES: writes every input file for that field size (0: tiny, a 5-byte field).
gen() {
  local n=$1 tag=$2 big
  big=$dir/big-$tag.txt
  if [ "$n" -eq 0 ]; then printf 'small' >"$big"; else text "$n" >"$big"; fi
  { printf 'id,question,answer,Domain,response\n1,What is it?,42,math,"'; cat "$big"; printf '"\n2,Two?,2,math,2\n'; } >"$dir/score-$tag.csv"
  { printf '{"id":"1","question":"What is it?","answer":"42","Domain":"math","response":"'; cat "$big"
    printf '"}\n{"id":"2","question":"Two?","answer":"2","Domain":"math","response":"2"}\n'; } >"$dir/score-$tag.jsonl"
  for v in old new; do
    local m=1; [ $v = new ] && m=0
    { printf 'id,group,response,exact_match\n"'; cat "$big"; printf '",g,r,%d\n2,g,r,1\n3,g,r,0\n' $m; } >"$dir/compare-id-$v-$tag.csv"
    { printf 'id,group,response,exact_match\n1,g,"'; cat "$big"; printf '",%d\n2,g,r,1\n3,g,r,0\n' $m; } >"$dir/compare-other-$v-$tag.csv"
    { printf 'id,group,response,exact_match\n1,"'; cat "$big"; printf '",r,%d\n2,g,r,1\n3,g,r,0\n' $m; } >"$dir/compare-by-$v-$tag.csv"
  done
  { printf 'id,a,b\n1,"'; cat "$big"; printf '",yes\n2,no,no\n3,yes,yes\n'; } >"$dir/agree-label-$tag.csv"
  { printf 'id,a,b\n"'; cat "$big"; printf '",yes,yes\n2,no,no\n3,yes,no\n'; } >"$dir/agree-id-$tag.csv"
  for v in old new; do
    local acc=1.0 ld=$dir/lmeval-$v-$tag/org__model
    [ $v = new ] && acc=0.0
    rm -rf "$dir/lmeval-$v-$tag"; mkdir -p "$ld"
    printf '{"results": {"t": {"alias": "t", "acc,none": 0.5}}, "configs": {"t": {}}, "versions": {"t": 1}, "model_name": "org/model"}' \
      >"$ld/results_2026-12-01T10-00-00.000000.json"
    {
      printf '{"doc_id": 0, "doc": {"q": "What is it?"}, "target": "42", "arguments": {}, "resps": [], "filtered_resps": ["'
      cat "$big"
      printf '"], "filter": "none", "metrics": ["acc"], "doc_hash": "h0", "prompt_hash": "p", "target_hash": "t", "acc": %s}\n' $acc
      for i in 1 2; do
        printf '{"doc_id": %d, "doc": {"q": "Two?"}, "target": "2", "arguments": {}, "resps": [], "filtered_resps": ["2"], "filter": "none", "metrics": ["acc"], "doc_hash": "h%d", "prompt_hash": "p", "target_hash": "t", "acc": %d.0}\n' $i $i $((i % 2))
      done
    } >"$ld/samples_t_2026-12-01T10-00-00.000000.jsonl"
  done
  rm -f "$big"
}

# args CASE TAG: sets cmd to the case's command line.
args() {
  local c=$1 t=$2
  case $c in
    score-csv) cmd=($bin score --responses "$dir/score-$t.csv" --out "$dir/verdicts.csv") ;;
    score-jsonl) cmd=($bin score --responses "$dir/score-$t.jsonl" --out "$dir/verdicts.csv") ;;
    compare-id | compare-other) cmd=($bin compare --old "$dir/$c-old-$t.csv" --new "$dir/$c-new-$t.csv" --metric exact_match) ;;
    compare-by) cmd=($bin compare --old "$dir/$c-old-$t.csv" --new "$dir/$c-new-$t.csv" --metric exact_match --by group) ;;
    agree-label | agree-id) cmd=($bin agree --labels "$dir/$c-$t.csv" --raters a,b --id id) ;;
    compare-lmeval) cmd=($bin compare "$dir/lmeval-old-$t" "$dir/lmeval-new-$t") ;;
  esac
}

# measure: runs cmd runs times, sets rss (KB, the largest) and wall (s, the median).
measure() {
  local i out walls=() r
  rss=0
  for i in $(seq 1 "$runs"); do
    if ! /usr/bin/time -o "$dir/time" -f '%M %e' "${cmd[@]}" >/dev/null 2>"$dir/stderr"; then
      echo "failed: ${cmd[*]}" >&2
      tail -n 5 "$dir/stderr" >&2
      exit 1
    fi
    out=$(tail -n 1 "$dir/time")
    r=${out%% *}
    walls+=("${out##* }")
    [ "$r" -gt "$rss" ] && rss=$r
  done
  wall=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
}

cases="score-csv score-jsonl compare-id compare-other compare-by agree-label agree-id compare-lmeval"
echo "generating the tiny baseline files"
gen 0 tiny
declare -A base
for c in $cases; do
  [ -n "$only" ] && [[ $c != *$only* ]] && continue
  args "$c" tiny
  measure
  base[$c]=$rss
done
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
printf '\n%-14s %6s %10s %10s %9s %7s\n' case field peak_MB above_MB ratio wall_s
for s in $sizes; do
  echo "generating the ${s} MB files" >&2
  gen $((s * 1000000)) "$s"
  for c in $cases; do
    [ -n "$only" ] && [[ $c != *$only* ]] && continue
    args "$c" "$s"
    measure
    above=$((rss - base[$c]))
    printf '%-14s %4s MB %10s %10s %8s %7s\n' "$c" "$s" "$(mb "$rss")" "$(mb "$above")" \
      "$(awk -v a="$above" -v s="$s" 'BEGIN { printf "%.2fx", a * 1024 / (s * 1e6) }')" "$wall"
  done
  [ -n "${KEEP:-}" ] || rm -rf "$dir"/*-"$s".csv "$dir"/*-"$s".jsonl "$dir"/lmeval-*-"$s"
done
echo
echo "baselines (tiny files, peak MB):$(for c in $cases; do [ -n "${base[$c]:-}" ] && printf ' %s %s' "$c" "$(mb "${base[$c]}")"; done)"
