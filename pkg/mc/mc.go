// Package mc scores multiple-choice predictions: translated ARC,
// HellaSwag, BoolQ and MMLU style tasks, where a model either gives a
// log-likelihood for every option or names one option.
//
// From log-likelihoods it computes, per language and per subject and
// overall:
//
//	acc             the option with the highest log-likelihood is the gold one
//	acc_norm        the same after dividing each log-likelihood by the option's
//	                length in characters (Unicode code points), which stops short
//	                options winning just by being short (lm-evaluation-harness
//	                acc_norm; acc_norm_char is its alias)
//	acc_norm_token  the same per token, when every option has a token count
//	mrr             the mean of 1/rank of the gold option
//	recall@k        the gold option is among the k most likely
//
// From predicted letters it computes acc only. Every proportion carries a
// Wilson interval; the MRR, a mean, carries a percentile bootstrap
// interval from a fixed seed.
//
// The metrics and their rules live in pkg/score's registry (kind choice):
// mc ranks options with score.Rank and values an item with the metric's
// Choice, the same functions evalbook task run uses, so acc and acc_norm
// mean one thing everywhere. Ranks break ties in favour of the option
// listed first (as numpy's argmax does), so recall@1 always equals acc.
//
// Option labels may be Latin letters, digits, or the option letters of
// the Indic scripts (Bengali ক খ গ ঘ, Devanagari क ख ग घ or अ ब स द, Tamil
// அ ஆ இ ஈ, ...): LetterIndex maps them all to positions, so a gold label
// written ক and a prediction written A agree.
package mc

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Metric ids, in report order: the ids of pkg/score's registry.
const (
	Acc          = score.Acc
	AccNorm      = score.AccNorm
	AccNormToken = score.AccNormToken
	MRR          = score.MRR
	// AccNormChar is the id mc reported acc_norm under before the metrics
	// had one home; the registry keeps acc_norm_char as acc_norm's alias.
	//
	// Deprecated: use AccNorm.
	AccNormChar = AccNorm
)

// Recall returns the metric id of recall@k.
func Recall(k int) string { return fmt.Sprintf("recall@%d", k) }

// A Choice is one option of a question with its log-likelihood.
type Choice struct {
	Label  string  // as written in the file
	Index  int     // position named by the label (LetterIndex)
	Text   string  // the option's text, for length normalisation
	LogLik float64 // log-likelihood of the option given the question
	Tokens int     // tokens in the option, 0 when not given
	Line   int     // line of the option in its file, 0 when unknown
}

// A Question is one multiple-choice item with the model's output.
type Question struct {
	ID       string
	Language string
	Subject  string
	Line     int // first line of the question in its file
	Gold     int // position of the correct option
	// Choices holds the options in file order (log-likelihood mode).
	Choices []Choice
	// Predicted is the position the model named (letter mode), or −1
	// when its answer names no option.
	Predicted int
}

// Options configures Evaluate. The zero value computes recall@2, 95%
// intervals and 10,000 bootstrap resamples with seed 1.
type Options struct {
	K          []int   // recall@k for each k (default [2]); a repeated k counts once
	Confidence float64 // default 0.95
	Resamples  int     // bootstrap resamples for the MRR interval (default 10000)
	Seed       uint64  // bootstrap seed, used as given (0 is a seed like any other)
}

// Report is the outcome of Evaluate.
type Report struct {
	Kind string `json:"kind"` // always "mc"
	// Mode is "loglik" (per-option log-likelihoods) or "letters".
	Mode    string   `json:"mode"`
	Source  string   `json:"source,omitempty"`
	Hash    string   `json:"hash,omitempty"` // first 12 hex digits of SHA-256 of the file
	Metrics []string `json:"metrics"`
	// Defs defines every metric of Metrics in words, from pkg/score's
	// registry (recall@k once for every k).
	Defs     []results.MetricDef `json:"metric_defs"`
	Settings struct {
		Confidence float64 `json:"confidence"`
		Resamples  int     `json:"resamples"`
		Seed       uint64  `json:"seed"`
		K          []int   `json:"k"`
	} `json:"settings"`
	Overall   Group             `json:"overall"`
	Languages []Group           `json:"languages"`
	Subjects  []Group           `json:"subjects"`
	Warnings  []results.Warning `json:"warnings"`
	// LanguageSource is File.LanguageSource when the report is of a file
	// (EvaluateFile), else empty.
	LanguageSource string `json:"language_source"`
}

