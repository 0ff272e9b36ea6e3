package judge

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/llm"
)

// faultTable is a response table of n rows: row i asks "Q-ii" with the
// golden answer "gi"; even rows answer it ("it is gi"), odd rows do not.
func faultTable(t *testing.T, n int) *Responses {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response\n")
	for i := 1; i <= n; i++ {
		resp := "no idea"
		if i%2 == 0 {
			resp = fmt.Sprintf("it is g%d", i)
		}
		fmt.Fprintf(&b, "r%d,Q-%02d,g%d,D%d,%s\n", i, i, i, i%3, resp)
	}
	tbl, err := ReadResponses(context.Background(), []byte(b.String()), "faults.csv", ResponseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestJudgeRunSurvivesFaults runs 30 rows through a real client against
// the loopback server with one fault kind per chosen row, and checks that
// no row is lost, no reply received is asked for again, the rows that
// cannot be answered carry their error, and the rates leave them out. A
// 200 reply cut short had started arriving and was billed: it
// fails its row instead of being bought again (issue 29).
func TestJudgeRunSurvivesFaults(t *testing.T) {
	plan := map[string]struct {
		fault  string // on every attempt when always, else on the first only
		always bool
	}{
		"Q-03": {"500", true}, "Q-06": {"oversize", false}, "Q-09": {"malformed", false},
		"Q-12": {"late", false}, "Q-15": {"truncated", false}, "Q-18": {"slow", false},
		"Q-21": {"429", false}, "Q-24": {"drop", false}, "Q-27": {"nochoices", false}, "Q-29": {"400echo", false},
	}
	s := llmtest.New(t)
	s.Answer = referenceAnswer
	s.LateBy, s.SlowFor, s.OversizeBytes = 600*time.Millisecond, time.Second, 5000
	s.Fault = func(prompt string, attempt int) string {
		f := plan[block(prompt, "QUESTION")]
		if attempt == 1 || f.always {
			return f.fault
		}
		return ""
	}
	cfg := quickConfig(s)
	cfg.Retries, cfg.Grace, cfg.MaxReplyBytes, cfg.Concurrency = 1, 2*time.Second, 2000, 4
	c, _ := llm.NewClient(cfg)
	tbl := faultTable(t, 30)
	sum, err := JudgeResponses(context.Background(), NewClientJudge(c, mustPrompt(t, "reference@1")), tbl, RunOptions{Model: "m", Workers: 4})
	var rf *RowsFailedError
	if !errors.As(err, &rf) || !errors.Is(err, ErrRowsFailed) || rf.Failed != 6 || rf.Total != 30 || rf.Where != "line 4" || sum == nil {
		t.Fatalf("error %v, summary %v", err, sum)
	}
	// Rows lost: none. Each row has a verdict or an error.
	wantErr := map[string]string{
		"Q-03": "HTTP 500 after 2 attempts: server error",
		"Q-06": "HTTP 200, not retried: reply over the client's size limit of 2000 bytes",
		"Q-09": "HTTP 200, not retried: malformed chat completion reply",
		"Q-15": "HTTP 200, not retried: network: reading reply: unexpected EOF (the 200 reply had started arriving, and a retry pays again)",
		"Q-27": "HTTP 200, not retried: malformed chat completion reply: no choices",
		"Q-29": "HTTP 400, not retried: request refused",
	}
	for _, r := range tbl.Rows {
		v := r.Verdict
		if want, ok := wantErr[r.Question]; ok {
			if !v.Failed() || !strings.HasPrefix(v.Error, want) || v.Valid {
				t.Errorf("%s: verdict %+v, want an error starting %q", r.Question, v, want)
			}
			continue
		}
		if v.Failed() || !v.Valid {
			t.Errorf("%s: verdict %+v, want a valid one", r.Question, v)
		}
	}
	// Calls repeated for a reply received: none. Requests per prompt: one,
	// plus one retry after a fault that delivered no whole reply.
	if n, b := s.Repeated(), s.RepeatedBilled(); n != 0 || b != 0 {
		t.Errorf("%d requests repeated a reply already received, %d one already billed", n, b)
	}
	retried := map[string]bool{"Q-03": true, "Q-18": true, "Q-21": true, "Q-24": true}
	for prompt, u := range s.Ledger() {
		q := block(prompt, "QUESTION")
		want := 1
		if retried[q] {
			want = 2
		}
		if u.Requests != want {
			t.Errorf("%s: %d requests, want %d", q, u.Requests, want)
		}
	}
	// The rates: 24 rows judged; of them the even rows are correct, 15 even
	// rows less Q-06: 14/24.
	j := sum.Judge
	if j.Failed != 6 || j.Judged != 24 || j.FailedKinds["malformed"] != 2 || j.FailedKinds["too_large"] != 1 || j.FailedKinds["network"] != 1 ||
		j.FailedKinds["server_error"] != 1 || j.FailedKinds["request"] != 1 || j.Invalid != 0 {
		t.Errorf("run info %+v", j)
	}
	if m := sum.Score.Combined.Metrics["llm_judge"]; m.Correct != 14 || math.Abs(m.Accuracy-14.0/24) > 1e-12 {
		t.Errorf("llm_judge %+v, want 14/24", m)
	}
	for _, a := range sum.Score.Agreement {
		if a.First == "llm_judge" && a.Total() != 24 {
			t.Errorf("agreement %s/%s over %d rows, want 24", a.First, a.Second, a.Total())
		}
	}
	var w *string
	for _, x := range sum.Score.Warnings {
		if x.Code == CodeCallsFailed && x.Count == 6 && fmt.Sprint(x.Lines) == "[4 7 10 16 28 30]" {
			w = &x.Message
		}
	}
	if w == nil || !strings.Contains(*w, "over the 24 rows judged") {
		t.Errorf("warnings %+v", sum.Score.Warnings)
	}
	var text bytes.Buffer
	sum.WriteText(&text)
	if !strings.Contains(text.String(), "6 rows with no reply after the retries (left out of llm_judge, which is over 24 rows)") {
		t.Errorf("text:\n%s", text.String())
	}
	// The verdict file has every row, the error in llm_judge_error.
	var out bytes.Buffer
	if err := tbl.WriteVerdicts(&out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(recs) != 31 || recs[0][len(recs[0])-1] != "llm_judge_error" {
		t.Fatalf("%d records, header %v, %v", len(recs), recs[0], err)
	}
	for _, r := range recs[1:] {
		cell, lj := r[len(r)-1], r[len(r)-3]
		if want, ok := wantErr[r[1]]; ok != (cell != "") || (ok && (!strings.HasPrefix(cell, want) || lj != "")) {
			t.Errorf("row %v", r)
		}
	}
}

// TestJudgeRunStopsOnAuth: a 401 on row 10 of 40 stops the run at once:
// no request reaches the server after it but the (at most 3) already in
// flight, the error says what to check, and a rerun with the key fixed
// asks only for the rows not received.
func TestJudgeRunStopsOnAuth(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = referenceAnswer
	s.Delay = 5 * time.Millisecond
	var mu sync.Mutex
	at := 0 // the request count when the 401 was sent
	refuse := true
	s.Fault = func(prompt string, _ int) string {
		mu.Lock()
		defer mu.Unlock()
		if refuse && block(prompt, "QUESTION") == "Q-10" {
			at = s.CountLocked()
			return "401"
		}
		return ""
	}
	cfg := quickConfig(s)
	cfg.Concurrency = 4
	cache := llm.NewMemoryCache()
	cfg.Cache = cache
	c, _ := llm.NewClient(cfg)
	tbl := faultTable(t, 40)
	p := mustPrompt(t, "reference@1")
	sum, err := JudgeResponses(context.Background(), NewClientJudge(c, p), tbl, RunOptions{Model: "m", Workers: 4})
	if !errors.Is(err, llm.ErrAuth) || sum != nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "JUDGE_TEST_KEY") {
		t.Fatalf("error %v, summary %v", err, sum)
	}
	after := s.Count() - at
	if at == 0 || after > 3 {
		t.Errorf("%d requests reached the server after the 401 (sent as request %d), want at most the 3 in flight", after, at)
	}
	received := cache.Len()
	mu.Lock()
	refuse = false
	mu.Unlock()
	before := s.Count()
	c2, _ := llm.NewClient(cfg)
	if _, err := JudgeResponses(context.Background(), NewClientJudge(c2, p), faultTable(t, 40), RunOptions{Model: "m", Workers: 4}); err != nil {
		t.Fatal(err)
	}
	if asked := s.Count() - before; asked != 40-received || s.Repeated() != 0 {
		t.Errorf("rerun asked %d, want %d; %d repeated", asked, 40-received, s.Repeated())
	}
}

// A response table from a generate run with failures has an error
// column: its failed rows are not sent, are left out of llm_judge, and
// are no failure of the judge run (a judge rerun cannot fix them).
func TestJudgeSkipsGenerateErrors(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = referenceAnswer
	c, _ := llm.NewClient(quickConfig(s))
	data := "id,question,answer,Domain,response,error\n" +
		"1,Q-01,g1,D,it is g1,\n" +
		"2,Q-02,g2,D,,HTTP 500 after 4 attempts: server error\n" +
		"3,Q-03,g3,D,no idea,\n"
	tbl, err := ReadResponses(context.Background(), []byte(data), "gen.csv", ResponseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := JudgeResponses(context.Background(), NewClientJudge(c, mustPrompt(t, "reference@1")), tbl, RunOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	j := sum.Judge
	if s.Count() != 2 || j.Sent != 2 || j.NoResponse != 1 || j.Failed != 0 || j.Judged != 2 {
		t.Errorf("%d requests, run info %+v", s.Count(), j)
	}
	// Rows 1 and 3 judged: 1 correct of 2.
	if m := sum.Score.Combined.Metrics["llm_judge"]; m.Correct != 1 || m.Accuracy != 0.5 {
		t.Errorf("llm_judge %+v, want 1/2", m)
	}
	v := tbl.Rows[1].Verdict
	if v.Kind != KindNoResponse || !strings.HasSuffix(v.Error, ": HTTP 500 after 4 attempts: server error") {
		t.Errorf("verdict %+v", v)
	}
	var text bytes.Buffer
	sum.WriteText(&text)
	if !strings.Contains(text.String(), "1 row with an error cell in the input (not sent) (left out of llm_judge, which is over 2 rows)") {
		t.Errorf("text:\n%s", text.String())
	}
}
