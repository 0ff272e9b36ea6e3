// read.mjs: reads Parquet files with two readers independent of evalbook
// and of arrow-go -- hyparquet (pure JavaScript) and parquet-wasm (the
// Rust arrow-rs parquet crate compiled to WebAssembly) -- and prints, per
// reader, a fingerprint of every value as one JSON document. The Go test
// (pkg/parquetio/readers_test.go) and scripts/parquet-check.sh compare it
// with the rows evalbook wrote.
//
//   node read.mjs MODULES FILE.parquet|DIR [--csv REF.csv]
//
// MODULES is a node_modules folder holding hyparquet, hyparquet-compressors,
// parquet-wasm and apache-arrow. A DIR is read as a Hive-partitioned
// folder: every *.parquet below it, the key=value folder names as string
// columns (percent-escapes decoded, __HIVE_DEFAULT_PARTITION__ as "").
// With --csv, the same fingerprint is made of a verdict CSV (score --out
// x.csv), typed by the Parquet schema: a double column's empty cell is
// null, a boolean's 0/1 is false/true.
//
// A value's fingerprint text: "s"+string, "d"+the 16 hex digits of a
// double's IEEE bits, "i"+an int64 in decimal, "b1"/"b0", "n" for null.
// Per column: the number of values, nulls, trues, the sum of the numbers
// (for a reader to show), and the SHA-256 of its values' texts each
// followed by a NUL byte, in the rows' order (files) -- and for the whole
// table "rowsum": the sum modulo 2^64 of the first 8 bytes (big-endian)
// of SHA-256 over each row's texts in column-name order joined by 0x1F, which
// does not depend on the rows' order (folders, and files read in parts).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const [mods, target, ...rest] = process.argv.slice(2);
if (!mods || !target) {
  console.error('usage: node read.mjs NODE_MODULES FILE.parquet|DIR [--csv REF.csv]');
  process.exit(2);
}
const csvPath = rest[0] === '--csv' ? rest[1] : undefined;
const req = createRequire(join(mods, 'x.js'));
const version = (name) => JSON.parse(readFileSync(join(mods, name, 'package.json'), 'utf8')).version;

const hyparquet = await import(pathToFileURL(join(mods, 'hyparquet', 'src', 'node.js')).href);
const { compressors } = await import(pathToFileURL(join(mods, 'hyparquet-compressors', 'src', 'index.js')).href);
const wasm = req('parquet-wasm/node');
const arrow = req('apache-arrow');

// The files to read, each with its partition values.
function files() {
  if (!statSync(target).isDirectory()) return [{ path: target, parts: {} }];
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.parquet')) out.push(p);
    }
  };
  walk(target);
  return out.map((path) => {
    const parts = {};
    for (const seg of relative(target, path).split(sep).slice(0, -1)) {
      const i = seg.indexOf('=');
      const v = decodeURIComponent(seg.slice(i + 1));
      parts[decodeURIComponent(seg.slice(0, i))] = v === '__HIVE_DEFAULT_PARTITION__' ? '' : v;
    }
    return { path, parts };
  });
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
function hexDouble(x) {
  f64[0] = x;
  return u32[1].toString(16).padStart(8, '0') + u32[0].toString(16).padStart(8, '0');
}

// text returns a value's fingerprint text for a column of physical type typ.
function text(typ, v) {
  if (v === null || v === undefined) return 'n';
  switch (typ) {
    case 'DOUBLE': return 'd' + hexDouble(Number(v));
    case 'INT64': return 'i' + BigInt(v).toString();
    case 'BOOLEAN': return v ? 'b1' : 'b0';
    default: return 's' + (typeof v === 'string' ? v : new TextDecoder('utf-8', { fatal: true }).decode(v));
  }
}

