package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-7f3a9c1d2e"

func testEnv(name string) string {
	if name == "JUDGE_TEST_KEY" {
		return testKey
	}
	return ""
}

// quickConfig is a client config for the tests: short backoff, timeout
// and a key in a test-only variable.
func quickConfig(s *stub) Config {
	return Config{
		BaseURL: s.baseURL(), Model: "judge-small", APIKeyEnv: "JUDGE_TEST_KEY", Getenv: testEnv,
		Timeout: 300 * time.Millisecond, BackoffBase: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
	}
}

func TestClientRequestShape(t *testing.T) {
	s := newStub(t)
	cfg := quickConfig(s)
	seed := int64(7)
	cfg.Seed = &seed
	cfg.BaseURL += "/" // a trailing slash is tolerated
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := c.Complete(context.Background(), Request{PromptHash: "abc", System: "be strict", User: "hello"})
	if err != nil || reply != `{"winner": "tie", "reason": "same facts"}` {
		t.Fatalf("Complete = %q, %v", reply, err)
	}
	b := s.bodies[0]
	if s.paths[0] != "/v1/chat/completions" || s.auth[0] != "Bearer "+testKey {
		t.Errorf("path %q auth %q", s.paths[0], s.auth[0])
	}
	if b["model"] != "judge-small" || b["temperature"] != 0.0 || b["seed"] != 7.0 || b["stream"] != false {
		t.Errorf("body %v: want model, temperature 0, seed 7, no streaming", b)
	}
	msgs := b["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[1].(map[string]any)["content"] != "hello" {
		t.Errorf("messages %v", msgs)
	}
	// No key in the environment: no Authorization header (local servers).
	cfg.APIKeyEnv = "UNSET_VARIABLE"
	c2, _ := NewClient(cfg)
	if _, err := c2.Complete(context.Background(), Request{User: "other"}); err != nil {
		t.Fatal(err)
	}
	if s.auth[1] != "" {
		t.Errorf("sent Authorization %q without a key", s.auth[1])
	}
}

func TestNewClientErrors(t *testing.T) {
	for _, cfg := range []Config{
		{BaseURL: "127.0.0.1:8000/v1", Model: "m"},
		{BaseURL: "ftp://host/v1", Model: "m"},
		{BaseURL: "http://127.0.0.1:8000/v1"},
	} {
		if _, err := NewClient(cfg); err == nil {
			t.Errorf("NewClient(%+v) accepted", cfg)
		}
	}
	_, err := NewClient(Config{BaseURL: "http://user:hunter2@host/v1", Model: ""})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v", err)
	}
}

// TestClientFaults sends one request through each injected fault and
// checks the outcome and the number of HTTP attempts.
func TestClientFaults(t *testing.T) {
	tests := []struct {
		name     string
		faults   []string
		retries  int
		attempts int
		err      error // nil: the request succeeds in the end
		minWait  time.Duration
	}{
		{"ok", nil, 0, 1, nil, 0},
		{"429 honours Retry-After", []string{"429"}, 0, 2, nil, time.Second},
		{"500 then ok", []string{"500"}, 0, 2, nil, 0},
		{"slow past the timeout then ok", []string{"slow"}, 0, 2, nil, 300 * time.Millisecond},
		{"dropped connection then ok", []string{"drop"}, 0, 2, nil, 0},
		{"malformed JSON then ok", []string{"malformed"}, 0, 2, nil, 0},
		{"no choices then ok", []string{"nochoices"}, 0, 2, nil, 0},
		{"three faults then ok", []string{"500", "drop", "malformed"}, 0, 4, nil, 0},
		{"500 every time", []string{"500", "500", "500", "500"}, 0, 4, ErrServer, 0},
		{"malformed every time", []string{"malformed", "malformed", "malformed", "malformed"}, 0, 4, ErrMalformed, 0},
		{"429 with one retry", []string{"429", "429"}, 1, 2, ErrRateLimited, time.Second},
		{"no retries", []string{"500"}, -1, 1, ErrServer, 0},
		{"400 is not retried", []string{"400echo"}, 0, 1, ErrRequest, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStub(t, tt.faults...)
			cfg := quickConfig(s)
			cfg.Retries = tt.retries
			var logged []string
			var mu sync.Mutex
			cfg.Logf = func(format string, args ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(format, args...))
				mu.Unlock()
			}
			c, _ := NewClient(cfg)
			start := time.Now()
			reply, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
			elapsed := time.Since(start)
			if tt.err == nil && (err != nil || reply == "") {
				t.Fatalf("Complete = %q, %v", reply, err)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if got := s.count(); got != tt.attempts {
				t.Errorf("%d attempts, want %d", got, tt.attempts)
			}
			if st := c.Stats(); st.Requests != int64(tt.attempts) || st.Retries != int64(tt.attempts-1) {
				t.Errorf("stats %+v", st)
			}
			if elapsed < tt.minWait {
				t.Errorf("took %s, want at least %s", elapsed, tt.minWait)
			}
			for _, text := range append(logged, fmt.Sprint(err)) {
				if strings.Contains(text, testKey) {
					t.Errorf("the API key leaked: %q", text)
				}
			}
			if len(logged) != tt.attempts-1 {
				t.Errorf("%d retry lines logged, want %d", len(logged), tt.attempts-1)
			}
		})
	}
}

