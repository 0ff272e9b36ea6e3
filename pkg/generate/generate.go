// Package generate asks a model behind an OpenAI-compatible endpoint for
// a response to every question of a dataset, as `evalbook generate`
// does, and writes the response table that evalbook score and
// evalbook leaderboard read:
//
//	id,question,answer,Domain,language,model,response
//
// ReadQuestions reads the dataset (CSV, JSON Lines or a registered
// format such as .xlsx; every error a *tabular.ParseError), ReadTemplates
// the prompt templates (one per language plus "default"), and Run sends
// each question with its language's template through an llm.Completer,
// an *llm.Client in practice, whose cache makes a stopped or failed run
// resume without paying twice:
//
//	qs, err := generate.ReadQuestionsFile("questions_hindi.csv", "")
//	...
//	res, err := generate.Run(ctx, client, qs, generate.Options{Model: "kestrel-7b", Templates: tpl, Workers: 4})
//	if err == nil {
//		err = res.WriteCSV(f) // every row; a failed one has an error cell
//	}
//
// The Result counts the questions, the replies, the requests, retries and
// cache hits, lists the failures and warns (results.Warning) about
// questions that got the default template; it encodes as the command's
// --json output and writes the command's text (WriteText, Tables).
package generate

import (
	"context"
	"errors"
	"fmt"
	"github.com/evalbook/evalbook/pkg/tabular"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/results"
)

// Options configures Run.
type Options struct {
	// Model names the model in the response table's model column and in
	// the result; the Completer decides which model is asked.
	Model string
	// Templates are the prompts; required.
	Templates *Templates
	// Workers is the number of questions handed to the Completer at once
	// (an llm.Client also keeps its own concurrency limit); 0 means 1.
	Workers int
	// Cache names where the replies are kept, for Result.Cache and its
	// text (the command gives the cache file); "" means "memory".
	Cache string
	// Progress, when set, is called after each question with the number
	// answered (or failed) so far and the total; calls do not overlap.
	Progress func(done, total int)
}

// CodeDefaultTemplate is the code of the warning that questions have no
// template for their language and get the "default" one.
const CodeDefaultTemplate = "default_template"

// ErrIncomplete is WriteCSV's error for a run stopped before its end (a
// cancelled context, an authentication error): a table missing rows is
// never written. A run whose questions failed is complete: their rows
// carry an error cell.
var ErrIncomplete = errors.New("the run is incomplete: no response table is written")

// Result is what a run did: its JSON is `evalbook generate --json`.
type Result struct {
	Kind  string `json:"kind"` // always "generate"
	Model string `json:"model"`
	// Questions is the number of questions asked; Received the replies
	// obtained (from the endpoint or the cache); Failed the questions
	// that failed after their retries.
	Questions int `json:"questions"`
	Received  int `json:"received"`
	Failed    int `json:"failed"`
	// Requests, Retries and CacheHits are the Completer's counts for
	// this run (when it is an *llm.Client, or has its Stats method).
	Requests  int64 `json:"requests"`
	Retries   int64 `json:"retries"`
	CacheHits int64 `json:"cache_hits"`
	// Cache is where replies are kept (Options.Cache, or "memory").
	Cache string `json:"cache"`
	// Interrupted reports that the context ended the run early; Stopped
	// that an authentication error (llm.ErrAuth) did, after which no
	// question was sent.
	Interrupted bool `json:"interrupted,omitempty"`
	Stopped     bool `json:"stopped,omitempty"`
	// FailedKinds counts the failures by llm.Kind ("server_error",
	// "timeout", "too_large", ...).
	FailedKinds map[string]int `json:"failed_kinds,omitempty"`
	// Out is the response table's path, which the caller sets when it
	// has written one.
	Out      string            `json:"out,omitempty"`
	Failures []Failure         `json:"failures,omitempty"`
	Warnings []results.Warning `json:"warnings"`
	// Rows are the questions with their responses, in dataset order (a
	// failed question's response is ""); the response table, not the
	// JSON, holds them.
	Rows []Row `json:"-"`
}

// A Failure is a question that failed after its retries.
type Failure struct {
	Line  int    `json:"line"`
	ID    string `json:"id,omitempty"`
	Error string `json:"error"`
	Kind  string `json:"kind"` // llm.Kind of Err
	Err   error  `json:"-"`    // the Completer's error (errors.Is finds llm's sentinels)
}

// A Row is a question and the model's response, trimmed of spaces, or
// why there is none (Error: llm.Describe of the call's error, such as
// "HTTP 500 after 4 attempts: ...").
type Row struct {
	Question
	Response string
	Error    string
}

