package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// testdata/compare_old.csv and compare_new.csv rebuild the seed's version
// comparison (seed 003, SPEC.md section 3) in the shape "evalbook run
// --out" writes: 31 cases, old passes 25, new 27, p02 and p09 better,
// none worse. The new file lists the cases in another order.
const (
	compareOld = "testdata/compare_old.csv"
	compareNew = "testdata/compare_new.csv"
)

func TestCompareGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"compare_seed.stdout", []string{"compare", "--old", compareOld, "--new", compareNew, "--metric", "pass", "--by", "task"}},
		{"compare_seed.json", []string{"compare", "--old", compareOld, "--new", compareNew, "--metric", "pass", "--by", "task", "--json"}},
		{"compare_bootstrap.stdout", []string{"compare", "--old", compareOld, "--new", compareNew, "--ci", "bootstrap", "--confidence", "0.9", "--resamples", "5000", "--seed", "4", "--by", "lang"}},
		{"compare_reversed.json", []string{"compare", "--old", compareNew, "--new", compareOld, "--json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden(t, c.name, out)
		})
	}
}

// The seed prints n=31, old 0.806, new 0.871, better p02 and p09, worse
// none, unchanged 29, sign test p = 0.5, and new pass rates by task
// exact_term 1.0 (3), lookup 1.0 (12), multi_fact 1.0 (6), paraphrase 0.5
// (4), unanswerable 0.67 (6). Its bootstrap intervals, (0.677, 0.935) and
// (0.742, 0.968), come from other resampling code, so only their
// neighbourhood is checked (within 0.03).
func TestCompareSeedFigures(t *testing.T) {
	out, _, code := runCLI(t, "compare", "--old", compareOld, "--new", compareNew, "--by", "task", "--ci", "bootstrap", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var r results.Comparison
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("n=%d old %.3f new %.3f better %v worse %v unchanged %d p %v metric %s",
		r.N, r.Old, r.New, r.Better, r.Worse, r.Unchanged, r.PSign, r.Metric)
	if want := "n=31 old 0.806 new 0.871 better [p02 p09] worse [] unchanged 29 p 0.5 metric pass"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var groups []string
	for _, g := range r.Groups {
		groups = append(groups, fmt.Sprintf("%s %.2g (%d)", g.Group, g.New, g.N))
	}
	if got, want := strings.Join(groups, ", "), "exact_term 1 (3), lookup 1 (12), multi_fact 1 (6), paraphrase 0.5 (4), unanswerable 0.67 (6)"; got != want {
		t.Errorf("groups %s\nwant   %s", got, want)
	}
	for _, c := range []struct{ got, want float64 }{
		{r.OldCILow, 0.677}, {r.OldCIHigh, 0.935}, {r.NewCILow, 0.742}, {r.NewCIHigh, 0.968},
	} {
		if c.got < c.want-0.03 || c.got > c.want+0.03 {
			t.Errorf("interval bound %.3f, the seed's is %.3f", c.got, c.want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.csv", "id,task,pass,exact\nq1,x,1,0\nq2,x,0,0\nq3,y,1,1\n")
	b := write("b.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,1,0\nq3,y,0,1\n")
	extra := write("extra.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,1,0\nq4,y,0,1\nq5,y,0,1\n")
	dup := write("dup.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,1,0\nq1,y,0,1\n")
	half := write("half.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,0.5,0\nq3,y,0,1\n")
	moved := write("moved.csv", "id,task,pass,exact\nq1,x,1,1\nq2,z,1,0\nq3,y,0,1\n")
	none := write("none.csv", "id,task,score\nq1,x,0.5\n")
	dup2 := write("dup2.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,1,0\nq1,x,0,1\n")
	badKey := write("badkey.csv", "id,task,pass,exact\nq1,x,1,1\nq\xff2,x,1,0\nq3,y,0,1\n")
	badHeader := write("badheader.csv", "id,ta\xfesk,pass,exact\nq1,x,1,1\nq2,x,1,0\nq3,y,0,1\n")
	badTask := write("badtask.csv", "id,task,pass,exact\nq1,x,1,1\nq2,x,1,0\nq3,\xc3,0,1\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no flags", []string{"compare"}, 2, "evalbook: compare: --old and --new are required (see evalbook compare --help)\n"},
		{"bad ci", []string{"compare", "--old", a, "--new", b, "--ci", "exact"}, 2, "evalbook: compare: invalid value \"exact\" for flag -ci: want wilson, clopper-pearson, jeffreys, beta, bootstrap or bca (see evalbook compare --help)\n"},
		// A zero is the default in compare.Options, and a mistake on the command line.
		{"zero confidence", []string{"compare", "--old", a, "--new", b, "--confidence", "0"}, 2, "evalbook: compare: invalid value \"0\" for flag -confidence: want a level between 0 and 1, such as 0.95 (see evalbook compare --help)\n"},
		{"zero resamples", []string{"compare", "--old", a, "--new", b, "--resamples", "0"}, 2, "evalbook: compare: invalid value \"0\" for flag -resamples: want a whole number of at least 1 (see evalbook compare --help)\n"},
		{"empty ci", []string{"compare", "--old", a, "--new", b, "--ci", ""}, 2, "evalbook: compare: invalid value \"\" for flag -ci: want wilson, clopper-pearson, jeffreys, beta, bootstrap or bca (see evalbook compare --help)\n"},
		{"several candidates", []string{"compare", "--old", a, "--new", b}, 1, "evalbook: several 0/1 columns could be the metric: pass, exact; choose one with --metric\n"},
		{"no candidate", []string{"compare", "--old", none, "--new", none}, 1, "evalbook: no column besides id holds only 0 and 1 in both " + none + " and " + none + "; name the metric with --metric (columns: id, task, score)\n"},
		{"unknown metric", []string{"compare", "--old", a, "--new", b, "--metric", "f1"}, 1, "evalbook: " + a + ":1: no column \"f1\"; the header has id, task, pass, exact\n"},
		{"mismatched keys", []string{"compare", "--old", a, "--new", extra, "--metric", "pass"}, 1, "evalbook: the files do not hold the same id values; 1 only in " + a + ": \"q3\" (line 4); 2 only in " + extra + ": \"q4\" (line 4), \"q5\" (line 5)\n"},
		// task tells the two q1 rows apart (exact does not: both are 1).
		{"duplicate key", []string{"compare", "--old", a, "--new", dup, "--metric", "pass"}, 1, "evalbook: " + dup + ":4:1 (column \"id\"): duplicate id \"q1\" (first at line 2); if rows are unique only with another column, pass --key id,task\n"},
		{"duplicate composite key", []string{"compare", "--old", a, "--new", dup2, "--metric", "pass", "--key", "id,task"}, 1, "evalbook: " + dup2 + ":4:1 (column \"id\"): duplicate id,task \"q1/x\" (first at line 2); if rows are unique only with other columns, name them all: --key id,task,COLUMN,...\n"},
		{"empty key part", []string{"compare", "--old", a, "--new", b, "--key", "id,,task"}, 2, "evalbook: compare: --key \"id,,task\": want a column name, or several joined by commas (id,model)\n"},
		{"key column twice", []string{"compare", "--old", a, "--new", b, "--key", "id,id"}, 2, "evalbook: compare: --key \"id,id\" names id twice\n"},
		{"metric in the key", []string{"compare", "--old", a, "--new", b, "--key", "id,pass", "--metric", "pass"}, 2, "evalbook: compare: --key must name a column other than --metric and --by\n"},
		{"key is the group", []string{"compare", "--old", a, "--new", b, "--key", "task", "--by", "task"}, 2, "evalbook: compare: --key must name a column other than --metric and --by\n"},
		{"missing key column", []string{"compare", "--old", a, "--new", b, "--key", "id,model", "--metric", "pass"}, 1, "evalbook: " + a + ":1: no column \"model\"; the header has id, task, pass, exact\n"},
		// Columns counted by hand, in characters, of the bad byte itself:
		// the 2nd character of the id field at column 1 is at column 2;
		// the 3rd of the header's 2nd field, which starts at column 4, is
		// at column 6; the 1st of task at column 4 is at column 4.
		{"invalid UTF-8 in a key", []string{"compare", "--old", a, "--new", badKey, "--metric", "pass"}, 1, "evalbook: " + badKey + ":3:2 (column \"id\"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8\n"},
		{"invalid UTF-8 in the header", []string{"compare", "--old", badHeader, "--new", b, "--metric", "pass"}, 1, "evalbook: " + badHeader + ":1:6: header: invalid UTF-8: first bad byte 0xFE at character 3 of the field; re-save the file as UTF-8\n"},
		{"invalid UTF-8 in an unused column", []string{"compare", "--old", a, "--new", badTask, "--metric", "pass"}, 1, "evalbook: " + badTask + ":4:4 (column \"task\"): invalid UTF-8: first bad byte 0xC3 at character 1 of the field; re-save the file as UTF-8\n"},
		// "0.5" in "q2,x,0.5,0" starts at character 6 (q 2 , x , are 1 to 5).
		{"not 0/1", []string{"compare", "--old", a, "--new", half, "--metric", "pass"}, 1, "evalbook: " + half + ":3:6 (column \"pass\"): pass is \"0.5\", not 0 or 1\n"},
		{"group moved", []string{"compare", "--old", a, "--new", moved, "--metric", "pass", "--by", "task"}, 1, "evalbook: " + a + ":3 and " + moved + ":3: id \"q2\" has task \"x\" in the old file and \"z\" in the new one\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code || errOut != tc.stderr || out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q\nwant exit %d, stderr %q", code, errOut, out, tc.code, tc.stderr)
			}
		})
	}
}

