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
		"inspect/early.eval", "promptfoo/results_v3.json", "promptfoo/results_v2.json",
		"eee/v030/data/mgsm_bn/evalbook/tiny-bn", "eee/v022", "lighteval/new"} {
		out, errOut, code := runCLI(t, "import", interopData+p, "--check", "--json")
		if code != 0 {
			t.Errorf("%s: exit %d: %s %s", p, code, errOut, out)
			continue
		}
		var doc struct {
			Status  string `json:"status"`
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
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Format == "" || doc.Records == nil || len(doc.Tasks) == 0 || doc.Status != "match" {
			t.Errorf("%s: %v\n%s", p, err, out)
		}
	}
	// a log still being written and a batch output report no figures:
	// nothing could be checked, which is not agreement (exit 3)
	for _, p := range []string{"inspect/partial.eval", "openai_batch/batch_output.jsonl"} {
		out, _, code := runCLI(t, "import", interopData+p, "--check")
		if code != cli.ExitGateFailed || !strings.Contains(out, "nothing could be checked") || strings.Contains(out, "agree") {
			t.Errorf("%s: exit %d\n%s", p, code, out)
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

// Each malformed case of pkg/interop/testdata/malformed through the
// command: exit 3 for a check that failed, 1 for bad data, the message
// naming the place; never "agree".
func TestImportCheckMalformedCLI(t *testing.T) {
	m := interopData + "malformed/"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{m + "lmeval_partial"}, 3, "PARTIAL: 10 of 5,000 samples"},
		{[]string{m + "lmeval_string_value"}, 1, `:3: a per-sample value is not a number: sample "2": acc is the string "1"`},
		{[]string{m + "lmeval_nan"}, 1, `:2: a per-sample value is not a number: sample "1": acc,none is NaN`},
		{[]string{m + "lmeval_string_claim"}, 3, `results.arc_hi.acc,none in`},
		{[]string{m + "lmeval_no_samples"}, 3, "nothing could be checked: the output holds no per-sample records"},
		{[]string{m + "lmeval_dup_doc"}, 1, `jsonl:5: duplicated sample: sample "1" of task arc_hi`},
		{[]string{m + "lmeval_dup_doc", "--drop-duplicates"}, 0, "1 duplicated sample(s) left out"},
		{[]string{m + "inspect/list_score.json"}, 1, `list_score.json (record 3): a per-sample value is not a number: sample "3": samples[2].scores.includes.value is a list`},
		{[]string{m + "inspect/dup_id.json"}, 1, `(record 6): duplicated sample: sample "2"`},
		{[]string{m + "promptfoo/dup_result.json"}, 1, "duplicated sample"},
		{[]string{m + "openai_batch/batch_output.jsonl"}, 1, `custom_id "q4" is also on line 1`},
		{[]string{m + "eee_absolute"}, 1, `"/etc/passwd" is not a path inside the imported folder`},
		{[]string{m + "eee_dotdot"}, 1, `"../outside/`},
		{[]string{m + "eee_string_score"}, 1, `sample mgsm_bn_1: evaluation.score is the string "1"`},
	} {
		out, errOut, code := runCLI(t, append([]string{"import", "--check"}, tc.args...)...)
		all := out + errOut
		if code != tc.code || !strings.Contains(all, tc.want) || code != 0 && strings.Contains(all, "agree") {
			t.Errorf("%v: exit %d, want %d and %q\n%s", tc.args, code, tc.code, tc.want, all)
		}
	}
	// the JSON keeps its contract and adds status, expected_n, note
	out, _, code := runCLI(t, "import", "--check", "--json", m+"lmeval_partial")
	var doc struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Tasks   []struct {
			N         int    `json:"n"`
			Match     *bool  `json:"match"`
			Status    string `json:"status"`
			ExpectedN int    `json:"expected_n"`
			Note      string `json:"note"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 3 || doc.Status != "partial" || len(doc.Tasks) != 1 ||
		doc.Tasks[0].Match == nil || *doc.Tasks[0].Match || doc.Tasks[0].Status != "partial" || doc.Tasks[0].ExpectedN != 5000 || doc.Tasks[0].N != 10 {
		t.Fatalf("exit %d %v\n%s", code, err, out)
	}
}
