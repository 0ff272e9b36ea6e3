package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/evalbook/evalbook/pkg/parquetio"
)

// TestScoreParquetOutputs: score --out v.parquet writes the 284 verdict
// rows of the sample as Parquet, --out-dir with --partition-by a folder
// per language (hi, bn, en) holding them all, and scoring the Parquet file
// again gives the sample's figures (187 of 284 pass exact_substring).
func TestScoreParquetOutputs(t *testing.T) {
	dir := t.TempDir()
	out, folder := filepath.Join(dir, "v.parquet"), filepath.Join(dir, "vd")
	_, stderr, code := runCLI(t, "score", "--out", out, "--out-dir", folder, "--partition-by", "language")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote 284 rows in 3 files to "+folder+" (partitioned by language)") {
		t.Errorf("stderr: %s", stderr)
	}
	rows := func(path string) int {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, err := parquetio.Open(bytes.NewReader(b), path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, _, err := src.Next(); err == io.EOF {
				return n
			} else if err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	if n := rows(out); n != 284 {
		t.Errorf("%s holds %d rows, want 284", out, n)
	}
	parts, _ := filepath.Glob(filepath.Join(folder, "language=*", "*.parquet"))
	total := 0
	for _, p := range parts {
		total += rows(p)
	}
	if len(parts) != 3 || total != 284 {
		t.Errorf("partitions %v hold %d rows, want 3 files and 284", parts, total)
	}
	text, stderr, code := runCLI(t, "score", "--responses", out, "--by", "", "--examples", "0")
	if code != 0 || !strings.Contains(text, "187  65.8%") {
		t.Errorf("score of the Parquet verdicts: exit %d\n%s\n%s", code, text, stderr)
	}
	if _, stderr, code := runCLI(t, "score", "--out-dir", folder); code != 2 || !strings.Contains(stderr, "--out-dir and --partition-by go together") {
		t.Errorf("--out-dir alone: exit %d, %s", code, stderr)
	}
}

// --parquet-compression picks the codec of the Parquet pages: the same
// rows, the uncompressed file larger than the Snappy one; an unknown
// codec is a usage error.
func TestScoreParquetCompression(t *testing.T) {
	dir := t.TempDir()
	size := map[string]int64{}
	for _, c := range []string{"snappy", "zstd", "none"} {
		out := filepath.Join(dir, c+".parquet")
		if _, stderr, code := runCLI(t, "score", "--out", out, "--parquet-compression", c); code != 0 {
			t.Fatalf("%s: exit %d: %s", c, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		size[c] = int64(len(b))
		src, err := parquetio.Open(bytes.NewReader(b), out)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, _, err := src.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != 284 {
			t.Errorf("%s: %d rows, want 284", c, n)
		}
	}
	if size["none"] <= size["snappy"] || size["none"] <= size["zstd"] {
		t.Errorf("file sizes %v: the uncompressed file should be the largest", size)
	}
	if _, stderr, code := runCLI(t, "score", "--out", filepath.Join(dir, "x.parquet"), "--parquet-compression", "lzo"); code != 2 {
		t.Errorf("--parquet-compression lzo: exit %d, want 2 (%s)", code, stderr)
	}
}

// --parquet-row-group-rows sets the rows of --out FILE.parquet's row
// groups: the sample's 284 rows in groups of 100 are three groups, of 100,
// 100 and 84 (by default, one); a negative size, or the flag without a
// Parquet --out, is a usage error.
func TestScoreParquetRowGroupRows(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []int64
	}{{nil, []int64{284}}, {[]string{"--parquet-row-group-rows", "100"}, []int64{100, 100, 84}}} {
		out := filepath.Join(dir, strings.Join(append([]string{"v"}, c.args...), "")+".parquet")
		if _, stderr, code := runCLI(t, append([]string{"score", "--out", out}, c.args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := file.NewParquetReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for g := range pf.NumRowGroups() {
			got = append(got, pf.MetaData().RowGroup(g).NumRows())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v: row groups of %v rows, want %v", c.args, got, c.want)
		}
	}
	for _, args := range [][]string{
		{"--out", filepath.Join(dir, "x.parquet"), "--parquet-row-group-rows", "-1"},
		{"--out", filepath.Join(dir, "x.csv"), "--parquet-row-group-rows", "100"},
		{"--parquet-row-group-rows", "100"},
	} {
		if _, stderr, code := runCLI(t, append([]string{"score"}, args...)...); code != 2 || !strings.Contains(stderr, "--parquet-row-group-rows") {
			t.Errorf("%v: exit %d, want 2 naming the flag (%s)", args, code, stderr)
		}
	}
}
