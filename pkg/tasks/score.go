package tasks

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// ScoreOptions configure Score. The zero value means 95% intervals and
// 2,000 bootstrap resamples (pass@k, maj@k) seeded by the run's seed.
type ScoreOptions struct {
	Confidence float64
	Resamples  int
	// Prices, when set, turn the tokens into Result.Cost.
	Prices *Prices
}

// Result is a task run's figures: one entry per task string (a task in
// one language), each with its metrics and their intervals.
type Result struct {
	Kind       string       `json:"kind"` // "task_run"
	Model      string       `json:"model"`
	Endpoint   string       `json:"endpoint"`
	Seed       int64        `json:"seed"`
	Shard      string       `json:"shard,omitempty"` // "i/n" when the figures are one shard's
	Confidence float64      `json:"confidence"`
	Tasks      []TaskResult `json:"tasks"`
	Samples    int          `json:"samples"`
	Failed     int          `json:"failed"`
	// Tokens of the model under test from the replies' usage; null when
	// some reply gave none (unknown, never 0). Replies served from the
	// cache count the tokens they were bought with.
	Tokens Tokens `json:"tokens"`
	// Cost is the tokens at ScoreOptions.Prices (absent without a price
	// file; a null amount when the tokens or the model's price are unknown).
	Cost *Cost `json:"cost,omitempty"`
	// Defs defines in words every metric the tasks report, from pkg/score's
	// registry, in order of first appearance.
	Defs     []results.MetricDef `json:"metric_defs"`
	Warnings []results.Warning   `json:"warnings"`
}

// Tokens are prompt and completion tokens of one role.
type Tokens struct {
	Role       string `json:"role"`
	Prompt     *int64 `json:"prompt"`
	Completion *int64 `json:"completion"`
}

// TaskResult is one task string's figures.
type TaskResult struct {
	Task     string   `json:"task"`
	Suite    string   `json:"suite"`
	Name     string   `json:"name"`
	Language string   `json:"language"`
	Kind     string   `json:"kind"`
	Shots    int      `json:"shots"`
	TaskHash string   `json:"task_hash"`
	Items    int      `json:"items"`  // items in these details
	Scored   int      `json:"scored"` // items with a reply
	Failed   int      `json:"failed"`
	Metrics  []Metric `json:"metrics"`
	Tokens   Tokens   `json:"tokens"`
	// Stop is the header's record of a run stopped by --stop-when: the
	// items counted and the confidence sequence's interval there.
	Stop *Stop `json:"stop,omitempty"`
}

// Metric is one figure with its interval: Wilson for the proportions
// (acc, acc_norm, exact_match, loose_exact_match), a bootstrap over items
// for pass@k and maj@k.
type Metric struct {
	ID string `json:"id"`
	K  int    `json:"k,omitempty"`
	// Match is the match metric pass@k and maj@k count a sample correct
	// by (exact_match or loose_exact_match); empty for the others.
	Match   string  `json:"match,omitempty"`
	N       int     `json:"n"`
	Correct *int    `json:"correct,omitempty"`
	Value   float64 `json:"value"`
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	Method  string  `json:"method"`
}

