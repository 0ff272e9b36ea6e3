// Package correct corrects an LLM judge's pass rate with a small set of
// human labels (evalbook correct, issue 28).
//
// A judge's pass rate is biased by its errors: a judge that passes 10% of
// the failing answers and fails 5% of the passing ones reports a rate
// that is off by a sum that depends on the true rate. Given a labelled
// file (items a human and the judge both verdicted) and an unlabelled
// file (items only the judge verdicted, from the same population),
// Analyze gives, per group:
//
//   - naive: the judge's rate on the unlabelled items with its Wilson
//     interval, which ignores the judge's errors;
//   - classical: the human rate on the labelled items alone (the normal
//     interval), which ignores the judge;
//   - ppi: prediction-powered inference (Angelopoulos et al. 2023): the
//     judge's rate on the unlabelled items plus the mean human − judge
//     difference on the labelled ones;
//   - ppi++: the same with the judge's weight λ tuned to minimise the
//     variance (Angelopoulos, Duchi and Zrnic 2023), never worse than
//     classical in large samples; the default;
//   - rogan-gladen: the judge's rate corrected by its sensitivity and
//     specificity on the labelled items (Rogan and Gladen 1978), with the
//     interval of Lee et al. (2025) that counts the uncertainty of both.
//
// The statistics are pkg/stats' PPIMean, PPILambda and RoganGladen. The
// labelled items must be a random sample of the same population as the
// unlabelled ones (the labelled ids may also appear in the unlabelled
// file; their judge verdicts must then agree). With a group column
// (Options.By) each group is corrected with its own labels, so a judge
// blind to Bengali is corrected on Bengali only.
package correct

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The methods of Options.Method, and the two figures every result also
// gives (MethodNaive, and MethodClassical as the humans-only rate).
const (
	MethodClassical   = "classical"
	MethodPPI         = "ppi"
	MethodPPIPlus     = "ppi++"
	MethodRoganGladen = "rogan-gladen"
	MethodNaive       = "naive"
)

// DefaultMethod is the method when Options.Method is empty.
const DefaultMethod = MethodPPIPlus

// Methods lists the methods Options.Method takes, the default first.
func Methods() []string {
	return []string{MethodPPIPlus, MethodPPI, MethodClassical, MethodRoganGladen}
}

// Warning codes of Analyze.
const (
	// CodeSingleClass: a group's labelled items all have the same human
	// verdict, so the judge's sensitivity or specificity is unknown there.
	CodeSingleClass = "single_class"
	// CodeNoLabels: a group has judged items and no labelled ones; it
	// gets only the naive figure.
	CodeNoLabels = "no_labels"
	// CodeFewUnlabelled: a group has fewer unlabelled than labelled items.
	CodeFewUnlabelled = "few_unlabelled"
)

// Options configures Analyze. The zero value corrects with ppi++ at 95%
// over the whole files.
type Options struct {
	// Method is one of Methods(); "" means DefaultMethod.
	Method string
	// By names a column of both files; each of its values is corrected
	// on its own labelled rows, after the whole set.
	By string
	// Confidence is the two-sided level of the intervals; 0 means 0.95.
	Confidence float64
}

// Estimate is one figure of a group.
type Estimate struct {
	Method string `json:"method"`
	// Group is the --by value, or "" for all rows.
	Group       string  `json:"group"`
	NLabelled   int     `json:"n_labelled"`
	NUnlabelled int     `json:"n_unlabelled"`
	Estimate    float64 `json:"estimate"`
	CILow       float64 `json:"ci_low"`
	CIHigh      float64 `json:"ci_high"`
}

// Group is what the labelled rows of a group say about the judge.
type Group struct {
	Group       string `json:"group"`
	NLabelled   int    `json:"n_labelled"`
	NUnlabelled int    `json:"n_unlabelled"`
	// HumanPass and JudgePass count passes among the labelled rows;
	// UnlabelledPass among the unlabelled ones.
	HumanPass      int `json:"human_pass"`
	JudgePass      int `json:"judge_pass"`
	UnlabelledPass int `json:"unlabelled_pass"`
	// Sensitivity is the share of human passes the judge passed,
	// Specificity the share of human fails it failed (null when the
	// labelled rows have no human pass, or no human fail).
	Sensitivity *float64 `json:"sensitivity"`
	Specificity *float64 `json:"specificity"`
	// Lambda is PPI++'s weight of the judge (0: the judge is ignored, 1:
	// plain PPI); null unless the method is ppi++.
	Lambda *float64 `json:"lambda"`
}

