package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// task run --stop-when on a 3,000-item log-likelihood task (acc 0.8 by
// construction on the "aaab" bigram model: ln 1/2 beats 3 ln 1/3, ln 1/3
// beats 2 ln 1/2; see pkg/tasks' toy items q1 and q2) stops before the
// end, reports the prefix's acc as the stop's value, and a rerun with
// the same seed and cache stops at the same item with no request.
func TestTaskRunStopWhen(t *testing.T) {
	dir := t.TempDir()
	task := `{"suite": "toy", "name": "big", "kind": "mc_loglik",
 "fields": {"id": "id", "gold": "gold", "choices": "choices"},
 "languages": {"english": {"data": "en.jsonl", "template": "{q}", "target_prefix": "", "separator": ""}}}`
	var sb strings.Builder
	for i := range 3000 {
		choices, gold := `["a","bab"]`, 0
		if i%5 == 4 {
			choices, gold = `["b","aa"]`, 1
		}
		fmt.Fprintf(&sb, `{"id":"q%d","split":"test","q":"x%da","choices":%s,"gold":%d}`+"\n", i, i, choices, gold)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tasks", "big"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tasks", "big", "task.json"), []byte(task), 0o644)
	os.WriteFile(filepath.Join(dir, "tasks", "big", "en.jsonl"), []byte(sb.String()), 0o644)
	s := tasktest.New(t, tasktest.NewModel("aaab"))
	args := []string{"task", "run", "--tasks", "toy|big:english|0|0", "--task-dir", filepath.Join(dir, "tasks"), "--endpoint", s.BaseURL(),
		"--model", "bigram", "--cache", filepath.Join(dir, "cache.jsonl"), "--seed", "3", "--stop-when", "0.12"}
	type doc struct {
		Tasks []struct {
			Items   int `json:"items"`
			Metrics []struct {
				ID    string  `json:"id"`
				N     int     `json:"n"`
				Value float64 `json:"value"`
			} `json:"metrics"`
			Stop *struct {
				Stopped   bool    `json:"stopped"`
				Items     int     `json:"items"`
				Of        int     `json:"of"`
				Value     float64 `json:"value"`
				CILow     float64 `json:"ci_low"`
				CIHigh    float64 `json:"ci_high"`
				Discarded int     `json:"discarded"`
				NotSent   int     `json:"not_sent"`
			} `json:"stop"`
		} `json:"tasks"`
	}
	out, errb, code := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var d doc
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Tasks) != 1 || d.Tasks[0].Stop == nil {
		t.Fatalf("%v: %s", err, out)
	}
	tr, st := d.Tasks[0], d.Tasks[0].Stop
	if !st.Stopped || st.Items >= 3000 || st.Of != 3000 || tr.Items != st.Items || tr.Metrics[0].ID != "acc" || tr.Metrics[0].N != st.Items || tr.Metrics[0].Value != st.Value {
		t.Fatalf("stop %+v, task %+v", st, tr)
	}
	if st.CIHigh-st.CILow > 0.12 || st.CILow > 0.8 || st.CIHigh < 0.8 {
		t.Fatalf("sequence %v - %v", st.CILow, st.CIHigh)
	}
	if sent := s.Count(); sent != st.Items+st.Discarded {
		t.Fatalf("%d requests, want %d counted + %d discarded", sent, st.Items, st.Discarded)
	}
	sent := s.Count()
	text, errb, code := runCLI(t, args...)
	if code != 0 || s.Count() != sent {
		t.Fatalf("rerun: exit %d, %d requests (want 0): %s", code, s.Count()-sent, errb)
	}
	if want := fmt.Sprintf("stopped after %d of 3000 items", st.Items); !strings.Contains(text, want) {
		t.Fatalf("text lacks %q:\n%s", want, text)
	}
	for _, extra := range [][]string{{"--shard", "0/2"}, {"--batch"}, {"--stop-when", "1.5"}} {
		a := append(append([]string(nil), args...), extra...)
		if _, errb, code := runCLI(t, a...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", extra, code, errb)
		}
	}
}
