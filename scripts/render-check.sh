#!/usr/bin/env bash
# Render the sample reports the way their readers will see them, for a
# person to look at: the HTML page in headless Chromium (desktop and phone
# widths) and the workbook through LibreOffice (XLSX -> PDF -> PNG pages).
#
#   scripts/render-check.sh [OUTDIR]      (default build/render-check)
#
# Each step is skipped, with a message saying what to install, when its
# program is missing (Debian: chromium, libreoffice-calc, poppler-utils;
# fonts-noto-core draws Devanagari and Bengali). The script fails only
# when a program that is present fails or writes nothing.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/render-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

echo "=== building evalbook and writing the sample reports to $out"
go build -o "$tmp/evalbook" ./report || exit 1
SOURCE_DATE_EPOCH=1767225600 "$tmp/evalbook" score --by Domain --by model,language \
	--out "$out/verdicts.csv" --xlsx "$out/report.xlsx" --html "$out/report.html" \
	--charts "$out/charts" --json >"$out/result.json" || exit 1

first() { for p in "$@"; do command -v "$p" >/dev/null 2>&1 && { command -v "$p"; return 0; }; done; return 1; }

if chrome=$(first chromium chromium-browser google-chrome google-chrome-stable); then
	for size in 1280,3000 390,3000; do
		w=${size%,*}
		shot="$out/html-$w.png"
		rm -f "$shot"
		timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$(mktemp -d -p "$tmp")" --hide-scrollbars \
			--screenshot="$shot" --window-size="$size" "file://$out/report.html" >"$tmp/chrome.log" 2>&1
		if [ -s "$shot" ]; then
			echo "HTML at ${w} px wide: $shot"
		else
			echo "FAIL: Chromium wrote no screenshot at ${w} px:"; tail -5 "$tmp/chrome.log"; status=1
		fi
	done
else
	echo "SKIP HTML rendering: no chromium on PATH (apt-get install chromium)"
fi

if office=$(first libreoffice soffice); then
	rm -f "$out"/report.pdf "$out"/xlsx-page-*.png
	timeout 300 "$office" -env:UserInstallation="file://$tmp/lo-profile" --headless \
		--convert-to pdf --outdir "$out" "$out/report.xlsx" >"$tmp/lo.log" 2>&1
	if [ ! -s "$out/report.pdf" ]; then
		echo "FAIL: LibreOffice wrote no PDF:"; tail -5 "$tmp/lo.log"; status=1
	elif command -v pdftoppm >/dev/null 2>&1; then
		pdftoppm -png -r 70 "$out/report.pdf" "$out/xlsx-page"
		pages=$(ls "$out"/xlsx-page-*.png 2>/dev/null | wc -l)
		echo "XLSX as PDF: $out/report.pdf, $pages pages as PNG: $out/xlsx-page-*.png"
		[ "$pages" -gt 0 ] || status=1
	else
		echo "XLSX as PDF: $out/report.pdf"
		echo "SKIP PDF to PNG: no pdftoppm on PATH (apt-get install poppler-utils)"
	fi
else
	echo "SKIP XLSX rendering: no libreoffice on PATH (apt-get install libreoffice-calc)"
fi
exit $status