// "evalbook run --out" files feed compare directly with --metric pass --by
// task, as the run command's help promises.
func TestCompareRunOutput(t *testing.T) {
	if testApp(t).Command("run") == nil {
		t.Skip("no run command in this build")
	}
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	for _, args := range [][]string{
		{"run", "--chunking", "paragraph", "--min-score", "0.3", "--out", old},
		{"run", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1", "--out", new},
	} {
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	out, errOut, code := runCLI(t, "compare", "--old", old, "--new", new, "--metric", "pass", "--by", "task", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	var r results.Comparison
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range r.Groups {
		n += g.N
	}
	if r.N == 0 || n != r.N || len(r.Better)+len(r.Worse)+r.Unchanged != r.N {
		t.Errorf("n %d, groups add to %d, flips %d+%d+%d", r.N, n, len(r.Better), len(r.Worse), r.Unchanged)
	}
}

// TestCompareCompositeKey pairs rows by two columns, as verdict files of
// two models need (the same question id once per model). By hand: old
// passes q1/m1 and q2/m2 (2/4), new passes all four (4/4), so q1/m2 and
// q2/m1 got better (in the old file's order), none worse, and the exact
// sign test of 2 against 0 is 2 × (1/2)² = 0.5. Per model: m1 1/2 -> 2/2,
// m2 1/2 -> 2/2.
func TestCompareCompositeKey(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	os.WriteFile(old, []byte("id,model,pass\nq1,m1,1\nq1,m2,0\nq2,m1,0\nq2,m2,1\n"), 0o644)
	os.WriteFile(new, []byte("id,model,pass\nq2,m2,1\nq1,m1,1\nq1,m2,1\nq2,m1,1\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"key id,model", []string{"--key", "id,model"}, "key id,model n 4 old 2 new 4 better [q1/m2 q2/m1] worse [] p 0.5 groups []"},
		{"spaces around the names", []string{"--key", " id , model "}, "key id,model n 4 old 2 new 4 better [q1/m2 q2/m1] worse [] p 0.5 groups []"},
		{"grouped by a key column", []string{"--key", "id,model", "--by", "model"}, "key id,model n 4 old 2 new 4 better [q1/m2 q2/m1] worse [] p 0.5 groups [{m1 2 1 2 0.5 1 1 0 0.09453120573423074 0.9054687942657693 0.3423802275066532 1} {m2 2 1 2 0.5 1 1 0 0.09453120573423074 0.9054687942657693 0.3423802275066532 1}]"},
		// (each group's Wilson intervals at 95%, by hand with z = 1.959964:
		// 1 of 2 has centre 0.5 and half-width z·√(1/8 + z²/16)/(1 + z²/2)
		// = 0.405469, so 0.094531 to 0.905469; 2 of 2 has centre
		// (1 + z²/4)/(1 + z²/2) = 0.671190 and half-width z·√(z²/16)/(1 + z²/2)
		// = 0.328810, so 0.342380 to 1)
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"compare", "--old", old, "--new", new, "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r results.Comparison
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("key %s n %d old %d new %d better %v worse %v p %v groups %v", r.Key, r.N, r.OldPass, r.NewPass, r.Better, r.Worse, r.PSign, r.Groups)
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// Without the second column the ids repeat, and the message names it.
	_, errOut, code := runCLI(t, "compare", "--old", old, "--new", new)
	if want := "evalbook: " + old + ":3:1 (column \"id\"): duplicate id \"q1\" (first at line 2); if rows are unique only with another column, pass --key id,model\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q\nwant %q", code, errOut, want)
	}
}

// One case: the counts are singular ("1 case", "only 1 case changed").
func TestCompareOneCase(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	os.WriteFile(old, []byte("id,pass\nq1,0\n"), 0o644)
	os.WriteFile(new, []byte("id,pass\nq1,1\n"), 0o644)
	out, errOut, code := runCLI(t, "compare", "--old", old, "--new", new)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"n          1 case\n", "only 1 case changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// The shipped sample's verdict files hold each question once per model,
// so they pair only with --key id,model (audit defect 7). The sample has
// 284 rows (142 questions × 2 models), all present in both files.
func TestCompareSampleVerdicts(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := filepath.Join(dir, "v1.csv"), filepath.Join(dir, "v2.csv")
	for _, args := range [][]string{{"score", "--out", v1}, {"score", "--normalize", "nfc", "--out", v2}} {
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	out, errOut, code := runCLI(t, "compare", "--old", v1, "--new", v2, "--metric", "exact_substring", "--key", "id,model", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r results.Comparison
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.N != 284 || len(r.Better)+len(r.Worse)+r.Unchanged != r.N {
		t.Errorf("n %d, flips %d+%d+%d", r.N, len(r.Better), len(r.Worse), r.Unchanged)
	}
}

// TestCompareJSONIsResult: compare --json prints the JSON encoding of the
// compare.Files result for the same options, byte for byte: the command
// only renders what the library computed.
func TestCompareJSONIsResult(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string
		args     []string
		opt      compare.Options
	}{
		{"seed by task", compareOld, compareNew, []string{"--metric", "pass", "--by", "task"},
			compare.Options{Metric: "pass", By: "task", Seed: 1}},
		{"bootstrap by lang", compareOld, compareNew, []string{"--ci", "bootstrap", "--confidence", "0.9", "--resamples", "5000", "--seed", "4", "--by", "lang"},
			compare.Options{CI: "bootstrap", Confidence: 0.9, Resamples: 5000, Seed: 4, By: "lang"}},
		{"reversed, metric picked", compareNew, compareOld, nil, compare.Options{Seed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"compare", "--old", tc.old, "--new", tc.new, "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			res, err := compare.Files(tc.old, tc.new, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := cli.WriteJSON(&want, res); err != nil {
				t.Fatal(err)
			}
			if out != want.String() {
				t.Errorf("compare --json:\n%s\ncompare.Files encoded:\n%s", out, want.String())
			}
			var text strings.Builder
			if err := res.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			textOut, _, _ := runCLI(t, append([]string{"compare", "--old", tc.old, "--new", tc.new}, tc.args...)...)
			if textOut != text.String() {
				t.Errorf("compare:\n%s\nWriteText:\n%s", textOut, text.String())
			}
		})
	}
}