// Score computes the figures of details from what they hold (no call):
// the same details give the same Result bit for bit, whether they come
// from one run or from Merge of its shards.
//
// Every metric is pkg/score's registry entry of its id, whose Rule says
// it in words. mc_loglik follows lm-eval's multiple_choice: acc is 1 when
// the choice with the largest summed log-probability of its continuation
// tokens is the gold one; acc_norm divides each sum by the choice's
// length in characters (len(choice) in Python: code points, without the
// target delimiter) first. Ties go to the first choice, as numpy's argmax
// (score.Rank, the function evalbook mc uses). mc_letter: acc is 1 when
// the extracted letter is the gold choice's. generative: the match metric
// (exact_match, byte equality, or loose_exact_match when the task file
// names it) compares the first sample's extracted answer with the golden
// one; pass@k is the unbiased estimator over n samples correct by the
// match metric, maj@k the expected majority vote of k of them with
// answers grouped by its normal form (stats.PassAtK, stats.MajAtK).
//
// Details written before the header recorded the metrics (no metrics in
// a header task) are scored under the rules those runs applied: a
// generative task's match metric is then loose_exact_match (then called
// exact_match), reported under that id with a metrics_not_recorded
// warning.
func Score(d *Details, opt ScoreOptions) (*Result, error) {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 {
		return nil, fmt.Errorf("tasks: confidence %g must be between 0 and 1", opt.Confidence)
	}
	if opt.Resamples == 0 {
		opt.Resamples = 2000
	}
	h := d.Header
	r := &Result{Kind: "task_run", Model: h.Model, Endpoint: h.Endpoint, Seed: h.Seed, Confidence: opt.Confidence, Defs: []results.MetricDef{}, Warnings: []results.Warning{}}
	if h.Shards > 1 {
		r.Shard = fmt.Sprintf("%d/%d", h.Shard, h.Shards)
	}
	by := map[string][]*Sample{}
	for i := range d.Samples {
		s := &d.Samples[i]
		by[s.Task] = append(by[s.Task], s)
	}
	var all []*Sample
	var t scoreTally
	for _, ht := range h.Tasks {
		sp, err := ParseSpecs(ht.Spec)
		if err != nil {
			return nil, err
		}
		pl, err := planOf(ht)
		if err != nil {
			return nil, err
		}
		if pl.legacy && ht.Kind == KindGenerative {
			t.legacy = append(t.legacy, ht.Spec)
		}
		r.addDefs(pl.metrics)
		ss := by[ht.Spec]
		all = append(all, ss...)
		tr, err := scoreTask(ht, sp[0], pl, ss, opt, h.Seed, &t)
		if err != nil {
			return nil, err
		}
		if tr.Scored == 0 {
			r.Warnings = append(r.Warnings, results.Warning{Code: CodeNoScoredItems, Message: ht.Spec + ": no item was scored (every call failed)", Count: 1})
		}
		r.Samples += tr.Items
		r.Failed += tr.Failed
		r.Tasks = append(r.Tasks, tr)
	}
	r.Tokens = Tokens{Role: "model"}
	r.Tokens.Prompt, r.Tokens.Completion = sumTokens(all)
	if opt.Prices != nil {
		c := opt.Prices.Of(r.Model, r.Tokens)
		r.Cost = &c
		if c.Amount == nil {
			r.Warnings = append(r.Warnings, results.Warning{Code: CodeCostUnknown, Message: "no cost: the token counts are unknown or the price file has no price for model " + r.Model, Count: 1})
		}
	}
	r.Warnings = append(r.Warnings, t.warnings(r)...)
	return r, nil
}

// scoreTally counts, over a run's tasks, what Score warns about.
type scoreTally struct {
	straddle, emptyChoice, noExtract, fewer int
	legacy                                  []string // tasks scored by the legacy metrics
}

// warnings are the run's warnings from the tally (and r's failed calls
// and unknown usage), in a fixed order.
func (t *scoreTally) warnings(r *Result) []results.Warning {
	var w []results.Warning
	add := func(n int, code, msg string) {
		if n > 0 {
			w = append(w, results.Warning{Code: code, Message: msg, Count: n})
		}
	}
	add(r.Failed, CodeFailedCalls, "items whose call failed after its retries are left out of every metric; a rerun asks only for them (the rest is cached)")
	add(t.straddle, CodeTokenStraddlesBoundary, "continuations whose first token began inside the context (the tokenizer merged the boundary); that token's log-probability is counted with the continuation")
	add(t.fewer, CodeFewerShots, "items with fewer few-shot examples than asked (a small few-shot split, or truncate 1 dropped some to fit max_prompt_chars); each sample's fewshot_ids says which")
	add(t.emptyChoice, CodeEmptyChoice, "choices with no characters; acc_norm divides their log-likelihood by 1")
	add(t.noExtract, CodeNoExtractedAnswer, "responses the extraction regex did not match (counted wrong)")
	add(len(t.legacy), CodeMetricsNotRecorded, "details written before task run recorded its metric ids ("+strings.Join(t.legacy, ", ")+"): their answers are compared by "+
		"loose_exact_match, the rule those runs applied under the name exact_match; run the task again for exact_match")
	if r.Tokens.Prompt == nil && r.Samples > r.Failed {
		add(1, CodeUsageUnknown, "replies without a usage member: the token counts are unknown (null), not 0")
	}
	return w
}

