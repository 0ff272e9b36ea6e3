package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/llm"
)

// The tests in this file run judges through a real llm.Client against a
// loopback server: the reply contract, the cache file and resuming are
// judging behaviour on top of the client's own tests in pkg/llm.

const testKey = "sk-test-7f3a9c1d2e"

// quickConfig is a client config for the tests: short backoff, timeout
// and a key in a test-only variable.
func quickConfig(s *llmtest.Server) llm.Config {
	return llm.Config{
		BaseURL: s.BaseURL(), Model: "judge-small", APIKeyEnv: "JUDGE_TEST_KEY",
		Getenv:  func(name string) string { return map[string]string{"JUDGE_TEST_KEY": testKey}[name] },
		Timeout: 300 * time.Millisecond, BackoffBase: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
	}
}

// TestContractBreakingReplies: a reply that breaks the contract is not a
// transport failure; it is returned, counted invalid, and a tie.
func TestContractBreakingReplies(t *testing.T) {
	s := llmtest.New(t)
	replies := map[string]string{
		"q1": "The second one is better.",
		"q2": "```json\n{\"winner\": \"second\"}\n```",
		"q3": `{"winner": "second", "confidence": 0.8}`,
		"q4": `{"winner": "first"}`,
		"q5": "",
	}
	s.Answer = func(prompt string) string { return replies[block(prompt, "QUESTION")] }
	c, _ := llm.NewClient(quickConfig(s))
	j := NewClientJudge(c, mustPrompt(t, "pairwise@2"))
	want := map[string]Winner{"q1": Tie, "q2": Second, "q3": Tie, "q4": First, "q5": Tie}
	for _, q := range []string{"q1", "q2", "q3", "q4", "q5"} {
		w, err := j.Compare(context.Background(), Query{Question: q, First: "a", Second: "b"})
		if err != nil || w != want[q] {
			t.Errorf("%s: %v, %v; want %v", q, w, err, want[q])
		}
	}
	n, by := j.InvalidReplies()
	if n != 3 || by[ReasonNotJSON] != 1 || by[ReasonUnknownField] != 1 || by[ReasonEmpty] != 1 || j.Replies() != 5 {
		t.Errorf("invalid %d %v of %d replies", n, by, j.Replies())
	}
	if s.Count() != 5 {
		t.Errorf("%d requests: contract-breaking replies must not be retried", s.Count())
	}
}

func TestClientCacheFile(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = referenceAnswer
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	p := mustPrompt(t, "reference@1")
	items := []RefItem{{"Which year?", "1947", "It was 1947."}, {"Which river?", "Narmada valley", "the Narmada river valley"}}
	run := func(model string) []RefVerdict {
		cache, err := llm.OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Model, cfg.Cache = model, cache
		c, _ := llm.NewClient(cfg)
		v, err := JudgeReferences(context.Background(), NewClientJudge(c, p), items, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first := run("judge-small")
	if s.Count() != 2 || !first[0].Correct || first[1].Correct {
		t.Fatalf("first run: %d requests, verdicts %+v", s.Count(), first)
	}
	again := run("judge-small")
	if s.Count() != 2 || fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("rerun made %d new requests, verdicts %+v", s.Count()-2, again)
	}
	run("judge-large") // another model is another judge
	if s.Count() != 4 {
		t.Errorf("a new model made %d requests, want 2", s.Count()-2)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), testKey) || strings.Count(string(data), "\n") != 4 {
		t.Errorf("cache file:\n%s", data)
	}
}

// TestResumeAfterFailure kills a run twice, once by a server that starts
// failing and once by cancelling, and checks that the rerun makes exactly
// the requests that were missing and loses nothing.
func TestResumeAfterFailure(t *testing.T) {
	p := mustPrompt(t, "reference@1")
	var items []RefItem
	for i := range 40 {
		items = append(items, RefItem{fmt.Sprintf("q%d", i), fmt.Sprint(i), fmt.Sprintf("the answer is %d", i)})
	}
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	run := func(s *llmtest.Server, ctx context.Context, progress func(int, int)) ([]RefVerdict, error) {
		cache, err := llm.OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Cache, cfg.Retries, cfg.Concurrency = cache, -1, 4
		c, _ := llm.NewClient(cfg)
		return JudgeReferences(ctx, NewClientJudge(c, p), items, 8, progress)
	}
	// One server (the cache key includes the endpoint), three behaviours.
	s := llmtest.New(t)
	s.Answer = referenceAnswer
	s.FailAfter(15)
	// 1. The server fails after 15 replies.
	if _, err := run(s, context.Background(), nil); !errors.Is(err, llm.ErrServer) {
		t.Fatalf("error %v, want llm.ErrServer", err)
	}
	// 2. The server recovers; the run is cancelled after 10 more replies.
	s.FailAfter(0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := run(s, ctx, func(int, int) {
		if s.Served() >= 25 {
			cancel()
		}
	}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	cache, _ := llm.OpenCache(path)
	cached := cache.Len()
	warnings := cache.Warnings()
	cache.Close()
	// Replies in flight when the cancel came are dropped, not half-written.
	if cached <= 15 || cached >= 40 || len(warnings) != 0 {
		t.Fatalf("%d replies cached (warnings %q), want more than the first run's 15 and fewer than 40", cached, warnings)
	}
	// 3. The rerun asks only for what is missing.
	before := s.Count()
	v, err := run(s, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A request cancelled in step 2 may reach the server late, so count
	// the distinct questions asked since step 3 began; they are exactly
	// the ones the cache did not hold.
	asked := map[string]bool{}
	for _, b := range s.Bodies()[before:] {
		asked[block(llmtest.LastUser(b), "QUESTION")] = true
	}
	if len(asked) != 40-cached {
		t.Errorf("rerun asked %d questions, want %d", len(asked), 40-cached)
	}
	for i, r := range v {
		if !r.Valid || !r.Correct {
			t.Errorf("row %d: %+v", i, r)
		}
	}
}
