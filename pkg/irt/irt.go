// Package irt fits a two-parameter logistic item response model (2PL) to
// pass/fail responses in long form (subject, item, pass; a subject is a
// model or a person) by marginal maximum likelihood (stats.Fit2PL:
// Gauss-Hermite quadrature, Bock-Aitkin EM): each item's difficulty and
// discrimination with standard errors, each subject's ability (EAP), item
// flags (negative or near-zero discrimination; Cronbach's alpha rising
// when the item is deleted), and each subject's estimated score on the
// full item set from the items it answered, with an interval.
//
// The full-score estimate follows tinyBenchmarks (Polo et al. 2024,
// "tinyBenchmarks: evaluating LLMs with fewer examples", the p-IRT
// estimator): the answered items count as answered, each unanswered item
// by its probability of a right answer at the subject's ability. Here the
// ability is integrated over its posterior rather than plugged in, which
// gives a posterior predictive standard deviation and a normal interval
// (stats.IRTFit.PredictScore). tinyBenchmarks' anchor-item selection and
// its gp-IRT blend are outside this package: the subset is whatever a subject
// answered.
package irt

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxRows bounds how many responses ReadResponses accepts.
const MaxRows = 10_000_000

// Accepted column names, in order of preference.
var (
	SubjectColumns = []string{"subject", "model", "respondent"}
	ItemColumns    = []string{"item", "item_id", "id"}
)

// ColPass is the 0/1 response column.
const ColPass = "pass"

// Item flags.
const (
	FlagNegative    = "negative_discrimination"
	FlagLow         = "low_discrimination"
	FlagAlphaRises  = "alpha_rises_if_deleted"
	FlagNotEstimate = "no_standard_error"
)

// Warning codes of Analyze.
const (
	// CodeConstantItems: items every subject passed (or failed) are left
	// out of the fit; they have no difficulty to estimate.
	CodeConstantItems = "constant_items"
	// CodeFlaggedItems: some items are flagged (see Item.Flags).
	CodeFlaggedItems = "flagged_items"
	// CodeNotConverged: EM stopped at its bound.
	CodeNotConverged = "irt_not_converged"
	// CodeBlockSE: standard errors from per-item blocks of the
	// information (more than stats.IRTFullHessianItems items).
	CodeBlockSE = "block_diagonal_se"
)

// Response is one subject's answer to one item.
type Response struct {
	Subject, Item string
	Pass          bool
	Line          int
}

// ReadResponses reads responses from CSV or JSONL with a subject column
// (subject, model or respondent), an item column (item, item_id or id) and
// pass (0 or 1; true/false too). Errors are *tabular.ParseError values
// naming the file, line and field: a missing column, an empty id, a pass
// other than 0/1, a subject answering an item twice, no row.
func ReadResponses(r io.Reader, name string) ([]Response, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	find := func(names []string, what string) (int, error) {
		return rd.Column(names, what, "a response file needs subject, item and pass, one row per answer")
	}
	is, err := find(SubjectColumns, "subject")
	if err != nil {
		return nil, err
	}
	ii, err := find(ItemColumns, "item")
	if err != nil {
		return nil, err
	}
	ip, err := find([]string{ColPass}, "pass")
	if err != nil {
		return nil, err
	}
	seen := map[[2]string]int{}
	var out []Response
	for rd.Scan() {
		rec := rd.Record()
		if len(out) == MaxRows {
			return nil, &tabular.ParseError{File: name, Line: rec.Line, Err: fmt.Errorf("more than %d responses; split the file", MaxRows)}
		}
		x := Response{Subject: strings.TrimSpace(rec.Fields[is]), Item: strings.TrimSpace(rec.Fields[ii]), Line: rec.Line}
		if x.Subject == "" {
			return nil, rd.Errorf(is, "empty subject")
		}
		if x.Item == "" {
			return nil, rd.Errorf(ii, "empty item id")
		}
		switch v := strings.ToLower(strings.TrimSpace(rec.Fields[ip])); v {
		case "1", "true", "1.0":
			x.Pass = true
		case "0", "false", "0.0":
		default:
			return nil, rd.Errorf(ip, "pass %s: want 0 or 1", tabular.Quote(rec.Fields[ip]))
		}
		k := [2]string{x.Subject, x.Item}
		if l, dup := seen[k]; dup {
			return nil, rd.Errorf(ii, "subject %s answers item %s again (first on line %d); give one answer per subject and item", tabular.Quote(x.Subject), tabular.Quote(x.Item), l)
		}
		seen[k] = rec.Line
		out = append(out, x)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no responses")}
	}
	return out, nil
}

