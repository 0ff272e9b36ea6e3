package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Six cases, the new table in another order. By hand:
//
//	case  group  old  new
//	q1    b      0    1    better
//	q2    a      0    1    better
//	q3    b      0    1    better
//	q4    a      1    1
//	q5    b      1    1
//	q6    a      1    0    worse
//
// n = 6, old passes 3 (0.5), new 5 (0.8333), change 5/6 − 3/6 = 1/3.
// Flips: 3 better (q1, q2, q3), 1 worse (q6), 2 unchanged.
// Sign test: m = 4, k = 1, P(X ≤ 1) = (1 + 4)/16, p = 2 · 5/16 = 0.625.
// McNemar: χ² = (|3 − 1| − 1)²/4 = 0.25, p = erfc(√0.125) = 0.617075.
// Wilson at 95% (z = 1.959964, z² = 3.841459, 1 + z²/6 = 1.640243):
//
//	3/6: centre (0.5 + 0.320122)/1.640243 = 0.5,
//	     half 1.194923 · √(0.25/6 + 3.841459/144) = 0.312384 → 0.187616 to 0.812384
//	5/6: centre (0.833333 + 0.320122)/1.640243 = 0.703222,
//	     half 1.194923 · √(0.138889/6 + 0.026677) = 0.266725 → 0.436497 to 0.969947
//
// Groups, sorted: a = q2, q4, q6: old 2/3, new 2/3, 1 better, 1 worse;
// b = q1, q3, q5: old 1/3, new 3/3, 2 better, 0 worse.
// Warnings: the change's bootstrap is over 6 pairs (< stats.MinBootstrapN),
// 4 flips are fewer than 25, and there are 2 groups.
const (
	sixOld = "id,group,pass\nq1,b,0\nq2,a,0\nq3,b,0\nq4,a,1\nq5,b,1\nq6,a,1\n"
	sixNew = "id,group,pass\nq6,a,0\nq5,b,1\nq4,a,1\nq3,b,1\nq2,a,1\nq1,b,1\n"
)

func near(a, b float64) bool { return math.Abs(a-b) < 5e-7 }

func TestReadByHand(t *testing.T) {
	c, err := Read(strings.NewReader(sixOld), "old.csv", strings.NewReader(sixNew), "new.csv", Options{By: "group", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s -> %s key %s metric %s n %d pass %d -> %d better %v worse %v unchanged %d ci %s %v %d seed %d",
		c.OldFile, c.NewFile, c.Key, c.Metric, c.N, c.OldPass, c.NewPass, c.Better, c.Worse, c.Unchanged, c.CI, c.Confidence, c.Resamples, c.Seed)
	want := "old.csv -> new.csv key id metric pass n 6 pass 3 -> 5 better [q1 q2 q3] worse [q6] unchanged 2 ci wilson 0.95 10000 seed 1"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"old", c.Old, 0.5}, {"new", c.New, 5.0 / 6}, {"diff", c.Diff, 1.0 / 3},
		{"p sign", c.PSign, 0.625}, {"p McNemar", c.PMcNemar, 0.617075},
		{"old low", c.OldCILow, 0.187616}, {"old high", c.OldCIHigh, 0.812384},
		{"new low", c.NewCILow, 0.436497}, {"new high", c.NewCIHigh, 0.969947},
	} {
		if !near(f.got, f.want) {
			t.Errorf("%s = %.7f, want %.6f", f.name, f.got, f.want)
		}
	}
	// The change's interval is the paired bootstrap with seed Seed+2 (the
	// documented stream), and holds the change.
	d := stats.PairedBootstrapDiffInterval([]float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0}, 10000, 0.95, 3)
	if c.DiffCILow != d.Lo || c.DiffCIHigh != d.Hi || !(d.Lo <= c.Diff && c.Diff <= d.Hi) {
		t.Errorf("change interval %v to %v, want %v to %v around %v", c.DiffCILow, c.DiffCIHigh, d.Lo, d.Hi, c.Diff)
	}
	// Each version's interval within a group is Wilson's at the
	// comparison's confidence (the per-group figures of the page).
	w := func(k, n int) (float64, float64) { return stats.Wilson(k, n, 0.95) }
	a2lo, a2hi := w(2, 3)
	b1lo, b1hi := w(1, 3)
	b3lo, b3hi := w(3, 3)
	// By hand, z = 1.959964: 2 of 3 gives centre (2/3 + z²/6)/(1 + z²/3)
	// = 0.573084 and half-width z·√(2/27 + z²/36)/(1 + z²/3) = 0.365424.
	if !near(a2lo, 0.2076596) || !near(a2hi, 0.9385081) {
		t.Errorf("Wilson 2 of 3: %v to %v, want 0.2076596 to 0.9385081", a2lo, a2hi)
	}
	wantGroups := []results.ComparisonGroup{
		{Group: "a", N: 3, OldPass: 2, NewPass: 2, Old: 2.0 / 3, New: 2.0 / 3, Better: 1, Worse: 1, OldCILow: a2lo, OldCIHigh: a2hi, NewCILow: a2lo, NewCIHigh: a2hi},
		{Group: "b", N: 3, OldPass: 1, NewPass: 3, Old: 1.0 / 3, New: 1, Better: 2, Worse: 0, OldCILow: b1lo, OldCIHigh: b1hi, NewCILow: b3lo, NewCIHigh: b3hi},
	}
	if fmt.Sprint(c.Groups) != fmt.Sprint(wantGroups) {
		t.Errorf("groups %v\nwant   %v", c.Groups, wantGroups)
	}
	var codes []string
	for _, w := range c.Warnings {
		codes = append(codes, fmt.Sprintf("%s %d: %s", w.Code, w.Count, w.Message))
	}
	wantW := []string{
		"few_resampled 1: change: bootstrap over only 6 pairs: the interval is rough and too narrow",
		"few_flips 4: only 4 cases changed: McNemar's chi-square is rough; quote the exact sign test",
		"many_groups 2: 2 groups: with many slices some will differ by chance; small groups carry little evidence",
	}
	if strings.Join(codes, "\n") != strings.Join(wantW, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(codes, "\n"), strings.Join(wantW, "\n"))
	}
}