// TestContractBreakingReplies: a reply that breaks the contract is not a
// transport failure; it is returned, counted invalid, and a tie.
func TestContractBreakingReplies(t *testing.T) {
	s := newStub(t)
	replies := map[string]string{
		"q1": "The second one is better.",
		"q2": "```json\n{\"winner\": \"second\"}\n```",
		"q3": `{"winner": "second", "confidence": 0.8}`,
		"q4": `{"winner": "first"}`,
		"q5": "",
	}
	s.answer = func(prompt string) string { return replies[block(prompt, "QUESTION")] }
	c, _ := NewClient(quickConfig(s))
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
	if s.count() != 5 {
		t.Errorf("%d requests: contract-breaking replies must not be retried", s.count())
	}
}

func TestClientCancel(t *testing.T) {
	s := newStub(t, "slow", "slow", "slow", "slow")
	cfg := quickConfig(s)
	cfg.Timeout = 10 * time.Second
	c, _ := NewClient(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	go func() { // cancel once the server holds the request
		for s.count() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancelled = time.Now()
		cancel()
	}()
	_, err := c.Complete(ctx, Request{User: "q"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if d := time.Since(cancelled); d > time.Second {
		t.Errorf("returning after the cancel took %s", d)
	}
	if s.count() != 1 {
		t.Errorf("%d requests after cancel, want 1", s.count())
	}
}

func TestClientConcurrencyLimit(t *testing.T) {
	s := newStub(t)
	s.delay = 40 * time.Millisecond
	cfg := quickConfig(s)
	cfg.Concurrency = 3
	c, _ := NewClient(cfg)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Complete(context.Background(), Request{User: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if s.maxInflight != 3 || s.count() != 12 {
		t.Errorf("max in flight %d of %d requests, want 3 of 12", s.maxInflight, s.count())
	}
}

func TestClientRPM(t *testing.T) {
	s := newStub(t)
	cfg := quickConfig(s)
	cfg.RPM = 1200 // one request per 50 ms
	cfg.Concurrency = 5
	c, _ := NewClient(cfg)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Complete(context.Background(), Request{User: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	// Five requests spaced 50 ms apart: the last starts 200 ms after the first.
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("5 requests at 1200/min took %s, want at least 200ms", d)
	}
}

// TestClientDeduplicates: identical requests in flight together are sent
// once.
func TestClientDeduplicates(t *testing.T) {
	s := newStub(t)
	s.delay = 50 * time.Millisecond
	c, _ := NewClient(quickConfig(s))
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Complete(context.Background(), Request{User: "same"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if s.count() != 1 || c.Stats().CacheHits != 4 {
		t.Errorf("%d requests, stats %+v; want 1 request and 4 shared replies", s.count(), c.Stats())
	}
}

func TestClientCacheFile(t *testing.T) {
	s := newStub(t)
	s.answer = referenceAnswer
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	p := mustPrompt(t, "reference@1")
	items := []RefItem{{"Which year?", "1947", "It was 1947."}, {"Which river?", "Narmada valley", "the Narmada river valley"}}
	run := func(model string) []RefVerdict {
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Model, cfg.Cache = model, cache
		c, _ := NewClient(cfg)
		v, err := JudgeReferences(context.Background(), NewClientJudge(c, p), items, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first := run("judge-small")
	if s.count() != 2 || !first[0].Correct || first[1].Correct {
		t.Fatalf("first run: %d requests, verdicts %+v", s.count(), first)
	}
	again := run("judge-small")
	if s.count() != 2 || fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("rerun made %d new requests, verdicts %+v", s.count()-2, again)
	}
	run("judge-large") // another model is another judge
	if s.count() != 4 {
		t.Errorf("a new model made %d requests, want 2", s.count()-2)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), testKey) || strings.Count(string(data), "\n") != 4 {
		t.Errorf("cache file:\n%s", data)
	}
}

func TestCacheTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	c, _ := OpenCache(path)
	for i := range 3 {
		c.Put(fmt.Sprintf("k%d", i), "m", "h", fmt.Sprintf("reply %d", i))
	}
	c.Close()
	whole, _ := os.ReadFile(path)
	// A kill during the fourth write leaves half a line, and someone
	// pasted a bad line earlier in the file.
	bad := strings.Replace(string(whole), "\n", "\nnot json\n", 1) + `{"key": "k3", "model": "m", "rep`
	os.WriteFile(path, []byte(bad), 0o644)

	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	w := c.Warnings()
	if len(w) != 2 || !strings.Contains(w[0], "cache.jsonl:2: not a cache entry") || !strings.Contains(w[1], "cache.jsonl:5: torn last line") {
		t.Errorf("warnings %q", w)
	}
	if c.Len() != 3 {
		t.Errorf("%d entries, want 3", c.Len())
	}
	if r, ok := c.Get("k2"); !ok || r != "reply 2" {
		t.Errorf("k2 = %q, %v", r, ok)
	}
	c.Put("k3", "m", "h", "reply 3")
	c.Close()
	c, _ = OpenCache(path)
	defer c.Close()
	if r, _ := c.Get("k3"); c.Len() != 4 || r != "reply 3" || len(c.Warnings()) != 1 {
		t.Errorf("after repair: %d entries, k3 %q, warnings %q", c.Len(), r, c.Warnings())
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
	run := func(s *stub, ctx context.Context, progress func(int, int)) ([]RefVerdict, error) {
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Cache, cfg.Retries, cfg.Concurrency = cache, -1, 4
		c, _ := NewClient(cfg)
		return JudgeReferences(ctx, NewClientJudge(c, p), items, 8, progress)
	}
	// One server (the cache key includes the endpoint), three behaviours.
	s := newStub(t)
	s.answer, s.failAfter = referenceAnswer, 15
	// 1. The server fails after 15 replies.
	if _, err := run(s, context.Background(), nil); !errors.Is(err, ErrServer) {
		t.Fatalf("error %v, want ErrServer", err)
	}
	// 2. The server recovers; the run is cancelled after 10 more replies.
	s.mu.Lock()
	s.failAfter = 0
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := run(s, ctx, func(int, int) {
		s.mu.Lock()
		if s.served >= 25 {
			cancel()
		}
		s.mu.Unlock()
	}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	cache, _ := OpenCache(path)
	cached := cache.Len()
	warnings := cache.Warnings()
	cache.Close()
	// Replies in flight when the cancel came are dropped, not half-written.
	if cached <= 15 || cached >= 40 || len(warnings) != 0 {
		t.Fatalf("%d replies cached (warnings %q), want more than the first run's 15 and fewer than 40", cached, warnings)
	}
	// 3. The rerun asks only for what is missing.
	before := s.count()
	v, err := run(s, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A request cancelled in step 2 may reach the server late, so count
	// the distinct questions asked since step 3 began; they are exactly
	// the ones the cache did not hold.
	asked := map[string]bool{}
	s.mu.Lock()
	for _, b := range s.bodies[before:] {
		msgs := b["messages"].([]any)
		asked[block(msgs[len(msgs)-1].(map[string]any)["content"].(string), "QUESTION")] = true
	}
	s.mu.Unlock()
	if len(asked) != 40-cached {
		t.Errorf("rerun asked %d questions, want %d", len(asked), 40-cached)
	}
	for i, r := range v {
		if !r.Valid || !r.Correct {
			t.Errorf("row %d: %+v", i, r)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		h    string
		want time.Duration
	}{
		{"", 0},
		{"1", time.Second},
		{"2.5", 2500 * time.Millisecond},
		{"0", 0},
		{"-4", 0},
		{"soon", 0},
		{"Sun, 29 Nov 2026 12:00:30 GMT", 30 * time.Second},
		{"Sun, 29 Nov 2026 11:00:00 GMT", 0},
		{"86400", MaxRetryAfter},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %s, want %s", tt.h, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	c, _ := NewClient(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", BackoffBase: 100 * time.Millisecond, BackoffMax: time.Second})
	// attempt n waits between half and all of min(base * 2^n, max)
	for attempt, full := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		full *= time.Millisecond
		if attempt >= 4 {
			full = time.Second
		}
		for range 50 {
			d := c.backoff(attempt)
			if d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %s, want in [%s, %s]", attempt, d, full/2, full)
			}
		}
	}
}