// Options configures Analyze. The zero value uses stats' defaults, flags
// discriminations below 0.2 as near zero and gives 95% intervals.
type Options struct {
	Points            int     // quadrature points (0: 41)
	MinDiscrimination float64 // 0: 0.2
	Confidence        float64 // 0: 0.95
	// Emulate "ltm" fits as R's ltm(X ~ z1) does with its default control
	// (stats.IRTOptions.Emulate), to reproduce its figures; Points is
	// then not used.
	Emulate string
}

// Item is one item's parameters.
type Item struct {
	Item             string   `json:"item"`
	Responses        int      `json:"responses"`
	PassRate         float64  `json:"pass_rate"`
	Difficulty       float64  `json:"difficulty"`
	DifficultySE     *float64 `json:"difficulty_se"`
	Discrimination   float64  `json:"discrimination"`
	DiscriminationSE *float64 `json:"discrimination_se"`
	// AlphaIfDeleted is Cronbach's alpha without this item (null when it
	// cannot be computed).
	AlphaIfDeleted *float64 `json:"alpha_if_deleted"`
	Flags          []string `json:"flags"`
}

// Subject is one subject's ability and estimated full score.
type Subject struct {
	Subject   string  `json:"subject"`
	Answered  int     `json:"answered"`
	Right     int     `json:"right"`
	Observed  float64 `json:"observed"` // right / answered
	Ability   float64 `json:"ability"`  // EAP
	AbilitySD float64 `json:"ability_sd"`
	// Estimate is the expected share right of all fitted items
	// (stats.IRTFit.PredictScore), EstimateSD its posterior predictive
	// standard deviation, CILow/CIHigh the normal interval clipped to
	// [0, 1]. A subject who answered every item has its exact score.
	Estimate   float64 `json:"estimate"`
	EstimateSD float64 `json:"estimate_sd"`
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	// Fitted is false for a subject scored with a model fitted without it
	// (AnalyzeWith's others).
	Fitted bool `json:"fitted"`
}

// Result is a 2PL fit.
type Result struct {
	Kind       string  `json:"kind"` // always "irt"
	Source     string  `json:"source"`
	Model      string  `json:"model"` // "2pl"
	Points     int     `json:"quadrature_points"`
	Confidence float64 `json:"confidence"`
	LogLik     float64 `json:"log_likelihood"`
	Iterations int     `json:"iterations"`
	Converged  bool    `json:"converged"`
	// Emulate is "ltm" when the fit reproduces R's ltm (Options.Emulate).
	Emulate string `json:"emulate,omitempty"`
	// Alpha is Cronbach's alpha over the subjects who answered every
	// fitted item (null when fewer than two did).
	Alpha           *float64          `json:"alpha"`
	AlphaSubjects   int               `json:"alpha_subjects"`
	BlockDiagonalSE bool              `json:"block_diagonal_se"`
	Items           []Item            `json:"items"`
	ConstantItems   []string          `json:"constant_items"`
	Subjects        []Subject         `json:"subjects"`
	Warnings        []results.Warning `json:"warnings"`
}

