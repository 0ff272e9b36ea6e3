package judge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
)

// The lesson's usability thresholds (see Usable).
const (
	DefaultMinKappa = 0.6
	DefaultMinSlice = 0.6
)

// Errors of CalibrationOptions.Validate, each wrapped with the value.
var (
	// ErrMinKappa: MinKappa is not a kappa between -1 and 1.
	ErrMinKappa = errors.New("judge: the lowest acceptable kappa must be between -1 and 1")
	// ErrMinSlice: MinSlice is not a share between 0 and 1.
	ErrMinSlice = errors.New("judge: the lowest acceptable slice agreement must be a share between 0 and 1")
	// ErrVersusFake: Versus was given with a judge that is not a model
	// judge (*ClientJudge); a fake judge does not read the prompt.
	ErrVersusFake = errors.New("judge: a second prompt needs a model judge (a *ClientJudge); a fake judge does not read the prompt")
)

// CalibrationOptions configures CalibrateJudge: how to calibrate, the
// usability thresholds, and optionally a second prompt to compare with.
// MinKappa and MinSlice are used as given (zero is a valid threshold);
// the lesson's are DefaultMinKappa and DefaultMinSlice.
type CalibrationOptions struct {
	CalibrateOptions
	// Pairs names the pair set in the result, e.g. its file name.
	Pairs string
	// MinKappa is the lowest acceptable kappa (-1 to 1), MinSlice the
	// lowest acceptable share of agreement in any kind or language (0 to
	// 1).
	MinKappa, MinSlice float64
	// Versus, when set, also calibrates the same model with this second
	// pairwise prompt (ComparePrompts); the judge must be a *ClientJudge.
	Versus *Prompt
}

// Validate checks the thresholds: ErrMinKappa or ErrMinSlice, wrapped
// with the value.
func (o CalibrationOptions) Validate() error {
	if k := o.MinKappa; math.IsNaN(k) || k < -1 || k > 1 {
		return fmt.Errorf("%w, not %v", ErrMinKappa, k)
	}
	if s := o.MinSlice; math.IsNaN(s) || s < 0 || s > 1 {
		return fmt.Errorf("%w, not %v", ErrMinSlice, s)
	}
	return nil
}

// Calibration is the result of evalbook calibrate: a judge's calibration
// record against a labelled pair set, the usability verdict under two
// thresholds with its reasons, and, when a second prompt was compared,
// the prompt comparison (whose First is Record).
type Calibration struct {
	Kind     string            `json:"kind"` // always "calibration"
	Pairs    string            `json:"pairs"`
	Record   Record            `json:"record"`
	MinKappa float64           `json:"min_kappa"`
	MinSlice float64           `json:"min_slice"`
	Usable   bool              `json:"usable"`
	Reasons  []string          `json:"reasons"`
	Compare  *PromptComparison `json:"prompt_comparison,omitempty"`
	// ModelJudge is true when the judge was a model judge (*ClientJudge),
	// which reads the prompt and can give invalid replies; the text then
	// counts them, and for a fake judge it says the prompt is not read.
	// It is not part of the JSON document.
	ModelJudge bool `json:"-"`
}

// CalibrateJudge calibrates j against the labelled pairs with prompt p
// (Calibrate) and decides whether it is usable (Usable, under
// opt.MinKappa and opt.MinSlice). With opt.Versus it calibrates the same
// model with both prompts instead (ComparePrompts; the record is the
// first prompt's). This is what evalbook calibrate computes.
//
// Errors: those of Validate, ErrVersusFake, and those of Calibrate (a
// cancelled ctx among them; with a model judge the replies received
// are in its client's cache).
func CalibrateJudge(ctx context.Context, j Judge, p Prompt, pairs []Pair, opt CalibrationOptions) (*Calibration, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	cj, model := j.(*ClientJudge)
	if opt.Versus != nil && !model {
		return nil, ErrVersusFake
	}
	c := &Calibration{Kind: "calibration", Pairs: opt.Pairs, MinKappa: opt.MinKappa, MinSlice: opt.MinSlice, ModelJudge: model}
	if opt.Versus != nil {
		if nilJudge(j) {
			return nil, fmt.Errorf("calibrate: %w", ErrNilJudge)
		}
		pc, err := ComparePrompts(ctx, cj.Client, p, *opt.Versus, pairs, opt.CalibrateOptions)
		if err != nil {
			return nil, err
		}
		c.Record, c.Compare = pc.First, &pc
	} else {
		r, err := Calibrate(ctx, j, p, pairs, opt.CalibrateOptions)
		if err != nil {
			return nil, err
		}
		c.Record = r
	}
	c.Reasons = Usable(c.Record, opt.MinKappa, opt.MinSlice)
	c.Usable = len(c.Reasons) == 0
	if c.Reasons == nil {
		c.Reasons = []string{}
	}
	return c, nil
}

