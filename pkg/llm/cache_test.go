package llm

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
)

// TestCacheKeyStable pins two chat keys to the values judge.CacheKey gave
// before the client moved to this package (commit 3ba1b44, printed by a
// throwaway test there), so that cache files written by earlier runs of
// evalbook judge, calibrate, probes and generate stay valid.
func TestCacheKeyStable(t *testing.T) {
	seed := int64(7)
	for _, tc := range []struct {
		got, want string
	}{
		{CacheKey("http://127.0.0.1:8000/v1/", "judge-small", "abc", "be strict", "hello", Params{Seed: &seed, MaxTokens: 256}),
			"0fadfcc703f3ce5cc4501b28ac683a93d324e0d90164d3f499842c54a7d37fc0"},
		{CacheKey("http://127.0.0.1:8000/v1", "m", "", "", "नमस्ते", Params{}),
			"19ed52d16bc4ab2847887a6d0d3f87ba38d401423ad3f4e3daf5957ecf648a8f"},
	} {
		if tc.got != tc.want {
			t.Errorf("key %s, want %s", tc.got, tc.want)
		}
	}
}

// TestCacheKeysDiffer: every input of a key changes it, and a chat
// request and a prompt request with the same text do not share a key.
func TestCacheKeysDiffer(t *testing.T) {
	seed, other := int64(7), int64(8)
	base := CacheKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &seed})
	for name, k := range map[string]string{
		"endpoint":   CacheKey("http://g/v1", "m", "h", "s", "u", Params{Seed: &seed}),
		"model":      CacheKey("http://h/v1", "n", "h", "s", "u", Params{Seed: &seed}),
		"hash":       CacheKey("http://h/v1", "m", "i", "s", "u", Params{Seed: &seed}),
		"system":     CacheKey("http://h/v1", "m", "h", "", "u", Params{Seed: &seed}),
		"user":       CacheKey("http://h/v1", "m", "h", "s", "v", Params{Seed: &seed}),
		"seed":       CacheKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &other}),
		"max tokens": CacheKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &seed, MaxTokens: 5}),
	} {
		if k == base {
			t.Errorf("changing the %s keeps the key", name)
		}
	}
	if CacheKey("http://h/v1/", "m", "h", "s", "u", Params{Seed: &seed}) != base {
		t.Error("a trailing slash on the endpoint changes the key")
	}
	zero, one := 0, 1
	p := promptParams{MaxTokens: &zero, Echo: true, Logprobs: &one}
	pk := promptKey("http://h/v1", "m", "h", "u", p)
	if pk == CacheKey("http://h/v1", "m", "h", "", "u", Params{}) {
		t.Error("a prompt request has a chat request's key")
	}
	for name, q := range map[string]promptParams{
		"no max tokens": {Echo: true, Logprobs: &one},
		"no echo":       {MaxTokens: &zero, Logprobs: &one},
		"logprobs 0":    {MaxTokens: &zero, Echo: true, Logprobs: &zero},
		"no logprobs":   {MaxTokens: &zero, Echo: true},
	} {
		if promptKey("http://h/v1", "m", "h", "u", q) == pk {
			t.Errorf("%s: same key as echo, logprobs 1, max_tokens 0", name)
		}
	}
}

// TestClientCacheFile: a rerun on the same cache file makes no request,
// another model is another request, and the file holds no key.
func TestClientCacheFile(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = func(prompt string) string { return "echo: " + prompt }
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	questions := []string{"Which year?", "कौन सी नदी?"}
	run := func(model string) []string {
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Model, cfg.Cache = model, cache
		c, _ := NewClient(cfg)
		var out []string
		for _, q := range questions {
			r, err := c.Complete(context.Background(), Request{PromptHash: "p1", User: q})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	first := run("small")
	if s.Count() != 2 || first[1] != "echo: कौन सी नदी?" {
		t.Fatalf("first run: %d requests, replies %q", s.Count(), first)
	}
	if again := run("small"); s.Count() != 2 || fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("rerun made %d new requests, replies %q", s.Count()-2, again)
	}
	run("large")
	if s.Count() != 4 {
		t.Errorf("a new model made %d requests, want 2", s.Count()-2)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), testKey) || strings.Count(string(data), "\n") != 4 {
		t.Errorf("cache file:\n%s", data)
	}
}

