package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/jury"
)

// juryStub is a loopback endpoint with three judge models: "strict"
// applies the substring rule (correct when the response holds the golden
// answer), "lenient" says correct to everything, and "flaky" applies the
// rule but fails (HTTP 500) on the question about Q3.
func juryStub(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model    string
			Messages []struct{ Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		p := body.Messages[len(body.Messages)-1].Content
		if body.Model == "flaky" && strings.Contains(stubBlock(p, "QUESTION"), "Q3") {
			http.Error(w, "overloaded", http.StatusInternalServerError)
			return
		}
		verdict := "incorrect"
		if body.Model == "lenient" || strings.Contains(stubBlock(p, "RESPONSE"), stubBlock(p, "GOLDEN ANSWER")) {
			verdict = "correct"
		}
		content := fmt.Sprintf(`{"verdict": %q, "reason": "rule"}`, verdict)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(s.Close)
	return s
}

// TestJudgeJury runs three model judges on four rows. Rows 1 and 2 hold
// the golden answer (strict, lenient and flaky say correct: 3 votes),
// row 4 does not (strict and flaky say incorrect, lenient correct: 2 to
// 1), and on row 3 (not holding it) flaky's call fails: strict says
// incorrect, lenient correct, a tie reported, and flaky's failure left
// out, not counted as wrong.
func TestJudgeJury(t *testing.T) {
	s := juryStub(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "r.csv")
	os.WriteFile(in, []byte("id,question,answer,Domain,response\nr1,Q1,Delhi,geo,It is Delhi.\nr2,Q2,Agra,geo,Agra\nr3,Q3,Pune,geo,Mumbai\nr4,Q4,Goa,geo,Chennai\n"), 0o644)
	out := filepath.Join(dir, "labels.csv")
	js, stderr, code := runCLI(t, "judge", "--endpoint", s.URL+"/v1", "--judges", "strict,lenient,flaky", "--responses", in,
		"--by", "", "--cache", "none", "--retries", "0", "--out", out, "--json")
	if code != 1 || !strings.Contains(stderr, "1 call failed after their retries") {
		t.Fatalf("exit %d, want 1 naming the failed call: %s", code, stderr)
	}
	var res jury.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	got := map[string]string{}
	for _, it := range res.Items {
		got[it.Item] = fmt.Sprintf("%s/%v/%d/%d", it.Label, it.Tie, it.Labels, it.Errored)
	}
	want := map[string]string{"r1": "correct/false/3/0", "r2": "correct/false/3/0", "r3": "/true/2/1", "r4": "incorrect/false/3/0"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("item %s: label/tie/labels/errored %s, want %s", k, got[k], v)
		}
	}
	if len(res.Ties) != 1 || res.Ties[0] != "r3" || res.Errored != 1 {
		t.Errorf("ties %v, errored %d; want [r3], 1", res.Ties, res.Errored)
	}
	// The label file is one row per judge and row; jury reads it back to the same result.
	b, _ := os.ReadFile(out)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 13 || lines[0] != "item,rater,label" || lines[12] != "r4,flaky,incorrect" || lines[11] != "r3,flaky," {
		t.Fatalf("label file:\n%s", b)
	}
	again, stderr, code := runCLI(t, "jury", "--labels", out, "--json")
	if code != 0 {
		t.Fatalf("jury --labels: exit %d: %s", code, stderr)
	}
	var back jury.Result
	json.Unmarshal([]byte(again), &back)
	j1, _ := json.Marshal([]any{back.Items, back.Raters, back.Marginals})
	j2, _ := json.Marshal([]any{res.Items, res.Raters, res.Marginals})
	if string(j1) != string(j2) {
		t.Errorf("jury on the label file differs:\n%s\n%s", j1, j2)
	}
	// Usage: one judge, --model with --judges.
	for _, args := range [][]string{{"--judges", "strict"}, {"--judges", "a,b", "--model", "m"}, {"--judges", "a,a"}} {
		if _, _, code := runCLI(t, append([]string{"judge", "--endpoint", s.URL + "/v1", "--cache", "none"}, args...)...); code != 2 {
			t.Errorf("judge %v: exit %d, want 2", args, code)
		}
	}
}
