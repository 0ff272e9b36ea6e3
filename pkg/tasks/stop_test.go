package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// stopCatalog is a log-likelihood task of n items on the "aaab" model
// (see trainText): item i is right by acc when i%5 < 4 (choices a, bab,
// gold a: ln 1/2 beats 3 ln 1/3) and wrong otherwise (choices b, aa, gold
// aa: b's ln 1/3 beats aa's 2 ln 1/2), so acc is 0.8 over the task. Each
// context is distinct (an unseen prefix, then "a") so no two items share
// a cached reply.
func stopCatalog(t *testing.T, n int) *Catalog {
	t.Helper()
	var sb strings.Builder
	for i := range n {
		choices, gold := []string{"a", "bab"}, 0
		if i%5 == 4 {
			choices, gold = []string{"b", "aa"}, 1
		}
		row, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("q%05d", i), "split": "test", "q": fmt.Sprintf("x%da", i), "choices": choices, "gold": gold})
		sb.Write(row)
		sb.WriteByte('\n')
	}
	cat, err := LoadCatalog(fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(sb.String())}}, "t")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// A run with StopWhen stops once the normal-mixture confidence sequence
// (stats.PassRateSequence) of acc over the seeded shuffle is at most the
// width asked, counts exactly that prefix, and a rerun with the same
// seed and cache stops at the same item without a request.
func TestStopWhen(t *testing.T) {
	const n, width = 4000, 0.1
	cat := stopCatalog(t, n)
	s := tasktest.New(t, tasktest.NewModel(trainText))
	cache := llm.NewMemoryCache()
	opt := Options{Catalog: cat, Specs: mustSpecs(t, "toy|bigram:english|0|0"), Client: client(t, s.BaseURL(), cache), Seed: 7, Workers: 16, StopWhen: width}
	d, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	st := d.Header.Tasks[0].Stop
	if st == nil || !st.Stopped || st.Metric != MetricAcc {
		t.Fatalf("stop %+v, want stopped on acc", st)
	}
	// The stopping point recomputed from the item indices alone: the
	// first prefix of Order whose sequence is at most width wide.
	order := Order("toy|bigram:english|0|0", n, 7)
	cs := stats.PassRateSequence(0.95, n)
	right, at := 0, 0
	for k, i := range order {
		ok := i%5 != 4
		right += b2i(ok)
		cs.Add(float64(b2i(ok)))
		if iv := cs.Interval(); iv.Hi-iv.Lo <= width {
			at = k + 1
			break
		}
	}
	t.Logf("stopped after %d of %d items: acc %d/%d = %.4f, sequence %.4f - %.4f; %d discarded, %d not sent, %d requests",
		st.Items, n, right, at, st.Value, st.CILow, st.CIHigh, st.Discarded, st.NotSent, s.Count())
	if at == 0 || at >= n || st.Items != at || st.Scored != at {
		t.Fatalf("stopped at %d (%d scored), want %d of %d", st.Items, st.Scored, at, n)
	}
	if len(d.Samples) != at || st.Items+st.Discarded+st.NotSent != n {
		t.Fatalf("%d samples kept, %d discarded, %d not sent, want %d kept of %d", len(d.Samples), st.Discarded, st.NotSent, at, n)
	}
	if s.Count() != at+st.Discarded {
		t.Fatalf("%d requests, want %d counted + %d discarded", s.Count(), at, st.Discarded)
	}
	r, err := Score(d, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	acc := r.Tasks[0].Metrics[0]
	if acc.ID != MetricAcc || acc.N != at || *acc.Correct != right || acc.Value != st.Value || r.Tasks[0].Stop != st {
		t.Fatalf("acc %+v (stop %+v), want %d/%d", acc, r.Tasks[0].Stop, right, at)
	}
	if iv := cs.Interval(); st.CILow != iv.Lo || st.CIHigh != iv.Hi || st.Method != "normal-mixture-cs" {
		t.Fatalf("interval %v - %v, want %v - %v", st.CILow, st.CIHigh, iv.Lo, iv.Hi)
	}
	for i := 1; i < len(d.Samples); i++ {
		if d.Samples[i-1].Index >= d.Samples[i].Index {
			t.Fatal("kept samples not in item order")
		}
	}

	sent := s.Count()
	opt.Client = client(t, s.BaseURL(), cache)
	d2, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Count() != sent {
		t.Fatalf("the rerun sent %d requests, want 0 (every reply is cached)", s.Count()-sent)
	}
	if st2 := d2.Header.Tasks[0].Stop; *st2 != *st {
		t.Fatalf("rerun stopped %+v, first run %+v", st2, st)
	}

	// Never narrow enough: every item counted, not stopped.
	opt.StopWhen = 0.001
	small := stopCatalog(t, 40)
	opt.Catalog = small
	d3, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st3 := d3.Header.Tasks[0].Stop; st3.Stopped || st3.Items != 40 || len(d3.Samples) != 40 || st3.NotSent != 0 || st3.Discarded != 0 {
		t.Fatalf("stop %+v with %d samples, want all 40 counted", st3, len(d3.Samples))
	}
	opt.Shard, opt.Shards = 0, 2
	if _, err := Run(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "shard") {
		t.Fatalf("a shard with a stop width: %v", err)
	}
}
