package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// TestCacheKeyStable pins two chat keys of each format. Format 1 (by
// endpoint URL) gives the values judge.CacheKey gave before the client
// moved to this package (commit 3ba1b44, printed by a throwaway test
// there): a cache file written by earlier runs of evalbook judge,
// calibrate, probes and generate is still read (see TestOldCacheFile).
// The format-1 completions and sample keys below were printed by their
// functions at commit 9f3c862 and equal sha256sum over
//
//	{"api":"completions","endpoint":"http://127.0.0.1:8000/v1","model":"bigram","prompt_hash":"h","prompt":"the quick","params":{"temperature":0,"max_tokens":0,"echo":true,"logprobs":1}}
//	{"api":"sample","endpoint":"http://127.0.0.1:8000/v1","model":"bigram","prompt_hash":"h","chat":false,"system":"","user":"","prompts":["a","b"],"params":{"temperature":0.5,"n":2,"stop":["\n"]}}
//
// Format 2 is SHA-256 over the JSON shown, as coreutils computes it:
//
//	printf '%s' '{"key_format":2,"api":"chat","path":"/chat/completions","model":"judge-small","prompt_hash":"abc","system":"be strict","user":"hello","params":{"temperature":0,"seed":7,"max_tokens":256}}' | sha256sum
//	printf '%s' '{"key_format":2,"api":"chat","path":"/chat/completions","model":"m","prompt_hash":"","system":"","user":"नमस्ते","params":{"temperature":0}}' | sha256sum
func TestCacheKeyStable(t *testing.T) {
	seed := int64(7)
	zero, one := 0, 1
	for _, tc := range []struct {
		got, want string
	}{
		{oldChatKey("http://127.0.0.1:8000/v1/", "judge-small", "abc", "be strict", "hello", Params{Seed: &seed, MaxTokens: 256}),
			"0fadfcc703f3ce5cc4501b28ac683a93d324e0d90164d3f499842c54a7d37fc0"},
		{oldChatKey("http://127.0.0.1:8000/v1", "m", "", "", "नमस्ते", Params{}),
			"19ed52d16bc4ab2847887a6d0d3f87ba38d401423ad3f4e3daf5957ecf648a8f"},
		{oldPromptKey("http://127.0.0.1:8000/v1", "bigram", "h", "the quick", promptParams{MaxTokens: &zero, Echo: true, Logprobs: &one}),
			"716743ecab166535a80129d23759c34ce3fd484839bc1a60f1a4f30c450e1baa"},
		{oldSampleKey("http://127.0.0.1:8000/v1", "bigram", SampleRequest{PromptHash: "h", Prompts: []string{"a", "b"}}, sampleParams{Temperature: 0.5, N: 2, Stop: []string{"\n"}}),
			"2fe8752573996117fd3b786390b405379bfd612a2d9971f4405c9a3d2b5933a4"},
		{CacheKey("judge-small", "abc", "be strict", "hello", Params{Seed: &seed, MaxTokens: 256}),
			"d523d6f786383501a790977b5858c94aa96adf6b51b03c095442eb07a15c672b"},
		{CacheKey("m", "", "", "नमस्ते", Params{}),
			"dbdc5aa8c4429b66b83e0aa5e76a4e2f88fb12abfdab3120bc39acaaf91d21c3"},
	} {
		if tc.got != tc.want {
			t.Errorf("key %s, want %s", tc.got, tc.want)
		}
	}
}