// Tables lays the calibration out as tables for the XLSX and HTML
// renderers (CalibrationTables).
func (c *Calibration) Tables() []results.Table {
	return append(CalibrationTables(c.Record, c.Usable, c.Reasons), results.WarningTable(c.Record.Warnings)...)
}

// WriteText writes the calibration as evalbook calibrate prints it: the
// judge, prompt and label set, agreement with its interval, kappa, order
// disagreements (and invalid replies of a model judge), the confusion,
// agreement per slice, the shape of the wrong picks, the prompt
// comparison, the verdict with its reasons, and the warnings.
func (c *Calibration) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	r := c.Record
	fmt.Fprintf(ew, "calibration of %s against %s (%s, label set %s)\n", r.Judge, c.Pairs, countNoun(r.N, "pair", "pairs"), r.LabelSet)
	order := "asked in one order (a shown first)"
	if r.Swap {
		order = "asked in both orders, a disagreement counted as a tie"
	}
	fmt.Fprintf(ew, "prompt %s@%d (hash %s); %s\n", r.Prompt.Name, r.Prompt.Version, r.Prompt.Hash, order)
	if !c.ModelJudge {
		fmt.Fprintln(ew, "(a fake judge does not read the prompt; the record is tied to it all the same)")
	}
	fmt.Fprintln(ew)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "agreement\t%d/%d = %s\t%.0f%% bootstrap interval [%s, %s]\n", r.Agree, r.N, pct(r.Agreement), r.Confidence*100, pct(r.AgreementLow), pct(r.AgreementHigh))
	fmt.Fprintf(tw, "kappa\t%.3f\n", r.Kappa)
	fmt.Fprintf(tw, "order disagreements\t%d\n", r.OrderDisagreements)
	if c.ModelJudge {
		if r.Invalid > 0 {
			fmt.Fprintf(tw, "invalid replies\t%d\t%s\n", r.Invalid, countList(r.InvalidReasons))
		} else {
			fmt.Fprintf(tw, "invalid replies\t0\n")
		}
	}
	tw.Flush()

	fmt.Fprintln(ew, "\nconfusion (rows: final human label; columns: the judge)")
	tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  human\ta\tb\ttie")
	for _, h := range Labels {
		row := r.Confusion[h]
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\n", h, row[LabelA], row[LabelB], row[LabelTie])
	}
	tw.Flush()

	fmt.Fprintln(ew, "\nagreement per slice")
	tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  slice\tagree\tn\tshare")
	for _, s := range []struct {
		what string
		m    map[string]Share
	}{{"kind", r.ByKind}, {"lang", r.ByLang}} {
		for _, k := range sortedKeys(s.m) {
			sh := s.m[k]
			v, _ := sh.Value()
			fmt.Fprintf(tw, "  %s %s\t%d\t%d\t%s\n", s.what, k, sh.Hits, sh.N, pct(v))
		}
	}
	tw.Flush()

	e := r.Errors
	fmt.Fprintf(ew, "\nwrong decisive picks %d: the longer answer %d, the one shown first %d, the uncited one %d, the judge's own style %d\n",
		e.WrongDecisive, e.PickedLonger, e.PickedFirst, e.PickedUncited, e.PickedOwnStyle)
	if pc := c.Compare; pc != nil {
		fmt.Fprintf(ew, "\nprompt comparison: %s@%d agrees %d/%d, %s@%d agrees %d/%d (gap %+.3f); the two versions give the same label on %s pairs\n",
			pc.First.Prompt.Name, pc.First.Prompt.Version, pc.First.Agree, pc.First.N,
			pc.Second.Prompt.Name, pc.Second.Prompt.Version, pc.Second.Agree, pc.Second.N, pc.Gap, pc.Between)
	}
	verdict := "yes"
	if !c.Usable {
		verdict = "no"
	}
	fmt.Fprintf(ew, "\nusable (kappa >= %g and every slice >= %g): %s\n", c.MinKappa, c.MinSlice, verdict)
	for _, why := range c.Reasons {
		fmt.Fprintf(ew, "  - %s\n", why)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(ew, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(ew, "  %s\n", m.Message)
		}
	}
	fmt.Fprintln(ew, "\nA pass shows agreement with these labels on these kinds of pair; it does not show that the judge is right on other data, or that the labels are.")
	return ew.err
}

// errWriter keeps the first write error, so a text writer can print
// freely and report it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	if _, err := e.w.Write(p); err != nil {
		e.err = err
	}
	return len(p), nil
}

// pct formats a share as a percentage with one decimal.
func pct(x float64) string { return fmt.Sprintf("%.1f%%", x*100) }

// countNoun returns "1 pair" or "n pairs".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// countList formats counts by key as "key n, key n" in key order.
func countList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