// ptr is a pointer to x, or nil when x is not finite.
func ptr(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Analyze fits the 2PL model to responses (source names them) and scores
// every subject; others, when not nil, are further subjects scored with
// the fitted model without taking part in the fit (a new model that
// answered a subset). Errors, as *tabular.ParseError naming the file and
// line: fewer than two subjects, fewer than two items left once constant
// items are set aside.
func Analyze(responses []Response, source string, others []Response, opt Options) (*Result, error) {
	if opt.Emulate != "" && opt.Emulate != stats.EmulateLTM {
		return nil, fmt.Errorf("irt: emulate %q: the only algorithm evalbook reproduces is %q (R's ltm)", opt.Emulate, stats.EmulateLTM)
	}
	if opt.MinDiscrimination == 0 {
		opt.MinDiscrimination = 0.2
	}
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	res := &Result{Kind: "irt", Source: source, Model: "2pl", Confidence: opt.Confidence, ConstantItems: []string{}, Warnings: []results.Warning{}}
	d := newDesign(responses)
	if len(d.subjects) < 2 {
		return nil, &tabular.ParseError{File: source, Line: d.firstLine, Field: SubjectColumns[0], Err: fmt.Errorf("%d subject: an item response model needs at least two subjects", len(d.subjects))}
	}
	res.ConstantItems = append(res.ConstantItems, d.setAside(responses)...)
	if len(d.fitted) < 2 {
		return nil, &tabular.ParseError{File: source, Line: d.firstLine, Field: ItemColumns[0], Err: fmt.Errorf("%d of %d items have both right and wrong answers: a 2PL fit needs at least two", len(d.fitted), len(d.items))}
	}
	resp := d.matrix(responses, d.subjIdx, len(d.subjects))
	res.Emulate = opt.Emulate
	fit := stats.Fit2PL(resp, nil, stats.IRTOptions{Points: opt.Points, Emulate: opt.Emulate})
	res.Points, res.LogLik, res.Iterations, res.Converged, res.BlockDiagonalSE = len(fit.Nodes), fit.LogLik, fit.Iterations, fit.Converged, fit.BlockDiagonal
	alphaDel := cronbach(res, resp, len(d.fitted))
	items, flagged := d.itemRows(fit, alphaDel, res.Alpha, opt.MinDiscrimination)
	res.Items = items
	z := stats.NormalQuantile(1 - (1-opt.Confidence)/2)
	for i, name := range d.subjects {
		res.Subjects = append(res.Subjects, scoreSubject(fit, z, name, resp[i], true))
	}
	if len(others) > 0 {
		oIdx := map[string]int{}
		var onames []string
		for _, r := range others {
			if _, ok := oIdx[r.Subject]; !ok {
				oIdx[r.Subject] = len(onames)
				onames = append(onames, r.Subject)
			}
		}
		om := d.matrix(others, oIdx, len(onames))
		for i, name := range onames {
			res.Subjects = append(res.Subjects, scoreSubject(fit, z, name, om[i], false))
		}
	}
	warnFit(res, flagged, fit)
	return res, nil
}

// design is the layout of a fit: the subjects and items in the order
// they first appear, each item's answers and right answers, and the
// items fitted (those with both right and wrong answers).
type design struct {
	subjIdx, itemIdx map[string]int
	subjects, items  []string
	firstLine        int // the line of the first response
	right, n         []int
	keep             map[int]int // item index -> fitted column
	fitted           []string
	fittedCol        []int // fitted column -> item index
}

// newDesign indexes the subjects and items of responses.
func newDesign(responses []Response) *design {
	d := &design{subjIdx: map[string]int{}, itemIdx: map[string]int{}}
	for _, r := range responses {
		if d.firstLine == 0 {
			d.firstLine = r.Line
		}
		if _, ok := d.subjIdx[r.Subject]; !ok {
			d.subjIdx[r.Subject] = len(d.subjects)
			d.subjects = append(d.subjects, r.Subject)
		}
		if _, ok := d.itemIdx[r.Item]; !ok {
			d.itemIdx[r.Item] = len(d.items)
			d.items = append(d.items, r.Item)
		}
	}
	return d
}

// setAside counts each item's answers and right answers, keeps the items
// with both right and wrong answers for the fit, and returns the others
// (constant items), in order.
func (d *design) setAside(responses []Response) []string {
	d.right, d.n = make([]int, len(d.items)), make([]int, len(d.items))
	for _, r := range responses {
		j := d.itemIdx[r.Item]
		d.n[j]++
		if r.Pass {
			d.right[j]++
		}
	}
	d.keep = map[int]int{}
	var constant []string
	for j, it := range d.items {
		if d.right[j] == 0 || d.right[j] == d.n[j] {
			constant = append(constant, it)
			continue
		}
		d.keep[j] = len(d.fitted)
		d.fitted = append(d.fitted, it)
		d.fittedCol = append(d.fittedCol, j)
	}
	return constant
}

// matrix is the subjects × fitted items matrix of rs (1 right, 0 wrong,
// -1 not answered), a subject's row given by idx; answers to items not
// fitted are left out.
func (d *design) matrix(rs []Response, idx map[string]int, count int) [][]int8 {
	m := make([][]int8, count)
	for i := range m {
		m[i] = make([]int8, len(d.fitted))
		for j := range m[i] {
			m[i][j] = -1
		}
	}
	for _, r := range rs {
		c, ok := d.keep[d.itemIdx[r.Item]]
		if _, known := d.itemIdx[r.Item]; !ok || !known {
			continue
		}
		var x int8
		if r.Pass {
			x = 1
		}
		m[idx[r.Subject]][c] = x
	}
	return m
}

// cronbach sets Cronbach's alpha (and the subjects it rests on) from the
// subjects who answered every one of the k fitted items, and returns
// alpha without each item (NaN when there are fewer than two such
// subjects).
func cronbach(res *Result, resp [][]int8, k int) []float64 {
	var complete [][]float64
	for _, r := range resp {
		row := make([]float64, len(r))
		ok := true
		for j, x := range r {
			if x < 0 {
				ok = false
				break
			}
			row[j] = float64(x)
		}
		if ok {
			complete = append(complete, row)
		}
	}
	res.AlphaSubjects = len(complete)
	alphaDel := make([]float64, k)
	for j := range alphaDel {
		alphaDel[j] = math.NaN()
	}
	if len(complete) >= 2 {
		a, del := stats.CronbachAlpha(complete, nil)
		res.Alpha, alphaDel = ptr(a), del
	}
	return alphaDel
}

// itemRows gives each fitted item's figures and flags (negative or low
// discrimination, alpha rising without it, no standard error), and how
// many items are flagged.
func (d *design) itemRows(fit stats.IRTFit, alphaDel []float64, alpha *float64, minDiscrimination float64) ([]Item, int) {
	var out []Item
	flagged := 0
	for j, it := range d.fitted {
		col := d.fittedCol[j]
		x := Item{Item: it, Responses: d.n[col], PassRate: float64(d.right[col]) / float64(d.n[col]),
			Difficulty: fit.Difficulty[j], DifficultySE: ptr(fit.DifficultySE[j]),
			Discrimination: fit.Discrimination[j], DiscriminationSE: ptr(fit.DiscriminationSE[j]),
			AlphaIfDeleted: ptr(alphaDel[j]), Flags: []string{}}
		switch {
		case x.Discrimination < 0:
			x.Flags = append(x.Flags, FlagNegative)
		case x.Discrimination < minDiscrimination:
			x.Flags = append(x.Flags, FlagLow)
		}
		if alpha != nil && x.AlphaIfDeleted != nil && *x.AlphaIfDeleted > *alpha {
			x.Flags = append(x.Flags, FlagAlphaRises)
		}
		if x.DifficultySE == nil || x.DiscriminationSE == nil {
			x.Flags = append(x.Flags, FlagNotEstimate)
		}
		if len(x.Flags) > 0 {
			flagged++
		}
		out = append(out, x)
	}
	return out, flagged
}

// scoreSubject is a subject's answers r scored with the fit: observed
// share right, ability, and the estimated full score with its interval
// (z the normal quantile of the confidence), clipped to [0, 1].
func scoreSubject(fit stats.IRTFit, z float64, name string, r []int8, fitted bool) Subject {
	s := Subject{Subject: name, Fitted: fitted}
	for _, x := range r {
		if x >= 0 {
			s.Answered++
			s.Right += int(x)
		}
	}
	if s.Answered > 0 {
		s.Observed = float64(s.Right) / float64(s.Answered)
	}
	s.Ability, s.AbilitySD = fit.Ability(r)
	s.Estimate, s.EstimateSD = fit.PredictScore(r)
	s.CILow, s.CIHigh = math.Max(0, s.Estimate-z*s.EstimateSD), math.Min(1, s.Estimate+z*s.EstimateSD)
	return s
}

// warnFit adds the warnings of a fit: constant items left out, flagged
// items, no convergence, block-diagonal standard errors.
func warnFit(res *Result, flagged int, fit stats.IRTFit) {
	if len(res.ConstantItems) > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeConstantItems, Count: len(res.ConstantItems),
			Message: fmt.Sprintf("%d items have only right or only wrong answers and are left out of the fit and of the full-score estimates (%s)", len(res.ConstantItems), tabular.QuoteList(res.ConstantItems))})
	}
	if flagged > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeFlaggedItems, Count: flagged,
			Message: fmt.Sprintf("%d items are flagged (negative or near-zero discrimination, alpha rising without them, or no standard error): review them", flagged)})
	}
	if !fit.Converged {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeNotConverged, Count: 1, Message: fmt.Sprintf("EM stopped after %d iterations without converging", fit.Iterations)})
	}
	if fit.BlockDiagonal {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeBlockSE, Count: 1,
			Message: fmt.Sprintf("more than %d items: standard errors from each item's own block of the information, ignoring the covariance between items", stats.IRTFullHessianItems)})
	}
}

