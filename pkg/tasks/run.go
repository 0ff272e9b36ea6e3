package tasks

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/llm"
)

// Sampler answers a SampleRequest; *llm.Client is one.
type Sampler interface {
	Sample(ctx context.Context, req llm.SampleRequest) (llm.Sampled, error)
}

// Options configure Run.
type Options struct {
	Catalog *Catalog
	Specs   []Spec
	Client  Sampler
	// Model and Endpoint name what was asked, for the details' header.
	Model, Endpoint string
	// Seed seeds the few-shot draws (and is recorded).
	Seed int64
	// Shard of Shards: only the items whose index modulo Shards is Shard
	// (Shards 0 or 1: every item).
	Shard, Shards int
	// PerChoice sends one request per choice of a log-likelihood item
	// instead of one request carrying every choice as a prompt list.
	PerChoice bool
	// Workers is the number of items worked on at once (default 64); the
	// client's own concurrency bounds the requests in flight.
	Workers  int
	Progress func(done, total int)
	// StopWhen, above 0, stops each task once the anytime-valid
	// confidence sequence of its main metric is at most StopWhen wide
	// (see StopSequence); StopConfidence is its confidence (default
	// 0.95). It needs a whole run (no shards).
	StopWhen, StopConfidence float64
}

type job struct {
	spec Spec
	task *Task
	data *Data
	item int
	out  *Sample
}

// Run loads every task string's task and data, builds every item's
// prompt, asks the model, and returns the details (the header and one
// sample per item, in task then item order). A call that fails after its
// retries leaves its sample with Error set (left out of every metric); a
// 401/403 or a cancelled context stops the run with that error.
func Run(ctx context.Context, opt Options) (*Details, error) {
	if opt.Catalog == nil || opt.Client == nil || len(opt.Specs) == 0 {
		return nil, errors.New("tasks: Run needs a catalog, a client and task strings")
	}
	if opt.Shards <= 0 {
		opt.Shards = 1
	}
	if opt.Shard < 0 || opt.Shard >= opt.Shards {
		return nil, fmt.Errorf("tasks: shard %d of %d: want 0 to %d", opt.Shard, opt.Shards, opt.Shards-1)
	}
	if opt.Workers <= 0 {
		opt.Workers = 64
	}
	if opt.StopWhen != 0 {
		if !(opt.StopWhen > 0 && opt.StopWhen <= 1) {
			return nil, fmt.Errorf("tasks: stop width %v: want a width above 0 and at most 1", opt.StopWhen)
		}
		if opt.Shards > 1 {
			return nil, errors.New("tasks: stopping when the interval is narrow enough needs the whole task in one run, not a shard (each shard would stop on its own items)")
		}
		if opt.StopConfidence == 0 {
			opt.StopConfidence = 0.95
		}
		if !(opt.StopConfidence > 0 && opt.StopConfidence < 1) {
			return nil, fmt.Errorf("tasks: stop confidence %v: want a level between 0 and 1", opt.StopConfidence)
		}
	}
	d := &Details{Header: Header{Format: DetailsFormat, Model: opt.Model, Endpoint: opt.Endpoint, Seed: opt.Seed, Shard: opt.Shard, Shards: opt.Shards, PerChoice: opt.PerChoice}}
	var jobs []job
	seenSpec := map[string]bool{}
	for _, sp := range opt.Specs {
		if seenSpec[sp.String()] {
			return nil, taskErr("%s is given twice", sp)
		}
		seenSpec[sp.String()] = true
		t, err := opt.Catalog.Resolve(sp)
		if err != nil {
			return nil, err
		}
		data, err := opt.Catalog.LoadData(t, sp.Language)
		if err != nil {
			return nil, err
		}
		if sp.Shots > 0 && len(data.Fewshot) == 0 {
			return nil, taskErr("%s: %d shots asked, but %s has no row of the few-shot split %q", sp, sp.Shots, data.File, t.FewshotSplit)
		}
		ht := HeaderTask{Spec: sp.String(), Kind: t.Kind, TaskHash: t.Hash(), DataFile: data.File, Items: len(data.Eval), Metrics: t.Metrics}
		if t.Kind == KindGenerative {
			ht.K, ht.Samples = t.K, t.Samples
		}
		d.Header.Tasks = append(d.Header.Tasks, ht)
		for i := range data.Eval {
			if shardOf(i, opt.Shard, opt.Shards) {
				jobs = append(jobs, job{spec: sp, task: t, data: data, item: i})
			}
		}
	}
	d.Samples = make([]Sample, len(jobs))
	for i := range jobs {
		jobs[i].out = &d.Samples[i]
	}
	var done atomic.Int64
	if opt.StopWhen > 0 {
		if err := runStopping(ctx, opt, d, jobs, &done); err != nil {
			return nil, err
		}
		return d, nil
	}
	if err := runJobs(ctx, opt, jobs, &done, len(jobs)); err != nil {
		return nil, err
	}
	return d, nil
}