// Result is a corrected pass rate: per group (all rows first, then each
// --by value in order), the naive and humans-only figures and the
// method's.
type Result struct {
	Kind       string            `json:"kind"` // always "correct"
	Labelled   string            `json:"labelled"`
	Unlabelled string            `json:"unlabelled"`
	Method     string            `json:"method"`
	By         string            `json:"by,omitempty"`
	Confidence float64           `json:"confidence"`
	Estimates  []Estimate        `json:"estimates"`
	Groups     []Group           `json:"groups"`
	Warnings   []results.Warning `json:"warnings"`
}

// ErrMethod is the error of an unknown Options.Method.
var ErrMethod = errors.New("unknown method")

// Validate checks the options a caller chose and fills in defaults.
func (o *Options) Validate() error {
	if o.Method == "" {
		o.Method = DefaultMethod
	}
	if !slices.Contains(Methods(), o.Method) {
		return fmt.Errorf("%w %q: want one of %v", ErrMethod, o.Method, Methods())
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("confidence %v: want a level strictly between 0 and 1", o.Confidence)
	}
	return nil
}

// Files reads the labelled and unlabelled files (ReadLabelled,
// ReadUnlabelled) and analyses them.
func Files(labelled, unlabelled string, opt Options) (*Result, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	lab, err := readFile(labelled, func(r io.Reader) ([]Labelled, error) { return ReadLabelled(r, labelled, opt.By) })
	if err != nil {
		return nil, err
	}
	unl, err := readFile(unlabelled, func(r io.Reader) ([]Judged, error) { return ReadUnlabelled(r, unlabelled, opt.By) })
	if err != nil {
		return nil, err
	}
	return Analyze(lab, unl, labelled, unlabelled, opt)
}

func readFile[T any](name string, read func(io.Reader) ([]T, error)) ([]T, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}

