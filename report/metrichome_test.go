package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// Every metric id evalbook mc and evalbook task run report is in pkg/score's
// registry, and each report's metric_defs define exactly the ids it reports.
func TestReportedMetricsInRegistry(t *testing.T) {
	seen := map[string]bool{}
	check := func(where string, reported []string, defs []string) {
		t.Helper()
		for _, id := range reported {
			m, err := score.Find(id)
			if err != nil {
				t.Errorf("%s reports %q, which the registry does not hold: %v", where, id, err)
				continue
			}
			if m.ID != id && !strings.HasSuffix(m.ID, "@k") { // recall@2 is of the family recall@k
				t.Errorf("%s reports %q, an alias of %s: reports use the registry's id", where, id, m.ID)
			}
			if !slices.Contains(defs, m.ID) {
				t.Errorf("%s reports %s without its metric_defs entry (defs %v)", where, id, defs)
			}
			seen[m.ID] = true
		}
	}
	// mc: log-likelihoods with token counts, and letters.
	q := mc.Question{ID: "q1", Gold: 1, Predicted: 1, Choices: []mc.Choice{
		{Label: "A", Index: 0, Text: "x", LogLik: -2, Tokens: 1}, {Label: "B", Index: 1, Text: "yyyy", LogLik: -6, Tokens: 2}}}
	for _, mode := range []string{"loglik", "letters"} {
		r, err := mc.Evaluate([]mc.Question{q}, mode, mc.Options{K: []int{1, 2}, Resamples: 10})
		if err != nil {
			t.Fatal(err)
		}
		var defs []string
		for _, d := range r.Defs {
			defs = append(defs, d.ID)
		}
		check("mc "+mode, r.Metrics, defs)
	}
	// task run: the shipped tasks as their files name them, a generative
	// task with the default exact_match, and a details file without
	// recorded metrics (the legacy path).
	cat, err := tasks.LoadCatalog(datasets.Tasks, datasets.TasksRoot)
	if err != nil {
		t.Fatal(err)
	}
	h := tasks.Header{Format: tasks.DetailsFormat, Model: "m", Shards: 1}
	var ss []tasks.Sample
	x := "a"
	for i, name := range cat.Names() {
		tk := cat.Task(name)
		spec := name + ":" + tk.LanguageNames()[0] + "|0|0"
		for _, legacy := range []bool{false, true} {
			ht := tasks.HeaderTask{Spec: spec, Kind: tk.Kind, Items: 1, K: tk.K, Samples: tk.Samples, Metrics: tk.Metrics}
			if legacy {
				ht.Spec = strings.Replace(spec, "|0|0", "|1|0", 1)
				ht.Metrics = nil
			}
			h.Tasks = append(h.Tasks, ht)
			s := tasks.Sample{Task: ht.Spec, ID: "i" + string(rune('0'+i)), Golden: "a", Choices: []string{"x", "yy"}, Letters: []string{"A", "B"}}
			switch tk.Kind {
			case tasks.KindLoglik:
				s.Scored = []tasks.Continuation{{Chars: 1, Logprob: -1}, {Chars: 2, Logprob: -1.5}}
			default:
				for range max(tk.Samples, 1) {
					s.Response = append(s.Response, tasks.Response{Text: "a", Extracted: &x})
				}
			}
			ss = append(ss, s)
		}
	}
	h.Tasks = append(h.Tasks, tasks.HeaderTask{Spec: "own|gen:english|0|0", Kind: tasks.KindGenerative, Items: 1, K: 2, Samples: 2,
		Metrics: []string{score.ExactMatch, score.PassAtK, score.MajAtK}})
	ss = append(ss, tasks.Sample{Task: "own|gen:english|0|0", ID: "g", Golden: "a",
		Response: []tasks.Response{{Text: "a", Extracted: &x}, {Text: "A", Extracted: &x}}})
	r, err := tasks.Score(&tasks.Details{Header: h, Samples: ss}, tasks.ScoreOptions{Resamples: 10})
	if err != nil {
		t.Fatal(err)
	}
	var defs, reported []string
	for _, d := range r.Defs {
		defs = append(defs, d.ID)
	}
	for _, tr := range r.Tasks {
		for _, m := range tr.Metrics {
			reported = append(reported, m.ID)
		}
	}
	check("task run", reported, defs)
	for _, id := range []string{score.Acc, score.AccNorm, score.AccNormToken, score.MRR, score.RecallAtK,
		score.ExactMatch, score.LooseExactMatch, score.PassAtK, score.MajAtK} {
		if !seen[id] {
			t.Errorf("%s was never reported: the test does not reach it", id)
		}
	}
}

// mc and task run pick by one rule: on random items (ties made likely by
// drawing log-likelihoods from a few values, empty choices included),
// mc's acc and acc_norm of each item equal task run's.
func TestMCAndTasksOneChoiceRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	texts := []string{"", "a", "पानी", "জল বই", "the lazy dog"}
	lls := []float64{-1, -2, -2.5, -4, -8}
	for n := 0; n < 300; n++ {
		k := 2 + rng.IntN(4)
		q := mc.Question{ID: "q", Gold: rng.IntN(k)}
		s := tasks.Sample{Gold: q.Gold}
		for j := range k {
			text, ll := texts[rng.IntN(len(texts))], lls[rng.IntN(len(lls))]
			q.Choices = append(q.Choices, mc.Choice{Label: string(rune('A' + j)), Index: j, Text: text, LogLik: ll})
			s.Scored = append(s.Scored, tasks.Continuation{Text: " " + text, Chars: len([]rune(text)), Logprob: ll})
		}
		r, err := mc.Evaluate([]mc.Question{q}, "loglik", mc.Options{Resamples: 10})
		if err != nil {
			t.Fatal(err)
		}
		acc, norm := s.Picks()
		if got, want := r.Overall.Metrics[mc.Acc].Correct, b2f(acc == q.Gold); got != want {
			t.Fatalf("item %d %+v: mc acc %g, task run %g", n, q.Choices, got, want)
		}
		if got, want := r.Overall.Metrics[mc.AccNorm].Correct, b2f(norm == q.Gold); got != want {
			t.Fatalf("item %d %+v: mc acc_norm %g, task run %g", n, q.Choices, got, want)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
