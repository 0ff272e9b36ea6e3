package ratings

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// DefaultResamples is the number of bootstrap replicates when
// Options.Resamples is 0.
const DefaultResamples = 1000

// EloBase and EloScale map a log-strength θ to the Elo-like figure
// EloBase + EloScale·θ (EloScale = 400/ln 10).
const EloBase = 1000.0

// EloScale is 400/ln 10: 400 points are odds of 10 to 1.
var EloScale = 400 / math.Ln10

// Warning codes of Analyze.
const (
	// CodeBootstrapNotEstimable: some bootstrap replicates had no MLE (a
	// resample left a model without a win or a loss); they are left out
	// of the intervals, which are then too narrow.
	CodeBootstrapNotEstimable = "bootstrap_not_estimable"
	// CodeFewComparisons: a model has fewer than MinComparisons
	// comparisons; its rating is rough.
	CodeFewComparisons = "few_comparisons"
)

// MinComparisons is the number of comparisons below which a model's
// rating is flagged (CodeFewComparisons).
const MinComparisons = 10

// Options configures Analyze. The zero value draws DefaultResamples
// replicates for 95% intervals with seed 0, anchored at mean 0.
type Options struct {
	Resamples  int     // 0: DefaultResamples; negative: no intervals
	Confidence float64 // 0: 0.95
	Seed       uint64
	// Anchor, when set, names the model whose log-strength is 0 (its
	// interval is then [0, 0]); empty anchors the mean at 0.
	Anchor string
}

// Settings records every choice that changes a figure.
type Settings struct {
	Resamples  int     `json:"resamples"`
	Confidence float64 `json:"confidence"`
	Seed       uint64  `json:"seed"`
	Model      string  `json:"model"`  // "bradley-terry"
	Ties       string  `json:"ties"`   // how ties count
	Fit        string  `json:"fit"`    // the algorithm
	Scale      string  `json:"scale"`  // what rating means
	Anchor     string  `json:"anchor"` // "mean" or the anchored model
	// ResampleUnit is "item" (verdicts sharing an item id are resampled
	// together) or "verdict".
	ResampleUnit string  `json:"resample_unit"`
	EloBase      float64 `json:"elo_base"`
	EloScale     float64 `json:"elo_scale"`
}

