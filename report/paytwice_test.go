package main

// Issue 29, items 2 and 3, through the commands against a real loopback
// server (internal/llmtest): identical requests in one run are sent once
// and share their outcome, a malformed 200 is recorded in the cache so
// neither a twin nor a rerun buys it again (without --retry-failed), and
// an endpoint with a query string and a --header from an environment
// variable is asked where people configure it, with its secrets shown
// nowhere.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// malformedFirst makes the first request of each prompt for which bad
// returns true a malformed 200 (a second request would be answered: the
// test would see it).
func malformedFirst(s *llmtest.Server, bad func(prompt string) bool) {
	s.Fault = func(prompt string, attempt int) string {
		if attempt == 1 && bad(prompt) {
			return "malformed"
		}
		return ""
	}
}

// The twin tests run one request at a time (--concurrency 1), so that a
// twin comes after its first has failed: the case issue 29 found (twins
// in flight at once were already sent once).

// assertOncePerPrompt checks that the server got one request per prompt
// and never a request after a billed reply.
func assertOncePerPrompt(t *testing.T, s *llmtest.Server, prompts int) {
	t.Helper()
	l := s.Ledger()
	if len(l) != prompts || s.RepeatedBilled() != 0 {
		t.Errorf("%d prompts asked (want %d), %d requests after a billed reply", len(l), prompts, s.RepeatedBilled())
	}
	for p, u := range l {
		if u.Requests != 1 {
			t.Errorf("%d requests for %.60q", u.Requests, p)
		}
	}
}

// generate: 12 questions, each asked twice (rows q1..q12 and q13..q24
// hold the same texts); the first reply to rows 2, 5, 8 and 11 is
// malformed. Before: the twin of each was bought again (and answered),
// 16 requests (measured on the commit before). Now: 12 requests, one per text; both rows of a malformed
// text carry the same error; the rerun sends nothing for them and says
// so; --retry-failed buys the 4 again, once each.
func TestGenerateTwinsPayOnce(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = func(prompt string) string { return fmt.Sprintf("answer %d", rowOf(prompt)) }
	malformedFirst(s, func(p string) bool { return rowOf(p)%3 == 2 })
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,question\n")
	for i := 1; i <= 24; i++ {
		fmt.Fprintf(&b, "q%d,What is ROW-%03d?\n", i, (i-1)%12+1)
	}
	ds := filepath.Join(dir, "qs.csv")
	os.WriteFile(ds, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "out.csv")
	args := []string{"generate", "--dataset", ds, "--endpoint", s.BaseURL(), "--model", "m", "--out", out, "--language", "english",
		"--cache", filepath.Join(dir, "cache.jsonl"), "--concurrency", "1"}
	_, errOut, code := runCLI(t, args...)
	if code != 1 || !strings.Contains(errOut, "generate: 8 of 24 questions failed") ||
		!strings.Contains(errOut, "evalbook: 4 calls share the failure of an identical request of this run") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	assertOncePerPrompt(t, s, 12)
	recs := readCSV(t, out)
	byText := map[string][2]string{}
	for _, r := range recs[1:] {
		got := [2]string{r[6], r[7]}
		if prev, ok := byText[r[1]]; ok && prev != got {
			t.Errorf("%s: one row %q, its twin %q", r[1], prev, got)
		}
		byText[r[1]] = got
		if bad := rowOf(r[1])%3 == 2; bad != strings.HasPrefix(r[7], "HTTP 200, not retried: malformed") {
			t.Errorf("%s: response %q, error %q", r[1], r[6], r[7])
		}
	}
	before := s.Count()
	_, errOut, code = runCLI(t, args...)
	if code != 1 || s.Count() != before || !strings.Contains(errOut, "evalbook: 8 calls were recorded in the cache as failed by an earlier run") ||
		!strings.Contains(errOut, "pass --retry-failed") {
		t.Errorf("rerun: exit %d, %d requests: %s", code, s.Count()-before, errOut)
	}
	if _, errOut, code = runCLI(t, append(args, "--retry-failed")...); code != 0 || s.Count()-before != 4 || s.RepeatedBilled() != 4 {
		t.Errorf("--retry-failed: exit %d, %d requests (want 4, each paid a second time on purpose): %s", code, s.Count()-before, errOut)
	}
}