// File reads a response file (and, when otherName is not empty, a file of
// further subjects to score) and fits the model.
func File(r io.Reader, name string, other io.Reader, otherName string, opt Options) (*Result, error) {
	rs, err := ReadResponses(r, name)
	if err != nil {
		return nil, err
	}
	var more []Response
	if other != nil {
		if more, err = ReadResponses(other, otherName); err != nil {
			return nil, err
		}
	}
	return Analyze(rs, name, more, opt)
}

func cell(x *float64) string {
	if x == nil {
		return ""
	}
	return results.Float(*x)
}

// WriteText writes the fit and its tables.
func (r *Result) WriteText(w io.Writer) error {
	var s strings.Builder
	fmt.Fprintf(&s, "2PL item response model: %s, %d items fitted (%d constant left out), %d subjects\n", r.Source, len(r.Items), len(r.ConstantItems), len(r.Subjects))
	if r.Emulate == stats.EmulateLTM {
		fmt.Fprintf(&s, "R ltm's algorithm (%d Gauss-Hermite points, 40 EM iterations, then BFGS): log-likelihood %.4f after %d iterations (converged: %t)\n", r.Points, r.LogLik, r.Iterations, r.Converged)
	} else {
		fmt.Fprintf(&s, "marginal maximum likelihood, %d Gauss-Hermite points, EM: log-likelihood %.4f after %d iterations (converged: %t)\n", r.Points, r.LogLik, r.Iterations, r.Converged)
	}
	fmt.Fprintln(&s, "P(right | θ) = 1 / (1 + exp(−a (θ − b))), θ ~ N(0, 1); a discrimination, b difficulty")
	if r.Alpha != nil {
		fmt.Fprintf(&s, "Cronbach's alpha %.4f over %d subjects who answered every item\n", *r.Alpha, r.AlphaSubjects)
	}
	s.WriteString("\n")
	for _, t := range r.Tables() {
		if err := t.WriteText(&s); err != nil {
			return err
		}
		s.WriteString("\n")
	}
	_, err := io.WriteString(w, s.String())
	return err
}

