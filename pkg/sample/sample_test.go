package sample

import (
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// wilson is the Wilson score interval written out from its formula
// (Wilson 1927): centre (p + z²/2n)/(1 + z²/n), half-width
// z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n), with z = 1.959963984540054 for 95%.
func wilson(k, n float64) (lo, hi float64) {
	z := 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := (p + z*z/(2*n)) / d
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return c - h, c + h
}

func TestSummarizeHandFigures(t *testing.T) {
	mk := func(task, lang, id string, ms ...Metric) Sample {
		s := Sample{Task: task, Language: lang, SampleID: id}
		for _, m := range ms {
			s.SetMetric(m.Name, m.Value)
		}
		return s
	}
	samples := []Sample{
		mk("a", "hi", "0", Metric{"acc", 1}),
		mk("a", "hi", "1", Metric{"acc", 1}),
		mk("a", "bn", "2", Metric{"acc", 0}),
		mk("a", "bn", "3", Metric{"acc", 1}),
		mk("b", "hi", "0", Metric{"f1", 0.5}),
		mk("b", "hi", "1", Metric{"f1", 0.25}),
		mk("b", "hi", "2", Metric{"f1", math.NaN()}), // no value: left out of f1's n
	}
	res, err := Summarize(samples, Options{Source: "lm-eval"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Settings.Metrics; len(got) != 2 || got[0] != "acc" || got[1] != "f1" {
		t.Fatalf("metrics %v, want [acc f1]", got)
	}
	if res.Metrics[0].By != ByHarness || res.Metrics[0].Graded || !res.Metrics[1].Graded {
		t.Fatalf("defs %+v", res.Metrics)
	}
	// Default groupings: task, then task / language (some sample has a language).
	if len(res.Settings.By) != 2 || res.Settings.By[1][1] != "language" {
		t.Fatalf("by %v", res.Settings.By)
	}
	if res.Combined.N != 7 {
		t.Fatalf("combined n %d, want 7", res.Combined.N)
	}
	acc := res.Combined.Metrics["acc"]
	lo, hi := wilson(3, 4)
	if acc.N != 4 || acc.Correct != 3 || !near(acc.Accuracy, 0.75) || !near(acc.CILow, lo) || !near(acc.CIHigh, hi) {
		t.Fatalf("combined acc %+v, want 3 of 4, Wilson [%v, %v]", acc, lo, hi)
	}
	var a, b, abn bool
	for _, g := range res.Groups {
		switch {
		case g.By == "task" && g.Group == "a":
			a = true
			if g.N != 4 || g.Metrics["acc"].N != 0 || !near(g.Metrics["acc"].Accuracy, 0.75) {
				t.Errorf("task a %+v", g)
			}
			if _, ok := g.Metrics["f1"]; ok {
				t.Errorf("task a has no f1 value but reports one")
			}
		case g.By == "task" && g.Group == "b":
			b = true
			f := g.Metrics["f1"]
			// mean 0.375 of (0.5, 0.25); normal interval mean ± z·s/√n with the
			// sample standard deviation s = sqrt(((0.125)²·2)/1) = 0.1767767.
			s := math.Sqrt(2 * 0.125 * 0.125)
			half := 1.959963984540054 * s / math.Sqrt(2)
			if g.N != 3 || f.N != 2 || !near(f.Accuracy, 0.375) || math.Abs(f.CILow-(0.375-half)) > 1e-9 || math.Abs(f.CIHigh-(0.375+half)) > 1e-9 {
				t.Errorf("task b f1 %+v (n %d), want 0.375 ± %v over 2 of 3", f, g.N, half)
			}
		case g.By == "task / language" && g.Group == "a / bn":
			abn = true
			if g.N != 2 || g.Metrics["acc"].Correct != 1 {
				t.Errorf("a / bn %+v", g)
			}
		}
	}
	if !a || !b || !abn {
		t.Fatalf("groups missing: %+v", res.Groups)
	}
}

func TestSummarizeRefusesInfinity(t *testing.T) {
	s := Sample{Task: "t", SampleID: "7", File: "x.jsonl", Line: 3}
	s.SetMetric("acc", math.Inf(1))
	_, err := Summarize([]Sample{s}, Options{})
	if err == nil || !strings.Contains(err.Error(), "x.jsonl:3") || !strings.Contains(err.Error(), `"7"`) {
		t.Fatalf("error %v, want one naming x.jsonl:3 and sample 7", err)
	}
}

func TestSummarizeModelsLead(t *testing.T) {
	ss := []Sample{{Model: "m1", Task: "t", SampleID: "1"}, {Model: "m2", Task: "t", SampleID: "1"}}
	ss[0].SetMetric("acc", 1)
	ss[1].SetMetric("acc", 0)
	res, err := Summarize(ss, Options{CI: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Settings.By) != 1 || len(res.Settings.By[0]) != 2 || res.Settings.By[0][0] != "model" {
		t.Fatalf("by %v, want [[model task]]", res.Settings.By)
	}
	if len(res.Groups) != 2 || res.Groups[0].Group != "m1 / t" || res.Groups[1].Metrics["acc"].Accuracy != 0 {
		t.Fatalf("groups %+v", res.Groups)
	}
}

// TestFromRow: a scored row of a response table becomes a sample with its
// id, texts, language and model fields, other columns as slices, values.
func TestFromRow(t *testing.T) {
	schema := results.NewRowSchema([]string{"id", "question", "answer", "Domain", "response", "language", "model"},
		[]string{"exact_substring", "word_overlap"}, []bool{false, true}, true, nil)
	r := &results.Row{Schema: schema, Line: 7, Fields: []string{"q7", "Q?", "नई दिल्ली", "geography", "नई दिल्ली है", "hi", "m1"}, Values: []float64{1, 0.5}}
	s := FromRow(r, "sample.csv")
	if s.SampleID != "q7" || s.Prompt != "Q?" || s.Golden != "नई दिल्ली" || s.Response != "नई दिल्ली है" || s.Language != "hi" || s.Model != "m1" || s.Task != "sample.csv" {
		t.Fatalf("%+v", s)
	}
	if d, _ := s.Slice("Domain"); d != "geography" {
		t.Fatalf("Domain slice %q", d)
	}
	if v, _ := s.Value("word_overlap"); v != 0.5 {
		t.Fatalf("word_overlap %v", v)
	}
	if defs := DefsOf(schema); len(defs) != 2 || !defs[1].Graded || defs[0].By != ByEvalbook {
		t.Fatalf("defs %+v", defs)
	}
}

// TestSummarizeCountItems: with CountItems, the records of one item (a
// document lm-eval writes once per filter) count once in n, and each
// filter's metric keeps its own values.
func TestSummarizeCountItems(t *testing.T) {
	var ss []Sample
	for _, f := range []struct {
		metric string
		vals   []float64
	}{{"em,strict", []float64{1, 0, 1}}, {"em,flexible", []float64{1, 1, 1}}} {
		for i, v := range f.vals {
			s := Sample{Task: "gsm8k", SampleID: string(rune('0' + i))}
			s.SetMetric(f.metric, v)
			ss = append(ss, s)
		}
	}
	for _, count := range []bool{false, true} {
		res, err := Summarize(ss, Options{CountItems: count, CI: "none"})
		if err != nil {
			t.Fatal(err)
		}
		want := 6
		if count {
			want = 3
		}
		if res.Combined.N != want {
			t.Errorf("CountItems %v: n %d, want %d", count, res.Combined.N, want)
		}
		if m := res.Combined.Metrics["em,strict"]; m.Correct != 2 || m.Accuracy != 2.0/3 {
			t.Errorf("CountItems %v: em,strict %+v, want 2 of 3", count, m)
		}
	}
}

// TestSummarizeOutsideUnit: values outside [0, 1] (a perplexity) get the
// normal interval mean ± z·s/√n, not a panic: 5 and 0 have mean 2.5, s =
// sqrt(12.5) = 3.5355339, half-width 1.959964 · 3.5355339/√2 = 4.8998.
func TestSummarizeOutsideUnit(t *testing.T) {
	a, b := Sample{Task: "t", SampleID: "1"}, Sample{Task: "t", SampleID: "2"}
	a.SetMetric("ppl", 5)
	b.SetMetric("ppl", 0)
	res, err := Summarize([]Sample{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Combined.Metrics["ppl"]
	h := 1.959963984540054 * math.Sqrt(12.5) / math.Sqrt(2)
	if !near(m.Accuracy, 2.5) || math.Abs(m.CILow-(2.5-h)) > 1e-9 || math.Abs(m.CIHigh-(2.5+h)) > 1e-9 {
		t.Fatalf("ppl %+v, want 2.5 ± %v", m, h)
	}
}