// judge: 20 rows of which rows 11-20 repeat rows 1-10 (same question,
// response and golden answer: the same judge prompt); the first reply to
// rows 3 and 7 is malformed. One request per prompt (10; before, 12),
// and a row and its twin have the same verdict or the same error.
func TestJudgeTwinsPayOnce(t *testing.T) {
	s := faultJudge(t)
	malformedFirst(s, func(p string) bool { r := rowOf(p); return r == 3 || r == 7 })
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response\n")
	for i := 1; i <= 20; i++ {
		n := (i-1)%10 + 1
		fmt.Fprintf(&b, "r%d,What is ROW-%03d?,g%d,D,it is g%d\n", i, n, n, n*(n%2))
	}
	dir := t.TempDir()
	resp := filepath.Join(dir, "responses.csv")
	os.WriteFile(resp, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "verdicts.csv")
	_, errOut, code := runCLI(t, "judge", "--endpoint", s.BaseURL(), "--model", "m", "--responses", resp, "--by", "",
		"--cache", filepath.Join(dir, "cache.jsonl"), "--out", out, "--concurrency", "1")
	if code != 1 || !strings.Contains(errOut, "judge: 4 of 20 rows failed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	assertOncePerPrompt(t, s, 10)
	recs := readCSV(t, out)
	seen := map[string]string{}
	for _, r := range recs[1:] {
		got := strings.Join(r[len(r)-3:], "|")
		if prev, ok := seen[r[1]]; ok && prev != got {
			t.Errorf("%s: one row %q, its twin %q", r[1], prev, got)
		}
		seen[r[1]] = got
	}
}

// task run: a task of 16 items, items 9-16 repeating items 1-8 (same
// prompt and choices: the same request); the first reply to 3 of the 8
// requests is malformed. 8 requests in all (before, 11), twin items alike in the
// details file (the error of a failed one, or the same scores), the
// rerun sends nothing, --retry-failed sends 3.
func TestTaskRunTwinsPayOnce(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. a b c d e f g h")
	s := llmtest.New(t)
	s.Body = func(path string, body map[string]any) []byte { return m.Reply(path, body) }
	words := []string{"the", "quick", "brown", "fox", "a", "b", "c", "d"}
	malformedFirst(s, func(p string) bool {
		return strings.HasPrefix(p, "quick") || strings.HasPrefix(p, "fox") || strings.HasPrefix(p, "c")
	})
	dir := t.TempDir()
	td := filepath.Join(dir, "tasks", "toy")
	os.MkdirAll(td, 0o755)
	os.WriteFile(filepath.Join(td, "task.json"), []byte(`{"suite": "toy", "name": "twins", "kind": "mc_loglik",
 "fields": {"id": "id", "gold": "gold", "choices": "choices"},
 "languages": {"english": {"data": "en.jsonl", "template": "{q}", "target_prefix": " ", "separator": ""}}}`), 0o644)
	var data strings.Builder
	for i := range 16 {
		w := words[i%8]
		fmt.Fprintf(&data, `{"id":"i%d","split":"test","q":%q,"choices":["quick","brown"],"gold":%d}`+"\n", i, w, i%2)
	}
	os.WriteFile(filepath.Join(td, "en.jsonl"), []byte(data.String()), 0o644)
	details := filepath.Join(dir, "details.jsonl")
	args := []string{"task", "run", "--tasks", "toy|twins:english|0|0", "--task-dir", filepath.Join(dir, "tasks"), "--endpoint", s.BaseURL(),
		"--model", "bigram", "--cache", filepath.Join(dir, "cache.jsonl"), "--details", details, "--concurrency", "1"}
	_, errOut, code := runCLI(t, args...)
	if code != 1 || !strings.Contains(errOut, "task run: 6 items failed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	assertOncePerPrompt(t, s, 8)
	raw, err := os.ReadFile(details)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:]
	if len(lines) != 16 {
		t.Fatalf("%d samples", len(lines))
	}
	type sample struct {
		Index  int             `json:"index"`
		Prompt string          `json:"prompt"`
		Scored json.RawMessage `json:"scored"`
		Error  string          `json:"error"`
	}
	byPrompt := map[string]sample{}
	for _, ln := range lines {
		var sm sample
		if err := json.Unmarshal([]byte(ln), &sm); err != nil {
			t.Fatal(err)
		}
		if prev, ok := byPrompt[sm.Prompt]; ok && (prev.Error != sm.Error || string(prev.Scored) != string(sm.Scored)) {
			t.Errorf("item %d: %q %s, its twin %d: %q %s", sm.Index, sm.Error, sm.Scored, prev.Index, prev.Error, prev.Scored)
		}
		byPrompt[sm.Prompt] = sm
	}
	before := s.Count()
	if _, errOut, code = runCLI(t, args[:len(args)-4]...); code != 1 || s.Count() != before {
		t.Errorf("rerun: exit %d, %d requests (want 0): %s", code, s.Count()-before, errOut)
	}
	if _, errOut, code = runCLI(t, append(args[:len(args)-4], "--retry-failed")...); code != 0 || s.Count()-before != 3 {
		t.Errorf("--retry-failed: exit %d, %d requests (want 3): %s", code, s.Count()-before, errOut)
	}
}

// An Azure-style endpoint (a deployment path, ?api-version and ?api-key)
// with --header api-key=env:GW_KEY: every request goes to
// .../chat/completions?api-version=...&api-key=..., carries the header,
// and neither the query key, the header's value, the Bearer key nor a
// password shows in stderr, stdout (--json), the response table, the
// cache file, the task details file or the run store, even when the
// server echoes the request (a 400 quoting the URI and every header).
func TestEndpointSecretsShownNowhere(t *testing.T) {
	const queryKey, headerKey, bearer, password = "qk-5a6b7c8d9e0f", "hk-1f2e3d4c5b6a", "sk-bearer-77aa88bb", "pw-0011223344"
	t.Setenv("GW_KEY", headerKey)
	t.Setenv("OPENAI_API_KEY", bearer)
	s := llmtest.New(t)
	s.Answer = func(prompt string) string { return "answer" }
	s.Fault = func(prompt string, _ int) string {
		switch rowOf(prompt) {
		case 2:
			return "400echo"
		case 3:
			return "500"
		}
		return ""
	}
	endpoint := strings.Replace(s.BaseURL(), "http://", "http://bob:"+password+"@", 1) + "?api-version=2024-06-01&api-key=" + queryKey
	dir := t.TempDir()
	ds := filepath.Join(dir, "qs.csv")
	os.WriteFile(ds, []byte("id,question\nq1,What is ROW-001?\nq2,What is ROW-002?\nq3,What is ROW-003?\n"), 0o644)
	out, cache, db := filepath.Join(dir, "out.csv"), filepath.Join(dir, "cache.jsonl"), filepath.Join(dir, "runs.db")
	stdout, errOut, code := runCLI(t, "generate", "--dataset", ds, "--endpoint", endpoint, "--model", "m", "--out", out, "--language", "english",
		"--cache", cache, "--retries", "1", "--header", "api-key=env:GW_KEY", "--json", "--record", "--store", db)
	if code != 1 || !strings.Contains(errOut, "generate: 2 of 3 questions failed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for i, uri := range s.URIs() {
		if uri != "/v1/chat/completions?api-version=2024-06-01&api-key="+queryKey {
			t.Errorf("request %d went to %q", i, uri)
		}
		if h := s.Headers()[i]; h.Get("Api-Key") != headerKey || h.Get("Authorization") != "Bearer "+bearer {
			t.Errorf("request %d headers %v", i, h)
		}
	}
	// task run against the same endpoint, with details and the store.
	ts := tasktest.New(t, tasktest.NewModel("the quick brown fox"))
	tEndpoint := strings.Replace(ts.BaseURL(), "http://", "http://bob:"+password+"@", 1) + "?api-version=2024-06-01&api-key=" + queryKey
	details := filepath.Join(dir, "details.jsonl")
	tout, terr, tcode := runCLI(t, "task", "run", "--tasks", "indiceval|MMLU:english|0|0", "--endpoint", tEndpoint, "--model", "bigram",
		"--cache", cache, "--header", "api-key=env:GW_KEY", "--details", details, "--json", "--record", "--store", db)
	if tcode != 0 {
		t.Fatalf("task run: exit %d: %s", tcode, terr)
	}
	// The task run asks its server at the path before the query too (the
	// server answers any path, so a run that succeeds proves nothing).
	if len(ts.URIs()) == 0 {
		t.Error("task run: no request reached the server")
	}
	for i, uri := range ts.URIs() {
		if uri != "/v1/completions?api-version=2024-06-01&api-key="+queryKey && uri != "/v1/chat/completions?api-version=2024-06-01&api-key="+queryKey {
			t.Errorf("task run: request %d went to %q", i, uri)
		}
	}
	shown, _, _ := runCLI(t, "runs", "list", "--json", "--store", db)
	var files []byte
	for _, f := range []string{out, cache, details, db, db + "-wal"} {
		b, _ := os.ReadFile(f)
		files = append(files, b...)
	}
	all := strings.Join([]string{stdout, errOut, tout, terr, shown, string(files)}, "\n")
	for _, secret := range []string{queryKey, headerKey, bearer, password} {
		if strings.Contains(all, secret) {
			i := strings.Index(all, secret)
			t.Errorf("%q shown: ...%s...", secret, all[max(0, i-120):min(len(all), i+40)])
		}
	}
	if !strings.Contains(string(files), "api-version=2024-06-01&api-key=xxxxx") || !strings.Contains(errOut, "bad header: Bearer [redacted] at /v1/chat/completions?api-version=2024-06-01&api-key=[redacted]") {
		t.Errorf("the masked endpoint is not where expected:\n%s", errOut)
	}
}

// --header takes NAME=env:VARIABLE only: a literal value (which would sit
// in shell history) and an unset variable are usage errors that do not
// repeat the value.
func TestHeaderFlagRefusals(t *testing.T) {
	s := llmtest.New(t)
	for _, tt := range []struct{ header, want string }{
		{"api-key=hk-typed-in-clear", "give the value as env:VARIABLE"},
		{"api-key=env:EVALBOOK_UNSET_TEST_VAR", "EVALBOOK_UNSET_TEST_VAR is unset or empty"},
		{"Content-Type=env:HOME", "the client sets this header itself"},
	} {
		_, errOut, code := runCLI(t, "judge", "--endpoint", s.BaseURL(), "--model", "m", "--cache", "none", "--header", tt.header)
		if code != 2 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "hk-typed-in-clear") {
			t.Errorf("--header %s: exit %d: %s", tt.header, code, errOut)
		}
	}
	if s.Count() != 0 {
		t.Errorf("%d requests sent", s.Count())
	}
}

// --batch against a server without the Batch API: the error says that no
// batch is pending and to run without --batch, and names no state file
// (issue 29: it named one that did not exist).
func TestBatchWithoutBatchAPI(t *testing.T) {
	s := llmtest.New(t)
	dir := t.TempDir()
	ds := filepath.Join(dir, "qs.csv")
	os.WriteFile(ds, []byte("id,question\nq1,What is ROW-001?\n"), 0o644)
	cache := filepath.Join(dir, "cache.jsonl")
	_, errOut, code := runCLI(t, "generate", "--dataset", ds, "--endpoint", s.BaseURL(), "--model", "m", "--out", filepath.Join(dir, "o.csv"),
		"--language", "english", "--cache", cache, "--batch")
	if code != 1 || !strings.Contains(errOut, "no batch is pending") || !strings.Contains(errOut, "run without --batch") ||
		strings.Contains(errOut, "batch-state") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(cache + ".batch-state.json"); err == nil {
		t.Errorf("a state file was written")
	}
}