// Analyze corrects the judge's pass rate on unl with the labelled rows
// lab; labName and unlName name the files in errors and in the result.
// It refuses (with a *tabular.ParseError naming the file and line) an
// unlabelled set smaller than the labelled one, labelled rows of a single
// human verdict, an id of both files whose judge verdicts differ, and a
// group with labelled rows and no unlabelled ones. Rogan-Gladen also
// refuses a group whose labelled rows have a single human verdict; the
// other methods warn (CodeSingleClass).
func Analyze(lab []Labelled, unl []Judged, labName, unlName string, opt Options) (*Result, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if len(lab) == 0 || len(unl) == 0 {
		return nil, fmt.Errorf("correct: %d labelled and %d unlabelled rows; need some of each", len(lab), len(unl))
	}
	if len(unl) < len(lab) {
		return nil, &tabular.ParseError{File: unlName, Err: fmt.Errorf("%d unlabelled rows, fewer than the %d labelled rows of %s: "+
			"the unlabelled file holds every judged item (the labelled ones may be among them)", len(unl), len(lab), labName)}
	}
	judged := make(map[string]Judged, len(unl))
	for _, u := range unl {
		judged[u.ID] = u
	}
	for _, l := range lab {
		if u, ok := judged[l.ID]; ok && u.Judge != l.Judge {
			return nil, &tabular.ParseError{File: labName, Line: l.Line, Field: ColJudge, Err: fmt.Errorf("id %s has judge %s here and %s in %s line %d; "+
				"the two files must hold the same judge's verdicts", tabular.Quote(l.ID), b01(l.Judge), b01(u.Judge), unlName, u.Line)}
		}
	}
	if pos := count(lab, func(l Labelled) bool { return l.Human }); pos == 0 || pos == len(lab) {
		return nil, &tabular.ParseError{File: labName, Line: lab[0].Line, Field: ColHuman, Err: fmt.Errorf("every labelled row has human %s: "+
			"with a single class the judge's errors on the other cannot be measured; label some items of each verdict", b01(pos > 0))}
	}
	res := &Result{Kind: "correct", Labelled: labName, Unlabelled: unlName, Method: opt.Method, By: opt.By, Confidence: opt.Confidence,
		Estimates: []Estimate{}, Groups: []Group{}, Warnings: []results.Warning{}}
	if err := res.add("", lab, unl, labName, opt); err != nil {
		return nil, err
	}
	if opt.By == "" {
		return res, nil
	}
	byLab, byUnl := map[string][]Labelled{}, map[string][]Judged{}
	for _, l := range lab {
		byLab[l.Group] = append(byLab[l.Group], l)
	}
	for _, u := range unl {
		byUnl[u.Group] = append(byUnl[u.Group], u)
	}
	var groups []string
	for g := range byUnl {
		groups = append(groups, g)
	}
	for g, ls := range byLab {
		if _, ok := byUnl[g]; !ok {
			return nil, &tabular.ParseError{File: labName, Line: ls[0].Line, Field: opt.By, Err: fmt.Errorf("group %s has %d labelled rows and no rows in %s; "+
				"the labels correct the judged items of their own group", tabular.Quote(g), len(ls), unlName)}
		}
	}
	slices.Sort(groups)
	for _, g := range groups {
		if err := res.add(g, byLab[g], byUnl[g], labName, opt); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// add appends group g's figures.
func (r *Result) add(g string, lab []Labelled, unl []Judged, labName string, opt Options) error {
	gr := Group{Group: g, NLabelled: len(lab), NUnlabelled: len(unl)}
	gr.UnlabelledPass = count(unl, func(u Judged) bool { return u.Judge })
	est := func(method string, e float64, iv stats.Interval) {
		r.Estimates = append(r.Estimates, Estimate{Method: method, Group: g, NLabelled: len(lab), NUnlabelled: len(unl), Estimate: e, CILow: iv.Lo, CIHigh: iv.Hi})
		r.Warnings = append(r.Warnings, results.FromStats(label(g)+" "+method, iv.Warnings)...)
	}
	naive := stats.WilsonInterval(gr.UnlabelledPass, len(unl), opt.Confidence)
	est(MethodNaive, float64(gr.UnlabelledPass)/float64(len(unl)), naive)
	if len(lab) == 0 {
		r.Groups = append(r.Groups, gr)
		r.Warnings = append(r.Warnings, results.Warning{Code: CodeNoLabels, Count: len(unl),
			Message: fmt.Sprintf("group %s has %d judged rows and no labelled rows: only the judge's own (naive) rate is given", label(g), len(unl))})
		return nil
	}
	var tp, fn, fp, tn int
	y, yhat, u := make([]float64, len(lab)), make([]float64, len(lab)), make([]float64, len(unl))
	for i, l := range lab {
		y[i], yhat[i] = f01(l.Human), f01(l.Judge)
		switch {
		case l.Human && l.Judge:
			tp++
		case l.Human:
			fn++
		case l.Judge:
			fp++
		default:
			tn++
		}
	}
	for i, x := range unl {
		u[i] = f01(x.Judge)
	}
	gr.HumanPass, gr.JudgePass = tp+fn, tp+fp
	if tp+fn > 0 {
		gr.Sensitivity = ptr(float64(tp) / float64(tp+fn))
	}
	if tn+fp > 0 {
		gr.Specificity = ptr(float64(tn) / float64(tn+fp))
	}
	if len(unl) < len(lab) {
		r.Warnings = append(r.Warnings, results.Warning{Code: CodeFewUnlabelled, Count: 1,
			Message: fmt.Sprintf("group %s has %d unlabelled rows, fewer than its %d labelled: the judge adds little", label(g), len(unl), len(lab))})
	}
	single := gr.Sensitivity == nil || gr.Specificity == nil
	if single {
		if opt.Method == MethodRoganGladen {
			return &tabular.ParseError{File: labName, Line: lab[0].Line, Field: opt.By, Err: fmt.Errorf("group %s: every labelled row has human %s, "+
				"so the judge's %s is unknown and Rogan-Gladen cannot correct it; label items of both verdicts in this group or use --method ppi++",
				tabular.Quote(g), b01(gr.HumanPass > 0), map[bool]string{true: "specificity", false: "sensitivity"}[gr.HumanPass > 0])}
		}
		r.Warnings = append(r.Warnings, results.Warning{Code: CodeSingleClass, Count: 1,
			Message: fmt.Sprintf("group %s: every labelled row has human %s; the interval rests on no variation in the labels and is too narrow", label(g), b01(gr.HumanPass > 0))})
	}
	e, iv := stats.PPIMean(y, yhat, u, 0, opt.Confidence)
	est(MethodClassical, e, iv)
	switch opt.Method {
	case MethodPPI:
		e, iv = stats.PPIMean(y, yhat, u, 1, opt.Confidence)
		est(MethodPPI, e, iv)
	case MethodPPIPlus:
		lambda := stats.PPILambda(y, yhat, u)
		gr.Lambda = ptr(lambda)
		e, iv = stats.PPIMean(y, yhat, u, lambda, opt.Confidence)
		est(MethodPPIPlus, e, iv)
	case MethodRoganGladen:
		p := float64(gr.UnlabelledPass) / float64(len(unl))
		e, iv = stats.RoganGladen(p, *gr.Specificity, *gr.Sensitivity, len(unl), tn+fp, tp+fn, opt.Confidence)
		est(MethodRoganGladen, e, iv)
	}
	r.Groups = append(r.Groups, gr)
	return nil
}

// label is a group's name in messages and text: "all" for the whole set.
func label(g string) string {
	if g == "" {
		return "all"
	}
	return tabular.Quote(g)
}

func count[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

func f01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func b01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func ptr(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}