// TestCacheKeysDiffer: every input of a key changes it, and a chat
// request, a prompt request and a sample request with the same text do
// not share a key.
func TestCacheKeysDiffer(t *testing.T) {
	seed, other := int64(7), int64(8)
	base := CacheKey("m", "h", "s", "u", Params{Seed: &seed})
	for name, k := range map[string]string{
		"model":      CacheKey("n", "h", "s", "u", Params{Seed: &seed}),
		"hash":       CacheKey("m", "i", "s", "u", Params{Seed: &seed}),
		"system":     CacheKey("m", "h", "", "u", Params{Seed: &seed}),
		"user":       CacheKey("m", "h", "s", "v", Params{Seed: &seed}),
		"seed":       CacheKey("m", "h", "s", "u", Params{Seed: &other}),
		"max tokens": CacheKey("m", "h", "s", "u", Params{Seed: &seed, MaxTokens: 5}),
		"format 1":   oldChatKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &seed}),
	} {
		if k == base {
			t.Errorf("changing the %s keeps the key", name)
		}
	}
	if oldChatKey("http://h/v1/", "m", "h", "s", "u", Params{Seed: &seed}) != oldChatKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &seed}) {
		t.Error("a trailing slash on the endpoint changes a format-1 key")
	}
	if oldChatKey("http://g/v1", "m", "h", "s", "u", Params{Seed: &seed}) == oldChatKey("http://h/v1", "m", "h", "s", "u", Params{Seed: &seed}) {
		t.Error("format 1: another endpoint keeps the key")
	}
	zero, one := 0, 1
	p := promptParams{MaxTokens: &zero, Echo: true, Logprobs: &one}
	pk := promptKey("m", "h", "u", p)
	if pk == CacheKey("m", "h", "", "u", Params{}) {
		t.Error("a prompt request has a chat request's key")
	}
	for name, q := range map[string]promptParams{
		"no max tokens": {Echo: true, Logprobs: &one},
		"no echo":       {MaxTokens: &zero, Logprobs: &one},
		"logprobs 0":    {MaxTokens: &zero, Echo: true, Logprobs: &zero},
		"no logprobs":   {MaxTokens: &zero, Echo: true},
	} {
		if promptKey("m", "h", "u", q) == pk {
			t.Errorf("%s: same key as echo, logprobs 1, max_tokens 0", name)
		}
	}
	chat := SampleRequest{PromptHash: "h", Chat: true, User: "u"}
	sk := sampleKey("m", chat, sampleParams{}, "/chat/completions")
	if sk == CacheKey("m", "h", "", "u", Params{}) || sk == sampleKey("m", SampleRequest{PromptHash: "h", Prompts: []string{"u"}}, sampleParams{}, "/completions") {
		t.Error("a chat sample request shares a key with Complete's or a completions sample's")
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

// TestCacheEndpointMoved: replies are keyed by what was asked, so a
// client on another server (another port) with the same model and cache
// asks nothing already answered, through chat, completions and sample
// requests alike; the file names no endpoint and every entry has
// key_format 2.
func TestCacheEndpointMoved(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox")
	a, b := tasktest.New(t, m), tasktest.New(t, m)
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	zero, one := 0, 1
	ask := func(s *llmtest.Server) string {
		t.Helper()
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		c, err := NewClient(Config{BaseURL: s.BaseURL(), Model: "bigram", Cache: cache, Retries: -1})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var out []any
		for _, q := range []string{"the", "कौन सी नदी?"} {
			r, err := c.Complete(ctx, Request{PromptHash: "p1", User: q})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		lp, err := c.CompletePrompt(ctx, PromptRequest{PromptHash: "p1", Prompt: "the quick", Echo: true, Logprobs: &one, MaxTokens: &zero})
		if err != nil {
			t.Fatal(err)
		}
		sm, err := c.Sample(ctx, SampleRequest{PromptHash: "p1", Prompts: []string{"the q", "the b"}, Echo: true, Logprobs: &zero, MaxTokens: &zero})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lp, sm)
		b, _ := json.Marshal(out)
		return string(b)
	}
	first := ask(a)
	if a.Count() != 4 {
		t.Fatalf("first run: %d requests, want 4", a.Count())
	}
	if again := ask(b); b.Count() != 0 || again != first {
		t.Errorf("the same requests of a server on another port: %d requests, replies\n%s\nwant 0 and\n%s", b.Count(), again, first)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "127.0.0.1") || strings.Count(string(data), `"key_format":2`) != 4 || strings.Count(string(data), "\n") != 4 {
		t.Errorf("cache file:\n%s", data)
	}
}

// writeOldCache writes entries as evalbook wrote them before key format 2:
// no key_format, keys that hash the endpoint.
func writeOldCache(t *testing.T, path string, entries map[string]string) {
	t.Helper()
	var buf strings.Builder
	for k, r := range entries {
		fmt.Fprintf(&buf, `{"key":%q,"model":"judge-small","prompt":"p1","reply":%q}`+"\n", k, r)
	}
	if err := os.WriteFile(path, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOldCacheFile: a cache file keyed the old way (by endpoint URL) is
// read: opening it warns how many replies are keyed by URL and that a
// request whose endpoint moved is asked again; a client on the URL the
// replies were asked of gets them without a request and re-keys them, so
// that the next run on another port asks nothing and the warning is gone.
// A client on another URL cannot match an old entry and asks again, as
// the warning said.
func TestOldCacheFile(t *testing.T) {
	a, b := llmtest.New(t), llmtest.New(t)
	for _, s := range []*llmtest.Server{a, b} {
		s.Answer = func(prompt string) string { return "new: " + prompt }
	}
	dir := t.TempDir()
	cfgA := quickConfig(a)
	var p Params // quickConfig: no seed, no max tokens
	old := map[string]string{}
	questions := []string{"q1", "q2", "q3"}
	for _, q := range questions {
		old[oldChatKey(a.BaseURL(), cfgA.Model, "p1", "", q, p)] = "old: " + q
	}
	path := filepath.Join(dir, "cache.jsonl")
	writeOldCache(t, path, old)
	run := func(s *llmtest.Server, path string) ([]string, *Cache, []string) {
		t.Helper()
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		warnings := cache.Warnings()
		cfg := quickConfig(s)
		cfg.Cache = cache
		c, _ := NewClient(cfg)
		var out []string
		for _, q := range questions {
			r, err := c.Complete(context.Background(), Request{PromptHash: "p1", User: q})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		cache.Close()
		return out, cache, warnings
	}
	got, cache, w := run(a, path)
	if len(w) != 1 || !strings.Contains(w[0], "cache.jsonl: 3 replies are keyed by endpoint URL") || !strings.Contains(w[0], "is asked again") {
		t.Errorf("warnings %q", w)
	}
	if a.Count() != 0 || cache.Migrated() != 3 || fmt.Sprint(got) != "[old: q1 old: q2 old: q3]" {
		t.Fatalf("old file on its URL: %d requests, %d re-keyed, replies %q; want 0, 3 and the old replies", a.Count(), cache.Migrated(), got)
	}
	got, cache, w = run(b, path)
	if len(w) != 0 || b.Count() != 0 || cache.Migrated() != 0 || fmt.Sprint(got) != "[old: q1 old: q2 old: q3]" {
		t.Fatalf("re-keyed file on another port: warnings %q, %d requests, %d re-keyed, replies %q", w, b.Count(), cache.Migrated(), got)
	}
	data, _ := os.ReadFile(path)
	if strings.Count(string(data), `"old_keys":[`) != 3 || strings.Count(string(data), "\n") != 6 {
		t.Errorf("cache file:\n%s", data)
	}

	// The old file asked of another URL: nothing matches, every request is made.
	other := filepath.Join(dir, "other.jsonl")
	writeOldCache(t, other, old)
	got, cache, w = run(b, other)
	if len(w) != 1 || b.Count() != 3 || cache.Migrated() != 0 || fmt.Sprint(got) != "[new: q1 new: q2 new: q3]" {
		t.Fatalf("old file on another URL: warnings %q, %d requests, replies %q", w, b.Count(), got)
	}
}
