#!/usr/bin/env bash
# screenshots.sh: write the HTML page and the XLSX workbook of every command
# that has --html/--xlsx from the data shipped in this repository, and render
# them as their readers see them, for a person to look at.
#
# Usage: scripts/screenshots.sh [OUTDIR]   (default build/shots; run from anywhere inside the repo)
#
# Inputs are only the repository's own data: the embedded sample
# (datasets/responses.csv), datasets/, report/testdata and the packages'
# testdata (interop, jury, repeats, irt); the run store is a throwaway file in
# a temporary directory, filled by `score --record` from the sample split by
# model (runs 1 and 2: kestrel-7b and tern-13b; run 3: kestrel-7b with every
# tenth response replaced by tern-13b's, a rerun with a little noise). task run
# asks the loopback bigram model of pkg/tasks/tasktest (internal/tools/shots
# serve), so nothing leaves the machine. Input paths are given absolute, as a
# user would, so that a page or workbook that prints them shows up.
#
# For each output NAME this writes, under OUTDIR:
#   NAME.html, NAME.xlsx, NAME.txt        the command's page, workbook and terminal output
#   NAME-1280.png, NAME-390.png           the page in headless Chromium at 1280 and 390 px
#                                         wide, full page height (a tall window, then
#                                         the blank bottom trimmed by `shots trim`)
#   NAME.pdf, NAME-xlsx-N.png             the workbook printed by LibreOffice (PDF) and
#                                         its pages at 60 dpi (pdftoppm)
#   site/ and site-*.png                  `runs report --out` (index, a run page, a diff page)
#   baselines.txt                         where Hindi and Bengali text sits against the Latin
#                                         baseline of its row in each printed workbook
#                                         (scripts/pdf-baselines.py; + is above, in points)
#   paths.txt                             every output that carries this machine's
#                                         repository or temporary directory (should be empty)
# The script fails when a command fails (exit 3 of gate and plan gate is a
# verdict, not a failure) or a renderer writes nothing; a missing chromium,
# libreoffice or pdftoppm skips its step with a message (Debian: chromium,
# libreoffice-calc, poppler-utils; fonts-noto-core draws Devanagari and Bengali).
# Environment: SHOTS_ONLY=REGEX renders only the outputs whose NAME matches.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
case ${1:-} in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
out=${1:-build/shots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
only=${SHOTS_ONLY:-.}
tmp=$(mktemp -d)
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
	PATH=/usr/local/go/bin:$PATH
fi
echo "=== building evalbook and shots"
go build -o "$tmp/evalbook" ./report
go build -o "$tmp/shots" ./internal/tools/shots
export SOURCE_DATE_EPOCH=1767225600 EVALBOOK_STORE=$tmp/store.db
eb() { "$tmp/evalbook" "$@"; }

# shot NAME [ok-codes] -- CMD ARGS...: run an evalbook command with --html
# and --xlsx into OUTDIR/NAME.*; the terminal output goes to NAME.txt.
names=()
shot() {
	local name=$1 ok=0
	shift
	if [ "$1" != -- ]; then ok=$1; shift; fi
	shift
	[[ $name =~ $only ]] || return 0
	local code=0
	eb "$@" --html "$out/$name.html" --xlsx "$out/$name.xlsx" >"$out/$name.txt" 2>&1 || code=$?
	if [ "$code" -ne 0 ] && [[ " $ok " != *" $code "* ]]; then
		echo "FAIL: $name: evalbook $* exited $code:" >&2
		tail -5 "$out/$name.txt" >&2
		exit 1
	fi
	names+=("$name")
	echo "$name: evalbook $* (exit $code)"
}

d=$root/datasets
td=$root/report/testdata

echo "=== inputs and the run store ($tmp)"
# The sample split by model, and a noisy rerun of kestrel-7b.
python3 - "$d/responses.csv" "$tmp" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
cols = list(rows[0].keys())
by = {}
for r in rows:
    by.setdefault(r["model"], []).append(r)
tern = {r["id"]: r["response"] for r in by["tern-13b"]}
noisy = [dict(r, response=tern[r["id"]]) if i % 10 == 0 else r for i, r in enumerate(by["kestrel-7b"])]
for name, rs in (("v1", by["kestrel-7b"]), ("v2", by["tern-13b"]), ("v3", noisy)):
    with open(f"{sys.argv[2]}/{name}.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        w.writerows(rs)
EOF
eb score --responses "$tmp/v1.csv" --by language --out "$tmp/v1-verdicts.csv" --record --record-title "kestrel-7b, first run" >/dev/null
eb score --responses "$tmp/v2.csv" --by language --out "$tmp/v2-verdicts.csv" --record --record-title "tern-13b" >/dev/null
eb score --responses "$tmp/v3.csv" --by language --out "$tmp/v3-verdicts.csv" --record --record-title "kestrel-7b, rerun" >/dev/null
eb run --chunking paragraph --min-score 0.3 --out "$tmp/run-old.csv" >/dev/null
eb run --chunking sentence --min-score 0.4 --min-margin 0.1 --out "$tmp/run-new.csv" >/dev/null

echo "=== pages and workbooks"
shot score -- score --by Domain --by model,language --title "The sample: two models, three languages"
shot compare -- compare --old "$tmp/v1-verdicts.csv" --new "$tmp/v2-verdicts.csv" --metric exact_substring --by language
shot compare-run -- compare --old "$tmp/run-old.csv" --new "$tmp/run-new.csv" --metric pass --by task
shot runs-diff -- runs diff 1 2
shot gate 3 -- gate --baseline 1 --candidate 2 --metric exact_substring --margin 0.02
shot gate-reverse 3 -- gate --baseline 2 --candidate 1 --metric exact_substring --margin 0.02
shot history -- history --metric exact_substring --by language
shot aa -- aa 1 3
shot leaderboard -- leaderboard --dir "$d/leaderboard"
shot ratings -- ratings --pairs "$td/ratings_pairs.csv"
shot agree-pairs -- agree --labels "$d/agreement/pairs.csv" --raters ann1,ann2 --id id
shot agree-ratings -- agree --labels "$d/agreement/ratings.csv" --raters r1,r2,r3,r4 --metric alpha --level ordinal
shot calibrate -- calibrate --judge fake:mixed --swap
shot probes -- probes --judge fake:all
shot plan-check -- plan check "$d/helpdesk/plan_weak.json"
shot plan-gate 3 -- plan gate --plan "$d/helpdesk/plan_v1.json" --run "$tmp/run-new.csv"
shot run -- run --chunking sentence --min-score 0.4 --min-margin 0.1
shot cases-coverage -- cases coverage "$d/helpdesk/cases.jsonl"
shot summarize -- summarize --dataset "$d/helpdesk/example_dataset.json" --results "$d/helpdesk/example_results.json"
shot import-lmeval -- import "$root/pkg/interop/testdata/lmeval/new" --check
shot import-inspect -- import "$root/pkg/interop/testdata/inspect/qa_hi_bn.eval"
shot mc -- mc
shot power -- power --baseline 0.8 --target 0.9 --paired --discordant 0.15
shot power-n -- power --baseline 0.8 --n 150
shot correct -- correct --labelled "$td/correct_labelled.csv" --unlabelled "$td/correct_judged.csv" --by lang
shot jury -- jury --labels "$root/pkg/jury/testdata/dawid_skene_table1.csv" --method dawid-skene
shot repeats -- repeats --samples "$root/pkg/repeats/testdata/hand.csv"
shot irt -- irt --responses "$root/pkg/irt/testdata/lsat.csv" --estimate "$root/pkg/irt/testdata/lsat_subset.csv" --points 21

if [[ task-run =~ $only || repeats-details =~ $only ]]; then
	# The loopback bigram model the task-run tests use, trained on the tests' text.
	coproc SERVER { exec "$tmp/shots" serve "the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"; }
	server_pid=$SERVER_PID
	read -r url <&"${SERVER[0]}"
	specs='indiceval|ARC-Easy:hindi|2|0,indiceval|HellaSwag:bengali|1|0,indiceval|MMLU:english|2|0,indiceval|Translate:bengali|1|0'
	shot task-run -- task run --tasks "$specs" --endpoint "$url" --model bigram --seed 5 --cache none --details "$tmp/details.jsonl"
	eb task run --tasks 'indiceval|Translate:hindi|1|0,indiceval|Translate:bengali|1|0' --endpoint "$url" --model bigram \
		--seed 5 --cache none --details "$tmp/translate.jsonl" >/dev/null
	shot repeats-details -- repeats --details "$tmp/translate.jsonl"
	kill "$server_pid" 2>/dev/null || true
	server_pid=
fi

if [[ site =~ $only ]]; then
	rm -rf "$out/site"
	eb runs report --out "$out/site" >"$out/site.txt"
	echo "site: evalbook runs report --out $out/site"
fi

first() { for p in "$@"; do command -v "$p" >/dev/null 2>&1 && { command -v "$p"; return 0; }; done; return 1; }
status=0

# page NAME FILE: screenshots of one page at 1280 and 390 px.
page() {
	local name=$1 file=$2 w shot
	for w in 1280 390; do
		shot="$out/$name-$w.png"
		rm -f "$shot"
		timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$tmp/chrome-profile" --hide-scrollbars \
			--screenshot="$shot" --window-size="$w,16000" "file://$file" >"$tmp/chrome.log" 2>&1 || true
		if [ -s "$shot" ]; then
			"$tmp/shots" trim "$shot"
		else
			echo "FAIL: Chromium wrote no screenshot of $file at $w px:" >&2
			tail -5 "$tmp/chrome.log" >&2
			status=1
		fi
	done
}

echo "=== screenshots"
if chrome=$(first chromium chromium-browser google-chrome google-chrome-stable); then
	for name in "${names[@]}"; do
		page "$name" "$out/$name.html"
	done
	if [ -d "$out/site" ]; then
		page site-index "$out/site/index.html"
		run_page=$(find "$out/site" -name '*.html' -path '*run*' ! -name index.html | sort | head -1)
		diff_page=$(find "$out/site" -name '*.html' -path '*diff*' | sort | head -1)
		[ -n "$run_page" ] && page site-run "$run_page"
		[ -n "$diff_page" ] && page site-diff "$diff_page"
	fi
else
	echo "SKIP screenshots: no chromium on PATH (apt-get install chromium)"
fi

echo "=== workbooks through LibreOffice"
if office=$(first libreoffice soffice); then
	books=()
	for name in "${names[@]}"; do
		[ -s "$out/$name.xlsx" ] && books+=("$out/$name.xlsx") && rm -f "$out/$name.pdf" "$out/$name"-xlsx-*.png
	done
	if [ ${#books[@]} -gt 0 ]; then
		timeout 900 "$office" -env:UserInstallation="file://$tmp/lo-profile" --headless \
			--convert-to pdf --outdir "$out" "${books[@]}" >"$tmp/lo.log" 2>&1 || true
	fi
	for name in "${names[@]}"; do
		[ -s "$out/$name.xlsx" ] || continue
		if [ ! -s "$out/$name.pdf" ]; then
			echo "FAIL: LibreOffice wrote no PDF of $name.xlsx" >&2
			status=1
		elif command -v pdftoppm >/dev/null; then
			pdftoppm -png -r 60 "$out/$name.pdf" "$out/$name-xlsx"
		fi
	done
	command -v pdftoppm >/dev/null || echo "SKIP PDF to PNG: no pdftoppm on PATH (apt-get install poppler-utils)"
	pdfs=()
	for name in "${names[@]}"; do [ -s "$out/$name.pdf" ] && pdfs+=("$out/$name.pdf"); done
	[ ${#pdfs[@]} -gt 0 ] && python3 scripts/pdf-baselines.py "${pdfs[@]}" >"$out/baselines.txt"
else
	echo "SKIP workbooks: no libreoffice on PATH (apt-get install libreoffice-calc)"
fi

echo "=== this machine's paths in the outputs"
: >"$out/paths.txt"
for f in "$out"/*.html "$out"/*.xlsx $(find "$out/site" -type f 2>/dev/null); do
	[ -f "$f" ] || continue
	case $f in
	*.xlsx) text=$(unzip -p "$f" 2>/dev/null || true) ;;
	*) text=$(cat "$f") ;;
	esac
	for p in "$root" "$tmp"; do
		if [[ $text == *"$p"* ]]; then
			echo "${f#"$out"/}: $p" >>"$out/paths.txt"
		fi
	done
done
if [ -s "$out/paths.txt" ]; then
	echo "outputs that print a path of this machine (see $out/paths.txt):"
	cat "$out/paths.txt"
else
	echo "none"
fi
echo "=== done: $out"
exit $status
