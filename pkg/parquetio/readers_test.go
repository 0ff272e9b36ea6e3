package parquetio

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// readerPackages are the npm packages of the third and fourth Parquet
// readers (internal/pqcheck/read.mjs): hyparquet, a reader in plain
// JavaScript, with its Snappy and zstd decoders, and parquet-wasm, the
// Rust arrow-rs parquet crate compiled to WebAssembly, whose Arrow
// tables apache-arrow decodes. .ci/run installs the same versions.
var readerPackages = []string{"hyparquet@1.33.0", "hyparquet-compressors@1.1.2", "parquet-wasm@0.8.0", "apache-arrow@21.2.0"}

// readerModules returns the node_modules folder holding readerPackages
// ($EVALBOOK_PARQUET_READERS_NODE, or the user cache's
// evalbook/parquet-readers-node).
func readerModules(t *testing.T) string {
	return npmModules(t, "Parquet readers", "EVALBOOK_PARQUET_READERS_NODE", "parquet-readers-node", readerPackages...)
}

// npmModules returns the node_modules folder holding packages (each
// name@version): $env/node_modules, or the user cache's
// evalbook/folder/node_modules, installing them there with npm when one
// is missing or of another version. The test (what) is skipped only when
// node or npm is not installed.
func npmModules(t *testing.T, what, env, folder string, packages ...string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s test skipped: %s is not installed (apt-get install nodejs npm; .ci/run installs them)", what, tool)
		}
	}
	dir := os.Getenv(env)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(cache, "evalbook", folder)
	}
	mods := filepath.Join(dir, "node_modules")
	for _, p := range packages {
		name, version, _ := strings.Cut(p[1:], "@")
		name = p[:1] + name
		data, err := os.ReadFile(filepath.Join(mods, name, "package.json"))
		var pkg struct{ Version string }
		if err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Version == version {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", append([]string{"install", "--no-audit", "--no-fund", "--prefix", dir}, packages...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install %s into %s: %v\n%s", strings.Join(packages, " "), dir, err, out)
		}
		break
	}
	return mods
}

// fingerprint is internal/pqcheck/read.mjs's account of a table: per
// column its values' count, nulls, trues and the SHA-256 of their texts in
// order, and the order-free sum of the rows' hashes.
type fingerprint struct {
	Reader  string `json:"reader"`
	Version string `json:"version"`
	Rows    int    `json:"rows"`
	RowSum  string `json:"rowsum"`
	Columns []struct {
		Name   string  `json:"name"`
		Type   string  `json:"type"`
		N      int     `json:"n"`
		Nulls  int     `json:"nulls"`
		Trues  int     `json:"trues"`
		Sum    float64 `json:"sum"`
		SHA256 string  `json:"sha256"`
	} `json:"columns"`
}

// readWithReaders reads the file or Hive-partitioned folder at path with
// hyparquet and parquet-wasm and returns their fingerprints.
func readWithReaders(t *testing.T, path string) []fingerprint {
	t.Helper()
	mods := readerModules(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "internal", "pqcheck", "read.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script, mods, path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reading %s with hyparquet and parquet-wasm: %v\n%s", path, err, stderr.String())
	}
	var doc struct{ Readers []fingerprint }
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("read.mjs's output %.300q: %v", out, err)
	}
	return doc.Readers
}

// rowTexts are the fingerprint texts of row r's cells in the verdict
// table's column order (read.mjs's text function, from the Go values).
func rowTexts(s *results.RowSchema, r *results.Row) []string {
	var t []string
	for _, f := range r.Fields {
		t = append(t, "s"+f)
	}
	for _, v := range r.Values {
		if math.IsNaN(v) {
			t = append(t, "n")
		} else {
			t = append(t, fmt.Sprintf("d%016x", math.Float64bits(v)))
		}
	}
	if s.Words {
		t = append(t, "i"+strconv.Itoa(r.Matching), "i"+strconv.Itoa(r.TotalGolden))
	}
	b := func(v bool) string {
		if v {
			return "b1"
		}
		return "b0"
	}
	if s.Flags {
		t = append(t, b(r.Blank), b(r.EmptyGolden))
	}
	for j := range s.Extra {
		v := ""
		if j < len(r.Extra) {
			v = r.Extra[j]
		}
		t = append(t, "s"+v)
	}
	return t
}

// wantFingerprint computes what read.mjs must report for rows of s: the
// column hashes and the row-hash sum, worked out here from the rows.
func wantFingerprint(s *results.RowSchema, rows []*results.Row) (names, hashes []string, rowsum string) {
	names = append(append([]string{}, s.Header...), s.Extra...)
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	hs := make([][]byte, len(names))
	var sum uint64
	for _, r := range rows {
		t := rowTexts(s, r)
		sorted := make([]string, len(t))
		for i, k := range order {
			sorted[i] = t[k]
		}
		h := sha256.Sum256([]byte(strings.Join(sorted, "\x1f")))
		sum += binary.BigEndian.Uint64(h[:8])
		for j, x := range t {
			hs[j] = append(append(hs[j], x...), 0)
		}
	}
	for _, b := range hs {
		h := sha256.Sum256(b)
		hashes = append(hashes, hex.EncodeToString(h[:]))
	}
	return names, hashes, fmt.Sprintf("%016x", sum)
}