// runJobs works on jobs with opt.Workers workers; done counts the items
// finished for opt.Progress (of total).
func runJobs(ctx context.Context, opt Options, jobs []job, done *atomic.Int64, total int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		stopOnce sync.Once
		stopErr  error
		wg       sync.WaitGroup
	)
	for range min(opt.Workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) || ctx.Err() != nil {
					return
				}
				if err := runItem(ctx, opt, jobs[i]); err != nil {
					stopOnce.Do(func() { stopErr = err; cancel() })
					return
				}
				if n := done.Add(1); opt.Progress != nil {
					opt.Progress(int(n), total)
				}
			}
		}()
	}
	wg.Wait()
	if stopErr != nil {
		return stopErr
	}
	return ctx.Err()
}

// fatal reports whether a call's error stops the run rather than failing
// its item.
func fatal(ctx context.Context, err error) bool {
	return errors.Is(err, llm.ErrAuth) || ctx.Err() != nil || errors.Is(err, context.Canceled)
}

func runItem(ctx context.Context, opt Options, j job) error {
	t, it := j.task, &j.data.Eval[j.item]
	s := j.out
	*s = Sample{Task: j.spec.String(), Index: j.item, ID: it.ID, Choices: it.Choices, Gold: it.Gold, Golden: it.Golden}
	b, err := build(t, j.spec.Language, j.spec, j.data, it, opt.Seed)
	if err != nil {
		return taskErr("%s: item %s (%s line %d): %v", j.spec, it.ID, j.data.File, it.Line, err)
	}
	s.Prompt, s.Fewshot = b.context, b.fewshot
	if s.Fewshot == nil {
		s.Fewshot = []string{}
	}
	hash := t.Hash()
	var usage []*llm.Usage
	fail := func(err error) error {
		if fatal(ctx, err) {
			return err
		}
		s.Error = llm.Describe(err)
		s.Scored, s.Response = nil, nil
		return nil
	}
	switch t.Kind {
	case KindLoglik:
		zero := 0
		prompts := make([]string, len(b.continuations))
		for i, c := range b.continuations {
			prompts[i] = b.context + c
		}
		var choices []llm.Completion
		if opt.PerChoice {
			planned := false
			for _, p := range prompts {
				r, err := opt.Client.Sample(ctx, llm.SampleRequest{PromptHash: hash, Prompts: []string{p}, MaxTokens: &zero, Echo: true, Logprobs: &zero})
				if errors.Is(err, errPlanned) {
					planned = true // record every choice's request
					continue
				}
				if err != nil {
					return fail(err)
				}
				choices = append(choices, r.Choices...)
				usage = append(usage, r.Usage)
			}
			if planned {
				return fail(errPlanned)
			}
		} else {
			r, err := opt.Client.Sample(ctx, llm.SampleRequest{PromptHash: hash, Prompts: prompts, MaxTokens: &zero, Echo: true, Logprobs: &zero})
			if err != nil {
				return fail(err)
			}
			choices, usage = r.Choices, []*llm.Usage{r.Usage}
		}
		ctxChars := utf8.RuneCountInString(b.context)
		for i, ch := range choices {
			c, err := continuation(ch, prompts[i], ctxChars)
			if err != nil {
				s.Error = fmt.Sprintf("choice %d: %v", i, err)
				s.Scored = nil
				break
			}
			c.Text = b.continuations[i]
			c.Chars = utf8.RuneCountInString(it.Choices[i])
			s.Scored = append(s.Scored, c)
		}
	case KindLetter, KindGenerative:
		l := t.Languages[j.spec.Language]
		if t.Kind == KindLetter {
			s.Letters = l.letters(len(it.Choices))
		}
		mt := t.MaxTokens
		req := llm.SampleRequest{PromptHash: hash, MaxTokens: &mt, Temperature: t.Temperature, N: t.Samples, Stop: t.Stop}
		if t.Chat {
			req.Chat, req.User = true, b.context
		} else {
			req.Prompts = []string{b.context}
		}
		r, err := opt.Client.Sample(ctx, req)
		if err != nil {
			return fail(err)
		}
		usage = []*llm.Usage{r.Usage}
		for _, ch := range r.Choices {
			s.Response = append(s.Response, Response{Text: ch.Text, FinishReason: ch.FinishReason, Extracted: extract(t, ch.Text)})
		}
	}
	s.PromptTokens, s.CompletionTokens = sumUsage(usage)
	return nil
}

