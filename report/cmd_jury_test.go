package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/irt"
	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/pkg/repeats"
	"github.com/evalbook/evalbook/pkg/tasks"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// `jury --json`, `repeats --json` and `irt --json` are the JSON of their
// library results for the same files and options.
func TestIssue28JSONIsTheLibraryResult(t *testing.T) {
	open := func(name string) *os.File {
		t.Helper()
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	const labels = "../pkg/jury/testdata/dawid_skene_table1.csv"
	jr, err := jury.File(open(labels), labels, jury.Options{Method: jury.MethodDawidSkene})
	if err != nil {
		t.Fatal(err)
	}
	const samples = "../pkg/repeats/testdata/hand.csv"
	rr, err := repeats.File(open(samples), samples, repeats.Options{Confidence: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	const resp, sub = "../pkg/irt/testdata/lsat.csv", "../pkg/irt/testdata/lsat_subset.csv"
	ir, err := irt.File(open(resp), resp, open(sub), sub, irt.Options{Points: 21})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want any
	}{
		{[]string{"jury", "--labels", labels, "--method", "dawid-skene", "--json"}, jr},
		{[]string{"repeats", "--samples", samples, "--confidence", "0.9", "--json"}, rr},
		{[]string{"irt", "--responses", resp, "--estimate", sub, "--points", "21", "--json"}, ir},
	} {
		out, errOut, code := runCLI(t, tc.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.args[0], code, errOut)
		}
		if want := jsonOf(t, tc.want); out != want {
			t.Errorf("%s --json differs from the library's result\n got: %.300s\nwant: %.300s", tc.args[0], out, want)
		}
	}
}

// The workbook and the page come from the generic renderer.
func TestIssue28Exports(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"jury", "--labels", "../pkg/jury/testdata/dawid_skene_table1.csv"},
		{"repeats", "--samples", "../pkg/repeats/testdata/hand.csv"},
		{"irt", "--responses", "../pkg/irt/testdata/lsat.csv", "--points", "15"},
	} {
		x, h := filepath.Join(dir, args[0]+".xlsx"), filepath.Join(dir, args[0]+".html")
		_, errOut, code := runCLI(t, append(args, "--xlsx", x, "--html", h)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errOut)
		}
		page, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(x); err != nil || st.Size() == 0 || !strings.Contains(string(page), "<table") {
			t.Errorf("%s: workbook %v, page has a table: %t", args[0], err, strings.Contains(string(page), "<table"))
		}
	}
}

// Bad input exits with status 1 and names the file and line.
func TestIssue28BadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"jury", "--labels", write("norater.csv", "item,label\na,1\n")}, "norater.csv:1"},
		{[]string{"jury", "--labels", write("oneclass.csv", "item,rater,label\na,r1,x\na,r2,x\n")}, "at least two classes"},
		{[]string{"jury", "--method", "dawid-skene", "--labels", write("onerater.csv", "item,rater,label\na,r1,x\na,r2,y\nb,r1,x\n")}, "onerater.csv:4"},
		{[]string{"repeats", "--samples", write("half.csv", "item,sample,pass\na,1,1\na,2,0.5\n")}, "half.csv:3"},
		{[]string{"irt", "--responses", write("two.csv", "subject,item,pass\nm1,q1,2\n")}, "two.csv:2"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, errOut, code := runCLI(t, "jury", "--method", "vote", "--labels", "x.csv"); code != 2 {
		t.Errorf("jury --method vote: exit %d (%s), want 2", code, errOut)
	}
}

// repeats --details reads task-run details: each generative item's
// samples judged by its task's match rule (tasks.SamplePasses); its JSON
// is repeats.AnalyzeItems of the same. A multiple-choice task has no
// samples: exit 1 naming it.
func TestRepeatsFromDetails(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	s := tasktest.New(t, m)
	dir := t.TempDir()
	det := filepath.Join(dir, "d.jsonl")
	if _, errb, code := runCLI(t, "task", "run", "--tasks", "indiceval|Translate:bengali|1|0", "--endpoint", s.BaseURL(), "--model", "bigram", "--details", det, "--json"); code != 0 {
		t.Fatalf("task run: exit %d: %s", code, errb)
	}
	f, err := os.Open(det)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := tasks.ReadDetails(f, det)
	if err != nil {
		t.Fatal(err)
	}
	ips, failed, err := tasks.SamplePasses(d)
	if err != nil || len(ips) == 0 {
		t.Fatalf("SamplePasses: %v, %d items", err, len(ips))
	}
	items := make([]repeats.ItemSamples, len(ips))
	for i, ip := range ips {
		items[i] = repeats.ItemSamples{Item: ip.ID, Passes: ip.Passes}
	}
	want, err := repeats.AnalyzeItems(items, det, failed, repeats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, errb, code := runCLI(t, "repeats", "--details", det, "--json")
	if code != 0 || out != jsonOf(t, want) {
		t.Fatalf("repeats --details: exit %d (%s)\n got: %.300s\nwant: %.300s", code, errb, out, jsonOf(t, want))
	}
	mc := filepath.Join(dir, "mc.jsonl")
	if _, errb, code := runCLI(t, "task", "run", "--tasks", "indiceval|ARC-Easy:hindi|0|0", "--endpoint", s.BaseURL(), "--model", "bigram", "--details", mc, "--json"); code != 0 {
		t.Fatalf("task run: exit %d: %s", code, errb)
	}
	if _, errb, code := runCLI(t, "repeats", "--details", mc); code != 1 || !strings.Contains(errb, "ARC-Easy") {
		t.Errorf("repeats on a multiple-choice task: exit %d, %s", code, errb)
	}
}