// Rating is one model's figures.
type Rating struct {
	Model string `json:"model"`
	Rank  int    `json:"rank"` // 1 + models with a higher rating (by more than 1e-8)
	// Rating is the log-strength θ; CILow and CIHigh its percentile
	// bootstrap interval (equal to Rating when there are no intervals).
	Rating float64 `json:"rating"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	// Elo, EloLow and EloHigh are the same on the Elo-like scale.
	Elo         float64 `json:"elo"`
	EloLow      float64 `json:"elo_low"`
	EloHigh     float64 `json:"elo_high"`
	Comparisons int     `json:"comparisons"`
	Wins        int     `json:"wins"`
	Losses      int     `json:"losses"`
	Ties        int     `json:"ties"`
}

// Result is the ratings of a verdict file.
type Result struct {
	Kind     string   `json:"kind"` // always "ratings"
	Source   string   `json:"source"`
	Settings Settings `json:"settings"`
	Verdicts int      `json:"verdicts"`
	Items    int      `json:"items"`   // distinct item ids (0 when none)
	Ratings  []Rating `json:"ratings"` // by rating, best first
	// Replicates is the number of bootstrap replicates whose fit exists
	// (the intervals rest on them).
	Replicates int               `json:"replicates"`
	Warnings   []results.Warning `json:"warnings"`
}

// NotEstimableError is Analyze's error when the Bradley-Terry estimate
// does not exist: the models fall into Groups (by name) that the
// verdicts cannot place against each other.
type NotEstimableError struct {
	Source string
	// Disconnected: no verdict joins two groups. Otherwise Groups are
	// ordered best first: no model of a later group ever beat or tied a
	// model of an earlier one.
	Disconnected bool
	Groups       [][]string
}

func (e *NotEstimableError) Error() string {
	g := make([]string, len(e.Groups))
	for i, ms := range e.Groups {
		g[i] = "{" + strings.Join(ms, ", ") + "}"
	}
	if e.Disconnected {
		return fmt.Sprintf("%s: the comparisons fall into %d groups that no verdict joins: %s; Bradley-Terry ratings "+
			"cannot place one group against another (add comparisons between them, or rate each group on its own)",
			e.Source, len(e.Groups), strings.Join(g, " | "))
	}
	return fmt.Sprintf("%s: the Bradley-Terry estimate does not exist: in the order %s no model of a later group ever "+
		"beat or tied a model of an earlier group, so the earlier group's ratings would be infinite (add comparisons "+
		"the later groups win or tie)", e.Source, strings.Join(g, " > "))
}

// Analyze fits Bradley-Terry ratings to verdicts (source names them in
// the result and errors) with percentile bootstrap intervals: each
// replicate resamples the items (the verdicts sharing an item id stay
// together; verdicts without an id are units of their own), refits, and
// re-anchors. Replicates whose fit does not exist are left out and
// counted in a bootstrap_not_estimable warning. It returns a
// *NotEstimableError when the fit on all verdicts does not exist.
func Analyze(verdicts []Verdict, source string, opt Options) (*Result, error) {
	opt, err := withDefaults(opt)
	if err != nil {
		return nil, err
	}
	if len(verdicts) == 0 {
		return nil, fmt.Errorf("%s: no verdicts", source)
	}
	models, idx := modelIndex(verdicts)
	anchor := -1
	if opt.Anchor != "" {
		a, ok := idx[opt.Anchor]
		if !ok {
			return nil, fmt.Errorf("%s: anchor model %q has no verdicts (models: %s)", source, opt.Anchor, strings.Join(models, ", "))
		}
		anchor = a
	}
	res := &Result{Kind: "ratings", Source: source, Verdicts: len(verdicts), Warnings: []results.Warning{}, Ratings: []Rating{},
		Settings: Settings{Resamples: opt.Resamples, Confidence: opt.Confidence, Seed: opt.Seed, Model: "bradley-terry",
			Ties: "half a win to each model", Fit: "maximum likelihood, MM algorithm (Hunter 2004)",
			Scale: "log-strength θ: A beats B with probability 1/(1+exp(θB−θA))", Anchor: "mean", ResampleUnit: "verdict",
			EloBase: EloBase, EloScale: EloScale}}
	if anchor >= 0 {
		res.Settings.Anchor = opt.Anchor
	}
	t, err := tally(verdicts, models, idx, source)
	if err != nil {
		return nil, err
	}
	rs := t.ratings
	res.Items = t.items
	if res.Items > 0 {
		res.Settings.ResampleUnit = "item"
	}
	fit, err := stats.BradleyTerry(t.wins)
	if err != nil {
		return nil, notEstimable(err, models, source)
	}
	theta := anchored(fit.Theta, anchor)
	for i := range rs {
		rs[i].Rating = theta[i]
		rs[i].CILow, rs[i].CIHigh = theta[i], theta[i]
	}
	if opt.Resamples > 0 {
		if err := bootstrapIntervals(res, rs, t.units, anchor, opt); err != nil {
			return nil, err
		}
	}
	warnFewComparisons(res, rs)
	rank(rs)
	res.Ratings = rs
	return res, nil
}

// withDefaults fills in the default confidence and resamples (a negative
// count means none) and checks the confidence.
func withDefaults(opt Options) (Options, error) {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return opt, fmt.Errorf("confidence must lie between 0 and 1 (got %v)", opt.Confidence)
	}
	switch {
	case opt.Resamples == 0:
		opt.Resamples = DefaultResamples
	case opt.Resamples < 0:
		opt.Resamples = 0
	}
	return opt, nil
}

// modelIndex lists the models of the verdicts, sorted, and gives each
// its index in that list.
func modelIndex(verdicts []Verdict) ([]string, map[string]int) {
	idx := map[string]int{}
	for _, v := range verdicts {
		idx[v.ModelA], idx[v.ModelB] = 0, 0
	}
	models := make([]string, 0, len(idx))
	for m := range idx {
		models = append(models, m)
	}
	sort.Strings(models)
	for i, m := range models {
		idx[m] = i
	}
	return models, idx
}

// tallied is what the verdicts count up to: each model's comparisons,
// wins, losses and ties, the win matrix (a tie half a win to each), and
// the outcomes grouped into resampling units, one per item id, else one
// per verdict; items counts the item ids.
type tallied struct {
	ratings []Rating
	wins    [][]float64
	units   [][]stats.BTOutcome
	items   int
}

// tally counts the verdicts; a winner other than a, b or tie is an error
// naming its line.
func tally(verdicts []Verdict, models []string, idx map[string]int, source string) (tallied, error) {
	k := len(models)
	unitOf := map[string]int{}
	var units [][]stats.BTOutcome
	rs := make([]Rating, k)
	wins := make([][]float64, k)
	for i := range wins {
		wins[i] = make([]float64, k)
		rs[i].Model = models[i]
	}
	for _, v := range verdicts {
		a, b := idx[v.ModelA], idx[v.ModelB]
		var out []stats.BTOutcome
		rs[a].Comparisons++
		rs[b].Comparisons++
		switch v.Winner {
		case WinnerA:
			out = []stats.BTOutcome{{I: a, J: b, W: 1}}
			rs[a].Wins++
			rs[b].Losses++
		case WinnerB:
			out = []stats.BTOutcome{{I: b, J: a, W: 1}}
			rs[b].Wins++
			rs[a].Losses++
		case WinnerTie:
			out = []stats.BTOutcome{{I: a, J: b, W: 0.5}, {I: b, J: a, W: 0.5}}
			rs[a].Ties++
			rs[b].Ties++
		default:
			return tallied{}, fmt.Errorf("%s:%d: winner %q: want a, b or tie", source, v.Line, v.Winner)
		}
		for _, o := range out {
			wins[o.I][o.J] += o.W
		}
		if v.Item != "" {
			u, ok := unitOf[v.Item]
			if !ok {
				u = len(units)
				unitOf[v.Item] = u
				units = append(units, nil)
			}
			units[u] = append(units[u], out...)
		} else {
			units = append(units, out)
		}
	}
	return tallied{ratings: rs, wins: wins, units: units, items: len(unitOf)}, nil
}

// notEstimable is the fit's error, a stats.NotEstimableError told as
// the groups of model names that are not linked.
func notEstimable(err error, models []string, source string) error {
	ne, ok := err.(*stats.NotEstimableError)
	if !ok {
		return err
	}
	e := &NotEstimableError{Source: source, Disconnected: ne.Disconnected}
	for _, c := range ne.Components {
		var names []string
		for _, i := range c {
			names = append(names, models[i])
		}
		e.Groups = append(e.Groups, names)
	}
	return e
}

// bootstrapIntervals sets each rating's percentile interval from
// opt.Resamples bootstrap replicates over the units, anchored as the
// fit; replicates with no estimate are left out, with a warning.
func bootstrapIntervals(res *Result, rs []Rating, units [][]stats.BTOutcome, anchor int, opt Options) error {
	reps, dropped, err := stats.BradleyTerryBootstrap(len(rs), units, opt.Resamples, opt.Seed)
	if err != nil {
		return err
	}
	res.Replicates = opt.Resamples - dropped
	if dropped > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeBootstrapNotEstimable, Count: dropped,
			Message: fmt.Sprintf("%d of %d bootstrap replicates had no Bradley-Terry estimate (a resample left a model "+
				"without a win, a loss or a link to the rest) and are left out, so the intervals are too narrow; "+
				"more comparisons per model fix this", dropped, opt.Resamples)})
	}
	if res.Replicates == 0 {
		return nil
	}
	col := make([]float64, 0, res.Replicates)
	for i := range rs {
		col = col[:0]
		for _, t := range reps {
			if t != nil {
				col = append(col, anchored(t, anchor)[i])
			}
		}
		sort.Float64s(col)
		a := (1 - opt.Confidence) / 2
		rs[i].CILow, rs[i].CIHigh = stats.Percentile(col, a), stats.Percentile(col, 1-a)
	}
	return nil
}

// warnFewComparisons sets each rating's Elo figures and warns of models
// with fewer than MinComparisons comparisons.
func warnFewComparisons(res *Result, rs []Rating) {
	var few []string
	for i := range rs {
		r := &rs[i]
		r.Elo, r.EloLow, r.EloHigh = elo(r.Rating), elo(r.CILow), elo(r.CIHigh)
		if r.Comparisons < MinComparisons {
			few = append(few, fmt.Sprintf("%s (%d)", r.Model, r.Comparisons))
		}
	}
	if len(few) > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeFewComparisons, Count: len(few),
			Message: fmt.Sprintf("%d %s fewer than %d comparisons, so %s rough: %s", len(few),
				map[bool]string{true: "model has", false: "models have"}[len(few) == 1], MinComparisons,
				map[bool]string{true: "its rating is", false: "their ratings are"}[len(few) == 1], strings.Join(few, ", "))})
	}
}

// rank sorts the ratings best first and ranks each 1 + the models rated
// higher by more than rankTolerance.
func rank(rs []Rating) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Rating > rs[j].Rating })
	for i := range rs {
		rs[i].Rank = 1
		for j := range rs {
			if rs[j].Rating > rs[i].Rating+rankTolerance {
				rs[i].Rank++
			}
		}
	}
}

// rankTolerance: ratings closer than this are tied for the rank (the MM
// iteration stops at stats.BradleyTerryTolerance).
const rankTolerance = 1e-8

// anchored returns θ shifted so that θ[anchor] is 0, or unchanged (sum
// 0) when anchor is negative.
func anchored(theta []float64, anchor int) []float64 {
	if anchor < 0 {
		return theta
	}
	out := make([]float64, len(theta))
	for i, t := range theta {
		out[i] = t - theta[anchor]
	}
	return out
}

func elo(theta float64) float64 { return EloBase + EloScale*theta }

// WriteText writes the ratings as a table, best first, with the settings
// and the warnings.
func (r *Result) WriteText(w io.Writer) error {
	var s strings.Builder
	anchor := "their mean at 0"
	if r.Settings.Anchor != "mean" {
		anchor = r.Settings.Anchor + " at 0"
	}
	fmt.Fprintf(&s, "Bradley-Terry ratings: %s, %d verdicts, %d models\n", r.Source, r.Verdicts, len(r.Ratings))
	fmt.Fprintf(&s, "rating: log-strength θ (A beats B with probability 1/(1+e^(θB−θA))), %s; ties count half a win each;\n"+
		"  elo = %g + 400/ln 10 · θ; fit by maximum likelihood (MM, Hunter 2004).\n", anchor, r.Settings.EloBase)
	if r.Settings.Resamples > 0 {
		unit := "verdicts"
		if r.Settings.ResampleUnit == "item" {
			unit = fmt.Sprintf("items (%d; verdicts on one item stay together)", r.Items)
		}
		fmt.Fprintf(&s, "Intervals: %.0f%% percentile bootstrap over %s, %d of %d replicates, seed %d.\n",
			r.Settings.Confidence*100, unit, r.Replicates, r.Settings.Resamples, r.Settings.Seed)
	} else {
		s.WriteString("No intervals (no resamples).\n")
	}
	s.WriteString("\n")
	tw := tabwriter.NewWriter(&s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tmodel\trating\tinterval\telo\telo interval\tcomparisons\twins\tlosses\tties")
	for _, x := range r.Ratings {
		fmt.Fprintf(tw, "%d\t%s\t%+.3f\t[%+.3f, %+.3f]\t%.0f\t[%.0f, %.0f]\t%d\t%d\t%d\t%d\n", x.Rank, x.Model, x.Rating, x.CILow, x.CIHigh,
			x.Elo, x.EloLow, x.EloHigh, x.Comparisons, x.Wins, x.Losses, x.Ties)
	}
	tw.Flush()
	if len(r.Warnings) > 0 {
		s.WriteString("\nWarnings\n")
		for _, wn := range r.Warnings {
			fmt.Fprintf(&s, "  - %s\n", wn.Message)
		}
	}
	_, err := io.WriteString(w, s.String())
	return err
}

// Tables returns the ratings as one table, for XLSX and HTML.
func (r *Result) Tables() []results.Table {
	f := results.Float
	t := results.Table{
		Title: "Bradley-Terry ratings",
		Note: fmt.Sprintf("%s: log-strength θ anchored at %s (ties half a win each), %.0f%% percentile bootstrap intervals over %ss (%d replicates); elo = %g + 400/ln 10 · θ.",
			results.DisplayName(r.Source), r.Settings.Anchor, r.Settings.Confidence*100, r.Settings.ResampleUnit, r.Replicates, r.Settings.EloBase),
		Columns: []results.Column{{Name: "rank", Kind: results.KindNumber}, {Name: "model"}, {Name: "rating", Kind: results.KindNumber},
			{Name: "ci_low", Kind: results.KindNumber}, {Name: "ci_high", Kind: results.KindNumber}, {Name: "elo", Kind: results.KindRating},
			{Name: "elo_low", Kind: results.KindRating}, {Name: "elo_high", Kind: results.KindRating},
			{Name: "comparisons", Kind: results.KindNumber}, {Name: "wins", Kind: results.KindNumber},
			{Name: "losses", Kind: results.KindNumber}, {Name: "ties", Kind: results.KindNumber}},
	}
	for _, x := range r.Ratings {
		t.Rows = append(t.Rows, []string{strconv.Itoa(x.Rank), x.Model, f(x.Rating), f(x.CILow), f(x.CIHigh), f(x.Elo), f(x.EloLow),
			f(x.EloHigh), strconv.Itoa(x.Comparisons), strconv.Itoa(x.Wins), strconv.Itoa(x.Losses), strconv.Itoa(x.Ties)})
	}
	return append([]results.Table{t}, results.WarningTable(r.Warnings)...)
}

// File reads the verdict file name (ReadVerdicts) from r and analyses it.
func File(r io.Reader, name string, opt Options) (*Result, error) {
	vs, err := ReadVerdicts(r, name)
	if err != nil {
		return nil, err
	}
	return Analyze(vs, name, opt)
}
