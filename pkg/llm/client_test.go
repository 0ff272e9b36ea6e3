package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
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
func quickConfig(s *llmtest.Server) Config {
	return Config{
		BaseURL: s.BaseURL(), Model: "judge-small", APIKeyEnv: "JUDGE_TEST_KEY", Getenv: testEnv,
		Timeout: 300 * time.Millisecond, BackoffBase: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
	}
}

func TestClientRequestShape(t *testing.T) {
	s := llmtest.New(t)
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
	b := s.Bodies()[0]
	if s.Paths()[0] != "/v1/chat/completions" || s.Auth()[0] != "Bearer "+testKey {
		t.Errorf("path %q auth %q", s.Paths()[0], s.Auth()[0])
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
	if s.Auth()[1] != "" {
		t.Errorf("sent Authorization %q without a key", s.Auth()[1])
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
		// A 200 reply was received (and paid for): a malformed one fails
		// at once instead of being bought again.
		{"malformed JSON is not retried", []string{"malformed"}, 0, 1, ErrMalformed, 0},
		{"no choices is not retried", []string{"nochoices"}, 0, 1, ErrMalformed, 0},
		{"two faults then ok", []string{"500", "drop"}, 0, 3, nil, 0},
		// A 200 reply cut short once it had started arriving was billed:
		// it fails at once instead of being bought again.
		{"cut short is not retried", []string{"truncated"}, 0, 1, io.ErrUnexpectedEOF, 0},
		{"500 every time", []string{"500", "500", "500", "500"}, 0, 4, ErrServer, 0},
		{"oversized is not retried", []string{"oversize"}, 0, 1, ErrTooLarge, 0},
		{"401 is not retried", []string{"401"}, 0, 1, ErrAuth, 0},
		{"403 is not retried", []string{"403"}, 0, 1, ErrAuth, 0},
		{"429 with one retry", []string{"429", "429"}, 1, 2, ErrRateLimited, time.Second},
		{"no retries", []string{"500"}, -1, 1, ErrServer, 0},
		{"400 is not retried", []string{"400echo"}, 0, 1, ErrRequest, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.faults...)
			s.OversizeBytes = 4 << 10
			cfg := quickConfig(s)
			cfg.Retries = tt.retries
			cfg.MaxReplyBytes = 1 << 10
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
			if got := s.Count(); got != tt.attempts {
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

func TestClientCancel(t *testing.T) {
	s := llmtest.New(t, "slow", "slow", "slow", "slow")
	cfg := quickConfig(s)
	cfg.Timeout = 10 * time.Second
	c, _ := NewClient(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	go func() { // cancel once the server holds the request
		for s.Count() == 0 {
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
	if s.Count() != 1 {
		t.Errorf("%d requests after cancel, want 1", s.Count())
	}
}

func TestClientConcurrencyLimit(t *testing.T) {
	s := llmtest.New(t)
	s.Delay = 40 * time.Millisecond
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
	if s.MaxInflight() != 3 || s.Count() != 12 {
		t.Errorf("max in flight %d of %d requests, want 3 of 12", s.MaxInflight(), s.Count())
	}
}

func TestClientRPM(t *testing.T) {
	s := llmtest.New(t)
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
	s := llmtest.New(t)
	s.Delay = 50 * time.Millisecond
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
	if s.Count() != 1 || c.Stats().CacheHits != 4 {
		t.Errorf("%d requests, stats %+v; want 1 request and 4 shared replies", s.Count(), c.Stats())
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