// checkReaders reads path with hyparquet and parquet-wasm and compares
// every value of every column with rows: for a file, each column's
// values in order and the rows; for a Hive-partitioned folder (whose
// rows come partition by partition), the rows in any order.
func checkReaders(t *testing.T, path string, s *results.RowSchema, rows []*results.Row) {
	t.Helper()
	names, hashes, rowsum := wantFingerprint(s, rows)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	folder := st.IsDir()
	got := readWithReaders(t, path)
	if len(got) != 2 {
		t.Fatalf("%d readers reported, want 2", len(got))
	}
	for _, fp := range got {
		t.Logf("%s %s: %d rows of %s", fp.Reader, fp.Version, fp.Rows, filepath.Base(path))
		if fp.Rows != len(rows) || fp.RowSum != rowsum {
			t.Errorf("%s read %d rows (row sum %s) of %s, evalbook wrote %d (%s)", fp.Reader, fp.Rows, fp.RowSum, filepath.Base(path), len(rows), rowsum)
		}
		if len(fp.Columns) != len(names) {
			t.Fatalf("%s read %d columns, want %d", fp.Reader, len(fp.Columns), len(names))
		}
		if folder {
			continue
		}
		for j, c := range fp.Columns {
			if c.Name != names[j] || c.SHA256 != hashes[j] {
				t.Errorf("%s: column %d %s (%s, %d nulls, sum %v) differs from evalbook's %s", fp.Reader, j, c.Name, c.Type, c.Nulls, c.Sum, names[j])
			}
		}
	}
}

// Two readers that share no code with evalbook or arrow-go read every
// value back: the 70,000-row table of TestPagesAndStatistics (pages of
// Devanagari text, null metrics whose second page starts mid-bitmap,
// dictionaries of one, two and 300 values, the plain fallback), the same
// rows in row groups of one row (metric chunks whose only value is null:
// an empty dictionary), zstd and uncompressed pages, a table of 30
// columns with a metric that is always null, -0.0 and +0.0, Bengali and
// empty text, and a Hive-partitioned folder.
func TestThirdPartyReaders(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, s *results.RowSchema, rows []*results.Row, opt WriteOptions) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		writeTo(t, f, s, rows, opt)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	s, rows := pagesRows(70000)
	checkReaders(t, write("pages.parquet", s, rows, WriteOptions{RowGroupRows: 70000}), s, rows)
	checkReaders(t, write("tiny.parquet", s, rows[:40], WriteOptions{RowGroupRows: 1, Compression: "zstd"}), s, rows[:40])

	ws, wrows := wideRows(2000)
	checkReaders(t, write("wide.parquet", ws, wrows, WriteOptions{RowGroupRows: 700, Compression: "none"}), ws, wrows)
	checkReaders(t, write("empty.parquet", ws, nil, WriteOptions{}), ws, nil)

	// A partitioned folder: read.mjs takes the partition columns from
	// the folder names, so every value is still compared.
	csv := responsesCSV(3000)
	prows := scoredRows(t, csv)
	pdir := filepath.Join(dir, "parts")
	if _, err := WriteDir(pdir, seqOf(prows), DirOptions{By: []string{"model", "language"}, RowGroupRows: 500}); err != nil {
		t.Fatal(err)
	}
	checkReaders(t, pdir, prows[0].Schema, prows)
}

// wideRows are n rows of 22 input columns (Bengali, empty, dictionaries
// of exactly 2, 4, 8, 16 and 32 values, a byte 0, text that sorts after
// 'z' only as unsigned bytes), six metrics (always null; -0.0, +0.0 and
// 0.25; 256 values; always 1; 17 values past the comparison scan; a
// judge's graded score, null every third row) and two extra columns.
func wideRows(n int) (*results.RowSchema, []*results.Row) {
	var cols []string
	for j := range 22 {
		cols = append(cols, fmt.Sprintf("c%02d", j))
	}
	s := results.NewRowSchema(cols, []string{"allnull", "zeros", "pow2", "one", "k17", "judge"}, []bool{true, true, true, false, true, true}, true, nil)
	s.Extra = []string{"reason", "empty_extra"}
	var rows []*results.Row
	for i := range n {
		r := &results.Row{Schema: s, Line: i + 2}
		for j := range 22 {
			var v string
			switch j % 6 {
			case 0:
				v = fmt.Sprintf("বাংলা উত্তর %d", i)
			case 2:
				v = []string{"a", "b"}[i%2]
			case 3:
				v = fmt.Sprintf("v%d", i%(1<<(j%5+1)))
			case 4:
				v = []string{"", "हिन्दी", "\u00ff", "zzz", "ÿa", "a\x00b"}[i%6]
			case 5:
				v = "only"
			}
			r.Fields = append(r.Fields, v)
		}
		zero := 0.0
		if i%2 == 0 {
			zero = math.Copysign(0, -1)
		}
		if i%5 == 0 {
			zero = 0.25
		}
		judge := float64(i%10) / 10
		if i%3 == 0 {
			judge = math.NaN()
		}
		r.Values = []float64{math.NaN(), zero, float64(i % 256), 1, float64(i % 17), judge}
		r.Matching, r.TotalGolden = i%3, 5
		r.Blank, r.EmptyGolden = i%7 == 0, true
		r.Extra = []string{strings.Repeat("কারণ ", i%4), ""}
		rows = append(rows, r)
	}
	return s, rows
}
