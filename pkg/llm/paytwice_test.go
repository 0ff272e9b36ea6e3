package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// Issue 29: after a malformed 200 reply, a later call with the identical
// request bought it again (one row showed an error, its twin an answer).
// Now the first call's failure settles the request for the run: of 12
// calls of one request, 4 at once and 8 after, the server sees 1 request,
// bills 1 reply, and every call gets the same error.
func TestTwinsOfAMalformedReplyShareIt(t *testing.T) {
	for _, fault := range []string{"malformed", "nochoices", "oversize"} {
		t.Run(fault, func(t *testing.T) {
			s := llmtest.New(t)
			s.OversizeBytes = 4 << 10
			s.Delay = 20 * time.Millisecond // the first four overlap
			s.Fault = func(_ string, attempt int) string {
				if attempt == 1 {
					return fault
				}
				return "" // a second request would be answered: the test would see it
			}
			cfg := quickConfig(s)
			cfg.Concurrency, cfg.MaxReplyBytes = 4, 1<<10
			c, _ := NewClient(cfg)
			req := Request{PromptHash: "h", User: "same question"}
			errs := make([]error, 12)
			var wg sync.WaitGroup
			for i := range 4 {
				wg.Add(1)
				go func() { defer wg.Done(); _, errs[i] = c.Complete(context.Background(), req) }()
			}
			wg.Wait()
			for i := 4; i < 12; i++ {
				_, errs[i] = c.Complete(context.Background(), req)
			}
			u := s.Ledger()["same question"]
			if s.Count() != 1 || u.Billed != 1 || s.RepeatedBilled() != 0 {
				t.Fatalf("%d requests, ledger %+v; want 1 request billed once", s.Count(), u)
			}
			for i, err := range errs {
				if err == nil || Describe(err) != Describe(errs[0]) || !strings.HasPrefix(Describe(err), "HTTP 200, not retried: ") {
					t.Errorf("call %d: %v; want the first call's error %v", i, err, errs[0])
				}
			}
			if st := c.Stats(); st.Requests != 1 || st.Failed != 12 || st.Shared != 11 || st.Paid != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// The same holds for Sample and CompletePrompt (task runs), and for two
// clients of two endpoints sharing one cache (task run --endpoint twice):
// the request is settled once for the cache, whichever client asks.
func TestTwinsShareAcrossAPIsAndClients(t *testing.T) {
	s := llmtest.New(t)
	s.Delay = 20 * time.Millisecond
	s.Fault = func(_ string, attempt int) string {
		if attempt == 1 {
			return "malformed"
		}
		return ""
	}
	cache := NewMemoryCache()
	cfg := quickConfig(s)
	cfg.Cache, cfg.Concurrency = cache, 4
	a, _ := NewClient(cfg)
	cfg2 := cfg
	cfg2.BaseURL = strings.Replace(s.BaseURL(), "127.0.0.1", "localhost", 1) // another URL, same server
	b, _ := NewClient(cfg2)
	zero := 0
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range 8 {
		c := a
		if i%2 == 1 {
			c = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i < 4 {
				_, errs[i] = c.Sample(context.Background(), SampleRequest{PromptHash: "h", Prompts: []string{"p1", "p2"}, MaxTokens: &zero, Echo: true})
			} else {
				_, errs[i] = c.CompletePrompt(context.Background(), PromptRequest{PromptHash: "h", Prompt: "p3"})
			}
		}()
	}
	wg.Wait()
	if s.Count() != 2 || s.RepeatedBilled() != 0 {
		t.Fatalf("%d requests (%d after a billed reply), want 2 (0): %v", s.Count(), s.RepeatedBilled(), s.Ledger())
	}
	for i, err := range errs {
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("call %d: %v", i, err)
		}
	}
}

// A malformed 200 is written to a file cache as a failure entry (under
// "failed:" and the request's key; the reply keys are unchanged). A rerun
// sends nothing for it and says so (CallError.Recorded); with
// RetryFailed it asks once, caches the reply, and the run after that
// finds the reply. A 500 after the retries is kept in memory only: its
// twin in the run shares it, and a rerun asks again.
func TestRecordedFailureAcrossRuns(t *testing.T) {
	s := llmtest.New(t)
	var healthy sync.Map
	s.Fault = func(prompt string, _ int) string {
		if _, ok := healthy.Load(prompt); ok {
			return ""
		}
		switch prompt {
		case "bad":
			return "malformed"
		case "busy":
			return "500"
		}
		return ""
	}
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	run := func(retry bool) (*Client, map[string]error) {
		t.Helper()
		cache, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cfg := quickConfig(s)
		cfg.Cache, cfg.Retries, cfg.RetryFailed = cache, 1, retry
		c, _ := NewClient(cfg)
		out := map[string]error{}
		for _, q := range []string{"bad", "busy", "fine", "bad", "busy"} {
			_, err := c.Complete(context.Background(), Request{PromptHash: "h", User: q})
			if prev, seen := out[q]; seen && Describe(prev) != Describe(err) {
				t.Errorf("twin of %q: %v, first %v", q, err, prev)
			}
			out[q] = err
		}
		return c, out
	}
	c, errs := run(false)
	// bad: 1 request; busy: 2 attempts (one retry); fine: 1.
	if s.Count() != 4 || !errors.Is(errs["bad"], ErrMalformed) || !errors.Is(errs["busy"], ErrServer) || errs["fine"] != nil {
		t.Fatalf("%d requests, errors %v", s.Count(), errs)
	}
	if st := c.Stats(); st.Shared != 2 || st.Paid != 1 || st.Failed != 4 {
		t.Errorf("stats %+v", st)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), `"key":"failed:`); n != 1 || !strings.Contains(string(data), `"failure":{"kind":"malformed","status":200,"error":"malformed chat completion reply: `) {
		t.Fatalf("cache file:\n%s", data)
	}
	wantKey := CacheKey("judge-small", "h", "", "bad", Params{})
	if !strings.Contains(string(data), `"key":"failed:`+wantKey+`"`) {
		t.Errorf("the failure entry is not keyed by the request's key %s:\n%s", wantKey, data)
	}

	// Rerun: bad is not sent (recorded), busy is asked again (2 attempts).
	before := s.Count()
	c, errs = run(false)
	var ce *CallError
	if s.Count()-before != 2 || !errors.As(errs["bad"], &ce) || !ce.Recorded || ce.Attempts != 0 || !errors.Is(errs["bad"], ErrMalformed) {
		t.Fatalf("rerun: %d requests, bad: %#v", s.Count()-before, errs["bad"])
	}
	if cell := ce.Cell(); !strings.HasPrefix(cell, "HTTP 200 in an earlier run, recorded in the cache, not asked again: malformed chat completion reply") {
		t.Errorf("cell %q", cell)
	}
	if st := c.Stats(); st.Earlier != 2 || st.Recorded != 2 || st.Requests != 2 {
		t.Errorf("rerun stats %+v", st)
	}

	// With RetryFailed, and the server healthy: bad asked once (its twin
	// shares the reply), busy once.
	healthy.Store("bad", true)
	healthy.Store("busy", true)
	before = s.Count()
	_, errs = run(true)
	if s.Count()-before != 2 || errs["bad"] != nil || errs["busy"] != nil {
		t.Fatalf("retry-failed: %d requests, %v", s.Count()-before, errs)
	}
	before = s.Count()
	if _, errs = run(false); s.Count() != before || errs["bad"] != nil {
		t.Errorf("after the retry: %d requests, %v", s.Count()-before, errs)
	}
}

// A twin waiting on a call that is cancelled asks itself (nothing was
// settled), and a cancelled call records no failure.
func TestCancelledLeaderSettlesNothing(t *testing.T) {
	s := llmtest.New(t)
	s.Delay = 200 * time.Millisecond
	c, _ := NewClient(quickConfig(s))
	req := Request{PromptHash: "h", User: "q"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := c.Complete(ctx, req); done <- err }()
	for s.Count() == 0 {
		time.Sleep(time.Millisecond)
	}
	twin := make(chan error)
	go func() { _, err := c.Complete(context.Background(), req); twin <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader: %v", err)
	}
	if err := <-twin; err != nil {
		t.Fatalf("twin: %v", err)
	}
	if s.Count() != 2 || s.Served() != 1 { // the cancelled one is not served
		t.Errorf("%d requests, %d served", s.Count(), s.Served())
	}
}

// Issue 29: a base URL with a query string was asked at
// /v1?api-version=2024-06-01/chat/completions. The path now goes before
// the query, which is kept whole; an Azure-style api-key in the query, a
// password, and an extra header's value never appear in an error, a log
// line or Endpoint, even when the server echoes them.
func TestEndpointWithQueryAndHeaders(t *testing.T) {
	s := llmtest.New(t, "500", "400echo")
	const azureKey, gwKey = "az-9f8e7d6c5b4a", "gw-0a1b2c3d4e5f"
	env := map[string]string{"AZURE_KEY": gwKey, "JUDGE_TEST_KEY": testKey}
	u := strings.Replace(s.BaseURL(), "http://", "http://alice:pw-s3cr3t@", 1)
	cfg := quickConfig(s)
	cfg.BaseURL = u + "/?api-version=2024-06-01&api-key=" + azureKey
	cfg.Getenv = func(k string) string { return env[k] }
	cfg.Headers = []Header{{Name: "api-key", Env: "AZURE_KEY"}}
	var logged []string
	cfg.Logf = func(f string, a ...any) { logged = append(logged, f) }
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	if !errors.Is(err, ErrRequest) {
		t.Fatalf("error %v", err)
	}
	for _, uri := range s.URIs() {
		if uri != "/v1/chat/completions?api-version=2024-06-01&api-key="+azureKey {
			t.Errorf("request URI %q", uri)
		}
	}
	if h := s.Headers()[0]; h.Get("Api-Key") != gwKey || h.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("headers %v", h)
	}
	shown := strings.Join(append(logged, err.Error(), Describe(err), c.Endpoint()), "\n")
	for _, secret := range []string{azureKey, gwKey, testKey, "pw-s3cr3t", "alice"} {
		if strings.Contains(shown, secret) {
			t.Errorf("%q shown:\n%s", secret, shown)
		}
	}
	if !strings.HasSuffix(c.Endpoint(), "/v1?api-version=2024-06-01&api-key=xxxxx") || !strings.Contains(Describe(err), "bad header: Bearer [redacted] at /v1/chat/completions?api-version=2024-06-01&api-key=[redacted]") {
		t.Errorf("endpoint %q, cell %q", c.Endpoint(), Describe(err))
	}
}

// An extra header is NAME=env:VARIABLE; a literal value, a header the
// client sets itself, or an unset variable is refused without showing
// what was typed after the '='.
func TestParseHeader(t *testing.T) {
	h, err := ParseHeader("api-key=env:AZURE_KEY")
	if err != nil || h != (Header{Name: "api-key", Env: "AZURE_KEY"}) {
		t.Fatalf("%+v %v", h, err)
	}
	for _, bad := range []string{"api-key=sk-literal-123", "api-key", "=env:X", "bad name=env:X", "Host=env:X", "content-type=env:X", "x=env:1X"} {
		_, err := ParseHeader(bad)
		if !errors.Is(err, ErrHeader) || strings.Contains(err.Error(), "sk-literal") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	_, err = NewClient(Config{BaseURL: "http://h/v1", Model: "m", Headers: []Header{{"api-key", "UNSET_VAR"}}, Getenv: func(string) string { return "" }})
	if !errors.Is(err, ErrHeader) || !strings.Contains(err.Error(), "UNSET_VAR is unset or empty") {
		t.Errorf("unset variable: %v", err)
	}
	_, err = NewClient(Config{BaseURL: "http://h/v1", Model: "m", Headers: []Header{{"api-key", "V"}}, Getenv: func(string) string { return "a\r\nb" }})
	if !errors.Is(err, ErrHeader) || strings.Contains(err.Error(), "a\r\nb") {
		t.Errorf("value with a line break: %v", err)
	}
}

// A batch reply that does not parse was paid for: it is recorded in the
// cache as failed, so the online pass that follows does not buy it again
// (before, it was asked online), and a rerun's batch does not submit it.
func TestBatchMalformedReplyRecorded(t *testing.T) {
	m := tasktest.NewModel("abc")
	m.Chat = func(user string, _ int) string { return "reply to " + user }
	bs := tasktest.NewBatch(t, m)
	// A proxy that breaks the batch's reply to "bad" in the output file.
	target, _ := url.Parse(bs.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasSuffix(r.Request.URL.Path, "/content") {
			return nil
		}
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		var out []string
		for _, ln := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var l map[string]any
			if json.Unmarshal([]byte(ln), &l) == nil && strings.Contains(ln, "reply to bad") {
				if resp, ok := l["response"].(map[string]any); ok {
					resp["body"] = map[string]any{"choices": []any{}}
					b, _ := json.Marshal(l)
					ln = string(b)
				}
			}
			out = append(out, ln)
		}
		body := strings.Join(out, "\n") + "\n"
		r.Body = io.NopCloser(strings.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set("Content-Length", fmt.Sprint(len(body)))
		return nil
	}
	ps := httptest.NewServer(proxy)
	defer ps.Close()
	cache := NewMemoryCache()
	cl, err := NewClient(Config{BaseURL: ps.URL + "/v1", Model: "bigram", Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []Request{{PromptHash: "h", User: "good"}, {PromptHash: "h", User: "bad"}}
	state := filepath.Join(t.TempDir(), "state.json")
	st, err := cl.Batch(context.Background(), BatchJob{Chats: reqs}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	if err != nil || st.Submitted != 2 || st.Received != 1 || st.Failed != 1 || st.Malformed != 1 {
		t.Fatalf("batch: %+v %v", st, err)
	}
	if got, err := cl.Complete(context.Background(), reqs[0]); err != nil || got != "reply to good" {
		t.Errorf("good: %q %v", got, err)
	}
	_, err = cl.Complete(context.Background(), reqs[1])
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "not asked again online") || bs.Online != 0 {
		t.Errorf("bad: %v, %d online requests (want 0)", err, bs.Online)
	}
	// A new run with the same cache: nothing submitted, the failure recorded.
	cl2, _ := NewClient(Config{BaseURL: ps.URL + "/v1", Model: "bigram", Cache: cache})
	st, err = cl2.Batch(context.Background(), BatchJob{Chats: reqs}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	if err != nil || st != (BatchStats{Cached: 1, Recorded: 1}) || bs.Created != 1 {
		t.Errorf("rerun: %+v %v, %d batches", st, err, bs.Created)
	}
}
