package output

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
)

const table = "question,answer,Domain,response,model\n" +
	"q1,Delhi,geo,Delhi,a\n" +
	"q2,Paris,geo,Rome,a\n" +
	"q3,Tagore,lit,Tagore,b\n"

func score(t *testing.T, o *Rows) *qa.Options {
	t.Helper()
	var opt qa.Options
	o.Attach(&opt)
	return &opt
}

// One run writes the verdict CSV, a partitioned folder and a spool at
// once. The files go in place once every row is out (Deliver, from
// qa.Options.Delivered), and Commit says what they were.
func TestRowsCommit(t *testing.T) {
	dir := t.TempDir()
	out, parts := filepath.Join(dir, "v.csv"), filepath.Join(dir, "parts")
	o, err := OpenRows(RowOptions{Out: out, Dir: parts, By: []string{"model"}, Spool: true})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	opt := score(t, o)
	res, err := qa.Score(context.Background(), strings.NewReader(table), "t.csv", *opt)
	if err != nil {
		t.Fatal(err)
	}
	said, err := o.Commit(res)
	if err != nil {
		t.Fatal(err)
	}
	// 3 rows over models a and b: two partition files.
	if len(said) != 1 || said[0] != "3 rows in 2 files to "+parts+" (partitioned by model)" {
		t.Errorf("said %q", said)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 4 { // header + 3 rows
		t.Errorf("verdict CSV has %d lines, want 4:\n%s", n, data)
	}
	if got := o.Wrote(); got != "verdicts for 3 rows to "+out {
		t.Errorf("Wrote() = %q", got)
	}
	// Out is a CSV file: reports read it, there is no spool.
	if v, err := o.VerdictCSV(); err != nil || v != out || o.Spooled() {
		t.Errorf("VerdictCSV() = %q, %v; spooled %v", v, err, o.Spooled())
	}
	for _, m := range []string{"a", "b"} {
		if fs, _ := filepath.Glob(filepath.Join(parts, "model="+m, "*.parquet")); len(fs) != 1 {
			t.Errorf("model=%s: %d Parquet files", m, len(fs))
		}
	}
}

// With Parquet out and reports asked for, the verdict CSV is a spool
// that Close removes; a run that fails before Commit leaves no file.
func TestRowsSpoolAndAbort(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "v.parquet")
	o, err := OpenRows(RowOptions{Out: out, Spool: true})
	if err != nil {
		t.Fatal(err)
	}
	opt := score(t, o)
	res, err := qa.Score(context.Background(), strings.NewReader(table), "t.csv", *opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Commit(res); err != nil {
		t.Fatal(err)
	}
	spool, err := o.VerdictCSV()
	if err != nil || !o.Spooled() {
		t.Fatalf("VerdictCSV() = %q, %v; spooled %v", spool, err, o.Spooled())
	}
	if b, err := os.ReadFile(spool); err != nil || bytes.Count(b, []byte("\n")) != 4 {
		t.Errorf("spool %s: %v, %d lines", spool, err, bytes.Count(b, []byte("\n")))
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.HasPrefix(b, []byte("PAR1")) {
		t.Errorf("%s is not a Parquet file (%v)", out, err)
	}
	o.Close()
	if _, err := os.Stat(spool); !os.IsNotExist(err) {
		t.Errorf("spool %s outlives Close (%v)", spool, err)
	}

	failed := filepath.Join(dir, "never.csv")
	o2, err := OpenRows(RowOptions{Out: failed})
	if err != nil {
		t.Fatal(err)
	}
	o2.Close() // the run failed: no Commit
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left behind after an aborted run: %v", names)
	}
}

// overOldFile opens the rows of a run whose verdict file v.csv, in a
// new folder dir, replaces a file that holds "old\n" with mode perm.
func overOldFile(t *testing.T, perm os.FileMode) (dir, out string, o *Rows) {
	t.Helper()
	dir = t.TempDir()
	out = filepath.Join(dir, "v.csv")
	if err := os.WriteFile(out, []byte("old\n"), perm); err != nil {
		t.Fatal(err)
	}
	o, err := OpenRows(RowOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	return dir, out, o
}

// A run that fails on a bad record puts nothing in place and leaves the
// file it would have replaced as it was, though its rows before the
// bad one were written to the temporary file: Delivered never came.
func TestRowsFailedRunKeepsOldFile(t *testing.T) {
	dir, out, o := overOldFile(t, 0o644)
	opt := score(t, o)
	bad := table + "q4,Agra,geo,\"Agra\n" // a quote never closed
	if _, err := qa.Score(context.Background(), strings.NewReader(bad), "t.csv", *opt); err == nil {
		t.Fatal("Score took a quote that is never closed")
	}
	o.Close()
	if b, err := os.ReadFile(out); err != nil || string(b) != "old\n" {
		t.Fatalf("%s after a failed run: %q, %v", out, b, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries in %s after a failed run, want the old file alone", len(ents), dir)
	}
}

// A run that replaces a verdict file: Commit, after the background
// commits Deliver started, finds the new file in place and no file set
// aside; Close after Commit removes nothing.
func TestRowsDeliverReplaces(t *testing.T) {
	dir, out, o := overOldFile(t, 0o600)
	opt := score(t, o)
	delivered := 0
	opt.Delivered = func() { delivered++; o.Deliver() } // counted, then as Attach set it
	res, err := qa.Score(context.Background(), strings.NewReader(table), "t.csv", *opt)
	if err != nil {
		t.Fatal(err)
	}
	if delivered != 1 {
		t.Fatalf("Delivered called %d times, want 1", delivered)
	}
	if _, err := o.Commit(res); err != nil {
		t.Fatal(err)
	}
	o.Close()
	b, err := os.ReadFile(out)
	if err != nil || bytes.Count(b, []byte("\n")) != 4 {
		t.Fatalf("%s: %v, %q", out, err, b)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v (%v), want the old file's 0600", out, fi.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries in %s, want the verdict file alone", len(ents), dir)
	}
}

// An Every Eval Ever export needs its model id; a folder with no partition column is a DirError.
func TestOpenRowsErrors(t *testing.T) {
	if _, err := OpenRows(RowOptions{Out: filepath.Join(t.TempDir(), "x.eee.json")}); err == nil || !strings.Contains(err.Error(), "model id") {
		t.Errorf("EEE without model: %v", err)
	}
	_, err := OpenRows(RowOptions{Dir: filepath.Join(t.TempDir(), "p")})
	if _, ok := err.(*DirError); !ok {
		t.Errorf("no partition column: %T %v, want *DirError", err, err)
	}
}

// The row outputs copy what they keep, so Attach lets qa hand them views
// of its input (qa.Options.RowsCopy), but not when the caller's own
// callback, which may keep strings, is on the chain.
func TestAttachRowsCopy(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		caller bool
		want   bool
	}{{"outputs only", false, true}, {"a caller's callback first", true, false}} {
		o, err := OpenRows(RowOptions{Out: filepath.Join(dir, c.name+".parquet")})
		if err != nil {
			t.Fatal(err)
		}
		var opt qa.Options
		var kept []string
		if c.caller {
			opt.Rows = func(r *qa.Row) error { kept = append(kept, r.Fields...); return nil }
		}
		o.Attach(&opt)
		if opt.RowsCopy != c.want {
			t.Errorf("%s: RowsCopy %v, want %v", c.name, opt.RowsCopy, c.want)
		}
		res, err := qa.Score(context.Background(), strings.NewReader(table), "t.csv", opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Commit(res); err != nil {
			t.Fatal(err)
		}
		o.Close()
		if c.caller && (len(kept) != 15 || kept[0] != "q1" || kept[14] != "b") {
			t.Errorf("%s: the caller kept %q", c.name, kept)
		}
	}
}
