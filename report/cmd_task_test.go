package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

const taskSpecs = "indiceval|ARC-Easy:hindi|2|0,indiceval|HellaSwag:bengali|1|0,indiceval|MMLU:english|2|0,indiceval|Translate:bengali|1|0"

// A sharded run merged gives the one run's JSON document bit for bit, the
// merged details are the one run's bytes, and a rerun from the cache
// sends no request.
func TestTaskRunShardsMerge(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	s := tasktest.New(t, m)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache.jsonl")
	common := []string{"task", "run", "--tasks", taskSpecs, "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", "5", "--cache", cache, "--json"}
	whole, errb, code := runCLI(t, append(common, "--details", filepath.Join(dir, "whole.jsonl"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	sent := s.Count()
	var files []string
	for i, sh := range []string{"0/3", "1/3", "2/3"} {
		f := filepath.Join(dir, "s"+string(rune('0'+i))+".jsonl")
		files = append(files, f)
		if _, errb, code := runCLI(t, append(common, "--shard", sh, "--details", f)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", sh, code, errb)
		}
	}
	if s.Count() != sent {
		t.Fatalf("the shards sent %d requests; every reply was in the cache", s.Count()-sent)
	}
	merged, errb, code := runCLI(t, append([]string{"task", "merge", "--json", "--details", filepath.Join(dir, "merged.jsonl")}, files...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errb)
	}
	if merged != whole {
		t.Fatalf("merged figures differ from one run:\n%s\n%s", merged, whole)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "whole.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "merged.jsonl"))
	if string(a) != string(b) || len(a) == 0 {
		t.Fatal("merged details differ from one run's")
	}
	var doc struct {
		Kind  string `json:"kind"`
		Tasks []struct {
			Task    string `json:"task"`
			Metrics []struct {
				ID string `json:"id"`
			} `json:"metrics"`
		} `json:"tasks"`
		Tokens struct {
			Prompt *int64 `json:"prompt"`
		} `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(whole), &doc); err != nil || doc.Kind != "task_run" || len(doc.Tasks) != 4 || doc.Tokens.Prompt == nil {
		t.Fatalf("%v: %s", err, whole)
	}
	if got := doc.Tasks[3].Metrics; len(got) != 3 || got[1].ID != "pass@k" {
		t.Fatalf("translate metrics %+v", got)
	}
	if _, errb, code := runCLI(t, "task", "merge", files[0], files[1]); code != 1 || !strings.Contains(errb, "shard(s) 2/3 missing") {
		t.Fatalf("two of three shards: exit %d: %s", code, errb)
	}
}

func TestTaskRunUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"task", "run", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m"}, "--tasks is required"},
		{[]string{"task", "run", "--tasks", "indiceval|ARC-Easy:hindi|x|0", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m"}, "shots"},
		{[]string{"task", "run", "--tasks", "indiceval|ARC-Easy:hindi|1|0", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--shard", "3/3"}, "--shard"},
		{[]string{"task", "run", "--tasks", "indiceval|Nope:hindi|1|0", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m"}, "known: indiceval|ARC-Easy"},
		{[]string{"task", "merge"}, "give the details files"},
	} {
		_, errb, code := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errb, tc.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", tc.args, code, errb, tc.want)
		}
	}
	out, _, code := runCLI(t, "task", "list")
	if code != 0 || !strings.Contains(out, "indiceval|Translate") {
		t.Fatalf("task list: %d %s", code, out)
	}
}

// Two --endpoint servers share the requests (each request always to the
// same one) and give the figures one server gives.
func TestTaskRunSpread(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	a, b := tasktest.New(t, m), tasktest.New(t, m)
	args := []string{"task", "run", "--tasks", taskSpecs, "--model", "bigram", "--cache", "none", "--json"}
	one, errb, code := runCLI(t, append(args, "--endpoint", a.BaseURL())...)
	if code != 0 {
		t.Fatal(errb)
	}
	alone := a.Count()
	two, errb, code := runCLI(t, append(args, "--endpoint", a.BaseURL(), "--endpoint", b.BaseURL())...)
	if code != 0 {
		t.Fatal(errb)
	}
	na, nb := a.Count()-alone, b.Count()
	if na == 0 || nb == 0 || na+nb != alone {
		t.Fatalf("spread %d + %d requests, want both used and %d in all", na, nb, alone)
	}
	tasksOf := func(doc string) string {
		var v struct {
			Tasks json.RawMessage `json:"tasks"`
		}
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		return string(v.Tasks)
	}
	if tasksOf(one) != tasksOf(two) {
		t.Fatalf("figures differ:\n%s\n%s", tasksOf(one), tasksOf(two))
	}
}

// --batch: the run's requests go through the Batch API, then the figures
// are the online run's and no online call is made.
func TestTaskRunBatch(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	online := tasktest.New(t, m)
	bs := tasktest.NewBatch(t, m)
	dir := t.TempDir()
	args := []string{"task", "run", "--tasks", taskSpecs, "--model", "bigram", "--json"}
	want, errb, code := runCLI(t, append(args, "--endpoint", online.BaseURL(), "--cache", "none")...)
	if code != 0 {
		t.Fatal(errb)
	}
	got, errb, code := runCLI(t, append(args, "--endpoint", bs.BaseURL(), "--cache", filepath.Join(dir, "c.jsonl"), "--batch", "--batch-poll", "5ms")...)
	if code != 0 {
		t.Fatal(errb)
	}
	if bs.Online != 0 || bs.Created != 1 || !strings.Contains(errb, "0 batches resumed") {
		t.Fatalf("online %d, batches %d: %s", bs.Online, bs.Created, errb)
	}
	strip := func(doc string) string { // the endpoint differs, nothing else may
		var v map[string]any
		json.Unmarshal([]byte(doc), &v)
		delete(v, "endpoint")
		b, _ := json.Marshal(v)
		return string(b)
	}
	if strip(got) != strip(want) {
		t.Fatalf("batch figures differ:\n%s\n%s", got, want)
	}
	if _, errb, code := runCLI(t, append(args, "--endpoint", bs.BaseURL(), "--cache", "none", "--batch")...); code != 2 || !strings.Contains(errb, "--batch takes") {
		t.Fatalf("batch without cache: %d %s", code, errb)
	}
}

// TestTaskBatchKill9 kills a --batch run (this test binary as evalbook)
// with SIGKILL while its batch is pending, then reruns it: the rerun
// resumes the same batch from the state file, creates no other, submits
// no request twice, and gives the online figures.
func TestTaskBatchKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts evalbook in a process of its own")
	}
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	bs := tasktest.NewBatch(t, m)
	bs.SetHold(true)
	dir := t.TempDir()
	cache := filepath.Join(dir, "c.jsonl")
	args := []string{"task", "run", "--tasks", taskSpecs, "--model", "bigram", "--json", "--endpoint", bs.BaseURL(), "--cache", cache, "--batch", "--batch-poll", "5ms"}
	child := evalbookCmd(args...)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	state := cache + ".batch-state.json"
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(state); err == nil && strings.Contains(string(b), "batch-1") {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if ws, ok := child.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatal("the run was not killed while its batch was pending")
	}
	bs.SetHold(false)
	rerun := evalbookCmd(args...)
	var out, errb strings.Builder
	rerun.Stdout, rerun.Stderr = &out, &errb
	if err := rerun.Run(); err != nil {
		t.Fatalf("rerun: %v: %s", err, errb.String())
	}
	if bs.Created != 1 || bs.Online != 0 || !strings.Contains(errb.String(), "0 submitted, 1 batches resumed") {
		t.Fatalf("created %d batches, %d online calls: %s", bs.Created, bs.Online, errb.String())
	}
	for k, n := range bs.Submitted {
		if n != 1 {
			t.Fatalf("request %s submitted %d times", k[:8], n)
		}
	}
	online := tasktest.New(t, m)
	want, e2, code := runCLI(t, "task", "run", "--tasks", taskSpecs, "--model", "bigram", "--json", "--endpoint", online.BaseURL(), "--cache", "none")
	if code != 0 {
		t.Fatal(e2)
	}
	strip := func(doc string) string {
		var v map[string]any
		json.Unmarshal([]byte(doc), &v)
		delete(v, "endpoint")
		b, _ := json.Marshal(v)
		return string(b)
	}
	if strip(out.String()) != strip(want) {
		t.Fatalf("resumed batch figures differ from online:\n%s\n%s", out.String(), want)
	}
}

// generate and judge take --batch too, through the same llm.Client.Batch:
// a run killed (SIGKILL) while its batch is pending, then rerun, resumes
// that batch from the state file, creates no other, submits no request
// twice, makes no online call, and writes the online run's file byte for
// byte.
func TestChatBatchKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts evalbook in a process of its own")
	}
	dir := t.TempDir()
	ds := filepath.Join(dir, "questions.csv")
	os.WriteFile(ds, []byte("id,question,language\nq1,What is the capital of India?,en\n"+
		"q2,भारत की राजधानी क्या है?,hi\nq3,ভারতের রাজধানী কী?,bn\nq4,Name a river.,en\n"), 0o644)
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	// The judge's reply depends on the prompt, so the verdicts differ by row.
	m.Chat = func(user string, _ int) string {
		if len(user)%3 == 0 {
			return `{"verdict": "incorrect", "reason": "a third of the rows"}`
		}
		return `{"verdict": "correct"}`
	}
	for _, cmd := range [][]string{
		{"generate", "--dataset", ds, "--max-tokens", "12"},
		{"judge", "--limit", "12"},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			sub := filepath.Join(dir, cmd[0])
			os.Mkdir(sub, 0o755)
			online := tasktest.New(t, m)
			want := filepath.Join(sub, "online.csv")
			if _, errb, code := runCLI(t, append(cmd, "--endpoint", online.BaseURL(), "--model", "bigram", "--cache", "none", "--out", want)...); code != 0 {
				t.Fatalf("online: exit %d: %s", code, errb)
			}
			bs := tasktest.NewBatch(t, m)
			bs.SetHold(true)
			cache, got := filepath.Join(sub, "c.jsonl"), filepath.Join(sub, "batch.csv")
			args := append(cmd, "--endpoint", bs.BaseURL(), "--model", "bigram", "--cache", cache, "--out", got, "--batch", "--batch-poll", "5ms")
			child := evalbookCmd(args...)
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			state := cache + ".batch-state.json"
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
				if b, err := os.ReadFile(state); err == nil && strings.Contains(string(b), "batch-1") {
					break
				}
			}
			child.Process.Signal(syscall.SIGKILL)
			child.Wait()
			if ws, ok := child.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
				t.Fatal("the run was not killed while its batch was pending")
			}
			if _, err := os.Stat(got); err == nil {
				t.Fatal("the killed run wrote its output")
			}
			bs.SetHold(false)
			_, errb, code := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("rerun: exit %d: %s", code, errb)
			}
			if bs.Created != 1 || bs.Online != 0 || !strings.Contains(errb, "0 submitted, 1 batches resumed") {
				t.Fatalf("created %d batches, %d online calls: %s", bs.Created, bs.Online, errb)
			}
			if len(bs.Submitted) == 0 {
				t.Fatal("nothing was submitted")
			}
			for k, n := range bs.Submitted {
				if n != 1 {
					t.Fatalf("request %s submitted %d times", k[:8], n)
				}
			}
			a, _ := os.ReadFile(want)
			b, _ := os.ReadFile(got)
			if len(a) == 0 || string(a) != string(b) {
				t.Fatalf("the batch run's file differs from the online run's:\n%s\n%s", b, a)
			}
			if cmd[0] == "judge" && (!strings.Contains(string(b), "a third of the rows") || !strings.Contains(string(b), ",1,")) {
				t.Fatalf("the verdicts are not the model's replies:\n%s", b)
			}
			// A second rerun finds everything in the cache: no batch, no call.
			if _, errb, code := runCLI(t, args...); code != 0 || bs.Created != 1 || bs.Online != 0 || !strings.Contains(errb, "0 submitted, 0 batches resumed") {
				t.Fatalf("second rerun: exit %d, %d batches, %d online: %s", code, bs.Created, bs.Online, errb)
			}
		})
	}
}

// task run --record keeps the run in the store: one row per item, the
// task strings as groups, the figures the run printed.
func TestTaskRunRecord(t *testing.T) {
	s := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))
	db := filepath.Join(t.TempDir(), "runs.db")
	out, errb, code := runCLI(t, "task", "run", "--tasks", taskSpecs, "--endpoint", s.BaseURL(), "--model", "bigram", "--cache", "none", "--json", "--record", "--store", db)
	if code != 0 || !strings.Contains(errb, "recorded run 1") {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var res struct {
		Samples int `json:"samples"`
		Tasks   []struct {
			Task    string `json:"task"`
			Metrics []struct {
				ID    string  `json:"id"`
				K     int     `json:"k"`
				Value float64 `json:"value"`
			} `json:"metrics"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	shown, errb, code := runCLI(t, "runs", "show", "1", "--json", "--store", db)
	if code != 0 {
		t.Fatalf("runs show: %d %s", code, errb)
	}
	var run struct {
		Command string `json:"command"`
		Model   string `json:"model"`
		Rows    int    `json:"rows"`
		Groups  []struct {
			By, Group, Metric string
			Accuracy          float64
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(shown), &run); err != nil {
		t.Fatalf("%v: %s", err, shown)
	}
	if run.Command != "task run" || run.Model != "bigram" || run.Rows != res.Samples || res.Samples == 0 {
		t.Fatalf("recorded %+v for %d items", run, res.Samples)
	}
	found := 0
	for _, tr := range res.Tasks {
		for _, m := range tr.Metrics {
			id := strings.Replace(m.ID, "@k", "@"+strconv.Itoa(m.K), 1)
			for _, g := range run.Groups {
				if g.By == "task" && g.Group == tr.Task && g.Metric == id && g.Accuracy == m.Value {
					found++
				}
			}
		}
	}
	if found == 0 || found != len(run.Groups) {
		t.Fatalf("%d of %d recorded figures match the run's: %s", found, len(run.Groups), shown)
	}
}

// --details x.parquet writes Parquet; task merge reads Parquet shards (and
// JSONL ones beside them) to the one run's figures and JSONL details.
func TestTaskDetailsParquet(t *testing.T) {
	s := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))
	dir := t.TempDir()
	common := []string{"task", "run", "--tasks", taskSpecs, "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", "5", "--cache", filepath.Join(dir, "c.jsonl"), "--json"}
	whole, errb, code := runCLI(t, append(common, "--details", filepath.Join(dir, "whole.jsonl"))...)
	if code != 0 {
		t.Fatal(errb)
	}
	files := []string{filepath.Join(dir, "s0.parquet"), filepath.Join(dir, "s1.jsonl")}
	for i, f := range files {
		if _, errb, code := runCLI(t, append(common, "--shard", strconv.Itoa(i)+"/2", "--details", f)...); code != 0 {
			t.Fatal(errb)
		}
	}
	if b, _ := os.ReadFile(files[0]); !strings.HasPrefix(string(b), "PAR1") {
		t.Fatal("--details s0.parquet is not a Parquet file")
	}
	merged, errb, code := runCLI(t, append([]string{"task", "merge", "--json", "--details", filepath.Join(dir, "merged.jsonl")}, files...)...)
	if code != 0 || merged != whole {
		t.Fatalf("merge: exit %d %s\n%s\n%s", code, errb, merged, whole)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "whole.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "merged.jsonl"))
	if len(a) == 0 || string(a) != string(b) {
		t.Fatal("the details merged from Parquet and JSONL shards differ from one run's")
	}
	os.WriteFile(filepath.Join(dir, "bad.parquet"), []byte("not parquet"), 0o644)
	if _, errb, code := runCLI(t, "task", "merge", filepath.Join(dir, "bad.parquet")); code == 0 || !strings.Contains(errb, "bad.parquet") {
		t.Fatalf("a bad Parquet file: exit %d: %s", code, errb)
	}
}

// The reply cache is keyed by what was asked (model, API path, prompt
// template hash, prompts, parameters), not by the endpoint's URL or its
// place in the --endpoint list: a rerun with the endpoints reordered, with
// one of them moved to another port, or with fewer endpoints, sends no
// request for a prompt already answered (issue 26 item 6; before, the
// reordered rerun asked again for every prompt sent to a moved endpoint and
// the moved server for all of its prompts).
func TestTaskRunEndpointsMoved(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	a, b := tasktest.New(t, m), tasktest.New(t, m)
	cache := filepath.Join(t.TempDir(), "cache.jsonl")
	args := []string{"task", "run", "--tasks", taskSpecs, "--model", "bigram", "--cache", cache, "--json"}
	run := func(servers ...*llmtest.Server) string {
		t.Helper()
		argv := append([]string(nil), args...)
		for _, s := range servers {
			argv = append(argv, "--endpoint", s.BaseURL())
		}
		out, errb, code := runCLI(t, argv...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		return out
	}
	first := run(a, b)
	answered := map[string]bool{}
	for _, s := range []*llmtest.Server{a, b} {
		for p, u := range s.Ledger() {
			if u.Whole > 0 {
				answered[p] = true
			}
		}
	}
	if a.Count() == 0 || b.Count() == 0 || len(answered) == 0 {
		t.Fatalf("first run: %d and %d requests, %d prompts answered; want both servers used", a.Count(), b.Count(), len(answered))
	}
	// reasked counts the requests servers received since before for a
	// prompt answered in the first run.
	ledgers := func(servers ...*llmtest.Server) []map[string]llmtest.Usage {
		var out []map[string]llmtest.Usage
		for _, s := range servers {
			out = append(out, s.Ledger())
		}
		return out
	}
	reasked := func(before []map[string]llmtest.Usage, servers ...*llmtest.Server) int {
		n := 0
		for i, s := range servers {
			for p, u := range s.Ledger() {
				if answered[p] {
					n += u.Requests - before[i][p].Requests
				}
			}
		}
		return n
	}
	t.Logf("first run: %d requests (%d to %s, %d to %s), %d prompts answered", a.Count()+b.Count(), a.Count(), a.URL, b.Count(), b.URL, len(answered))
	c := tasktest.New(t, m) // a's server restarted on another port
	all := []*llmtest.Server{a, b, c}
	for _, tc := range []struct {
		name    string
		servers []*llmtest.Server
	}{
		{"reordered", []*llmtest.Server{b, a}},
		{"moved to another port", []*llmtest.Server{c, b}},
		{"reordered and moved", []*llmtest.Server{b, c}},
		{"fewer", []*llmtest.Server{c}},
	} {
		before := ledgers(all...)
		out := run(tc.servers...)
		t.Logf("%s: %d requests", tc.name, a.Count()+b.Count()+c.Count()-sum(before))
		if n := reasked(before, all...); n != 0 {
			t.Errorf("%s: %d requests for prompts already answered, want 0", tc.name, n)
		}
		if tasksOf(t, out) != tasksOf(t, first) {
			t.Errorf("%s: figures differ:\n%s\n%s", tc.name, tasksOf(t, out), tasksOf(t, first))
		}
	}
}

// sum is the number of requests in ledgers.
func sum(ledgers []map[string]llmtest.Usage) int {
	n := 0
	for _, l := range ledgers {
		for _, u := range l {
			n += u.Requests
		}
	}
	return n
}

// tasksOf returns the "tasks" member of a task run's JSON document.
func tasksOf(t *testing.T, doc string) string {
	t.Helper()
	var v struct {
		Tasks json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	return string(v.Tasks)
}