// Versions on the same outcomes, already paired in the old table's order,
// gives the same result as reading the tables.
func TestVersionsIsRead(t *testing.T) {
	opt := Options{By: "group", Metric: "pass", CI: "bootstrap", Resamples: 2000, Seed: 7, OldName: "old.csv", NewName: "new.csv"}
	r, err := Read(strings.NewReader(sixOld), "x", strings.NewReader(sixNew), "y", opt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Versions([]string{"q1", "q2", "q3", "q4", "q5", "q6"}, []float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0},
		[]string{"b", "a", "b", "a", "b", "a"}, opt)
	if err != nil {
		t.Fatal(err)
	}
	rj, _ := json.Marshal(r)
	vj, _ := json.Marshal(v)
	if string(rj) != string(vj) {
		t.Errorf("Read:     %s\nVersions: %s", rj, vj)
	}
	// The bootstrap pass-rate intervals draw from Seed and Seed+1.
	if o := stats.BootstrapProportionInterval(3, 6, 2000, 0.95, 7); v.OldCILow != o.Lo || v.OldCIHigh != o.Hi {
		t.Errorf("old interval %v to %v, want %v to %v", v.OldCILow, v.OldCIHigh, o.Lo, o.Hi)
	}
	if n := stats.BootstrapProportionInterval(5, 6, 2000, 0.95, 8); v.NewCILow != n.Lo || v.NewCIHigh != n.Hi {
		t.Errorf("new interval %v to %v, want %v to %v", v.NewCILow, v.NewCIHigh, n.Lo, n.Hi)
	}
}