class Table {
  constructor(names, types) {
    this.names = names;
    this.types = types;
    this.order = names.map((_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    this.cols = names.map((name) => ({ name, type: types[name], n: 0, nulls: 0, trues: 0, sum: 0, h: createHash('sha256') }));
    this.rows = 0;
    this.rowsum = 0n;
  }
  // add takes one row's values, in names' order.
  add(vals) {
    const t = vals.map((v, i) => text(this.types[this.names[i]], v));
    for (let i = 0; i < t.length; i++) {
      const c = this.cols[i];
      c.n++;
      const v = vals[i];
      if (v === null || v === undefined) c.nulls++;
      else if (c.type === 'BOOLEAN') c.trues += v ? 1 : 0;
      else if (c.type === 'DOUBLE' || c.type === 'INT64') c.sum += Number(v);
      c.h.update(t[i] + '\0');
    }
    const rh = createHash('sha256').update(this.order.map((i) => t[i]).join('\x1f')).digest();
    this.rowsum = (this.rowsum + rh.readBigUInt64BE(0)) & 0xffffffffffffffffn;
    this.rows++;
  }
  result(extra) {
    return {
      ...extra,
      rows: this.rows,
      rowsum: this.rowsum.toString(16).padStart(16, '0'),
      columns: this.cols.map((c) => ({ name: c.name, type: c.type, n: c.n, nulls: c.nulls, trues: c.trues, sum: c.sum, sha256: c.h.digest('hex') })),
    };
  }
}

// schemaOf returns the leaf columns' names and physical types (hyparquet's
// reading of the footer), with the partition columns as strings.
function schemaOf(md, parts) {
  const names = md.schema.slice(1).map((s) => s.name);
  const types = Object.fromEntries(md.schema.slice(1).map((s) => [s.name, s.type]));
  for (const k of Object.keys(parts)) {
    if (!(k in types)) {
      names.push(k);
      types[k] = 'BYTE_ARRAY';
    }
  }
  return { names, types };
}

async function readHyparquet(list) {
  let tab;
  let created;
  for (const { path, parts } of list) {
    const buf = readFileSync(path);
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const md = hyparquet.parquetMetadata(file);
    created = md.created_by;
    const { names, types } = schemaOf(md, parts);
    tab ??= new Table(names, types);
    let start = 0;
    for (const rg of md.row_groups) {
      const end = start + Number(rg.num_rows);
      const rows = await hyparquet.parquetReadObjects({ file, metadata: md, compressors, rowStart: start, rowEnd: end });
      if (rows.length !== end - start) throw new Error(`${path}: hyparquet read ${rows.length} rows of a row group of ${end - start}`);
      for (const r of rows) tab.add(tab.names.map((n) => (n in parts ? parts[n] : r[n])));
      start = end;
    }
  }
  return tab.result({ reader: 'hyparquet', version: version('hyparquet'), created_by: created });
}

async function readWasm(list) {
  let tab;
  for (const { path, parts } of list) {
    const bytes = new Uint8Array(readFileSync(path));
    const md = hyparquet.parquetMetadata(bytes.buffer);
    const { names, types } = schemaOf(md, parts);
    tab ??= new Table(names, types);
    for (let g = 0; g < md.row_groups.length; g++) {
      const t = arrow.tableFromIPC(wasm.readParquet(bytes, { rowGroups: [g] }).intoIPCStream());
      if (t.numRows !== Number(md.row_groups[g].num_rows)) throw new Error(`${path}: parquet-wasm read ${t.numRows} rows of row group ${g} (${md.row_groups[g].num_rows})`);
      const vecs = tab.names.map((n) => (n in parts ? null : t.getChild(n)));
      const missing = tab.names.filter((n, i) => !(n in parts) && !vecs[i]);
      if (missing.length) throw new Error(`${path}: parquet-wasm has no column ${missing.join(', ')}`);
      for (let i = 0; i < t.numRows; i++) tab.add(tab.names.map((n, j) => (vecs[j] ? vecs[j].get(i) : parts[n])));
    }
  }
  return tab.result({ reader: 'parquet-wasm', version: version('parquet-wasm') });
}

// parseCSV yields the records of an RFC 4180 CSV text.
function* parseCSV(s) {
  let i = 0;
  const n = s.length;
  while (i < n) {
    const rec = [];
    for (;;) {
      let v = '';
      if (s[i] === '"') {
        i++;
        for (;;) {
          const q = s.indexOf('"', i);
          if (q < 0) throw new Error('CSV: unterminated quote');
          v += s.slice(i, q);
          i = q + 1;
          if (s[i] === '"') { v += '"'; i++; } else break;
        }
      } else {
        let j = i;
        while (j < n && s[j] !== ',' && s[j] !== '\n' && s[j] !== '\r') j++;
        v = s.slice(i, j);
        i = j;
      }
      rec.push(v);
      if (s[i] === ',') { i++; continue; }
      if (s[i] === '\r') i++;
      if (s[i] === '\n') i++;
      break;
    }
    yield rec;
  }
}

function readCSV(path, names, types) {
  const recs = parseCSV(readFileSync(path, 'utf8'));
  const head = recs.next().value;
  const at = names.map((n) => {
    const k = head.indexOf(n);
    if (k < 0) throw new Error(`${path}: no column ${n} (the header is ${head.join(',')})`);
    return k;
  });
  const tab = new Table(names, types);
  for (const r of recs) {
    tab.add(at.map((k, i) => {
      const v = r[k];
      switch (types[names[i]]) {
        case 'DOUBLE': return v === '' ? null : Number(v);
        case 'INT64': return BigInt(v);
        case 'BOOLEAN':
          if (v !== '0' && v !== '1' && v !== 'true' && v !== 'false') throw new Error(`${path}: boolean ${names[i]} is ${JSON.stringify(v)}`);
          return v === '1' || v === 'true';
        default: return v;
      }
    }));
  }
  return tab.result({ reader: 'csv' });
}

const list = files();
if (list.length === 0) {
  console.error(`${target}: no .parquet files`);
  process.exit(1);
}
const out = { readers: [] };
const h = await readHyparquet(list);
out.readers.push(h, await readWasm(list));
if (csvPath) {
  const first = hyparquet.parquetMetadata(new Uint8Array(readFileSync(list[0].path)).buffer);
  const { names, types } = schemaOf(first, list[0].parts);
  out.csv = readCSV(csvPath, names, types);
}
process.stdout.write(JSON.stringify(out) + '\n');