// scoreTask scores one header task's samples ss (sp: the task's first
// spec) by plan pl: items,
// failures, tokens and each metric with its interval; t gathers what the
// run warns about.
func scoreTask(ht HeaderTask, sp Spec, pl plan, ss []*Sample, opt ScoreOptions, seed int64, t *scoreTally) (TaskResult, error) {
	tr := TaskResult{Task: ht.Spec, Suite: sp.Suite, Name: sp.Task, Language: sp.Language, Kind: ht.Kind, Shots: sp.Shots, TaskHash: ht.TaskHash, Tokens: Tokens{Role: "model"}, Stop: ht.Stop}
	tr.Items = len(ss)
	tr.Tokens.Prompt, tr.Tokens.Completion = sumTokens(ss)
	var acc, norm, em int
	var counts []stats.SampleCount
	var votes []stats.VoteItem
	for _, s := range ss {
		if len(s.Fewshot) < tr.Shots {
			t.fewer++
		}
		if s.Error != "" {
			tr.Failed++
			continue
		}
		tr.Scored++
		sc, err := scoreSample(pl, s)
		if err != nil {
			return TaskResult{}, err
		}
		t.straddle, t.emptyChoice, t.noExtract = t.straddle+sc.straddle, t.emptyChoice+sc.emptyChoice, t.noExtract+sc.noExtract
		acc, norm, em = acc+b2i(sc.acc), norm+b2i(sc.norm), em+b2i(sc.match)
		if ht.Kind == KindGenerative {
			counts = append(counts, sc.count)
			if sc.vote != nil {
				votes = append(votes, *sc.vote)
			}
		}
	}
	if tr.Scored == 0 {
		return tr, nil
	}
	prop := func(id string, c int) {
		iv := stats.ProportionInterval(stats.MethodWilson, c, tr.Scored, opt.Confidence)
		cc := c
		tr.Metrics = append(tr.Metrics, Metric{ID: id, N: tr.Scored, Correct: &cc, Value: float64(c) / float64(tr.Scored), CILow: iv.Lo, CIHigh: iv.Hi, Method: iv.Method})
	}
	for _, m := range pl.metrics {
		switch m {
		case MetricAcc:
			prop(m, acc)
		case MetricAccNorm:
			prop(m, norm)
		case MetricExactMatch, MetricLooseExactMatch:
			prop(m, em)
		case MetricPassAtK:
			est, err := stats.PassAtKItems(counts, ht.K, opt.Resamples, opt.Confidence, uint64(seed))
			if err != nil {
				return TaskResult{}, fmt.Errorf("tasks: %s: %w", ht.Spec, err)
			}
			tr.Metrics = append(tr.Metrics, Metric{ID: m, K: ht.K, Match: pl.match, N: est.Items, Value: est.Mean, CILow: est.Lo, CIHigh: est.Hi, Method: est.Method})
		case MetricMajAtK:
			if len(votes) == 0 {
				continue
			}
			est, err := stats.MajAtKItems(votes, ht.K, opt.Resamples, opt.Confidence, uint64(seed))
			if err != nil {
				return TaskResult{}, fmt.Errorf("tasks: %s: %w", ht.Spec, err)
			}
			tr.Metrics = append(tr.Metrics, Metric{ID: m, K: ht.K, Match: pl.match, N: est.Items, Value: est.Mean, CILow: est.Lo, CIHigh: est.Hi, Method: est.Method})
		}
	}
	return tr, nil
}

// plan is how Score scores one header task: the metrics it reports,
// whether they are the legacy ones of details that did not record them,
// and for a generative task the match metric and its normal form.
type plan struct {
	ht      HeaderTask
	metrics []string
	legacy  bool
	match   string
	canon   func(string) string
}

