package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/repeats"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// The tiny model is trained on "aaab": the pairs are aa twice and ab
// once, so n(a) = 3; the vocabulary {a, b} plus "unseen" gives V = 3.
//
//	P(a|a) = (2+1)/(3+3) = 1/2    P(b|a) = (1+1)/6 = 1/3    P(c|a) = 1/6
//	P(x|b) = (0+1)/(0+3) = 1/3 for every x (b is never followed)
//
// Items (context -> choices, gold), no target prefix, 0 shots:
//
//	q1  a -> [b, aa]    gold 1: b = ln 1/3 = -1.0986 (per char -1.0986);
//	                    aa = 2 ln 1/2 = -1.3863 (per char -0.6931)
//	                    acc picks b (wrong), acc_norm picks aa (right)
//	q2  a -> [a, bab]   gold 0: a = ln 1/2 = -0.6931; bab = 3 ln 1/3 = -3.2958
//	                    (per char -1.0986): both pick a (right, right)
//	q3  b -> [c, aaaa]  gold 0: c = ln 1/3 = -1.0986; aaaa = ln 1/3 + 3 ln 1/2
//	                    = -3.1781 (per char -0.7945): acc right, acc_norm wrong
//	q4  a -> [b, aa]    gold 1: as q1 (acc wrong, acc_norm right)
//
// acc = 2/4, acc_norm = 3/4.
const trainText = "aaab"

var toyData = `{"id":"q1","split":"test","q":"a","choices":["b","aa"],"gold":1}
{"id":"q2","split":"test","q":"a","choices":["a","bab"],"gold":0}
{"id":"q3","split":"test","q":"b","choices":["c","aaaa"],"gold":0}
{"id":"q4","split":"test","q":"a","choices":["b","aa"],"gold":"B"}
{"id":"t1","split":"train","q":"a","choices":["a","b"],"gold":0}
{"id":"t2","split":"train","q":"b","choices":["a","b"],"gold":1}
{"id":"t3","split":"train","q":"a","choices":["a","b"],"gold":0}
{"id":"t4","split":"train","q":"b","choices":["a","b"],"gold":1}
`

const toyTask = `{"suite": "toy", "name": "bigram", "kind": "mc_loglik",
 "fields": {"id": "id", "gold": "gold", "choices": "choices"},
 "languages": {"english": {"data": "en.jsonl", "template": "{q}", "target_prefix": "", "separator": ""},
               "hindi": {"data": "en.jsonl", "template": "{q}", "target_prefix": "", "separator": ""}}}`

