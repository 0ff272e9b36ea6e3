package parquetio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// responsesCSV makes a response table of n rows over models x languages,
// deterministically (row i's model is i mod len(models), ...), with blank
// responses and right and wrong answers; the values of model and
// language need Hive escaping.
func responsesCSV(n int) string {
	models := []string{"gpt/4o:mini", "llama=3 50%", "सर्वम्-1"}
	langs := []string{"hi", "bn", "en", ""}
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response,model,language\n")
	for i := 0; i < n; i++ {
		resp := fmt.Sprintf("the answer is %d", i%7)
		if i%11 == 0 {
			resp = ""
		}
		fmt.Fprintf(&b, "%d,q%d,%d,d%d,%s,%s,%s\n", i, i, i%5, i%3, resp, models[i%3], langs[(i/3)%4])
	}
	return b.String()
}

func scoredRows(t testing.TB, csv string) []*results.Row {
	t.Helper()
	var out []*results.Row
	for r, err := range qa.Rows(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Clone())
	}
	return out
}

func seqOf(rows []*results.Row) func(func(*results.Row, error) bool) {
	return func(yield func(*results.Row, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// readBack reads a verdict Parquet file with this package's reader, as
// text per column.
func readBack(t testing.TB, data []byte) ([]string, [][]string) {
	t.Helper()
	src, err := Open(bytes.NewReader(data), "v.parquet")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := src.Header()
	var rows [][]string
	for {
		f, _, err := src.Next()
		if err == io.EOF {
			return h, rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, f)
	}
}

// The Parquet verdict file holds what the CSV verdict file holds, typed:
// the same header, the same input text, the verdicts as doubles, the
// counts as integers and the flags as booleans.
func TestVerdictFileMatchesCSV(t *testing.T) {
	csv := responsesCSV(300)
	rows := scoredRows(t, csv)
	var buf bytes.Buffer
	n, err := WriteRows(&buf, seqOf(rows), WriteOptions{RowGroupRows: 128})
	if err != nil || n != 300 {
		t.Fatalf("WriteRows: %d, %v", n, err)
	}
	var want bytes.Buffer
	if _, err := qa.Score(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{Verdicts: &want}); err != nil {
		t.Fatal(err)
	}
	rd, err := tabular.NewReader(&want, "verdicts.csv", tabular.Options{Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	h, got := readBack(t, buf.Bytes())
	if !slices.Equal(h, rd.Header()) {
		t.Fatalf("header %q, want the CSV's %q", h, rd.Header())
	}
	// The CSV's 1/0 flags are the Parquet file's true/false.
	flag := map[string]string{"1": "true", "0": "false"}
	k := 0
	for rd.Scan() {
		w := rd.Record().Fields
		for j := range w {
			exp := w[j]
			if h[j] == "blank_response" || h[j] == "empty_golden" {
				exp = flag[exp]
			}
			if got[k][j] != exp {
				t.Fatalf("row %d column %s: %q, want %q", k+1, h[j], got[k][j], exp)
			}
		}
		k++
	}
	if err := rd.Err(); err != nil || k != len(got) {
		t.Fatalf("%d rows read back, %d in the CSV (%v)", len(got), k, err)
	}
}

// A missing verdict (NaN: a judge's invalid reply) is a null, not 0.
func TestNaNIsNull(t *testing.T) {
	s := results.NewRowSchema([]string{"question"}, []string{"judge"}, []bool{true}, false, nil)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{0.25, math.NaN(), 1} {
		if err := w.Write(&results.Row{Schema: s, Fields: []string{"q"}, Values: []float64{v}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, got := readBack(t, buf.Bytes())
	var col []string
	for _, r := range got {
		col = append(col, r[1])
	}
	if strings.Join(col, ",") != "0.25,,1" {
		t.Errorf("judge column %q, want 0.25, null (empty), 1", col)
	}
}

func TestWriterSchemaErrors(t *testing.T) {
	s := results.NewRowSchema([]string{"question", "exact_substring"}, []string{"exact_substring"}, []bool{false}, false, nil)
	if _, err := NewWriter(io.Discard, s, WriteOptions{}); err == nil || !strings.Contains(err.Error(), `two columns named "exact_substring"`) {
		t.Errorf("duplicate column: %v", err)
	}
	s = results.NewRowSchema([]string{"question"}, []string{"m"}, []bool{false}, false, nil)
	if _, err := NewWriter(io.Discard, s, WriteOptions{Omit: []string{"model"}}); err == nil || !strings.Contains(err.Error(), `no input column "model"`) {
		t.Errorf("omit unknown: %v", err)
	}
	if _, err := WriteRows(io.Discard, seqOf(nil), WriteOptions{}); err == nil {
		t.Error("no rows: want an error")
	}
	bad := errors.New("bad input")
	_, err := WriteRows(io.Discard, func(yield func(*results.Row, error) bool) { yield(nil, bad) }, WriteOptions{})
	if !errors.Is(err, bad) {
		t.Errorf("the sequence's error: %v", err)
	}
}

// Hive's escaping, by hand from FileUtils.escapePathName's list.
func TestHiveEscape(t *testing.T) {
	for in, want := range map[string]string{
		"gpt-4o":       "gpt-4o",
		"gpt/4o:mini":  "gpt%2F4o%3Amini",
		"llama=3 50%":  "llama%3D3 50%25",
		"हिन्दी":       "हिन्दी",
		"a\tb\x7f":     "a%09b%7F",
		`"#'*?\{[]^`:   "%22%23%27%2A%3F%5C%7B%5B%5D%5E",
		"":             HiveNull,
		"..":           "..",
		"plain_name.1": "plain_name.1",
		// additions: the literal null name is not the empty value's
		// folder, and a bidi control (U+202E is E2 80 AE in UTF-8), a
		// zero-width space (E2 80 8B) and a stray byte are escaped
		HiveNull:           "%5F_HIVE_DEFAULT_PARTITION__",
		"_" + HiveNull:     "_" + HiveNull,
		"abc\u202Egnp.exe": "abc%E2%80%AEgnp.exe",
		"a\u200Bb":         "a%E2%80%8Bb",
		"x\xffy":           "x%FFy",
	} {
		if got := HiveEscape(in); got != want {
			t.Errorf("HiveEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// partitionCounts reads every file under dir and counts rows per
// partition directory, checking the files have no partition column.
func partitionCounts(t *testing.T, dir string, by []string) (map[string]int, int) {
	t.Helper()
	counts := map[string]int{}
	files := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		rel, _ := filepath.Rel(dir, filepath.Dir(p))
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h, rows := readBack(t, data)
		for _, b := range by {
			if slices.Contains(h, b) {
				t.Errorf("%s holds the partition column %s", p, b)
			}
		}
		counts[filepath.ToSlash(rel)] += len(rows)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts, files
}

func TestPartitionedFolder(t *testing.T) {
	all := scoredRows(t, responsesCSV(600))
	for _, tc := range []struct {
		name      string
		n         int
		opt       DirOptions
		moreFiles bool
	}{
		{"default", 600, DirOptions{By: []string{"model", "language"}}, false},
		// One file open at a time and rows interleaved over partitions:
		// each partition gets several files, no row is lost.
		{"maxopen1", 60, DirOptions{By: []string{"model", "language"}, MaxOpen: 1, RowGroupRows: 7}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := all[:tc.n]
			want := map[string]int{}
			for _, r := range rows {
				m, _ := r.Field("model")
				l, _ := r.Field("language")
				want["model="+HiveEscape(m)+"/language="+HiveEscape(l)]++
			}
			dir := filepath.Join(t.TempDir(), "verdicts")
			res, err := WriteDir(dir, seqOf(rows), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, files := partitionCounts(t, dir, tc.opt.By)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("rows per partition:\n%v\nwant\n%v", got, want)
			}
			if res.Rows != int64(tc.n) || res.Partitions != len(want) || res.Files != files {
				t.Errorf("result %+v: want %d rows, %d partitions, %d files", res, tc.n, len(want), files)
			}
			if tc.moreFiles != (files > len(want)) {
				t.Errorf("%d files for %d partitions", files, len(want))
			}
			leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".verdicts.partial-*"))
			if len(leftovers) != 0 {
				t.Errorf("temporary folders left: %v", leftovers)
			}
		})
	}
}

func TestPartitionedFolderErrors(t *testing.T) {
	rows := scoredRows(t, responsesCSV(20))
	base := t.TempDir()
	full := filepath.Join(base, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "old.parquet"), []byte("x"), 0o644)
	if _, err := WriteDir(full, seqOf(rows), DirOptions{By: []string{"model"}}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty target: %v", err)
	}
	if _, err := WriteDir(filepath.Join(base, "x"), seqOf(rows), DirOptions{By: []string{"modle"}}); err == nil || !strings.Contains(err.Error(), `"modle"`) {
		t.Errorf("unknown column: %v", err)
	}
	// Bad input after some rows: no folder, no temporary folder.
	bad := errors.New("bad record")
	seq := func(yield func(*results.Row, error) bool) {
		for _, r := range rows[:5] {
			yield(r, nil)
		}
		yield(nil, bad)
	}
	target := filepath.Join(base, "v")
	if _, err := WriteDir(target, seq, DirOptions{By: []string{"model"}}); !errors.Is(err, bad) {
		t.Errorf("the input's error: %v", err)
	}
	entries, _ := os.ReadDir(base)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "full" {
		t.Errorf("after a failed write the folder holds %v, want only the old full/", names)
	}
	// An empty directory is a fine target.
	empty := filepath.Join(base, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := WriteDir(empty, seqOf(rows), DirOptions{By: []string{"language"}}); err != nil {
		t.Errorf("empty target: %v", err)
	}
}

// An empty value and a literal __HIVE_DEFAULT_PARTITION__ are two
// partitions (they shared one folder, as in Hive, and so one group):
// the literal's folder is %5F_HIVE_DEFAULT_PARTITION__.
func TestHiveNullDistinct(t *testing.T) {
	csv := "question,answer,Domain,response,language\nq1,a,d,a,\nq2,a,d,a," + HiveNull + "\nq3,a,d,b,\n"
	dir := filepath.Join(t.TempDir(), "v")
	res, err := WriteDir(dir, qa.Rows(context.Background(), strings.NewReader(csv), "c.csv", qa.Options{}), DirOptions{By: []string{"language"}})
	if err != nil {
		t.Fatal(err)
	}
	got, files := partitionCounts(t, dir, []string{"language"})
	if res.Partitions != 2 || files != 2 || got["language="+HiveNull] != 2 || got["language=%5F_HIVE_DEFAULT_PARTITION__"] != 1 {
		t.Errorf("result %+v, %d files, counts %v: want the empty value's 2 rows and the literal's 1 apart", res, files, got)
	}
}

func TestTableWriter(t *testing.T) {
	var buf bytes.Buffer
	tw, err := NewTableWriter(&buf, []string{"task", "response"}, []string{"em"}, WriteOptions{RowGroupRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Write([]string{"t", ""}, []bool{false, true}, []float64{1}); err != nil {
		t.Fatal(err)
	}
	if err := tw.Write([]string{"t", "x"}, nil, []float64{math.NaN()}); err != nil {
		t.Fatal(err)
	}
	if err := tw.Write([]string{"t"}, nil, nil); err == nil {
		t.Error("a short row: want an error")
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	h, rows := readBack(t, buf.Bytes())
	if fmt.Sprint(h, rows) != "[task response em] [[t  1] [t x ]]" {
		t.Errorf("read back %v %v", h, rows)
	}
	if _, err := NewTableWriter(io.Discard, []string{"a"}, []string{"a"}, WriteOptions{}); err == nil {
		t.Error("a repeated column: want an error")
	}
}

// The sinks behind `score --out x.parquet` and `--out-dir`: one Score
// feeds both through Options.Rows, and both hold every row.
func TestSinks(t *testing.T) {
	csv := responsesCSV(90)
	var buf bytes.Buffer
	fs := NewFileSink(&buf, WriteOptions{})
	dir := filepath.Join(t.TempDir(), "v")
	ds, err := NewDirSink(dir, DirOptions{By: []string{"model"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := qa.Score(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{Rows: func(r *qa.Row) error {
		if err := fs.Row(r); err != nil {
			return err
		}
		return ds.Row(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	dr, err := ds.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readBack(t, buf.Bytes())
	if len(rows) != res.Combined.N || dr.Rows != int64(res.Combined.N) || dr.Partitions != 3 {
		t.Errorf("file %d rows, folder %+v, scored %d", len(rows), dr, res.Combined.N)
	}
	if err := NewFileSink(io.Discard, WriteOptions{}).Close(); err == nil {
		t.Error("a sink without rows: want an error")
	}
	if _, err := NewDirSink(dir, DirOptions{By: []string{"model"}}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a sink on a full folder: %v", err)
	}
}

// A target that is a symbolic link to an empty folder is written
// through: the link stays a link and the folder it names holds the
// partitions (before, the link was replaced by a real folder and its
// target left empty), with the folder's permission bits kept. A link to
// a folder that does not exist is refused, naming the link.
func TestDirThroughSymlink(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "store", "verdicts")
	if err := os.MkdirAll(target, 0o750); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "out")
	if err := os.Symlink(filepath.Join("store", "verdicts"), link); err != nil { // relative, as ln -s makes them
		t.Fatal(err)
	}
	csv := "question,answer,Domain,response,language\nq1,a,d,a,hi\nq2,a,d,a,bn\nq3,a,d,b,hi\n"
	res, err := WriteDir(link, qa.Rows(context.Background(), strings.NewReader(csv), "c.csv", qa.Options{}), DirOptions{By: []string{"language"}})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a link: %v %v", link, fi.Mode(), err)
	}
	got, files := partitionCounts(t, target, []string{"language"})
	if res.Partitions != 2 || files != 2 || got["language=hi"] != 2 || got["language=bn"] != 1 {
		t.Errorf("the link's target holds %v in %d files (result %+v); want hi 2, bn 1", got, files, res)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("the target's mode is %v (%v), want 0750 kept", fi.Mode().Perm(), err)
	}
	if ents, _ := os.ReadDir(base); len(ents) != 2 {
		t.Errorf("%d entries beside the link (a temporary folder left?): %v", len(ents), ents)
	}

	dangling := filepath.Join(base, "nowhere")
	if err := os.Symlink(filepath.Join(base, "missing"), dangling); err != nil {
		t.Fatal(err)
	}
	_, err = WriteDir(dangling, qa.Rows(context.Background(), strings.NewReader(csv), "c.csv", qa.Options{}), DirOptions{By: []string{"language"}})
	if err == nil || !strings.Contains(err.Error(), dangling) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a dangling link: %v", err)
	}
}