// planOf checks the metrics header task ht records, or gives the legacy
// ones when it records none.
func planOf(ht HeaderTask) (plan, error) {
	pl := plan{ht: ht, metrics: ht.Metrics}
	if len(ht.Metrics) > 0 {
		ms, err := checkMetrics(ht.Kind, ht.Samples, ht.Metrics)
		if err != nil {
			return pl, fmt.Errorf("tasks: details header, task %s: %v", ht.Spec, err)
		}
		pl.metrics = ms
	} else {
		pl.legacy = true
		switch ht.Kind {
		case KindLoglik:
			pl.metrics = []string{MetricAcc, MetricAccNorm}
		case KindLetter:
			pl.metrics = []string{MetricAcc}
		case KindGenerative:
			pl.metrics = []string{MetricLooseExactMatch}
			if ht.Samples > 1 {
				pl.metrics = append(pl.metrics, MetricPassAtK, MetricMajAtK)
			}
		default:
			return pl, fmt.Errorf("tasks: details header, task %s: kind %q: want %s, %s or %s", ht.Spec, ht.Kind, KindLoglik, KindLetter, KindGenerative)
		}
	}
	if ht.Kind == KindGenerative {
		pl.match = pl.metrics[0] // checkMetrics puts the match metric first
		m, err := score.Find(pl.match)
		if err != nil || m.Canon == nil {
			return pl, fmt.Errorf("tasks: details header, task %s: match metric %q has no normal form", ht.Spec, pl.match)
		}
		pl.canon = m.Canon
	}
	return pl, nil
}

// addDefs adds the registry's definition of each metric not yet defined.
func (r *Result) addDefs(ids []string) {
	for _, id := range ids {
		m, err := score.Find(id)
		if err != nil || slices.ContainsFunc(r.Defs, func(d results.MetricDef) bool { return d.ID == m.ID }) {
			continue
		}
		r.Defs = append(r.Defs, results.MetricDef{ID: m.ID, Name: m.Name, Graded: m.Graded, Rule: m.Rule,
			FalsePositives: m.FalsePositives, FalseNegatives: m.FalseNegatives, Blank: m.Blank, Source: m.Source})
	}
}

// sampleScore is one scored item's outcome: acc and acc_norm (or acc
// from a letter, or the match metric from the first response), the
// sample counts and votes of pass@k and maj@k, and what Score warns of.
type sampleScore struct {
	acc, norm, match                 bool
	count                            stats.SampleCount
	vote                             *stats.VoteItem // nil: no golden answer
	straddle, emptyChoice, noExtract int
}

// The registry's choice metrics a log-likelihood task reports.
var accMetric, accNormMetric = mustFind(MetricAcc), mustFind(MetricAccNorm)

func mustFind(id string) *score.Metric {
	m, err := score.Find(id)
	if err != nil {
		panic(err) // the ids are this package's constants
	}
	return m
}

// scoreSample scores one item of the planned header task that has a reply.
func scoreSample(pl plan, s *Sample) (sampleScore, error) {
	var sc sampleScore
	ht := pl.ht
	switch ht.Kind {
	case KindLoglik:
		if len(s.Scored) != len(s.Choices) || len(s.Scored) == 0 {
			return sc, fmt.Errorf("tasks: %s item %s: %d continuations for %d choices", ht.Spec, s.ID, len(s.Scored), len(s.Choices))
		}
		opts := s.options()
		for _, c := range s.Scored {
			sc.straddle += b2i(c.Straddle)
			sc.emptyChoice += b2i(c.Chars == 0)
		}
		sc.acc = accMetric.ChoiceValue(opts, s.Gold, 0) == 1
		sc.norm = accNormMetric.ChoiceValue(opts, s.Gold, 0) == 1
	case KindLetter:
		if len(s.Response) == 0 {
			return sc, fmt.Errorf("tasks: %s item %s: no response", ht.Spec, s.ID)
		}
		pred := -1
		if x := s.Response[0].Extracted; x != nil {
			for i, l := range s.Letters {
				if strings.EqualFold(*x, l) {
					pred = i
					break
				}
			}
		}
		sc.noExtract += b2i(pred < 0)
		sc.acc = pred == s.Gold
	case KindGenerative:
		if len(s.Response) == 0 {
			return sc, fmt.Errorf("tasks: %s item %s: no response", ht.Spec, s.ID)
		}
		gold := pl.canon(s.Golden)
		c := 0
		answers := make([]string, len(s.Response))
		for i, resp := range s.Response {
			if resp.Extracted == nil {
				sc.noExtract++
				answers[i] = "\x00none" // a vote for no answer, never correct
				continue
			}
			answers[i] = pl.canon(*resp.Extracted)
			c += b2i(answers[i] == gold)
		}
		sc.match = s.Response[0].Extracted != nil && answers[0] == gold
		sc.count = stats.SampleCount{Samples: len(s.Response), Correct: c}
		if gold != "" {
			sc.vote = &stats.VoteItem{Answers: answers, Correct: gold}
		}
	}
	return sc, nil
}