func toyCatalog(t *testing.T, extra fstest.MapFS) *Catalog {
	t.Helper()
	fsys := fstest.MapFS{
		"t/toy/task.json": {Data: []byte(toyTask)},
		"t/toy/en.jsonl":  {Data: []byte(toyData)},
	}
	for k, v := range extra {
		fsys[k] = v
	}
	c, err := LoadCatalog(fsys, "t")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func client(t *testing.T, url string, cache *llm.Cache) *llm.Client {
	t.Helper()
	c, err := llm.NewClient(llm.Config{BaseURL: url, Model: "bigram", Concurrency: 4, Retries: -1, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustSpecs(t *testing.T, s string) []Spec {
	t.Helper()
	sp, err := ParseSpecs(s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func metric(t *testing.T, tr TaskResult, id string) Metric {
	t.Helper()
	for _, m := range tr.Metrics {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("%s: no metric %s in %+v", tr.Task, id, tr.Metrics)
	return Metric{}
}

func runToy(t *testing.T, opt Options) (*Details, *Result) {
	t.Helper()
	d, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Score(d, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d, r
}

func TestLoglikAccAndAccNormExact(t *testing.T) {
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	for _, perChoice := range []bool{false, true} {
		d, r := runToy(t, Options{Catalog: toyCatalog(t, nil), Specs: mustSpecs(t, "toy|bigram:english|0|0"), Client: client(t, s.BaseURL(), nil), Model: "bigram", PerChoice: perChoice})
		tr := r.Tasks[0]
		acc, norm := metric(t, tr, MetricAcc), metric(t, tr, MetricAccNorm)
		if *acc.Correct != 2 || *norm.Correct != 3 || acc.N != 4 || acc.Value != 0.5 || norm.Value != 0.75 {
			t.Fatalf("perChoice %v: acc %d/%d, acc_norm %d/%d; want 2/4 and 3/4", perChoice, *acc.Correct, acc.N, *norm.Correct, norm.N)
		}
		iv := stats.ProportionInterval(stats.MethodWilson, 3, 4, 0.95)
		if norm.CILow != iv.Lo || norm.CIHigh != iv.Hi || norm.Method != "wilson" {
			t.Fatalf("acc_norm interval %g-%g %s, want Wilson %g-%g", norm.CILow, norm.CIHigh, norm.Method, iv.Lo, iv.Hi)
		}
		// q3's "aaaa": ln 1/3 + 3 ln 1/2, four tokens, four characters.
		c := d.Samples[2].Scored[1]
		if want := math.Log(1.0/3) + 3*math.Log(0.5); math.Abs(c.Logprob-want) > 1e-12 || c.Tokens != 4 || c.Chars != 4 {
			t.Fatalf("q3 aaaa: %+v, want logprob %g over 4 tokens", c, want)
		}
		// Tokens: one per character. Prompts "ab"+"aaa" (2+3), "aa"+"abab"
		// (2+4), "bc"+"baaaa" (2+5), q4 as q1 (5): 5+6+7+5 = 23 prompt
		// tokens, no completion token.
		if r.Tokens.Prompt == nil || *r.Tokens.Prompt != 23 || r.Tokens.Completion == nil || *r.Tokens.Completion != 0 {
			t.Fatalf("tokens %v %v, want 23 prompt and 0 completion", r.Tokens.Prompt, r.Tokens.Completion)
		}
	}
}

func TestRerunFromCacheMakesNoCall(t *testing.T) {
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	cache := llm.NewMemoryCache()
	opt := Options{Catalog: toyCatalog(t, nil), Specs: mustSpecs(t, "toy|bigram:english|2|0,toy|bigram:hindi|0|0"), Client: client(t, s.BaseURL(), cache), Seed: 7}
	_, first := runToy(t, opt)
	calls := s.Count()
	// One request per item, but hindi's q1 and q4 (0 shots) are the same
	// request, asked once: 8 - 1 = 7.
	if calls != 7 {
		t.Fatalf("first run: %d requests, want 7", calls)
	}
	opt.Client = client(t, s.BaseURL(), cache)
	_, second := runToy(t, opt)
	if s.Count() != calls {
		t.Fatalf("rerun sent %d requests, want 0", s.Count()-calls)
	}
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if !bytes.Equal(a, b) {
		t.Fatalf("rerun figures differ:\n%s\n%s", a, b)
	}
}

func TestDetailsRoundTripAndShardMerge(t *testing.T) {
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	specs := mustSpecs(t, "toy|bigram:english|3|0,toy|bigram:hindi|1|0")
	base := Options{Catalog: toyCatalog(t, nil), Specs: specs, Client: client(t, s.BaseURL(), nil), Model: "bigram", Endpoint: "e", Seed: 3}
	whole, want := runToy(t, base)
	var buf bytes.Buffer
	if err := WriteDetails(&buf, whole); err != nil {
		t.Fatal(err)
	}
	back, err := ReadDetails(&buf, "whole.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rescored, err := Score(back, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	if got, _ := json.Marshal(rescored); !bytes.Equal(got, wantJSON) {
		t.Fatalf("re-scored details differ:\n%s\n%s", got, wantJSON)
	}
	var parts []*Details
	for i := 2; i >= 0; i-- { // out of order on purpose
		o := base
		o.Shard, o.Shards = i, 3
		d, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteDetails(&b, d); err != nil {
			t.Fatal(err)
		}
		d, err = ReadDetails(&b, "shard.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, d)
	}
	merged, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Score(merged, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if gotJSON, _ := json.Marshal(got); !bytes.Equal(gotJSON, wantJSON) {
		t.Fatalf("merged figures differ from one run:\n%s\n%s", gotJSON, wantJSON)
	}
	var a, b bytes.Buffer
	WriteDetails(&a, merged)
	WriteDetails(&b, whole)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("merged details are not the single run's bytes")
	}
	if _, err := Merge(parts[:2]); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("two of three shards: %v, want a missing shard", err)
	}
	if _, err := Merge([]*Details{parts[0], parts[0], parts[1]}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("a shard twice: %v", err)
	}
	// another run is named by the field that differs, with both values,
	// not by the two whole headers (1.4 KB for a real run)
	other := *parts[1]
	other.Header.Seed = parts[0].Header.Seed + 1
	_, err = Merge([]*Details{parts[0], &other, parts[2]})
	if want := fmt.Sprintf("headers differ in seed: %d vs %d", other.Header.Seed, parts[0].Header.Seed); err == nil ||
		!strings.Contains(err.Error(), "file 2 is from another run") || !strings.Contains(err.Error(), want) || len(err.Error()) > 300 {
		t.Fatalf("another seed: %v; want %q in under 300 bytes", err, want)
	}
	other = *parts[2]
	other.Header.Tasks = slices.Clone(other.Header.Tasks)
	other.Header.Tasks[len(other.Header.Tasks)-1].TaskHash = "0123abcd"
	_, err = Merge([]*Details{parts[0], parts[1], &other})
	if want := fmt.Sprintf(`tasks[%d].task_hash: "0123abcd" vs %q`, len(other.Header.Tasks)-1, parts[0].Header.Tasks[len(other.Header.Tasks)-1].TaskHash); err == nil ||
		!strings.Contains(err.Error(), "file 3") || !strings.Contains(err.Error(), want) {
		t.Fatalf("another task file: %v; want %q", err, want)
	}
	other = *parts[2]
	other.Header.Tasks = other.Header.Tasks[:len(other.Header.Tasks)-1]
	if _, err = Merge([]*Details{parts[0], parts[1], &other}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("tasks: %d vs %d entries", len(other.Header.Tasks), len(parts[0].Header.Tasks))) {
		t.Fatalf("a task fewer: %v", err)
	}
}

func TestFewshotSeededAndRecorded(t *testing.T) {
	c := toyCatalog(t, nil)
	tk, _ := c.Resolve(mustSpecs(t, "toy|bigram:english|2|0")[0])
	d, err := c.LoadData(tk, "english")
	if err != nil {
		t.Fatal(err)
	}
	a := SelectFewshot(d.Fewshot, 2, "random", 1, tk, "english", "q1")
	b := SelectFewshot(d.Fewshot, 2, "random", 1, tk, "english", "q1")
	if len(a) != 2 || a[0] != b[0] || a[1] != b[1] {
		t.Fatalf("same seed, different draws %v %v", a, b)
	}
	if first := SelectFewshot(d.Fewshot, 3, "first", 9, tk, "english", "q1"); first[0] != 0 || first[2] != 2 {
		t.Fatalf("first 3: %v", first)
	}
	// Balanced: the pool has labels 0, 1, 0, 1; two examples must be one of each.
	for _, id := range []string{"q1", "q2", "q3", "q4", "x"} {
		bal := SelectFewshot(d.Fewshot, 2, "balanced", 5, tk, "english", id)
		if d.Fewshot[bal[0]].Label == d.Fewshot[bal[1]].Label {
			t.Fatalf("balanced draw for %s: %v has one label", id, bal)
		}
	}
	differ := false
	for seed := int64(0); seed < 20 && !differ; seed++ {
		x := SelectFewshot(d.Fewshot, 2, "random", seed, tk, "english", "q1")
		differ = x[0] != a[0] || x[1] != a[1]
	}
	if !differ {
		t.Fatal("20 seeds gave the same draw")
	}
	// The run records the ids and puts the examples in the prompt:
	// template "{q}" + prefix "" + gold choice, separator "".
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	det, _ := runToy(t, Options{Catalog: c, Specs: mustSpecs(t, "toy|bigram:english|2|0"), Client: client(t, s.BaseURL(), nil), Seed: 1})
	s0 := det.Samples[0]
	if len(s0.Fewshot) != 2 || s0.Fewshot[0] != d.Fewshot[a[0]].ID || s0.Fewshot[1] != d.Fewshot[a[1]].ID {
		t.Fatalf("recorded %v, drawn %v", s0.Fewshot, a)
	}
	ex := func(i int) string { it := d.Fewshot[i]; return it.Fields["q"] + it.Choices[it.Gold] }
	if want := ex(a[0]) + ex(a[1]) + "a"; s0.Prompt != want {
		t.Fatalf("prompt %q, want %q", s0.Prompt, want)
	}
}

func TestTruncateDropsExamples(t *testing.T) {
	c := toyCatalog(t, fstest.MapFS{"t/short/task.json": {Data: []byte(strings.Replace(strings.Replace(toyTask, `"bigram"`, `"short"`, 1), `"kind"`, `"max_prompt_chars": 5, "kind"`, 1))},
		"t/short/en.jsonl": {Data: []byte(toyData)}})
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	// Each example is 2 characters, the query 1, the longest continuation
	// of q1 2: with 4 shots 8+1+2 = 11 > 5, so examples go until 2+1+2 = 5.
	det, _ := runToy(t, Options{Catalog: c, Specs: mustSpecs(t, "toy|short:english|4|1"), Client: client(t, s.BaseURL(), nil)})
	if n := len(det.Samples[0].Fewshot); n != 1 {
		t.Fatalf("kept %d examples, want 1", n)
	}
	if r, _ := Score(det, ScoreOptions{}); len(r.Warnings) == 0 || r.Warnings[0].Code != "fewer_shots" || r.Warnings[0].Count != 4 {
		t.Fatalf("warnings %+v, want fewer_shots for the 4 items", r.Warnings)
	}
	det, _ = runToy(t, Options{Catalog: c, Specs: mustSpecs(t, "toy|short:english|4|0"), Client: client(t, s.BaseURL(), nil)})
	if n := len(det.Samples[0].Fewshot); n != 4 {
		t.Fatalf("truncate 0 kept %d examples, want 4", n)
	}
}

func TestLetterAndGenerative(t *testing.T) {
	letterTask := `{"suite": "toy", "name": "letters", "kind": "mc_letter", "stop": ["\n"],
	 "fields": {"id": "id", "gold": "gold", "choices": "choices"},
	 "languages": {"english": {"data": "en.jsonl", "template": "{q}\n{choices}\nAnswer:"}}}`
	genTask := `{"suite": "toy", "name": "gen", "kind": "generative", "samples": 5, "k": 2, "temperature": 0.8, "stop": ["\n"],
	 "extract": "answer: (\\w+)", "metrics": ["loose_exact_match", "pass@k", "maj@k"],
	 "fields": {"id": "id", "gold": "golden"},
	 "languages": {"english": {"data": "g.jsonl", "template": "{q}"}}}`
	c := toyCatalog(t, fstest.MapFS{
		"t/l/task.json": {Data: []byte(letterTask)}, "t/l/en.jsonl": {Data: []byte(toyData)},
		"t/g/task.json": {Data: []byte(genTask)},
		"t/g/g.jsonl":   {Data: []byte(`{"id":"g1","split":"test","q":"one","golden":"X"}` + "\n" + `{"id":"g2","split":"test","q":"two","golden":"y"}` + "\n")},
	})
	m := tasktest.NewModel(trainText)
	// Letters: always " B\n..." (cut at the stop): right for q1 and q4
	// (gold 1), wrong for q2 and q3: acc 2/4. Generative: sample j of g1
	// answers x, y, x, x, z; of g2 nothing extractable on sample 0, then y.
	m.Generate = func(prompt string, j int) string {
		if strings.HasSuffix(prompt, "Answer:") {
			return " B\nmore"
		}
		if prompt == "one" {
			return "answer: " + []string{"x", "y", "x", "x", "z"}[j] + "\nignored"
		}
		if j == 0 {
			return "no idea"
		}
		return "answer: Y"
	}
	s := tasktest.New(t, m)
	det, r := runToy(t, Options{Catalog: c, Specs: mustSpecs(t, "toy|letters:english|0|0,toy|gen:english|0|0"), Client: client(t, s.BaseURL(), nil)})
	if a := metric(t, r.Tasks[0], MetricAcc); *a.Correct != 2 || a.N != 4 {
		t.Fatalf("letters acc %d/%d, want 2/4", *a.Correct, a.N)
	}
	if got := det.Samples[0].Response[0]; got.Text != " B" || *got.Extracted != "B" {
		t.Fatalf("letter response %+v", got)
	}
	g := r.Tasks[1]
	// loose_exact_match (first sample): g1 "x" = "X" after case folding,
	// g2 none: 1/2. pass@2: g1 n=5 c=3: 1 - C(2,2)/C(5,2) = 1 - 1/10 = 0.9;
	// g2 n=5 c=4: 1 (n-c < k); mean 0.95. maj@2 of g2: answers
	// {none, y, y, y, y}: two draws hold at least one y unless both are
	// the one "none" (impossible, one such sample), and a 1-1 tie
	// (none, y) splits: P(tie) = 4/10, so maj@2 = 6/10 + 4/10 * 1/2 = 0.8.
	if em := metric(t, g, MetricLooseExactMatch); *em.Correct != 1 {
		t.Fatalf("loose_exact_match %d, want 1", *em.Correct)
	}
	if p := metric(t, g, MetricPassAtK); p.K != 2 || math.Abs(p.Value-0.95) > 1e-12 || p.Match != MetricLooseExactMatch {
		t.Fatalf("pass@2 %g by %q, want 0.95 by loose_exact_match", p.Value, p.Match)
	}
	// maj@2 of g1 (x, y, x, x, z; gold x): of the 10 pairs, 3 are x-x
	// (won), 6 pair x with y or z (a tie, half), 1 is y-z (lost): 0.6.
	// Mean over items (0.6 + 0.8) / 2 = 0.7.
	if mj := metric(t, g, MetricMajAtK); mj.K != 2 || math.Abs(mj.Value-0.7) > 1e-12 {
		t.Fatalf("maj@2 %g, want 0.7", mj.Value)
	}
	// The per-item terms of those means (Outcomes): g1 em 1, pass@2 0.9,
	// maj@2 0.6; g2 em 0, pass@2 1, maj@2 0.8; letters q1 acc 1, q2 acc 0.
	outs, err := Outcomes(det)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int][]float64{0: {1}, 1: {0}, 4: {1, 0.9, 0.6}, 5: {0, 1, 0.8}} {
		if got := outs[i].Values; len(got) != len(want) || math.Abs(got[0]-want[0])+math.Abs(got[len(got)-1]-want[len(want)-1]) > 1e-12 ||
			(len(got) == 3 && math.Abs(got[1]-want[1]) > 1e-12) {
			t.Fatalf("item %d (%s): outcomes %v %v, want %v", i, outs[i].Sample.ID, outs[i].Metrics, got, want)
		}
	}
	// SamplePasses (evalbook repeats --details): the letters task has no
	// samples, an error; the generative task alone gives each sample by
	// loose_exact_match: g1 x, y, x, x, z against X -> 1 0 1 1 0; g2 none,
	// then Y four times against y -> 0 1 1 1 1.
	if _, _, err := SamplePasses(det); err == nil || !strings.Contains(err.Error(), "mc_letter") {
		t.Fatalf("SamplePasses with a letters task: %v", err)
	}
	gd := *det
	gd.Header.Tasks = det.Header.Tasks[1:]
	gd.Samples = det.Samples[4:]
	ips, failed, err := SamplePasses(&gd)
	if err != nil || failed != 0 || len(ips) != 2 {
		t.Fatalf("SamplePasses: %v, %d failed, %d items", err, failed, len(ips))
	}
	if got := fmt.Sprint(ips[0].Passes, ips[1].Passes); got != "[true false true true false] [false true true true true]" {
		t.Fatalf("SamplePasses: %s", got)
	}
	// Repeats: the same samples, 3 of 5 and 4 of 5 passing, mean 7/10;
	// named by id with one task, by task string and id with two (the
	// same task under a second name).
	rep, err := Repeats(&gd, "d.jsonl", repeats.Options{})
	if err != nil || rep.Source != "d.jsonl" || rep.Items != 2 || rep.Samples != 10 || math.Abs(rep.Mean-0.7) > 1e-12 || rep.PerItem[0].Item != "g1" {
		t.Fatalf("Repeats: %v, %+v", err, rep)
	}
	two := gd
	other := gd.Header.Tasks[0]
	other.Spec += "-again"
	two.Header.Tasks = append(slices.Clone(gd.Header.Tasks), other)
	two.Samples = slices.Clone(gd.Samples)
	again := two.Samples[1]
	again.Task = other.Spec
	two.Samples = append(two.Samples, again)
	if rep, err := Repeats(&two, "d.jsonl", repeats.Options{}); err != nil || rep.Items != 3 || rep.PerItem[2].Item != other.Spec+" g2" {
		t.Fatalf("Repeats of two tasks: %v, %+v", err, rep)
	}
	if _, err := Repeats(det, "d.jsonl", repeats.Options{}); err == nil || !strings.HasPrefix(err.Error(), "d.jsonl: tasks: ") {
		t.Fatalf("Repeats with a letters task: %v", err)
	}
	if n := len(det.Samples[4].Response); n != 5 {
		t.Fatalf("g1: %d samples, want 5", n)
	}
	if det.Samples[5].Response[0].Extracted != nil {
		t.Fatal("g2 sample 0 should extract nothing")
	}
	gen := 0
	for _, b := range s.Bodies() {
		if b["n"] == 5.0 && b["temperature"] == 0.8 && b["stop"] != nil {
			gen++
		}
	}
	if gen != 2 {
		t.Fatalf("%d requests with n 5 and temperature 0.8, want 2", gen)
	}
	checkExactRescore(t, det)
}

// checkExactRescore scores TestLetterAndGenerative's generative details
// again with exact_match as the match metric, g1's golden answer "X"
// changed to "x": exact_match compares bytes, so g1's answers x, y, x, x,
// z match exactly as before (em 1, pass@2 0.9, maj@2 0.6), but g2's
// answers "Y" no longer equal its golden "y" (em 0, pass@2 0, maj@2 0):
// exact_match 1/2, pass@2 (0.9 + 0)/2 = 0.45, maj@2 (0.6 + 0)/2 = 0.3,
// where loose_exact_match gave 0.95 and 0.7.
func checkExactRescore(t *testing.T, det *Details) {
	t.Helper()
	d := &Details{Header: det.Header, Samples: slices.Clone(det.Samples)}
	d.Header.Tasks = slices.Clone(det.Header.Tasks)
	d.Header.Tasks[1].Metrics = []string{MetricExactMatch, MetricPassAtK, MetricMajAtK}
	d.Samples[4].Golden = "x"
	r, err := Score(d, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Tasks[1]
	if em := metric(t, g, MetricExactMatch); *em.Correct != 1 || em.N != 2 {
		t.Fatalf("exact_match %d/%d, want 1/2", *em.Correct, em.N)
	}
	if p := metric(t, g, MetricPassAtK); math.Abs(p.Value-0.45) > 1e-12 || p.Match != MetricExactMatch {
		t.Fatalf("pass@2 %g by %q, want 0.45 by exact_match", p.Value, p.Match)
	}
	if mj := metric(t, g, MetricMajAtK); math.Abs(mj.Value-0.3) > 1e-12 {
		t.Fatalf("maj@2 %g, want 0.3", mj.Value)
	}
	for _, w := range r.Warnings {
		if w.Code == "metrics_not_recorded" {
			t.Fatalf("warning %+v for details that record their metrics", w)
		}
	}
	// The same details without recorded metrics (written before the
	// header had them) are scored as those runs were: loose_exact_match,
	// reported under its own id, with a warning.
	d.Header.Tasks[1].Metrics = nil
	d.Samples[4].Golden = det.Samples[4].Golden
	r, err = Score(d, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if em := metric(t, r.Tasks[1], MetricLooseExactMatch); *em.Correct != 1 {
		t.Fatalf("legacy loose_exact_match %d, want 1", *em.Correct)
	}
	if p := metric(t, r.Tasks[1], MetricPassAtK); math.Abs(p.Value-0.95) > 1e-12 {
		t.Fatalf("legacy pass@2 %g, want 0.95", p.Value)
	}
	if n := len(r.Warnings); n == 0 || r.Warnings[n-1].Code != "metrics_not_recorded" || !strings.Contains(r.Warnings[n-1].Message, "toy|gen:english|0|0") {
		t.Fatalf("warnings %+v, want metrics_not_recorded naming toy|gen:english|0|0", r.Warnings)
	}
}

func TestUnknownUsageAndFailedItem(t *testing.T) {
	m := tasktest.NewModel(trainText)
	m.NoUsage = true
	s := tasktest.New(t, m, "500") // the first request fails, no retry
	_, r := runToy(t, Options{Catalog: toyCatalog(t, nil), Specs: mustSpecs(t, "toy|bigram:english|0|0"), Client: client(t, s.BaseURL(), nil), Workers: 1})
	if r.Tokens.Prompt != nil || r.Tokens.Completion != nil {
		t.Fatalf("tokens %v %v, want unknown (nil)", r.Tokens.Prompt, r.Tokens.Completion)
	}
	b, _ := json.Marshal(r.Tokens)
	if !strings.Contains(string(b), `"prompt":null`) {
		t.Fatalf("tokens JSON %s, want null", b)
	}
	// q1 failed, and q4, the same request (prompt and choices), shares its
	// failure (issue 29: sent once, both rows alike; before, q4 was asked
	// again and answered); q2 (both right), q3 (acc right): acc 2/2.
	if r.Failed != 2 || metric(t, r.Tasks[0], MetricAcc).N != 2 || *metric(t, r.Tasks[0], MetricAcc).Correct != 2 ||
		metric(t, r.Tasks[0], MetricAccNorm).N != 2 || *metric(t, r.Tasks[0], MetricAccNorm).Correct != 1 {
		t.Fatalf("failed %d, %+v", r.Failed, r.Tasks[0].Metrics)
	}
	codes := map[string]bool{}
	for _, w := range r.Warnings {
		codes[w.Code] = true
	}
	if !codes["failed_calls"] || !codes["usage_unknown"] {
		t.Fatalf("warnings %+v", r.Warnings)
	}
}

func TestAuthStopsRun(t *testing.T) {
	s := tasktest.New(t, tasktest.NewModel(trainText), "401")
	_, err := Run(context.Background(), Options{Catalog: toyCatalog(t, nil), Specs: mustSpecs(t, "toy|bigram:english|0|0"), Client: client(t, s.BaseURL(), nil), Workers: 1})
	if !errors.Is(err, llm.ErrAuth) {
		t.Fatalf("err %v, want ErrAuth", err)
	}
}

func TestSpecErrors(t *testing.T) {
	sp := mustSpecs(t, "indiceval|ARC-Easy:kannada|5|0, lighteval|truthfulqa:mc:hindi|0|1")
	if sp[0].Task != "ARC-Easy" || sp[0].Language != "kannada" || sp[0].Shots != 5 || sp[0].Truncate || sp[1].Task != "truthfulqa:mc" || !sp[1].Truncate {
		t.Fatalf("%+v", sp)
	}
	if sp[1].String() != "lighteval|truthfulqa:mc:hindi|0|1" {
		t.Fatal(sp[1].String())
	}
	for in, want := range map[string]string{
		"a|b|c":          "4 parts",
		"a|task|1|0":     "task:language",
		"a|t:hindi|x|0":  "shots",
		"a|t:hindi|-1|0": "shots",
		"a|t:hindi|1|2":  "truncate",
		"|t:hindi|1|0":   "no suite",
		"a|t:|1|0":       "task:language",
		" , ":            "no task string",
	} {
		if _, err := ParseSpecs(in); err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrTask) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	c := toyCatalog(t, nil)
	if _, err := c.Resolve(mustSpecs(t, "toy|nope:english|0|0")[0]); err == nil || !strings.Contains(err.Error(), "known: toy|bigram") {
		t.Errorf("unknown task: %v", err)
	}
	if _, err := c.Resolve(mustSpecs(t, "toy|bigram:tamil|0|0")[0]); err == nil || !strings.Contains(err.Error(), "has no language \"tamil\" (it has english, hindi)") {
		t.Errorf("unknown language: %v", err)
	}
}

func TestBadTaskAndData(t *testing.T) {
	for _, tc := range []struct{ task, want string }{
		{`{"suite":"s","name":"n","kind":"mc_loglik","fields":{"gold":"g","choices":"c"},"languages":{"english":{"data":"d","template":"x"}},"bogus":1}`, "unknown field"},
		{`{"suite":"s","name":"n","kind":"guess","fields":{"gold":"g"},"languages":{"english":{"data":"d","template":"x"}}}`, "kind \"guess\""},
		{`{"suite":"s","name":"n","kind":"mc_loglik","fields":{"gold":"g","choices":"c"},"eval_split":"train","languages":{"english":{"data":"d","template":"x"}}}`, "its own example"},
		{`{"suite":"s","name":"n","kind":"generative","samples":2,"k":3,"fields":{"gold":"g"},"languages":{"english":{"data":"d","template":"x"}}}`, "k 3 is above samples 2"},
		{`{"suite":"s","name":"n","kind":"generative","extract":"(","fields":{"gold":"g"},"languages":{"english":{"data":"d","template":"x"}}}`, "extract"},
	} {
		if _, err := Parse([]byte(tc.task), "task.json", "."); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.task, err, tc.want)
		}
	}
	bad := toyData + `{"id":"q9","split":"test","q":"a","choices":["b","aa"],"gold":"Z"}` + "\n"
	c, err := LoadCatalog(fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(bad)}}, "t")
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := c.Resolve(mustSpecs(t, "toy|bigram:english|0|0")[0])
	_, err = c.LoadData(tk, "english")
	var pe *tabular.ParseError
	if !errors.As(err, &pe) || pe.Line != 9 || pe.Field != "gold" || !strings.Contains(err.Error(), `gold "Z"`) {
		t.Fatalf("bad gold: %v", err)
	}
	dup := toyData + `{"id":"q1","split":"test","q":"a","choices":["b","aa"],"gold":0}` + "\n"
	c, _ = LoadCatalog(fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(dup)}}, "t")
	if _, err := c.LoadData(tk, "english"); err == nil || !strings.Contains(err.Error(), "also on line 1") {
		t.Fatalf("duplicate id: %v", err)
	}
	if _, err := ReadDetails(strings.NewReader(`{"format":"other"}`+"\n"), "x.jsonl"); err == nil || !errors.As(err, &pe) {
		t.Fatalf("foreign details: %v", err)
	}
}

// Every shipped task string runs against the tiny model and scores.
func TestShippedTasks(t *testing.T) {
	c, err := LoadCatalog(datasets.Tasks, datasets.TasksRoot)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "indiceval|ARC-Easy,indiceval|BoolQ,indiceval|HellaSwag,indiceval|MMLU,indiceval|Translate" {
		t.Fatal(got)
	}
	var specs []string
	for _, n := range c.Names() {
		for _, lang := range []string{"english", "hindi", "bengali"} {
			specs = append(specs, n+":"+lang+"|2|0")
		}
	}
	m := tasktest.NewModel("the quick brown fox jumps over the lazy dog. पानी किताब घर। জল বই বাড়ি।")
	s := tasktest.New(t, m)
	_, r := runToy(t, Options{Catalog: c, Specs: mustSpecs(t, strings.Join(specs, ",")), Client: client(t, s.BaseURL(), nil), Seed: 1})
	if len(r.Tasks) != 15 || r.Failed != 0 {
		t.Fatalf("%d tasks, %d failed", len(r.Tasks), r.Failed)
	}
	for _, tr := range r.Tasks {
		if tr.Items == 0 || len(tr.Metrics) == 0 {
			t.Errorf("%s: %d items, %d metrics", tr.Task, tr.Items, len(tr.Metrics))
		}
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "indiceval|Translate  bengali   2      maj@3") {
		t.Fatalf("%v\n%s", err, buf.String())
	}
}

// A generative task with "chat": true goes to /chat/completions (the
// server's chat template), with the prompt as the user message.
func TestChatGenerative(t *testing.T) {
	task := `{"suite": "toy", "name": "chat", "kind": "generative", "chat": true, "stop": ["\n"], "max_tokens": 8,
	 "fields": {"id": "id", "gold": "golden"},
	 "languages": {"hindi": {"data": "g.jsonl", "template": "प्रश्न: {q}\nउत्तर:"}}}`
	c := toyCatalog(t, fstest.MapFS{"t/c/task.json": {Data: []byte(task)},
		"t/c/g.jsonl": {Data: []byte(`{"id":"g1","split":"test","q":"राजधानी?","golden":"दिल्ली"}` + "\n" + `{"id":"g2","split":"test","q":"नदी?","golden":"गंगा"}` + "\n")}})
	m := tasktest.NewModel(trainText)
	// g1 answered right but with a final danda (then a line the stop
	// cuts), g2 wrong: exact_match 0/2 ("दिल्ली।" is not "दिल्ली" byte for
	// byte), loose_exact_match 1/2 (it drops the danda).
	m.Generate = func(prompt string, j int) string {
		if strings.Contains(prompt, "राजधानी") {
			return " दिल्ली।\nऔर"
		}
		return "यमुना"
	}
	s := tasktest.New(t, m)
	det, r := runToy(t, Options{Catalog: c, Specs: mustSpecs(t, "toy|chat:hindi|0|0"), Client: client(t, s.BaseURL(), nil)})
	if em := metric(t, r.Tasks[0], MetricExactMatch); *em.Correct != 0 || em.N != 2 {
		t.Fatalf("exact_match %d/%d, want 0/2", *em.Correct, em.N)
	}
	loose := &Details{Header: det.Header, Samples: det.Samples}
	loose.Header.Tasks = []HeaderTask{det.Header.Tasks[0]}
	loose.Header.Tasks[0].Metrics = []string{MetricLooseExactMatch}
	if rl, err := Score(loose, ScoreOptions{}); err != nil || *metric(t, rl.Tasks[0], MetricLooseExactMatch).Correct != 1 {
		t.Fatalf("loose_exact_match: %v, want 1/2", err)
	}
	for _, p := range s.Paths() {
		if p != "/v1/chat/completions" {
			t.Fatalf("path %s", p)
		}
	}
	if got := *det.Samples[0].Response[0].Extracted; got != "दिल्ली।" {
		t.Fatalf("extracted %q", got)
	}
	// Usage, one token per code point: the user message "प्रश्न: राजधानी?\nउत्तर:"
	// is 6 + 2 + 7 + 2 + 5 + 1 = 23, the reply after the stop cut " दिल्ली।"
	// is 1 + 6 + 1 = 8.
	if p, c := *det.Samples[0].PromptTokens, *det.Samples[0].CompletionTokens; p != 23 || c != 8 {
		t.Fatalf("tokens %d %d", p, c)
	}
}

func TestPrices(t *testing.T) {
	m := tasktest.NewModel(trainText)
	s := tasktest.New(t, m)
	d, err := Run(context.Background(), Options{Catalog: toyCatalog(t, nil), Specs: mustSpecs(t, "toy|bigram:english|0|0"), Client: client(t, s.BaseURL(), nil), Model: "bigram"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePrices([]byte(`{"date": "2026-12-01", "currency": "USD", "models": {"bigram": {"prompt_per_million": 2, "completion_per_million": 8}}}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := Score(d, ScoreOptions{Prices: p})
	// 23 prompt tokens (TestLoglikAccAndAccNormExact) at 2 per million, 0 completion.
	if r.Cost == nil || r.Cost.Amount == nil || math.Abs(*r.Cost.Amount-23*2/1e6) > 1e-15 || r.Cost.Date != "2026-12-01" {
		t.Fatalf("cost %+v", r.Cost)
	}
	p.Models = nil
	if r, _ := Score(d, ScoreOptions{Prices: p}); r.Cost.Amount != nil {
		t.Fatal("a model without a price must cost unknown")
	}
	if _, err := ParsePrices([]byte(`{"date": "December", "currency": "USD"}`), "p.json"); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
		t.Fatalf("bad date: %v", err)
	}
}

// --batch: the requests go through the Batch API into the cache, then the
// run reads them from there: the same figures as online, no online call,
// and a run killed while the batch was pending resumes that batch and
// submits nothing twice.
func TestBatchEqualsOnline(t *testing.T) {
	specs := mustSpecs(t, "toy|bigram:english|2|0,toy|bigram:hindi|0|0")
	m := tasktest.NewModel(trainText)
	online := tasktest.New(t, m)
	_, want := runToy(t, Options{Catalog: toyCatalog(t, nil), Specs: specs, Client: client(t, online.BaseURL(), nil), Model: "bigram", Seed: 2})

	for _, perChoice := range []bool{false, true} {
		bs := tasktest.NewBatch(t, m)
		cache := llm.NewMemoryCache()
		cl := client(t, bs.BaseURL(), cache)
		opt := Options{Catalog: toyCatalog(t, nil), Specs: specs, Client: cl, Model: "bigram", Seed: 2, PerChoice: perChoice}
		reqs, err := Requests(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		state := t.TempDir() + "/batch-state.json"
		// First attempt: the batch stays pending and the run is killed
		// (its context ends) while it waits; the state file keeps the id.
		bs.SetHold(true)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		_, err = cl.SampleBatch(ctx, reqs, llm.BatchOptions{StatePath: state, Poll: 10 * time.Millisecond})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("held batch: %v", err)
		}
		bs.SetHold(false)
		st, err := cl.SampleBatch(context.Background(), reqs, llm.BatchOptions{StatePath: state, Poll: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		// Every distinct request was submitted once, in the one batch the
		// second attempt resumed (it submitted nothing new).
		distinct := map[string]bool{}
		for k, n := range bs.Submitted {
			distinct[k] = true
			if n != 1 {
				t.Fatalf("request %s submitted %d times", k[:8], n)
			}
		}
		if bs.Created != 1 || st.Resumed != 1 || st.Submitted != 0 || st.Received != len(distinct) {
			t.Fatalf("perChoice %v: created %d batches, stats %+v, %d distinct", perChoice, bs.Created, st, len(distinct))
		}
		_, got := runToy(t, opt)
		if bs.Online != 0 {
			t.Fatalf("the run after the batch made %d online calls", bs.Online)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Fatalf("batch figures differ from online:\n%s\n%s", a, b)
		}
	}
}

// continuation finds the continuation's tokens by text_offset, or by the
// tokens' running length without offsets, and counts a token that
// straddles the boundary. Prompt "Q: x A: Paris" (context "Q: x A:",
// 7 characters), as a BPE tokenizer might split it.
func TestContinuationBoundary(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	prompt := "Q: x A: Paris"
	clean := llm.Completion{Text: prompt, Logprobs: &llm.Logprobs{
		Tokens:        []string{"Q", ":", " x", " A", ":", " Paris"},
		TokenLogprobs: []*float64{nil, f(-1), f(-2), f(-3), f(-0.5), f(-0.25)},
		TextOffset:    []int{0, 1, 2, 4, 6, 7},
	}}
	c, err := continuation(clean, prompt, 7)
	if err != nil || c.Logprob != -0.25 || c.Tokens != 1 || c.Straddle {
		t.Fatalf("%+v %v, want the one token \" Paris\" at -0.25", c, err)
	}
	clean.Logprobs.TextOffset = nil // the same from the tokens' lengths
	if c2, err := continuation(clean, prompt, 7); err != nil || c2.Logprob != c.Logprob {
		t.Fatalf("without offsets: %+v %v", c2, err)
	}
	// ": P" merged into one token from offset 6: it straddles and counts,
	// with the rest: -0.5 + -0.125 = -0.625.
	merged := llm.Completion{Text: prompt, Logprobs: &llm.Logprobs{
		Tokens:        []string{"Q", ":", " x", " A", ": P", "aris"},
		TokenLogprobs: []*float64{nil, f(-1), f(-2), f(-3), f(-0.5), f(-0.125)},
		TextOffset:    []int{0, 1, 2, 4, 6, 9},
	}}
	if c, err := continuation(merged, prompt, 7); err != nil || c.Logprob != -0.625 || c.Tokens != 2 || !c.Straddle {
		t.Fatalf("merged boundary: %+v %v", c, err)
	}
	// A server that generated a token despite max_tokens 0: left out.
	gen := llm.Completion{Text: prompt + "!", Logprobs: &llm.Logprobs{
		Tokens:        []string{"Q: x A:", " Paris", "!"},
		TokenLogprobs: []*float64{nil, f(-0.25), f(-9)},
		TextOffset:    []int{0, 7, 13},
	}}
	if c, err := continuation(gen, prompt, 7); err != nil || c.Logprob != -0.25 {
		t.Fatalf("generated token: %+v %v", c, err)
	}
	if _, err := continuation(llm.Completion{Text: prompt}, prompt, 7); err == nil {
		t.Fatal("no logprobs must be an error")
	}
}