// Group is the figures of one language, one subject, or all questions.
type Group struct {
	By      string          `json:"by,omitempty"` // "language" or "subject"; empty for Overall
	Group   string          `json:"group,omitempty"`
	N       int             `json:"n"` // questions
	Metrics map[string]Rate `json:"metrics"`
}

// Rate is one metric over a group.
type Rate struct {
	// Correct counts the questions that pass (for a proportion); for the
	// MRR it is the sum of reciprocal ranks.
	Correct float64 `json:"correct"`
	Value   float64 `json:"value"` // Correct / n
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	Method  string  `json:"method"` // "wilson" or "bootstrap"
}

// outcome is what one question contributes to each metric.
type outcome struct {
	pass map[string]bool
	rr   float64 // reciprocal rank of the gold option
}

// Evaluate computes the report of questions. All questions must come
// in the same mode (log-likelihoods or letters); mode names it.
func Evaluate(qs []Question, mode string, opt Options) (*Report, error) {
	opt, err := withDefaults(opt)
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no questions")
	}
	r := &Report{Kind: "mc", Mode: mode, Languages: []Group{}, Subjects: []Group{}, Warnings: []results.Warning{}}
	r.Settings.Confidence, r.Settings.Resamples, r.Settings.Seed, r.Settings.K = opt.Confidence, opt.Resamples, opt.Seed, opt.K
	in := checkInputs(qs, mode)
	metrics := metricIDs(mode, in.tokens, opt.K)
	r.Metrics = metrics
	defs, kOf, err := r.metricDefs(opt.K)
	if err != nil {
		return nil, err
	}
	outs, unparsed := outcomes(qs, mode, metrics, defs, kOf)
	all := make([]int, len(qs))
	for i := range all {
		all[i] = i
	}
	ivWarn := &results.IntervalWarnings{}
	r.Overall = group("", "", all, outs, metrics, opt, ivWarn)
	r.Languages = groups("language", qs, outs, metrics, opt, ivWarn, func(q Question) string { return q.Language })
	r.Subjects = groups("subject", qs, outs, metrics, opt, ivWarn, func(q Question) string { return q.Subject })
	r.warnInputs(mode, in, unparsed)
	r.Warnings = append(r.Warnings, ivWarn.Warnings("group", "groups")...)
	r.warnSmallGroups()
	return r, nil
}