func TestVersionsDefaults(t *testing.T) {
	c, err := Versions([]string{"a"}, []float64{0}, []float64{1}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// One case, 0 -> 1: one flip, p = 2 · (1/2)¹ = 1 (capped at 1).
	got := fmt.Sprintf("%s -> %s key %s n %d better %v p %v groups %v ci %s %v %d", c.OldFile, c.NewFile, c.Key, c.N, c.Better, c.PSign, c.Groups, c.CI, c.Confidence, c.Resamples)
	if want := "old -> new key id n 1 better [a] p 1 groups [] ci wilson 0.95 10000"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Groups without Options.By are labelled "group".
	if c, err := Versions([]string{"a"}, []float64{0}, []float64{1}, []string{"x"}, Options{}); err != nil {
		t.Error(err)
	} else if c.By != "group" || len(c.Groups) != 1 {
		t.Errorf("by %q groups %v", c.By, c.Groups)
	}
	for _, tc := range []struct {
		name           string
		keys           []string
		old, new       []float64
		groups         []string
		want           error
		wantSubstrings string
	}{
		{"lengths", []string{"a", "b"}, []float64{0}, []float64{1, 1}, nil, ErrLength, "2 keys, 1 old outcomes, 2 new ones"},
		{"groups", []string{"a"}, []float64{0}, []float64{1}, []string{}, ErrLength, "and 0 groups"},
		{"not 0/1", []string{"a", "b"}, []float64{0, 0.5}, []float64{1, 1}, nil, ErrNotBinary, `case "b" (index 1) has outcomes 0.5 and 1`},
		{"NaN", []string{"a"}, []float64{math.NaN()}, []float64{1}, nil, ErrNotBinary, "outcomes NaN and 1"},
		{"by without groups", []string{"a"}, []float64{0}, []float64{1}, nil, ErrLength, `Options.By is "task" but there are no groups for the 1 cases`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{}
			if tc.name == "by without groups" {
				opt.By = "task"
			}
			_, err := Versions(tc.keys, tc.old, tc.new, tc.groups, opt)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.wantSubstrings) {
				t.Errorf("err %v, want %v with %q", err, tc.want, tc.wantSubstrings)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	base := Options{}.WithDefaults()
	if err := base.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Options)
		want  error
		field string
		value string
	}{
		{"ci", func(o *Options) { o.CI = "exact" }, ErrCI, "CI", "exact"},
		{"no ci", func(o *Options) { o.CI = "" }, ErrCI, "CI", ""},
		{"confidence 1", func(o *Options) { o.Confidence = 1 }, ErrConfidence, "Confidence", "1"},
		{"confidence 0", func(o *Options) { o.Confidence = 0 }, ErrConfidence, "Confidence", "0"},
		{"confidence NaN", func(o *Options) { o.Confidence = math.NaN() }, ErrConfidence, "Confidence", "NaN"},
		{"resamples", func(o *Options) { o.Resamples = 0 }, ErrResamples, "Resamples", "0"},
		{"empty key", func(o *Options) { o.Key = []string{"id", "", "task"} }, ErrKeyEmpty, "Key", ""},
		{"no key", func(o *Options) { o.Key = []string{} }, ErrKeyEmpty, "Key", ""},
		{"key twice", func(o *Options) { o.Key = []string{"id", "model", "id"} }, ErrKeyRepeated, "Key", "id"},
		{"metric in the key", func(o *Options) { o.Key = []string{"id", "pass"}; o.Metric = "pass" }, ErrKeyOverlap, "Key", "pass"},
		{"key is the group", func(o *Options) { o.Key = []string{"task"}; o.By = "task" }, ErrKeyOverlap, "Key", "task"},
		// The first problem wins: the method before the key.
		{"order", func(o *Options) { o.CI = "x"; o.Key = []string{""} }, ErrCI, "CI", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.edit(&o)
			err := o.Validate()
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Err != tc.want || oe.Field != tc.field || fmt.Sprint(oe.Value) != tc.value {
				t.Fatalf("Validate = %#v, want %s %q: %v", err, tc.field, tc.value, tc.want)
			}
			// Read refuses the same options, except the zeros that
			// WithDefaults fills in.
			_, err = Read(strings.NewReader(sixOld), "a", strings.NewReader(sixNew), "b", o)
			if zero := o.WithDefaults().Validate() == nil; zero != (err == nil) || !zero && !errors.Is(err, tc.want) {
				t.Errorf("Read: %v, want %v (a zero that means the default: %v)", err, tc.want, zero)
			}
		})
	}
	// A grouped key column is fine when the key has others.
	o := base
	o.Key, o.By = []string{"id", "task"}, "task"
	if err := o.Validate(); err != nil {
		t.Errorf("key id,task by task: %v", err)
	}
}