// Outcome is one item's value per metric of its task string, the
// per-item terms whose mean Score reports: 1 or 0 for acc, acc_norm and
// the match metric, the item's maj@k and its unbiased pass@k estimate (values in [0, 1]). Metrics lists them in the order Score reports them;
// an item whose call failed has none (Failed).
type Outcome struct {
	Sample  *Sample
	Metrics []string
	Values  []float64
	Failed  bool
}

// Outcomes gives every item's Outcome, in the details' order, scored
// by the rules Score uses.
func Outcomes(d *Details) ([]Outcome, error) {
	hts := map[string]plan{}
	for _, ht := range d.Header.Tasks {
		pl, err := planOf(ht)
		if err != nil {
			return nil, err
		}
		hts[ht.Spec] = pl
	}
	out := make([]Outcome, 0, len(d.Samples))
	for i := range d.Samples {
		s := &d.Samples[i]
		pl, ok := hts[s.Task]
		if !ok {
			return nil, fmt.Errorf("tasks: item %s: task %q is not in the header", s.ID, s.Task)
		}
		ht := pl.ht
		o := Outcome{Sample: s, Metrics: pl.metrics, Failed: s.Error != ""}
		if o.Failed {
			out = append(out, o)
			continue
		}
		sc, err := scoreSample(pl, s)
		if err != nil {
			return nil, err
		}
		for _, m := range o.Metrics {
			var v float64
			switch m {
			case MetricAcc:
				v = float64(b2i(sc.acc))
			case MetricAccNorm:
				v = float64(b2i(sc.norm))
			case MetricExactMatch, MetricLooseExactMatch:
				v = float64(b2i(sc.match))
			case MetricPassAtK:
				if v, err = stats.PassAtK(sc.count.Samples, sc.count.Correct, ht.K); err != nil {
					return nil, fmt.Errorf("tasks: %s item %s: %w", ht.Spec, s.ID, err)
				}
			case MetricMajAtK:
				if sc.vote == nil {
					v = math.NaN() // no golden answer: Score leaves the item out of maj@k
				} else if v, err = stats.MajAtK(sc.vote.Answers, sc.vote.Correct, ht.K); err != nil {
					return nil, fmt.Errorf("tasks: %s item %s: %w", ht.Spec, s.ID, err)
				}
			}
			o.Values = append(o.Values, v)
		}
		out = append(out, o)
	}
	return out, nil
}

// Picks returns the choices a log-likelihood item's acc and acc_norm
// pick, as lm-eval defines them: the largest sum of log-probabilities,
// and the largest sum divided by the choice's length in characters (code
// points; an empty choice counts as 1). Ties go to the first choice
// (score.Pick with the keys of the registry's acc and acc_norm); an item
// without continuations picks 0.
func (s *Sample) Picks() (acc, accNorm int) {
	opts := s.options()
	return score.Pick(opts, accMetric.Choice.Key), score.Pick(opts, accNormMetric.Choice.Key)
}