// withDefaults fills in the default k (2), confidence and resamples,
// checks them, and drops repeated ks.
func withDefaults(opt Options) (Options, error) {
	if len(opt.K) == 0 {
		opt.K = []int{2}
	}
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Resamples == 0 {
		opt.Resamples = 10000
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return opt, fmt.Errorf("confidence %v is not between 0 and 1", opt.Confidence)
	}
	var ks []int
	for _, k := range opt.K {
		if k < 1 {
			return opt, fmt.Errorf("recall@k needs k ≥ 1, got %d", k)
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	opt.K = ks
	return opt, nil
}

// inputChecks is what the questions' options say before scoring: the
// lines of gold labels past the tenth option (letters), of positive
// log-likelihoods, of questions with an option without a token count or
// without text; tokens is false once one option has no token count.
type inputChecks struct {
	noTokens, emptyText, positive, farGold []int
	tokens                                 bool
}

// checkInputs reads the questions for inputChecks.
func checkInputs(qs []Question, mode string) inputChecks {
	in := inputChecks{tokens: mode == "loglik"}
	if mode == "letters" {
		for _, q := range qs {
			if q.Gold >= maxOptions {
				in.farGold = append(in.farGold, q.Line)
			}
		}
	}
	if mode != "loglik" {
		return in
	}
	for _, q := range qs {
		for _, c := range q.Choices {
			if c.LogLik > 0 {
				in.positive = append(in.positive, c.Line)
			}
		}
		for _, c := range q.Choices {
			if c.Tokens <= 0 {
				in.tokens = false
				in.noTokens = append(in.noTokens, q.Line)
				break
			}
		}
		for _, c := range q.Choices {
			if utf8.RuneCountInString(c.Text) == 0 {
				in.emptyText = append(in.emptyText, q.Line)
				break
			}
		}
	}
	return in
}

// metricIDs is the metrics of a mode: accuracy alone for letters; for
// log-likelihoods also acc_norm, acc_norm_token when every option has a
// token count, the MRR and recall@k for each k.
func metricIDs(mode string, tokens bool, ks []int) []string {
	metrics := []string{Acc}
	if mode != "loglik" {
		return metrics
	}
	metrics = append(metrics, AccNorm)
	if tokens {
		metrics = append(metrics, AccNormToken)
	}
	metrics = append(metrics, MRR)
	for _, k := range ks {
		metrics = append(metrics, Recall(k))
	}
	return metrics
}

// metricDefs finds the registry's metric behind each of the report's
// metric ids, and recall@k's k (0 for the others); it adds each distinct
// metric's definition to the report.
func (r *Report) metricDefs(ks []int) ([]*score.Metric, []int, error) {
	defs := make([]*score.Metric, len(r.Metrics))
	kOf := make([]int, len(r.Metrics))
	for i, id := range r.Metrics {
		m, err := score.Find(id)
		if err != nil {
			return nil, nil, err
		}
		defs[i] = m
		for _, k := range ks {
			if id == Recall(k) {
				kOf[i] = k
			}
		}
		if i == 0 || m != defs[i-1] {
			r.Defs = append(r.Defs, results.MetricDef{ID: m.ID, Name: m.Name, Graded: m.Graded, Rule: m.Rule,
				FalsePositives: m.FalsePositives, FalseNegatives: m.FalseNegatives, Blank: m.Blank, Source: m.Source})
		}
	}
	return defs, kOf, nil
}

// outcomes scores every question under each metric; with letters it also
// gives the lines of predictions that name no option.
func outcomes(qs []Question, mode string, metrics []string, defs []*score.Metric, kOf []int) ([]outcome, []int) {
	outs := make([]outcome, len(qs))
	var opts []score.Option
	var unparsed []int
	for i, q := range qs {
		o := outcome{pass: map[string]bool{}}
		if mode == "letters" {
			o.pass[Acc] = q.Predicted == q.Gold
			if q.Predicted < 0 {
				unparsed = append(unparsed, q.Line)
			}
			outs[i] = o
			continue
		}
		opts = opts[:0]
		for _, c := range q.Choices {
			opts = append(opts, score.Option{LogLik: c.LogLik, Chars: utf8.RuneCountInString(c.Text), Tokens: c.Tokens})
		}
		g := goldPos(q)
		for j, id := range metrics {
			v := defs[j].ChoiceValue(opts, g, kOf[j])
			if id == MRR {
				o.rr = v
			} else {
				o.pass[id] = v == 1
			}
		}
		outs[i] = o
	}
	return outs, unparsed
}

// warnLines adds a warning about the rows at lines (0 for an unknown
// line), naming at most 20; one and many are the message after the
// count, singular and plural.
func (r *Report) warnLines(code string, lines []int, one, many string) {
	if len(lines) == 0 {
		return
	}
	msg := many
	if len(lines) == 1 {
		msg = one
	}
	w := results.Warning{Code: code, Count: len(lines), Message: fmt.Sprintf("%d %s", len(lines), msg)}
	for _, l := range lines {
		if l > 0 && len(w.Lines) < 20 {
			w.Lines = append(w.Lines, l)
		}
	}
	r.Warnings = append(r.Warnings, w)
}

// warnInputs warns of unparsed predictions, unlikely gold labels,
// positive log-likelihoods, options without a token count (when that
// drops acc_norm_token) and options without text.
func (r *Report) warnInputs(mode string, in inputChecks, unparsed []int) {
	const optionLetters = "a Latin letter, a digit or an option letter of an Indic script such as क or ক"
	r.warnLines(CodeUnparsedPrediction, unparsed,
		"prediction names no option (it is not "+optionLetters+"); it counts as wrong",
		"predictions name no option (they are not "+optionLetters+"); they count as wrong")
	r.warnLines(CodeUnlikelyGold, in.farGold,
		"gold label names an option past J, the tenth; no common multiple-choice benchmark has more options, so it may be a typo (it is scored as written)",
		"gold labels name an option past J, the tenth; no common multiple-choice benchmark has more options, so they may be typos (they are scored as written)")
	r.warnLines(CodePositiveLoglik, in.positive,
		"option has a positive log-likelihood, but a log-probability is never above 0: check that the column holds log-likelihoods (divided by its length, a positive score favours long options in acc_norm)",
		"options have a positive log-likelihood, but a log-probability is never above 0: check that the column holds log-likelihoods (divided by their length, positive scores favour long options in acc_norm)")
	if mode == "loglik" && !in.tokens {
		r.warnLines(CodeNoTokens, in.noTokens,
			"question has an option without a token count, so acc_norm_token is not reported",
			"questions have an option without a token count, so acc_norm_token is not reported")
	}
	r.warnLines(CodeEmptyChoiceText, in.emptyText,
		"question has an option with no text; its length counts as 1 character for acc_norm",
		"questions have an option with no text; its length counts as 1 character for acc_norm")
}

// warnSmallGroups warns of every group (all questions included) of
// fewer than 30 questions.
func (r *Report) warnSmallGroups() {
	for _, g := range append([]Group{r.Overall}, append(r.Languages, r.Subjects...)...) {
		if g.N < 30 {
			name := g.Group
			if name == "" {
				name = "all questions"
			}
			r.Warnings = append(r.Warnings, results.Warning{Code: CodeSmallGroup, Count: g.N,
				Message: fmt.Sprintf("%s %s has %d %s: its intervals are wide, and a difference of a few questions is noise", orAll(g.By), tabular.Quote(name), g.N, plural(g.N, "question", "questions"))})
		}
	}
}

// plural returns one when n is 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxOptions is the most options a common multiple-choice benchmark has
// (MMLU-Pro: ten, A to J). A letter file does not list the options, so a
// gold label naming a later position (K to Z) is the only sign that it
// names no option.
const maxOptions = 10

func orAll(by string) string {
	if by == "" {
		return "overall,"
	}
	return by
}

// goldPos returns the index in q.Choices of the gold option.
func goldPos(q Question) int {
	for j, c := range q.Choices {
		if c.Index == q.Gold {
			return j
		}
	}
	return -1
}

func groups(by string, qs []Question, outs []outcome, metrics []string, opt Options, ivWarn *results.IntervalWarnings, key func(Question) string) []Group {
	idx := map[string][]int{}
	for i, q := range qs {
		k := key(q)
		idx[k] = append(idx[k], i)
	}
	if len(idx) == 1 {
		if _, ok := idx[""]; ok {
			return []Group{}
		}
	}
	names := make([]string, 0, len(idx))
	for k := range idx {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]Group, 0, len(names))
	for _, k := range names {
		out = append(out, group(by, k, idx[k], outs, metrics, opt, ivWarn))
	}
	return out
}

// group computes the figures of one group; the warnings of its
// intervals are counted in ivWarn by metric and message.
func group(by, name string, members []int, outs []outcome, metrics []string, opt Options, ivWarn *results.IntervalWarnings) Group {
	g := Group{By: by, Group: name, N: len(members), Metrics: map[string]Rate{}}
	n := len(members)
	for _, m := range metrics {
		if m == MRR {
			x := make([]float64, n)
			sum := 0.0
			for i, j := range members {
				x[i] = outs[j].rr
				sum += x[i]
			}
			iv := stats.BootstrapMeanInterval(x, opt.Resamples, opt.Confidence, opt.Seed)
			ivWarn.Add(m, iv.Warnings)
			g.Metrics[m] = Rate{Correct: sum, Value: sum / float64(n), CILow: iv.Lo, CIHigh: iv.Hi, Method: "bootstrap"}
			continue
		}
		c := 0
		for _, j := range members {
			if outs[j].pass[m] {
				c++
			}
		}
		iv := stats.WilsonInterval(c, n, opt.Confidence)
		ivWarn.Add(m, iv.Warnings)
		g.Metrics[m] = Rate{Correct: float64(c), Value: float64(c) / float64(n), CILow: iv.Lo, CIHigh: iv.Hi, Method: "wilson"}
	}
	return g
}

// validLogLik reports whether x is a usable log-likelihood: any number
// or −Inf (an impossible option); NaN and +Inf are refused. A positive
// value cannot be a log-probability, but scores from other sources may
// be positive, so Evaluate warns about it (positive_loglik) instead.
func validLogLik(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 1) }