// Every error of the tables names its file and place, as a *ParseError
// (tabular's), and matches its sentinel. Every column is a character
// column, counted by hand: a value error points at the start of the
// field ("0.5" in "q2,x,0.5" starts at character 6), a UTF-8 error at
// the bad byte ("q\xff2" starts at column 1 and its bad byte is the 2nd
// character).
func TestReadErrors(t *testing.T) {
	const good = "id,task,pass\nq1,x,1\nq2,x,0\n"
	// In "प्रश्न,हिंदी,0.5" the key has 6 characters (प ् र श ् न), the
	// comma is the 7th, the task 5 more (ह ि ं द ी: 8 to 12), the comma
	// 13th, so pass starts at character 14 (byte 36).
	const hiOld, hiNew = "id,task,pass\nq1,x,1\nप्रश्न,हिंदी,0\n", "id,task,pass\nq1,x,1\nप्रश्न,हिंदी,0.5\n"
	for _, tc := range []struct {
		name, old, new string
		opt            Options
		want           error
		line, col      int
		field          string
		msg            string
	}{
		{"empty file", good, "", Options{}, ErrEmptyFile, 0, 0, "", "new.csv: the file is empty: expected a header row naming the columns"},
		{"no rows", "id,pass\n", good, Options{}, ErrNoRows, 0, 0, "", "old.csv: no rows after the header"},
		{"no column", good, good, Options{Metric: "f1"}, ErrNoColumn, 1, 0, "f1", `old.csv:1: no column "f1"; the header has id, task, pass`},
		{"empty key", good, "id,task,pass\nq1,x,1\n,x,0\n", Options{}, ErrEmptyKey, 3, 1, "id", `new.csv:3:1 (column "id"): empty id`},
		{"duplicate", good, "id,task,pass\nq1,x,1\nq1,y,0\n", Options{}, ErrDuplicateKey, 3, 1, "id",
			`new.csv:3:1 (column "id"): duplicate id "q1" (first at line 2); if rows are unique only with another column, pass --key id,task`},
		{"not 0/1", good, "id,task,pass\nq1,x,1\nq2,x,0.5\n", Options{Metric: "pass"}, ErrNotBinary, 3, 6, "pass", `new.csv:3:6 (column "pass"): pass is "0.5", not 0 or 1`},
		{"not 0/1 after Hindi", hiOld, hiNew, Options{Metric: "pass"}, ErrNotBinary, 3, 14, "pass", `new.csv:3:14 (column "pass"): pass is "0.5", not 0 or 1`},
		{"invalid UTF-8", good, "id,task,pass\nq1,x,1\nq\xff2,x,0\n", Options{}, ErrInvalidUTF8, 3, 2, "id",
			`new.csv:3:2 (column "id"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8`},
		// A byte-order mark is not a character: i (1) d (2) , (3) the bad byte 4.
		{"invalid UTF-8 in the header", "\xef\xbb\xbfid,\xfeask,pass\nq1,x,1\n", good, Options{}, ErrInvalidUTF8, 1, 4, "",
			`old.csv:1:4: header: invalid UTF-8: first bad byte 0xFE at character 1 of the field; re-save the file as UTF-8`},
		// A record with too few fields has no one place in its line.
		{"CSV syntax", good, "id,task,pass\nq1,x\n", Options{}, tabular.ErrFieldCount, 2, 0, "", "new.csv:2: wrong number of fields: the record has 2 fields, the header has 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.old), "old.csv", strings.NewReader(tc.new), "new.csv", tc.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v (%T), want a *ParseError", err, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) || pe.Line != tc.line || pe.Column != tc.col || pe.Field != tc.field || err.Error() != tc.msg {
				t.Errorf("err %q at %d:%d field %q\nwant %q at %d:%d field %q (%v)", err, pe.Line, pe.Column, pe.Field, tc.msg, tc.line, tc.col, tc.field, tc.want)
			}
		})
	}
	// Errors about both tables have no one place.
	for _, tc := range []struct {
		name, old, new string
		opt            Options
		want           error
		msg            string
	}{
		{"keys differ", good, "id,task,pass\nq1,x,1\nq3,x,0\n", Options{}, ErrKeysDiffer,
			`the files do not hold the same id values; 1 only in old.csv: "q2" (line 3); 1 only in new.csv: "q3" (line 3)`},
		{"group changed", good, "id,task,pass\nq1,x,1\nq2,y,0\n", Options{By: "task"}, ErrGroupChanged,
			`old.csv:3 and new.csv:3: id "q2" has task "x" in the old file and "y" in the new one`},
		{"no metric", "id,score\nq1,0.5\n", "id,score\nq1,1\n", Options{}, ErrNoMetric,
			"no column besides id holds only 0 and 1 in both old.csv and new.csv; name the metric with --metric (columns: id, score)"},
		{"several metrics", "id,a,b\nq1,1,0\n", "id,a,b\nq1,0,1\n", Options{}, ErrSeveralMetrics,
			"several 0/1 columns could be the metric: a, b; choose one with --metric"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.old), "old.csv", strings.NewReader(tc.new), "new.csv", tc.opt)
			if !errors.Is(err, tc.want) || err.Error() != tc.msg {
				t.Errorf("err %v\nwant %s (%v)", err, tc.msg, tc.want)
			}
		})
	}
}

// Files reads the paths and names the result after their base names (no
// folder of the temporary directory in the result); a missing file is
// the operating system's error.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	os.WriteFile(old, []byte(sixOld), 0o644)
	os.WriteFile(new, []byte(sixNew), 0o644)
	c, err := Files(old, new, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.OldFile != "old.csv" || c.NewFile != "new.csv" || c.N != 6 || c.By != "" || len(c.Groups) != 0 {
		t.Errorf("%s -> %s n %d by %q groups %v", c.OldFile, c.NewFile, c.N, c.By, c.Groups)
	}
	if _, err := Files(filepath.Join(dir, "gone.csv"), new, Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
