package judge

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
)

// ProbeReport is the result of evalbook probes: the bias fingerprint
// (Probes) of one or more judges over one labelled pair set.
type ProbeReport struct {
	Kind     string        `json:"kind"` // always "probes"
	Pairs    string        `json:"pairs"`
	LabelSet string        `json:"label_set"`
	N        int           `json:"n"`
	Judges   []JudgeProbes `json:"judges"`
}

// JudgeProbes is one judge's probes. Prompt and Invalid (the replies
// that broke the contract and counted as ties) are set for model judges
// only.
type JudgeProbes struct {
	Judge   string     `json:"judge"`
	Prompt  *PromptRef `json:"prompt,omitempty"`
	Invalid int        `json:"invalid,omitempty"`
	Probes
}

// ProbeJudge runs the probes of j, named name in the result, over the
// pairs (RunProbes). For a model judge (*ClientJudge) it records the
// prompt and counts the replies that broke the contract during the run.
// Errors are those of RunProbes.
func ProbeJudge(ctx context.Context, j Judge, name string, pairs []Pair) (JudgeProbes, error) {
	var before int
	ic, counts := j.(InvalidCounter)
	if counts {
		before, _ = ic.InvalidReplies()
	}
	pr, err := RunProbes(ctx, j, pairs)
	if err != nil {
		return JudgeProbes{}, err
	}
	jp := JudgeProbes{Judge: name, Probes: pr}
	if cj, ok := j.(*ClientJudge); ok {
		ref := cj.Prompt.Ref()
		jp.Prompt = &ref
	}
	if counts {
		after, _ := ic.InvalidReplies()
		jp.Invalid = after - before
	}
	return jp, nil
}

// NewProbeReport gathers the probes of several judges over the pairs
// (named pairsName) into the report evalbook probes prints.
func NewProbeReport(pairsName string, pairs []Pair, judges []JudgeProbes) *ProbeReport {
	return &ProbeReport{Kind: "probes", Pairs: pairsName, LabelSet: LabelSetHash(pairs), N: len(pairs), Judges: judges}
}

// Tables lays the probes out as one table (ProbesTable), one row per
// judge, for the XLSX and HTML renderers.
func (r *ProbeReport) Tables() []results.Table {
	names := make([]string, len(r.Judges))
	probes := make([]Probes, len(r.Judges))
	for i, j := range r.Judges {
		names[i], probes[i] = j.Judge, j.Probes
	}
	title := fmt.Sprintf("Bias probes over %s (%s, label set %s), every pair asked in both orders", results.DisplayName(r.Pairs), countNoun(r.N, "pair", "pairs"), r.LabelSet)
	return []results.Table{ProbesTable(title, names, probes)}
}

// WriteText writes the report as evalbook probes prints it: one row per
// judge with each probe as "value (hits/n)", then the prompt and invalid
// replies of each model judge.
func (r *ProbeReport) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "bias probes over %s (%s, label set %s), every pair asked in both orders\n\n", r.Pairs, countNoun(r.N, "pair", "pairs"), r.LabelSet)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "judge\tfirst_pick\torder_flip\tlonger_wins\tself_wins")
	cell := func(s Share) string {
		v, ok := s.Value()
		if !ok {
			return "- (0/0)"
		}
		return fmt.Sprintf("%.2f (%s)", v, s)
	}
	for _, j := range r.Judges {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", j.Judge, cell(j.FirstPick), cell(j.OrderFlip), cell(j.LongerWins), cell(j.SelfWins))
	}
	tw.Flush()
	for _, j := range r.Judges {
		if j.Prompt != nil {
			broke := "replies broke the contract and counted as ties"
			if j.Invalid == 1 {
				broke = "reply broke the contract and counted as a tie"
			}
			fmt.Fprintf(ew, "\n%s: prompt %s@%d (hash %s), %d %s\n", j.Judge, j.Prompt.Name, j.Prompt.Version, j.Prompt.Hash, j.Invalid, broke)
		}
	}
	fmt.Fprintln(ew, "\nA judge without these biases shows first_pick 0.50 and 0 elsewhere; each bias raises its own column.")
	return ew.err
}
