package nb

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
)

// cacheTest points Cache at a fresh folder and collects its warnings.
func cacheTest(t *testing.T) (dir string, warnings *bytes.Buffer) {
	t.Helper()
	dir = t.TempDir()
	t.Setenv(CacheEnv, dir)
	warnings = &bytes.Buffer{}
	old := Err
	Err = warnings
	t.Cleanup(func() { Err = old })
	return dir, warnings
}

// counter returns a compute function that returns v and counts its calls.
func counter[T any](v T) (func() (T, error), *int) {
	n := new(int)
	return func() (T, error) { *n++; return v, nil }, n
}

type scores struct {
	Lang  string
	Hits  []int
	Rates map[string]float64
}

// TestCacheHitMiss: the first call computes and keeps the value, the
// second (as a later cell would) reads it back without computing; another
// key computes again.
func TestCacheHitMiss(t *testing.T) {
	dir, warn := cacheTest(t)
	want := scores{"bn", []int{39, 50}, map[string]float64{"em": 0.5, "f1": 0.625}}
	compute, calls := counter(want)
	if got := Cache("bn", compute); !reflect.DeepEqual(got, want) {
		t.Fatalf("first call: %+v", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.gob"))
	if *calls != 1 || len(files) != 1 {
		t.Fatalf("after the first call: %d computations, files %v", *calls, files)
	}
	// A later cell program: nothing in memory, only the file.
	never := func() (scores, error) { return scores{}, errors.New("computed again") }
	got, err := Cached("bn", never)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("second call: %+v, %v", got, err)
	}
	if _, err := Cached("en", never); err == nil || err.Error() != "computed again" {
		t.Errorf("another key: %v, want it computed", err)
	}
	if warn.Len() != 0 {
		t.Errorf("warnings: %q", warn.String())
	}
	// Forget drops the value; forgetting twice is fine.
	if err := Forget("bn"); err != nil {
		t.Fatal(err)
	}
	if err := Forget("bn"); err != nil {
		t.Fatal(err)
	}
	if _, err := Cached("bn", never); err == nil {
		t.Error("after Forget the value was still kept")
	}
}

// TestCacheDeps: a value is computed again when a file it depends on
// changes, and not when the file is written again with the same bytes;
// a folder counts every file under it.
func TestCacheDeps(t *testing.T) {
	_, warn := cacheTest(t)
	data := t.TempDir()
	file := filepath.Join(data, "responses.csv")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(file, "id,answer\n1,Delhi\n")
	n := 0
	compute := func() (int, error) { n++; return n, nil }
	if v := Cache("rows", compute, file); v != 1 {
		t.Fatalf("first: %d", v)
	}
	if v := Cache("rows", compute, file); v != 1 {
		t.Errorf("same file: computed again (%d)", v)
	}
	write(file, "id,answer\n1,Delhi\n")
	if v := Cache("rows", compute, file); v != 1 {
		t.Errorf("same bytes written again: computed again (%d)", v)
	}
	write(file, "id,answer\n1,New Delhi\n")
	if v := Cache("rows", compute, file); v != 2 {
		t.Errorf("changed file: got %d, want a new computation (2)", v)
	}
	// A folder: adding a file under it changes the value's inputs.
	if v := Cache("dir", compute, data); v != 3 {
		t.Fatalf("folder, first: %d", v)
	}
	if v := Cache("dir", compute, data); v != 3 {
		t.Errorf("folder unchanged: computed again (%d)", v)
	}
	write(filepath.Join(data, "labels.csv"), "id,label\n")
	if v := Cache("dir", compute, data); v != 4 {
		t.Errorf("file added to the folder: got %d, want 4", v)
	}
	// A missing dependency is an error that names it, and computes nothing.
	_, err := Cached("gone", compute, filepath.Join(data, "missing.csv"))
	if err == nil || !strings.Contains(err.Error(), "missing.csv") || n != 4 {
		t.Errorf("missing dependency: %v (computations %d)", err, n)
	}
	if warn.Len() != 0 {
		t.Errorf("warnings: %q", warn.String())
	}
}

// TestCacheTypeChange: a notebook that redefines its type (a field added,
// same name) gets the value computed again, not decoded into the new type.
func TestCacheTypeChange(t *testing.T) {
	_, warn := cacheTest(t)
	{
		type row struct{ ID string }
		v := Cache("rows", func() ([]row, error) { return []row{{"q1"}}, nil })
		if len(v) != 1 {
			t.Fatal(v)
		}
	}
	{
		type row struct {
			ID    string
			Score float64
		}
		n := 0
		v := Cache("rows", func() ([]row, error) { n++; return []row{{"q1", 0.5}}, nil })
		if n != 1 || v[0].Score != 0.5 {
			t.Errorf("redefined type: computed %d times, value %+v", n, v)
		}
	}
	// Another type altogether under the same key.
	n := 0
	if v := Cache("rows", func() (string, error) { n++; return "text", nil }); v != "text" || n != 1 {
		t.Errorf("string under the key of a slice: %q, computed %d times", v, n)
	}
	if warn.Len() != 0 {
		t.Errorf("warnings: %q", warn.String())
	}
}

// TestCacheDamaged: a damaged cache file (garbage, or cut short after a
// good header) is a warning and a fresh computation, never a panic, and
// the file is rewritten so the next call reads it.
func TestCacheDamaged(t *testing.T) {
	dir, warn := cacheTest(t)
	want := scores{"hi", []int{1, 2, 3}, map[string]float64{"em": 0.75}}
	compute, calls := counter(want)
	Cache("hi", compute)
	file := filepath.Join(dir, cacheFileName("hi"))
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{[]byte("not a gob file\n"), good[:len(good)-5], {}} {
		if err := os.WriteFile(file, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		warn.Reset()
		before := *calls
		if got := Cache("hi", compute); !reflect.DeepEqual(got, want) || *calls != before+1 {
			t.Errorf("damaged file (%d bytes): %+v, computed %d times", len(bad), got, *calls-before)
		}
		if !strings.Contains(warn.String(), "is damaged") || !strings.Contains(warn.String(), "computing again") {
			t.Errorf("damaged file (%d bytes): warning %q", len(bad), warn.String())
		}
		warn.Reset()
		if Cache("hi", compute); *calls != before+1 || warn.Len() != 0 {
			t.Errorf("after the damaged file was rewritten: computed again or warned %q", warn.String())
		}
	}
}

// TestCacheNotStorable: a type gob cannot keep whole is computed each
// time with a warning that says why; nothing is written.
func TestCacheNotStorable(t *testing.T) {
	dir, warn := cacheTest(t)
	type hidden struct {
		Name  string
		count int
	}
	compute, calls := counter(hidden{"a", 2})
	for range 2 {
		if v := Cache("h", compute); v.count != 2 {
			t.Errorf("value %+v", v)
		}
	}
	if *calls != 2 || !strings.Contains(warn.String(), "unexported field count") {
		t.Errorf("computed %d times, warning %q", *calls, warn.String())
	}
	warn.Reset()
	df := dataframe.LoadRecords([][]string{{"id"}, {"1"}})
	if got := Cache("df", func() (dataframe.DataFrame, error) { return df, nil }); got.Nrow() != 1 {
		t.Errorf("DataFrame: %d rows", got.Nrow())
	}
	if !strings.Contains(warn.String(), "dataframe.DataFrame") {
		t.Errorf("DataFrame: warning %q", warn.String())
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.gob")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// TestCacheErrors: compute's error comes back from Cached and stops the
// cell in Cache, as Must does; nothing is kept, so the next call computes.
func TestCacheErrors(t *testing.T) {
	_, warn := cacheTest(t)
	oldExit := exit
	exit = func(code int) { panic(stopped(code)) }
	t.Cleanup(func() { exit = oldExit })
	failing := func() (int, error) { return 0, errors.New("responses.csv: line 3: bare quote") }
	if _, err := Cached("x", failing); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("Cached: %v", err)
	}
	code := func() (code int) {
		defer func() {
			if r := recover(); r != nil {
				code = int(r.(stopped))
			}
		}()
		Cache("x", failing)
		return -1
	}()
	if code != 1 || !strings.Contains(warn.String(), "error: responses.csv: line 3") {
		t.Errorf("Cache: exit %d, stderr %q", code, warn.String())
	}
	if v := Cache("x", func() (int, error) { return 7, nil }); v != 7 {
		t.Errorf("after an error: %d, want a fresh computation", v)
	}
	if _, err := Cached("", failing); err == nil {
		t.Error("an empty key was accepted")
	}
}

// TestCacheScore: the library's score result is kept whole: the value
// read back equals the one computed.
func TestCacheScore(t *testing.T) {
	_, warn := cacheTest(t)
	res, _ := sample(t)
	if why := storable(reflect.TypeFor[*results.Score]()); why != "" {
		t.Fatalf("*results.Score cannot be kept: %s", why)
	}
	Cache("score", func() (*results.Score, error) { return res, nil })
	got := Cache("score", func() (*results.Score, error) { return nil, errors.New("computed again") })
	if !reflect.DeepEqual(got, res) {
		t.Errorf("read back:\n%+v\nwant\n%+v", got, res)
	}
	if warn.Len() != 0 {
		t.Errorf("warnings: %q", warn.String())
	}
}

// TestCacheDir: $EVALBOOK_NB_CACHE wins; under GoNB the kernel's scratch
// folder, which lives as long as the kernel.
func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "")
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_1234")
	if d, err := CacheDir(); err != nil || d != filepath.Join("/tmp/gonb_1234", ".evalbook-cache") {
		t.Errorf("under GoNB: %q, %v", d, err)
	}
	t.Setenv(CacheEnv, "/somewhere")
	if d, _ := CacheDir(); d != "/somewhere" {
		t.Errorf("with %s: %q", CacheEnv, d)
	}
}

// BenchmarkCacheScore compares scoring the sample with reading the kept
// score back (what a later cell does): go test -bench Cache ./pkg/nb/
func BenchmarkCacheScore(b *testing.B) {
	b.Setenv(CacheEnv, b.TempDir())
	compute := func() (*results.Score, error) {
		return qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{})
	}
	b.Run("compute", func(b *testing.B) {
		for b.Loop() {
			if _, err := compute(); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := Cached("score", compute); err != nil {
		b.Fatal(err)
	}
	b.Run("hit", func(b *testing.B) {
		for b.Loop() {
			if _, err := Cached("score", compute); err != nil {
				b.Fatal(err)
			}
		}
	})
}