// options are the item's continuations as the choice metrics see them.
func (s *Sample) options() []score.Option {
	opts := make([]score.Option, len(s.Scored))
	for i, c := range s.Scored {
		opts[i] = score.Option{LogLik: c.Logprob, Chars: c.Chars, Tokens: c.Tokens}
	}
	return opts
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sumTokens(ss []*Sample) (*int64, *int64) {
	var p, c int64
	pOK, cOK := true, true
	n := 0
	for _, s := range ss {
		if s.Error != "" {
			continue
		}
		n++
		if s.PromptTokens == nil {
			pOK = false
		} else {
			p += *s.PromptTokens
		}
		if s.CompletionTokens == nil {
			cOK = false
		} else {
			c += *s.CompletionTokens
		}
	}
	var pp, cp *int64
	if pOK && n > 0 {
		pp = &p
	}
	if cOK && n > 0 {
		cp = &c
	}
	return pp, cp
}

func fmtTokens(p *int64) string {
	if p == nil {
		return "unknown"
	}
	return strconv.FormatInt(*p, 10)
}

func ff(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Tables gives the figures (one row per task string and metric) and the
// warnings.
func (r *Result) Tables() []results.Table {
	t := results.Table{Title: "Task results", Note: fmt.Sprintf("model %s, seed %d; intervals at %g", r.Model, r.Seed, r.Confidence),
		Columns: []results.Column{{Name: "task"}, {Name: "language"}, {Name: "kind"}, {Name: "shots", Kind: results.KindNumber},
			{Name: "metric"}, {Name: "n", Kind: results.KindNumber}, {Name: "value", Kind: results.KindRate},
			{Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}, {Name: "failed", Kind: results.KindNumber}}}
	for _, tr := range r.Tasks {
		for _, m := range tr.Metrics {
			id := m.ID
			if m.K > 0 {
				id = strings.Replace(id, "@k", "@"+strconv.Itoa(m.K), 1)
			}
			lo, hi := ff(m.CILow), ff(m.CIHigh)
			if !m.hasInterval() {
				lo, hi = "", "" // every item alike: no interval to show
			}
			t.Rows = append(t.Rows, []string{tr.Suite + "|" + tr.Name, tr.Language, tr.Kind, strconv.Itoa(tr.Shots), id, strconv.Itoa(m.N), ff(m.Value), lo, hi, strconv.Itoa(tr.Failed)})
		}
	}
	out := []results.Table{t}
	st := results.Table{Title: "Stopped early", Note: "task run --stop-when: the items counted (a prefix of a seeded shuffle) and the anytime-valid confidence sequence's interval there",
		Columns: []results.Column{{Name: "task"}, {Name: "language"}, {Name: "metric"}, {Name: "stopped"}, {Name: "items", Kind: results.KindNumber}, {Name: "of", Kind: results.KindNumber},
			{Name: "value", Kind: results.KindRate}, {Name: "cs_low", Kind: results.KindRate}, {Name: "cs_high", Kind: results.KindRate}, {Name: "width_asked", Kind: results.KindNumber},
			{Name: "not_sent", Kind: results.KindNumber}, {Name: "discarded", Kind: results.KindNumber}}}
	for _, tr := range r.Tasks {
		if s := tr.Stop; s != nil {
			st.Rows = append(st.Rows, []string{tr.Suite + "|" + tr.Name, tr.Language, s.Metric, results.YesNo(s.Stopped), strconv.Itoa(s.Items), strconv.Itoa(s.Of),
				ff(s.Value), ff(s.CILow), ff(s.CIHigh), ff(s.Width), strconv.Itoa(s.NotSent), strconv.Itoa(s.Discarded)})
		}
	}
	if len(st.Rows) > 0 {
		out = append(out, st)
	}
	return append(out, results.WarningTable(r.Warnings)...)
}

// WriteText writes the figures as a table.
func (r *Result) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "model %s", r.Model)
	if r.Shard != "" {
		fmt.Fprintf(tw, ", shard %s", r.Shard)
	}
	fmt.Fprintf(tw, ", seed %d, %d items (%d failed), tokens %s prompt / %s completion", r.Seed, r.Samples, r.Failed, fmtTokens(r.Tokens.Prompt), fmtTokens(r.Tokens.Completion))
	if c := r.Cost; c != nil {
		if c.Amount == nil {
			fmt.Fprintf(tw, ", cost unknown")
		} else {
			fmt.Fprintf(tw, ", cost %.4f %s at the prices of %s", *c.Amount, c.Currency, c.Date)
		}
	}
	fmt.Fprint(tw, "\n\n")
	fmt.Fprintf(tw, "task\tlanguage\tshots\tmetric\tn\tvalue\t%g%% interval\n", r.Confidence*100)
	for _, tr := range r.Tasks {
		for _, m := range tr.Metrics {
			id := m.ID
			if m.K > 0 {
				id = strings.Replace(id, "@k", "@"+strconv.Itoa(m.K), 1)
			}
			fmt.Fprintf(tw, "%s|%s\t%s\t%d\t%s\t%d\t%.4f\t%.4f - %.4f\n", tr.Suite, tr.Name, tr.Language, tr.Shots, id, m.N, m.Value, m.CILow, m.CIHigh)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, tr := range r.Tasks {
		if tr.Stop != nil {
			if _, err := fmt.Fprintf(w, "%s|%s %s: %s\n", tr.Suite, tr.Name, tr.Language, tr.Stop); err != nil {
				return err
			}
		}
	}
	for _, wn := range r.Warnings {
		if _, err := fmt.Fprintf(w, "warning (%s, %d): %s\n", wn.Code, wn.Count, wn.Message); err != nil {
			return err
		}
	}
	return nil
}