// One attempt is "1 attempt"; the message names the endpoint, and a reply
// without content names the chat API as before the move.
func TestGivingUpAttempts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retries int
		faults  []string
		want    string
	}{
		{"no retries", -1, []string{"500"}, "giving up after 1 attempt: server error (HTTP 5xx): HTTP 500: "},
		{"one retry", 1, []string{"500", "500"}, "giving up after 2 attempts: "},
		{"no choices", 3, []string{"nochoices"}, "malformed chat completion reply: no choices[0].message.content (not retried: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.New(t, tc.faults...)
			cfg := quickConfig(s)
			cfg.Retries = tc.retries
			c, _ := NewClient(cfg)
			_, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
			if err == nil || !strings.HasPrefix(err.Error(), s.BaseURL()+": "+tc.want) {
				t.Errorf("error %v, want one starting %q", err, s.BaseURL()+": "+tc.want)
			}
		})
	}
}

// TestRetryLog: each retry is one line that says what failed, which
// attempt it was and how long the client waits.
func TestRetryLog(t *testing.T) {
	s := llmtest.New(t, "500")
	cfg := quickConfig(s)
	cfg.BackoffBase, cfg.BackoffMax = 20*time.Millisecond, 20*time.Millisecond
	var lines []string
	cfg.Logf = func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	c, _ := NewClient(cfg)
	if _, err := c.Complete(context.Background(), Request{User: "q"}); err != nil {
		t.Fatal(err)
	}
	// Backoff for attempt 0 with base = max = 20ms: 10ms fixed plus up to 10ms of jitter.
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "server error (HTTP 5xx): HTTP 500: ") || !strings.Contains(lines[0], " (attempt 1 of 4); retrying in ") || !strings.HasSuffix(lines[0], "ms") {
		t.Errorf("log %q", lines)
	}
}

// TestDefaultConfig: the zero fields of a Config take DefaultConfig's
// values; Retries -1 means none.
func TestDefaultConfig(t *testing.T) {
	c, err := NewClient(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultConfig
	if c.cfg.APIKeyEnv != d.APIKeyEnv || c.cfg.Timeout != d.Timeout || c.cfg.Retries != d.Retries || c.cfg.Concurrency != d.Concurrency ||
		c.cfg.BackoffBase != d.BackoffBase || c.cfg.BackoffMax != d.BackoffMax || cap(c.sem) != d.Concurrency || c.cache == nil || c.http == nil {
		t.Errorf("config %+v, want DefaultConfig's values", c.cfg)
	}
	if d.APIKeyEnv != "OPENAI_API_KEY" || d.Retries != 3 || d.Concurrency != 4 || d.Timeout != time.Minute {
		t.Errorf("DefaultConfig %+v changed", d)
	}
	none, _ := NewClient(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", Retries: -1})
	if none.cfg.Retries != 0 {
		t.Errorf("Retries -1 gives %d retries", none.cfg.Retries)
	}
	// Two clients with no Cache do not share one.
	other, _ := NewClient(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if other.cache == c.cache {
		t.Error("two clients share a default cache")
	}
	if !errors.Is(&malformedError{"completion", "x"}, ErrMalformed) {
		t.Error("a malformed reply is not ErrMalformed")
	}
}

// Loading a cache file is bounded: a line longer than MaxCacheLine (here
// 4 KiB) stops the load with an error naming the file, the line and the
// limit, where it used to be read whole however long; entries up to the
// limit load, split across the reader's 64 KiB buffer or not.
func TestCacheLineLimit(t *testing.T) {
	saved := MaxCacheLine
	t.Cleanup(func() { MaxCacheLine = saved })
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Put("k0", "m", "h", strings.Repeat("r", 3000))
	c.Close()

	MaxCacheLine = 4 << 10
	c, err = OpenCache(path)
	if err != nil || c.Len() != 1 {
		t.Fatalf("an entry under the limit: %v, %d entries", err, c.Len())
	}
	c.Close()

	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Repeat("x", 200<<10) + "\n")
	f.Close()
	_, err = OpenCache(path)
	if err == nil || !strings.Contains(err.Error(), "cache.jsonl:2: a line longer than 4096 bytes") || !strings.Contains(err.Error(), "llm.MaxCacheLine") {
		t.Fatalf("a 200 KiB line under a 4 KiB limit: %v", err)
	}

	// With the default limit, the same file loads, the long line skipped as no entry.
	MaxCacheLine = saved
	c, err = OpenCache(path)
	if err != nil || c.Len() != 1 || len(c.Warnings()) != 1 {
		t.Fatalf("default limit: %v, %d entries, warnings %q", err, c.Len(), c.Warnings())
	}
	c.Close()
}