// Tables returns the items, the subjects and the warnings.
func (r *Result) Tables() []results.Table {
	f := results.Float
	items := results.Table{Title: "Items", Note: "difficulty b and discrimination a of the 2PL model, with standard errors from the observed information; flags: negative or near-zero discrimination, alpha rising without the item.",
		Columns: []results.Column{{Name: "item"}, {Name: "responses", Kind: results.KindCount}, {Name: "pass rate", Kind: results.KindRate},
			{Name: "difficulty", Kind: results.KindNumber}, {Name: "difficulty se", Kind: results.KindNumber},
			{Name: "discrimination", Kind: results.KindNumber}, {Name: "discrimination se", Kind: results.KindNumber},
			{Name: "alpha if deleted", Kind: results.KindNumber}, {Name: "flags"}}}
	for _, x := range r.Items {
		items.Rows = append(items.Rows, []string{x.Item, strconv.Itoa(x.Responses), f(x.PassRate), f(x.Difficulty), cell(x.DifficultySE),
			f(x.Discrimination), cell(x.DiscriminationSE), cell(x.AlphaIfDeleted), strings.Join(x.Flags, " ")})
	}
	subj := results.Table{Title: "Subjects", Note: fmt.Sprintf("ability: EAP (posterior mean) and its SD; estimate: expected share right of all %d fitted items (answered items as answered, the others by their probability at the subject's ability), %g%% interval.", len(r.Items), r.Confidence*100),
		Columns: []results.Column{{Name: "subject"}, {Name: "fitted"}, {Name: "answered", Kind: results.KindCount}, {Name: "observed", Kind: results.KindRate},
			{Name: "ability", Kind: results.KindNumber}, {Name: "ability sd", Kind: results.KindNumber},
			{Name: "estimate", Kind: results.KindRate}, {Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}}}
	for _, s := range r.Subjects {
		fit := "yes"
		if !s.Fitted {
			fit = "no"
		}
		subj.Rows = append(subj.Rows, []string{s.Subject, fit, strconv.Itoa(s.Answered), f(s.Observed), f(s.Ability), f(s.AbilitySD), f(s.Estimate), f(s.CILow), f(s.CIHigh)})
	}
	return append([]results.Table{items, subj}, results.WarningTable(r.Warnings)...)
}
