// query.cjs: runs SQL queries with the real DuckDB engine (the npm package
// @duckdb/node-api, which ships it) and prints their rows as one JSON
// document: {"duckdb": version, "results": [[{column: value, ...}, ...], ...]}.
//
//   node query.cjs 'SELECT ...' ['SELECT ...' ...]
//
// It is CommonJS so that the package is found through NODE_PATH (the Go test and .ci/run install it
// into a cache directory). BIGINT and DECIMAL values are printed as numbers
// when they are exact in a double, else as strings; the Go side compares.
const { DuckDBInstance, version } = require('@duckdb/node-api');

const queries = process.argv.slice(2);
if (queries.length === 0) {
  console.error('usage: node query.cjs SQL [SQL ...]');
  process.exit(2);
}

function plain(v) {
  if (typeof v === 'bigint') {
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  if (v !== null && typeof v === 'object') {
    if (typeof v.toDouble === 'function') return v.toDouble();
    return String(v);
  }
  return v;
}

async function main() {
const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const results = [];
for (const q of queries) {
  const reader = await conn.runAndReadAll(q);
  const names = reader.columnNames();
  results.push(reader.getRows().map((row) => Object.fromEntries(row.map((v, i) => [names[i], plain(v)]))));
}
process.stdout.write(JSON.stringify({ duckdb: version(), results }) + '\n');
}

main().catch((e) => {
  console.error(String(e && e.message ? e.message : e));
  process.exit(1);
});