// TemplateWarnings returns the warning that some questions have no
// template for their language (they get "default"), or nil: its Count is
// the number of such questions and its Lines the first five's lines.
func TemplateWarnings(qs []Question, t *Templates) []results.Warning {
	var lines []int
	n := 0
	for _, q := range qs {
		if _, ok := t.For(q.Language); !ok {
			n++
			if len(lines) < 5 {
				lines = append(lines, q.Line)
			}
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		return []results.Warning{{Code: CodeDefaultTemplate, Count: 1, Lines: lines,
			Message: `1 question has no template for its language; it gets the "default" template`}}
	}
	return []results.Warning{{Code: CodeDefaultTemplate, Count: n, Lines: lines,
		Message: fmt.Sprintf(`%d questions have no template for their language; they get the "default" template`, n)}}
}

// Run asks c for a response to every question, each with the template
// of its language (Templates.For) at {question}, opt.Workers at a time,
// and returns the replies in dataset order with the run's counts. A
// question that fails (after the Completer's retries) is listed in
// Failures, its row gets an error cell, and the run goes on, so that a
// rerun through the same cache asks only for the failed ones. When ctx
// ends the run, Run returns the result so far (Interrupted) and ctx's
// error; an authentication error (llm.ErrAuth) stops it the same way
// (Stopped: no further question is sent, those in flight finish) and is
// returned; otherwise the error is nil and failures are in the result.
func Run(ctx context.Context, c llm.Completer, qs []Question, opt Options) (*Result, error) {
	if opt.Templates == nil {
		return nil, errors.New("generate: Options.Templates is nil")
	}
	res := &Result{Kind: "generate", Model: opt.Model, Questions: len(qs), Cache: opt.Cache, Warnings: TemplateWarnings(qs, opt.Templates)}
	if res.Cache == "" {
		res.Cache = "memory"
	}
	if res.Warnings == nil {
		res.Warnings = []results.Warning{}
	}
	counter, _ := c.(interface{ Stats() llm.Stats })
	var before llm.Stats
	if counter != nil {
		before = counter.Stats()
	}
	errs, authErr := res.askAll(ctx, c, qs, opt)
	if counter != nil {
		after := counter.Stats()
		res.Requests, res.Retries, res.CacheHits = after.Requests-before.Requests, after.Retries-before.Retries, after.CacheHits-before.CacheHits
	}
	if err := ctx.Err(); err != nil || authErr != nil {
		res.Interrupted, res.Stopped = err != nil, err == nil
		for _, err := range errs {
			if err == nil {
				res.Received++
			}
		}
		if err == nil {
			err = authErr
		}
		return res, err
	}
	res.tally(qs, errs)
	return res, nil
}

// errNotAsked is the error of a question askAll did not send: the run
// was cancelled or stopped first.
var errNotAsked = errors.New("generate: not asked")

// askAll asks for every question, opt.Workers at a time, into res.Rows,
// and returns each question's error (errNotAsked for one never sent) and
// the first authentication error, which stops the feeding of questions.
func (res *Result) askAll(ctx context.Context, c llm.Completer, qs []Question, opt Options) ([]error, error) {
	res.Rows = make([]Row, len(qs))
	errs := make([]error, len(qs))
	for i := range errs {
		errs[i] = errNotAsked
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{}) // closed on the first authentication error
	var authErr error
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range max(opt.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var err error
				res.Rows[i], err = ask(runCtx, c, qs[i], opt.Templates)
				errs[i] = err
				mu.Lock()
				if errors.Is(err, llm.ErrAuth) && authErr == nil {
					authErr = fmt.Errorf("line %d: %w", qs[i].Line, err)
					close(stop)
				}
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(qs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range qs {
		select {
		case next <- i:
		case <-runCtx.Done():
			break feed
		case <-stop:
			break feed
		}
	}
	close(next)
	wg.Wait()
	return errs, authErr
}

// ask asks c for the response to q with the template of its language at
// {question}: the row, with an error cell when the call failed.
func ask(ctx context.Context, c llm.Completer, q Question, ts *Templates) (Row, error) {
	t, _ := ts.For(q.Language)
	reply, err := c.Complete(ctx, llm.Request{
		PromptHash: t.Hash(ts.Version),
		System:     t.System,
		User:       strings.ReplaceAll(t.User, "{question}", q.Text),
	})
	row := Row{Question: q, Response: strings.TrimSpace(reply)}
	if err != nil {
		row.Error = llm.Describe(err)
	}
	return row, err
}

// tally counts a whole run's replies and lists its failures, by kind.
func (res *Result) tally(qs []Question, errs []error) {
	for i, err := range errs {
		if err == nil {
			res.Received++
			continue
		}
		kind := llm.Kind(err)
		if res.FailedKinds == nil {
			res.FailedKinds = map[string]int{}
		}
		res.FailedKinds[kind]++
		res.Failures = append(res.Failures, Failure{Line: qs[i].Line, ID: qs[i].ID, Error: err.Error(), Kind: kind, Err: err})
	}
	res.Failed = len(res.Failures)
}

// Counts says what the run sent and where its replies came from:
// "4 requests sent (0 retries), 0 replies from the cache (memory)".
func (r *Result) Counts() string {
	return fmt.Sprintf("%d requests sent (%d retries), %d replies from the cache (%s)", r.Requests, r.Retries, r.CacheHits, r.Cache)
}

// FailureSummary says how many questions failed and the first one:
// "1 of 3 questions failed (first: line 2: ...)"; "" without failures.
func (r *Result) FailureSummary() string {
	if len(r.Failures) == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %s failed (first: line %d: %s)", len(r.Failures), nounCount(r.Questions, "question", "questions"), r.Failures[0].Line, r.Failures[0].Error)
}

// WriteText writes what evalbook generate prints on its standard output:
// "wrote 4 responses from kestrel-7b to runs/kestrel-7b_hindi.csv" (or,
// before Out is set, "4 responses from kestrel-7b"); with failures,
// "wrote 3 responses from kestrel-7b and 1 failed row (error cell) to
// runs/x.csv" and the failure summary.
func (r *Result) WriteText(w io.Writer) error {
	var err error
	switch {
	case len(r.Failures) > 0 && r.Out != "":
		_, err = fmt.Fprintf(w, "wrote %s from %s and %s (error cell) to %s\n%s\n", nounCount(r.Received, "response", "responses"), r.Model,
			nounCount(r.Failed, "failed row", "failed rows"), r.Out, r.FailureSummary())
	case len(r.Failures) > 0:
		_, err = fmt.Fprintln(w, r.FailureSummary())
	case r.Out != "":
		_, err = fmt.Fprintf(w, "wrote %s from %s to %s\n", nounCount(r.Questions, "response", "responses"), r.Model, r.Out)
	default:
		_, err = fmt.Fprintf(w, "%s from %s\n", nounCount(r.Received, "response", "responses"), r.Model)
	}
	return err
}

// Tables returns the run's counts as one table and, when questions
// failed, the failures as a second.
func (r *Result) Tables() []results.Table {
	n := func(x int64) string { return strconv.FormatInt(x, 10) }
	sum := results.Table{Title: "Generation", Note: "Responses from " + r.Model + "; replies are kept in " + r.Cache + ".",
		Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber}},
		Rows: [][]string{
			{"questions", n(int64(r.Questions))}, {"received", n(int64(r.Received))}, {"failed", n(int64(r.Failed))},
			{"requests", n(r.Requests)}, {"retries", n(r.Retries)}, {"cache hits", n(r.CacheHits)},
		}}
	out := []results.Table{sum}
	if len(r.Failures) > 0 {
		f := results.Table{Title: "Failed questions", Columns: []results.Column{{Name: "line", Kind: results.KindNumber}, {Name: "id"}, {Name: "kind"}, {Name: "error"}}, Rows: [][]string{}}
		for _, x := range r.Failures {
			f.Rows = append(f.Rows, []string{strconv.Itoa(x.Line), x.ID, x.Kind, x.Error})
		}
		out = append(out, f)
	}
	return out
}

// WriteCSV writes the response table, one row per question in dataset
// order; a question without an id is numbered by its place (1, 2, ...).
// When questions failed, an error column follows: empty, or for a failed
// question why (status and reason) beside an empty response; such a row
// is no response and belongs in no rate. (A run without failures writes
// the table as before, without the column.) It refuses (ErrIncomplete) a
// run that was interrupted or stopped.
//
// A cell a spreadsheet would run as a formula is written with a leading
// ' (tabular.NeedsFormulaGuard); WriteCSVOptions can turn that off and
// says how many cells it guarded.
func (r *Result) WriteCSV(w io.Writer) error {
	_, err := r.WriteCSVOptions(w, tabular.CSVOptions{})
	return err
}

// WriteCSVOptions is WriteCSV with options; it returns the number of
// cells it guarded.
func (r *Result) WriteCSVOptions(w io.Writer, opt tabular.CSVOptions) (int, error) {
	if r.Interrupted || r.Stopped || len(r.Rows) != r.Questions {
		return 0, ErrIncomplete
	}
	cw := tabular.NewCSVWriter(w, opt)
	failed := len(r.Failures) > 0
	head := []string{"id", "question", "answer", "Domain", "language", "model", "response"}
	if failed {
		head = append(head, "error")
	}
	cw.Write(head)
	for i, row := range r.Rows {
		id := row.ID
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		rec := []string{id, row.Text, row.Answer, row.Domain, row.LanguageOut(), r.Model, row.Response}
		if failed {
			rec = append(rec, row.Error)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Guarded(), cw.Error()
}

// nounCount returns "1 question" or "n questions".
func nounCount(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Requests returns the chat requests Run sends for qs with templates t,
// in question order, without sending any (llm.Collect runs Run on a
// recorder), for a batch submission (llm.Client.Batch) whose replies Run
// then finds in the client's cache.
func Requests(qs []Question, t *Templates) ([]llm.Request, error) {
	return llm.Collect(func(c llm.Completer) error {
		_, err := Run(context.Background(), c, qs, Options{Templates: t, Workers: 1})
		return err
	})
}
