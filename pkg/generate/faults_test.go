package generate

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/llm"
)

func faultQuestions(n int) []Question {
	var qs []Question
	for i := 1; i <= n; i++ {
		qs = append(qs, Question{Line: i + 1, ID: fmt.Sprintf("q%d", i), Text: fmt.Sprintf("Q-%02d", i), Language: "english"})
	}
	return qs
}

// question returns the question of a default-template user message.
func question(user string) string { return strings.TrimPrefix(user, "Question: ") }

// Every fault kind on its own question of 24: no row is lost (each has a
// response or an error cell), no reply received is asked for again, and
// the error cells say status and reason.
func TestRunSurvivesFaults(t *testing.T) {
	plan := map[string]string{
		"Q-02": "500", "Q-04": "oversize", "Q-06": "malformed", "Q-08": "late", "Q-10": "truncated",
		"Q-12": "slow", "Q-14": "429", "Q-16": "drop", "Q-18": "nochoices", "Q-20": "400echo",
	}
	s := llmtest.New(t)
	s.Answer = func(user string) string { return "answer to " + question(user) }
	s.LateBy, s.SlowFor, s.OversizeBytes = 600*time.Millisecond, time.Second, 5000
	s.Fault = func(prompt string, attempt int) string {
		f := plan[question(prompt)]
		if attempt == 1 || f == "500" {
			return f
		}
		return ""
	}
	c, err := llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "m", Retries: 1, Concurrency: 4, Timeout: 300 * time.Millisecond,
		Grace: 2 * time.Second, MaxReplyBytes: 2000, BackoffBase: 10 * time.Millisecond, BackoffMax: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), c, faultQuestions(24), Options{Model: "m", Templates: testTemplates(), Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Q-10's reply is cut short once it has started: billed, so it fails
	// its row rather than being bought again (issue 29).
	if res.Received != 18 || res.Failed != 6 || res.FailedKinds["malformed"] != 2 || res.FailedKinds["too_large"] != 1 || res.FailedKinds["network"] != 1 ||
		res.FailedKinds["server_error"] != 1 || res.FailedKinds["request"] != 1 {
		t.Errorf("received %d, failed %d %v", res.Received, res.Failed, res.FailedKinds)
	}
	if n, b := s.Repeated(), s.RepeatedBilled(); n != 0 || b != 0 {
		t.Errorf("%d requests repeated a reply already received, %d one already billed", n, b)
	}
	var b bytes.Buffer
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 25 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	wantErr := map[string]string{
		"Q-02": "HTTP 500 after 2 attempts: ", "Q-04": "HTTP 200, not retried: reply over the client's size limit",
		"Q-06": "HTTP 200, not retried: malformed", "Q-10": "HTTP 200, not retried: network: reading reply: unexpected EOF", "Q-18": "HTTP 200, not retried: malformed", "Q-20": "HTTP 400, not retried: request refused",
	}
	for _, r := range recs[1:] {
		q, resp, cell := r[1], r[6], r[7]
		if want, ok := wantErr[q]; ok {
			if resp != "" || !strings.HasPrefix(cell, want) {
				t.Errorf("%s: response %q error %q, want an error starting %q", q, resp, cell, want)
			}
		} else if resp != "answer to "+q || cell != "" {
			t.Errorf("%s: response %q error %q", q, resp, cell)
		}
	}
}

// A 403 stops the run: no question is sent after it but those in flight,
// the run is Stopped and writes no table, and a rerun through the same
// cache asks only for the questions not received.
func TestRunStopsOnAuth(t *testing.T) {
	s := llmtest.New(t)
	s.Delay = 5 * time.Millisecond
	var mu sync.Mutex
	refuse, at := true, 0
	s.Fault = func(prompt string, _ int) string {
		mu.Lock()
		defer mu.Unlock()
		if refuse && question(prompt) == "Q-08" {
			at = s.CountLocked()
			return "403"
		}
		return ""
	}
	cache := llm.NewMemoryCache()
	cfg := llm.Config{BaseURL: s.BaseURL(), Model: "m", Concurrency: 3, Cache: cache}
	c, _ := llm.NewClient(cfg)
	res, err := Run(context.Background(), c, faultQuestions(30), Options{Model: "m", Templates: testTemplates(), Workers: 3})
	if !errors.Is(err, llm.ErrAuth) || res == nil || !res.Stopped || res.WriteCSV(&bytes.Buffer{}) != ErrIncomplete {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if after := s.Count() - at; at == 0 || after > 2 {
		t.Errorf("%d requests after the 403 (request %d), want at most the 2 in flight", after, at)
	}
	mu.Lock()
	refuse = false
	mu.Unlock()
	received, before := cache.Len(), s.Count()
	c, _ = llm.NewClient(cfg)
	res, err = Run(context.Background(), c, faultQuestions(30), Options{Model: "m", Templates: testTemplates(), Workers: 3})
	if err != nil || res.Failed != 0 || s.Count()-before != 30-received || s.Repeated() != 0 {
		t.Errorf("rerun: %v, %d failed, %d asked of %d missing, %d repeated", err, res.Failed, s.Count()-before, 30-received, s.Repeated())
	}
}
