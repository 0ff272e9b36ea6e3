package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runs diff and compare write their page and workbook through the shared
// report design: the verdict in words, the cards, the rows that changed
// as a table to read (filter better / worse, search) with the question,
// the golden answer and both responses; model text escaped in the page
// and text (never a formula) in the workbook; the inputs named by their
// base names, never by the folder they sit in. The JSON is the same with
// and without the files (the texts are not in it).
func TestDiffAndCompareReports(t *testing.T) {
	tmp := t.TempDir()
	data := filepath.Join(tmp, "private-folder")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	// As storeTestTable, with a formula beside the script element in the
	// failing responses. v1 passes rows 0..29, v2 rows 5..34: 5 better, 5 worse.
	table := func(pass func(i int) bool) string {
		var b strings.Builder
		b.WriteString("id,question,answer,Domain,response\n")
		for i := range 40 {
			resp := fmt.Sprintf("answer %d", i)
			if !pass(i) {
				resp = `"=HYPERLINK(""http://evil.example"",""x"") or <script>alert(1)</script> no idea"`
			}
			fmt.Fprintf(&b, "q%d,Question %d?,answer %d,%s,%s\n", i, i, i, []string{"geo", "lit"}[i%2], resp)
		}
		return b.String()
	}
	v1, v2 := table(func(i int) bool { return i < 30 }), table(func(i int) bool { return i >= 5 && i < 35 })
	db := filepath.Join(tmp, "runs.db")
	scoreAndRecord(t, db, filepath.Join(data, "v1.csv"), v1, "--record-title", "baseline")
	scoreAndRecord(t, db, filepath.Join(data, "v2.csv"), v2, "--record-title", "candidate")
	out := filepath.Join(tmp, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	plain, _, code := runCLI(t, "runs", "diff", "--store", db, "--metric", "exact_substring", "--json", "1", "2")
	if code != 0 {
		t.Fatalf("runs diff: exit %d", code)
	}
	withFiles, errOut, code := runCLI(t, "runs", "diff", "--store", db, "--metric", "exact_substring", "--json", "--flips", "-1",
		"--html", filepath.Join(out, "diff.html"), "--xlsx", filepath.Join(out, "diff.xlsx"), "1", "2")
	if code != 0 {
		t.Fatalf("runs diff --html --xlsx: exit %d: %s", code, errOut)
	}
	var d struct {
		Metrics []struct {
			WorseRows []map[string]any `json:"worse_rows"`
		}
	}
	if err := json.Unmarshal([]byte(withFiles), &d); err != nil || len(d.Metrics) != 1 || len(d.Metrics[0].WorseRows) != 5 {
		t.Fatalf("runs diff --json: %v\n%s", err, withFiles)
	}
	// With --xlsx alone the JSON is as without it (--html adds the texts, as it always has).
	xlsxOnly, _, code := runCLI(t, "runs", "diff", "--store", db, "--metric", "exact_substring", "--json", "--xlsx", filepath.Join(tmp, "x.xlsx"), "1", "2")
	if code != 0 || xlsxOnly != plain || strings.Contains(plain, "text_a") {
		t.Errorf("runs diff --json --xlsx (exit %d) differs from runs diff --json", code)
	}
	if !strings.Contains(withFiles, `"text_a"`) {
		t.Errorf("runs diff --json --html lacks the texts")
	}
	// Verdict files for compare, in the same private folder.
	verdicts := func(name string, pass func(i int) bool) string {
		var b strings.Builder
		b.WriteString("id,question,answer,response,correct\n")
		for i := range 40 {
			resp, ok := fmt.Sprintf("answer %d", i), 1
			if !pass(i) {
				resp, ok = `"=HYPERLINK(""http://evil.example"",""x"") or <script>alert(1)</script> no idea"`, 0
			}
			fmt.Fprintf(&b, "q%d,Question %d?,answer %d,%s,%d\n", i, i, i, resp, ok)
		}
		p := filepath.Join(data, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldV, newV := verdicts("old-verdicts.csv", func(i int) bool { return i < 30 }), verdicts("new-verdicts.csv", func(i int) bool { return i >= 5 && i < 35 })
	cmpPlain, _, code := runCLI(t, "compare", "--old", oldV, "--new", newV, "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d", code)
	}
	cmpFiles, errOut, code := runCLI(t, "compare", "--old", oldV, "--new", newV, "--json", "--html", filepath.Join(out, "compare.html"), "--xlsx", filepath.Join(out, "compare.xlsx"))
	if code != 0 {
		t.Fatalf("compare --html --xlsx: exit %d: %s", code, errOut)
	}
	if cmpFiles != cmpPlain {
		t.Errorf("compare --json changed with --html and --xlsx:\n%s\nvs\n%s", cmpFiles, cmpPlain)
	}
	texts := reportTexts(t, out)
	if len(texts) < 6 {
		t.Fatalf("report files: %d", len(texts))
	}
	for name, s := range texts {
		if strings.Contains(s, data) || strings.Contains(s, "private-folder") || strings.Contains(s, tmp) {
			t.Errorf("%s names the input's folder", name)
		}
		if strings.HasSuffix(name, ".xml") && strings.Contains(name, "worksheets") && strings.Contains(s, "<f>") {
			t.Errorf("%s holds a formula", name)
		}
	}
	for _, c := range []struct {
		file string
		want []string
	}{
		// 5 better, 5 worse: no clear difference.
		{"diff.html", []string{"v1.csv", "v2.csv", "run 1 “baseline”", "No clear difference between A and B on exact_substring",
			`<option value="1">better in B (A fails, B passes) (5)</option><option value="2">worse in B (A passes, B fails) (5)</option>`,
			`"Question 0?","answer 0","answer 0"`, `\u003cscript\u003ealert(1)\u003c/script\u003e no idea`, `=HYPERLINK(\"http://evil.example\",\"x\")`}},
		{"compare.html", []string{"old-verdicts.csv → new-verdicts.csv", `<option value="2">worse (passes in old, fails in new) (5)</option>`,
			`,2,"worse","q0","1","0","Question 0?","answer 0","answer 0",`, `\u003cscript\u003ealert(1)\u003c/script\u003e no idea`}},
	} {
		page := texts[filepath.Join(out, c.file)]
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %s", c.file, w)
			}
		}
		if strings.Contains(page, "<script>alert") {
			t.Errorf("%s holds a response's markup as markup", c.file)
		}
		if !strings.Contains(page, `<input type="search" name="q"`) {
			t.Errorf("%s has no search box", c.file)
		}
	}
	// The workbooks hold the texts as text: the formula and the markup are
	// in the shared strings, escaped as XML.
	for _, wb := range []string{"diff.xlsx", "compare.xlsx"} {
		ss := texts[filepath.Join(out, wb)+"!xl/sharedStrings.xml"]
		if !strings.Contains(ss, `&lt;script&gt;alert(1)&lt;/script&gt; no idea`) || !strings.Contains(html.UnescapeString(ss), `<t>=HYPERLINK("http://evil.example","x") or <script>`) || !strings.Contains(ss, "Question 0?") {
			t.Errorf("%s lacks the changed rows' texts", wb)
		}
	}
}
