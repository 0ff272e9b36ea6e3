package results

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/stats"
)

// Power is the answer of evalbook power: a sample size per group, or the
// minimum detectable effect at a given one (stats.PlanPower). Its JSON
// keys are fixed: kind ("power"), mode ("sample_size" or "mde"),
// baseline, target (null when not given), paired, alpha, power,
// discordance ("independence", "given" or "" when unpaired), p_better
// and p_worse (paired flip probabilities, 0 when unpaired), n_per_group,
// mde and detectable_rate (null when no change is detectable),
// achieved_power and warnings.
type Power struct {
	Kind          string    `json:"kind"`
	Mode          string    `json:"mode"`
	Baseline      float64   `json:"baseline"`
	Target        *float64  `json:"target"`
	Paired        bool      `json:"paired"`
	Alpha         float64   `json:"alpha"`
	Power         float64   `json:"power"`
	Discordance   string    `json:"discordance"`
	PBetter       float64   `json:"p_better"`
	PWorse        float64   `json:"p_worse"`
	NPerGroup     int       `json:"n_per_group"`
	MDE           *float64  `json:"mde"`
	Detectable    *float64  `json:"detectable_rate"`
	AchievedPower float64   `json:"achieved_power"`
	Warnings      []Warning `json:"warnings"`
}

// PlanPower runs stats.PlanPower and returns its plan as a Power result;
// errors wrap stats.ErrPowerQuery.
func PlanPower(q stats.PowerQuery) (*Power, error) {
	p, err := stats.PlanPower(q)
	if err != nil {
		return nil, err
	}
	return &Power{Kind: "power", Mode: p.Mode, Baseline: p.Baseline, Target: p.Target, Paired: p.Paired,
		Alpha: p.Alpha, Power: p.Power, Discordance: p.Discordance, PBetter: p.PBetter, PWorse: p.PWorse,
		NPerGroup: p.NPerGroup, MDE: p.MDE, Detectable: p.Detectable, AchievedPower: p.AchievedPower,
		Warnings: FromStats("", p.Warnings)}, nil
}

func (r *Power) design() string {
	if !r.Paired {
		return "unpaired: two-sample test of proportions (normal approximation, as R's power.prop.test)"
	}
	src := "derived from independence, p_better = p2(1 - p1), p_worse = p1(1 - p2)"
	if r.Discordance == "given" {
		src = "from the given discordance"
	}
	return "paired: McNemar's test (Connor 1987), flip probabilities " + src
}

// WriteText prints the plan as evalbook power does.
func (r *Power) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	tw := tabwriter.NewWriter(ew, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "design\t%s\n", r.design())
	fmt.Fprintf(tw, "baseline\t%s\n", f(r.Baseline))
	if r.Target != nil {
		fmt.Fprintf(tw, "target\t%s\n", f(*r.Target))
	}
	fmt.Fprintf(tw, "alpha\t%s (two-sided)\n", f(r.Alpha))
	fmt.Fprintf(tw, "power\t%s\n", f(r.Power))
	per := "cases per group"
	if r.Paired {
		per = "cases (each run by both versions)"
	}
	if r.Mode == "sample_size" {
		fmt.Fprintf(tw, "needed\t%d %s\n", r.NPerGroup, per)
		fmt.Fprintf(tw, "achieved power\t%s\n", f(r.AchievedPower))
	} else {
		fmt.Fprintf(tw, "cases\t%d %s\n", r.NPerGroup, per)
		if r.MDE != nil {
			fmt.Fprintf(tw, "minimum detectable effect\t%s (a pass rate of %s)\n", f(*r.MDE), f(*r.Detectable))
		} else {
			fmt.Fprintf(tw, "minimum detectable effect\tnone\n")
		}
		if r.Target != nil {
			fmt.Fprintf(tw, "power at target\t%s\n", f(r.AchievedPower))
		}
	}
	if r.Paired {
		fmt.Fprintf(tw, "p_better, p_worse\t%s, %s\n", f(r.PBetter), f(r.PWorse))
	}
	tw.Flush()
	if len(r.Warnings) > 0 {
		fmt.Fprintln(ew, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(ew, "  %s\n", m.Message)
		}
	}
	return ew.err
}

// Tables lays the plan out as one table of figures and the warnings.
func (r *Power) Tables() []Table {
	t := Table{Title: "Power plan", Note: r.design(),
		Columns: []Column{{Name: "figure"}, {Name: "value", Kind: KindNumber, PerRow: true}}}
	add := func(name, v, kind string) {
		t.Rows = append(t.Rows, []string{name, v})
		t.RowKinds = append(t.RowKinds, kind)
	}
	add("baseline", Float(r.Baseline), KindRate)
	if r.Target != nil {
		add("target", Float(*r.Target), KindRate)
	}
	add("alpha", Float(r.Alpha), KindNumber)
	add("power", Float(r.Power), KindRate)
	add("n per group", strconv.Itoa(r.NPerGroup), KindCount)
	if r.MDE != nil {
		add("minimum detectable effect", Float(*r.MDE), KindPP)
		add("detectable rate", Float(*r.Detectable), KindRate)
	} else {
		add("minimum detectable effect", "", KindPP)
	}
	if r.Mode == "sample_size" || r.Target != nil {
		add("achieved power", Float(r.AchievedPower), KindRate)
	}
	if r.Paired {
		add("p_better", Float(r.PBetter), KindRate)
		add("p_worse", Float(r.PWorse), KindRate)
	}
	return append([]Table{t}, WarningTable(r.Warnings)...)
}
