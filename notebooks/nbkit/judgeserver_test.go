package nbkit

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
)

func samplePairs(t *testing.T) []judge.Pair {
	t.Helper()
	b, err := fs.ReadFile(datasets.Judge, "judge/pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := judge.ReadPairs(bytes.NewReader(b), "pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// served asks the server's model about every pair in one order (a first),
// through pkg/llm and pkg/judge as the notebooks do.
func served(t *testing.T, url, model string, ps []judge.Pair) ([]judge.Label, error) {
	t.Helper()
	client, err := llm.NewClient(llm.Config{BaseURL: url + "/v1", Model: model, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := fs.ReadFile(datasets.Judge, "judge/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	all, err := judge.ReadPrompts(bytes.NewReader(prompts), "prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := judge.FindPrompt(all, "pairwise@1")
	if err != nil {
		t.Fatal(err)
	}
	j := judge.NewClientJudge(client, p)
	var out []judge.Label
	for _, pair := range ps {
		v, err := judge.Ask(context.Background(), j, pair, false)
		if err != nil {
			return nil, err
		}
		out = append(out, v.Label)
	}
	return out, nil
}

// direct asks fake f about every pair in one order, without a server.
func direct(t *testing.T, f judge.Fake, ps []judge.Pair) []judge.Label {
	t.Helper()
	var out []judge.Label
	for _, pair := range ps {
		v, err := judge.Ask(context.Background(), f, pair, false)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.Label)
	}
	return out
}

// A NewModelServer answers each model name as its own judge would directly,
// answers a replaced name as the new judge, and refuses an unknown name.
// The tie pairs are left out: on those the server replies in prose on
// purpose (a rejected reply, which ClientJudge counts as a tie).
func TestModelServerReplace(t *testing.T) {
	var ps []judge.Pair
	for _, p := range samplePairs(t) {
		if p.Kind != "tie" {
			ps = append(ps, p)
		}
	}
	clean, err := judge.FakeByName("clean")
	if err != nil {
		t.Fatal(err)
	}
	position, err := judge.FakeByName("position")
	if err != nil {
		t.Fatal(err)
	}
	wantClean, wantPosition := direct(t, clean, ps), direct(t, position, ps)
	if equalLabels(wantClean, wantPosition) {
		t.Fatal("the clean and position judges agree on every pair: the test could not see a swap")
	}
	srv := NewModelServer(map[string]judge.Judge{"judge-a": clean, "judge-b": position}, ps)
	defer srv.Close()
	for _, c := range []struct {
		model string
		want  []judge.Label
	}{{"judge-a", wantClean}, {"judge-b", wantPosition}} {
		got, err := served(t, srv.URL, c.model, ps)
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		if !equalLabels(got, c.want) {
			t.Errorf("%s answered %v, want %v", c.model, got, c.want)
		}
	}
	srv.Replace("judge-a", position)
	got, err := served(t, srv.URL, "judge-a", ps)
	if err != nil {
		t.Fatal(err)
	}
	if !equalLabels(got, wantPosition) {
		t.Errorf("judge-a after Replace answered %v, want the position judge's %v", got, wantPosition)
	}
	_, err = served(t, srv.URL, "judge-c", ps[:1])
	var ce *llm.CallError
	if !errors.As(err, &ce) || ce.Status != 404 || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown model: err = %v, want a CallError with status 404 saying the model is not found", err)
	}
}

func equalLabels(a, b []judge.Label) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
