package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/report/internal/cli"
)

const interopData = "../pkg/interop/testdata/"

// Every fixture's reported figures agree with its per-sample records
// (exit 0); the mismatch fixture reports 0.8 for a recomputed 0.75 (exit 3).
func TestImportCheckCLI(t *testing.T) {
	for _, p := range []string{"lmeval/new", "lmeval/old", "inspect/qa_hi_bn.eval", "inspect/qa_hi_bn.json", "inspect/v1.json",
		"inspect/early.eval", "inspect/partial.eval", "promptfoo/results_v3.json", "promptfoo/results_v2.json",
		"eee/v030/data/mgsm_bn/evalbook/tiny-bn", "eee/v022", "lighteval/new", "openai_batch/batch_output.jsonl"} {
		out, errOut, code := runCLI(t, "import", interopData+p, "--check", "--json")
		if code != 0 {
			t.Errorf("%s: exit %d: %s %s", p, code, errOut, out)
			continue
		}
		var doc struct {
			Format  string `json:"format"`
			Source  string `json:"source"`
			Records *int   `json:"records"`
			Tasks   []struct {
				Task, Metric         string
				N                    int
				Recomputed, Reported float64
				Match                bool
			} `json:"tasks"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Format == "" || doc.Records == nil || doc.Tasks == nil {
			t.Errorf("%s: %v\n%s", p, err, out)
		}
	}
	out, _, code := runCLI(t, "import", interopData+"lmeval/mismatch", "--check")
	if code != cli.ExitGateFailed || !strings.Contains(out, "DIFFERS") || !strings.Contains(out, "1 of 8 reported figures differ") {
		t.Fatalf("mismatch: exit %d\n%s", code, out)
	}
}

func TestImportOutCLI(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "rows.csv")
	out, errOut, code := runCLI(t, "import", interopData+"inspect/qa_hi_bn.eval", "--out", csvPath)
	if code != 0 || !strings.Contains(out, "5 per-sample records") {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 6 || lines[0] != "model,task,language,sample_id,doc_hash,prompt,response,golden,includes,model_graded_qa" {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	jsonlPath := filepath.Join(dir, "rows.jsonl")
	if _, errOut, code := runCLI(t, "import", interopData+"lmeval/new", "--out", jsonlPath, "--check"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ = os.ReadFile(jsonlPath)
	if n := strings.Count(string(b), "\n"); n != 12 {
		t.Fatalf("%d rows", n)
	}
}

func TestImportErrorsCLI(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import"}, 2, "give the harness output PATH"},
		{[]string{"import", "a", "b"}, 2, "one PATH at a time"},
		{[]string{"import", interopData + "lmeval/new", "--format", "helm"}, 2, "--format"},
		{[]string{"import", interopData + "lmeval/new", "--out", "x.xlsx"}, 2, "--out"},
		{[]string{"import", interopData + "inspect/broken/truncated.eval"}, 1, "truncated"},
		{[]string{"import", interopData + "eee/broken/schema040.json"}, 1, "0.4.0"},
		{[]string{"import", interopData + "lmeval/broken/no_doc_id"}, 1, ":3: missing field \"doc_id\""},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
}
