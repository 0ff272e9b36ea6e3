package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
)

// A reply whose headers come within the timeout and whose body ends
// after it, within the grace, is used: one request, no retry. Before the
// grace, the attempt timeout covered the body too, so the reply was
// thrown away and bought again.
func TestLateReplyWithinGrace(t *testing.T) {
	s := llmtest.New(t, "late")
	s.LateBy = 600 * time.Millisecond // the timeout is 300 ms
	cfg := quickConfig(s)
	cfg.Grace = 2 * time.Second
	c, _ := NewClient(cfg)
	reply, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	if err != nil || reply == "" || s.Count() != 1 || s.Repeated() != 0 {
		t.Fatalf("Complete = %q, %v after %d requests (%d after a whole reply)", reply, err, s.Count(), s.Repeated())
	}
	if st := c.Stats(); st.Retries != 0 || st.Completed != 1 {
		t.Errorf("stats %+v", st)
	}
}

// Past the timeout and the grace, the body is a timeout that is not
// retried (the 200 reply had started arriving, and is billed: issue 29
// found it bought again), even with retries left; the message names both
// bounds, and a twin asked later in the run shares the failure.
func TestLateReplyPastGrace(t *testing.T) {
	s := llmtest.New(t, "late")
	s.LateBy = 2 * time.Second
	cfg := quickConfig(s)
	cfg.Grace, cfg.Retries = 200*time.Millisecond, 3
	c, _ := NewClient(cfg)
	_, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	var ce *CallError
	if !errors.As(err, &ce) || ce.Kind != "timeout" || ce.Status != 200 || ce.Retried || ce.Attempts != 1 ||
		!strings.Contains(err.Error(), "no complete reply within 500ms (the attempt timeout 300ms and a grace of 200ms") ||
		!strings.HasPrefix(ce.Cell(), "HTTP 200, not retried: no complete reply") {
		t.Fatalf("error %v", err)
	}
	_, err2 := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	if err2 != err {
		t.Errorf("twin: %v, want the first call's error", err2)
	}
	u := s.Ledger()["q"]
	if s.Count() != 1 || u.Billed != 1 || u.Requests != 1 {
		t.Errorf("%d requests, ledger %+v; want 1 request, billed once", s.Count(), u)
	}
	if st := c.Stats(); st.Failed != 2 || st.Shared != 1 || st.Paid != 1 || st.Retries != 0 {
		t.Errorf("stats %+v", st)
	}
}

// A 200 reply over the size limit fails at once, says why it is not
// retried, and is not asked for again; one that announces its length is
// refused before its body is read.
func TestOversizeNotRetried(t *testing.T) {
	s := llmtest.New(t, "oversize")
	s.OversizeBytes = 5000
	cfg := quickConfig(s)
	cfg.MaxReplyBytes = 1000
	c, _ := NewClient(cfg)
	_, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	var ce *CallError
	if !errors.As(err, &ce) || !errors.Is(err, ErrTooLarge) || ce.Kind != "too_large" || ce.Attempts != 1 || ce.Retried {
		t.Fatalf("error %#v", err)
	}
	want := "HTTP 200, not retried: reply over the client's size limit of 1000 bytes (5"
	if cell := ce.Cell(); !strings.HasPrefix(cell, want) || !strings.Contains(cell, "a retry pays again for the same oversized answer") {
		t.Errorf("cell %q, want it to start %q", cell, want)
	}
	if s.Count() != 1 {
		t.Errorf("%d requests, want 1", s.Count())
	}
}

// After a 401 the client sends nothing: of 20 calls on 4 workers, the
// server sees the first and at most the 3 others already in flight; every
// call fails with ErrAuth, and the message names the key variable.
func TestAuthStopsTheClient(t *testing.T) {
	for _, code := range []string{"401", "403"} {
		t.Run(code, func(t *testing.T) {
			s := llmtest.New(t)
			s.Fault = func(string, int) string { return code }
			cfg := quickConfig(s)
			cfg.Concurrency = 4
			c, _ := NewClient(cfg)
			var wg sync.WaitGroup
			errs := make([]error, 20)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = c.Complete(context.Background(), Request{PromptHash: "h", User: fmt.Sprint("q", i)})
				}()
			}
			wg.Wait()
			if n := s.Count(); n < 1 || n > 4 {
				t.Errorf("%d requests after a %s, want 1 to 4 (those in flight)", n, code)
			}
			for i, err := range errs {
				if !errors.Is(err, ErrAuth) || Kind(err) != "auth" {
					t.Fatalf("call %d: %v", i, err)
				}
			}
			if stop := c.Stopped(); stop == nil || !strings.Contains(stop.Error(), "HTTP "+code+": ") ||
				!strings.Contains(stop.Error(), "JUDGE_TEST_KEY holds the key that was sent") || strings.Contains(stop.Error(), testKey) {
				t.Errorf("Stopped() = %v", stop)
			}
			if st := c.Stats(); st.Failed != 20 || st.Retries != 0 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// A 500 on every attempt is a CallError with the status, the attempts
// and the reason, in one line without the endpoint.
func TestCallErrorCell(t *testing.T) {
	s := llmtest.New(t, "500", "500")
	cfg := quickConfig(s)
	cfg.Retries = 1
	c, _ := NewClient(cfg)
	_, err := c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	want := `HTTP 500 after 2 attempts: server error (HTTP 5xx): HTTP 500: {"error": {"message": "overloaded"}}`
	if got := Describe(err); got != want || Kind(err) != "server_error" {
		t.Errorf("Describe = %q (kind %s), want %q", got, Kind(err), want)
	}
	s2 := llmtest.New(t, "slow")
	s2.SlowFor = time.Second
	cfg = quickConfig(s2)
	cfg.Retries = -1
	c, _ = NewClient(cfg)
	_, err = c.Complete(context.Background(), Request{PromptHash: "h", User: "q"})
	if got := Describe(err); got != "no reply after 1 attempt: no reply within 300ms" {
		t.Errorf("Describe = %q", got)
	}
}
