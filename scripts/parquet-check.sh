#!/usr/bin/env bash
# parquet-check.sh: reads a verdict Parquet file (or a Hive-partitioned folder
# of them) with two readers that share no code with evalbook or arrow-go --
# hyparquet (JavaScript) and parquet-wasm (the Rust arrow-rs parquet crate as
# WebAssembly) -- and compares every value with the verdict CSV of the same
# run, written with --raw-csv so that no cell carries a formula guard:
#
#   evalbook score --responses run.csv --out v.csv --raw-csv
#   evalbook score --responses run.csv --out v.parquet        (or --out-dir D --partition-by ...)
#   scripts/parquet-check.sh v.parquet v.csv
#
# Usage: scripts/parquet-check.sh FILE.parquet|DIR REF.csv
#
# It prints each reader's version, rows and per column the nulls, trues and
# sum, then "same" or what differs, and exits 0 when both readers and the CSV
# agree on every value (for a file: each column's values in order; for a
# folder: the rows in any order), 1 when not. The readers are npm packages,
# installed on first use into $EVALBOOK_PARQUET_READERS_NODE or the user
# cache's evalbook/parquet-readers-node (.ci/run installs the same versions);
# it needs node and npm.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
target=$1 csv=$2
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "parquet-check.sh: needs $tool (apt-get install nodejs npm)" >&2; exit 1; }
done
readers="hyparquet@1.33.0 hyparquet-compressors@1.1.2 parquet-wasm@0.8.0 apache-arrow@21.2.0"
dir=${EVALBOOK_PARQUET_READERS_NODE:-${XDG_CACHE_HOME:-$HOME/.cache}/evalbook/parquet-readers-node}
have=""
for p in $readers; do
  have="$have ${p%@*}@$(node -p "require('$dir/node_modules/${p%@*}/package.json').version" 2>/dev/null || true)"
done
if [ "$have" != " $readers" ]; then
  echo "parquet-check.sh: installing $readers into $dir" >&2
  mkdir -p "$dir"
  # shellcheck disable=SC2086 # the list is split on purpose
  npm install --no-audit --no-fund --prefix "$dir" $readers >&2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
node "$here/internal/pqcheck/read.mjs" "$dir/node_modules" "$target" --csv "$csv" | node -e '
const doc = JSON.parse(require("fs").readFileSync(0, "utf8"));
const folder = require("fs").statSync(process.argv[1]).isDirectory();
const all = [...doc.readers, doc.csv];
for (const r of all) console.log(`${r.reader}${r.version ? " " + r.version : ""}: ${r.rows} rows, row sum ${r.rowsum}`);
let ok = all.every((r) => r.rows === all[0].rows && r.rowsum === all[0].rowsum);
const ref = doc.csv.columns;
for (const c of ref) {
  const got = doc.readers.map((r) => r.columns.find((x) => x.name === c.name));
  const same = got.every((g) => g && g.nulls === c.nulls && g.trues === c.trues && (folder || g.sha256 === c.sha256));
  ok &&= same;
  console.log(`  ${c.name} ${c.type}: ${c.nulls} nulls, ${c.trues} trues, sum ${c.sum}${same ? "" : "  DIFFERS: " + JSON.stringify(got)}`);
}
console.log(ok ? "same: every value of the Parquet data equals the CSV" : "DIFFERENT");
process.exit(ok ? 0 : 1);
' "$target"