// sumUsage adds the replies' token counts; a count some reply lacks is
// unknown (nil) for the item.
func sumUsage(us []*llm.Usage) (*int64, *int64) {
	var p, c int64
	pOK, cOK := len(us) > 0, len(us) > 0
	for _, u := range us {
		if u == nil || u.PromptTokens == nil {
			pOK = false
		} else {
			p += *u.PromptTokens
		}
		if u == nil || u.CompletionTokens == nil {
			cOK = false
		} else {
			c += *u.CompletionTokens
		}
	}
	var pp, cp *int64
	if pOK {
		pp = &p
	}
	if cOK {
		cp = &c
	}
	return pp, cp
}

// continuation sums the log-probabilities of the tokens of prompt after
// its first ctxChars characters. A token's place is its text_offset
// (characters, as vLLM counts) or, without offsets, the running length of
// the tokens before it; a token that begins in the context and ends in
// the continuation counts (Straddle). Tokens at or past the prompt's end
// (generated ones) are left out.
func continuation(ch llm.Completion, prompt string, ctxChars int) (Continuation, error) {
	lp := ch.Logprobs
	if lp == nil {
		return Continuation{}, errors.New("no logprobs in the reply")
	}
	total := utf8.RuneCountInString(prompt)
	offs := lp.TextOffset
	if offs == nil {
		offs = make([]int, len(lp.Tokens))
		o := 0
		for i, tok := range lp.Tokens {
			offs[i] = o
			o += utf8.RuneCountInString(tok)
		}
	}
	var c Continuation
	for i := range lp.Tokens {
		start := offs[i]
		end := total
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		if start >= total {
			break
		}
		if end <= ctxChars {
			continue
		}
		if start < ctxChars {
			c.Straddle = true
		}
		v := lp.TokenLogprobs[i]
		if v == nil || math.IsNaN(*v) || *v > 1e-9 {
			return Continuation{}, fmt.Errorf("continuation token %d (%q) has no usable log-probability", i, lp.Tokens[i])
		}
		c.Logprob += *v
		c.TokenLogprobs = append(c.TokenLogprobs, *v)
		c.Tokens++
	}
	if c.Tokens == 0 {
		return Continuation{}, errors.New("no continuation token in the echoed prompt (does the server echo the prompt with logprobs and max_tokens 0?)")
	}
	return c, nil
}

// extract applies the task's regex to a response: its first group, else
// the whole match; with no regex, the trimmed text. Nil when the regex
// does not match.
func extract(t *Task, text string) *string {
	if t.extract == nil {
		s := strings.TrimSpace(text)
		return &s
	}
	m := t.extract.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	s := m[0]
	if len(m) > 1 {
		s = m[1]
	}
	s = strings.TrimSpace(s)
	return &s
}

// Spread sends each request to one of several samplers (one per endpoint,
// all serving the same model), chosen by a hash of the request's prompts
// or message, so that identical requests go to the same sampler and are
// sent once. Which endpoint answers does not matter to the cache: llm
// keys a reply by model and request, not by URL, so a rerun with the
// endpoints reordered, fewer, or moved to other ports finds every reply
// the samplers' shared cache holds.
type Spread []Sampler

// Sample implements Sampler.
func (s Spread) Sample(ctx context.Context, req llm.SampleRequest) (llm.Sampled, error) {
	if len(s) == 0 {
		return llm.Sampled{}, errors.New("tasks: no endpoint")
	}
	h := fnv.New64a()
	for _, p := range req.Prompts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	h.Write([]byte(req.System))
	h.Write([]byte{0})
	h.Write([]byte(req.User))
	return s[h.Sum64()%uint64(len(s))].Sample(ctx, req)
}

// errPlanned answers the requests Requests records.
var errPlanned = errors.New("tasks: request recorded, not sent")

type recorder struct {
	mu   sync.Mutex
	reqs []llm.SampleRequest
}

func (r *recorder) Sample(_ context.Context, req llm.SampleRequest) (llm.Sampled, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return llm.Sampled{}, errPlanned
}

// Requests returns every request Run would send with opt (opt.Client is
// not used), for a batch submission (llm.Client.SampleBatch) that fills
// the cache before Run.
func Requests(ctx context.Context, opt Options) ([]llm.SampleRequest, error) {
	rec := &recorder{}
	opt.Client, opt.Progress, opt.StopWhen = rec, nil, 0
	if _, err := Run(ctx, opt); err != nil {
		return nil, err
	}
	return rec.reqs, nil
}
