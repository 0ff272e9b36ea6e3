package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/judge"
)

func init() {
	register(&command{name: "calibrate", summary: "calibrate a pairwise judge against human labels: agreement, kappa, slices, error shapes, usable or not", run: runCalibrate})
}

const calibrateHelp = `
Usage: evalbook calibrate --judge fake:NAME|URL [--pairs FILE] [--model NAME] [--prompt ID]
                          [--swap] [--min-kappa 0.6] [--min-slice 0.6] [--vs ID]
                          [--resamples N] [--seed N] [--json] [model judge flags]

Asks a pairwise judge about every labelled pair (question, listed facts, answers a and b;
JSON Lines with id, question, facts, a, b, kind, lang, ann1, ann2, final) and compares its
verdicts with the final human labels. The record names the judge, the prompt (name, version,
hash) and the label set (hash), and gives n, agreement with a 95% percentile bootstrap
interval, Cohen's kappa, the confusion matrix (rows: human labels), agreement per kind and
per language, order disagreements (with --swap), and the shape of the judge's wrong decisive
picks: how many went to the longer answer, the one shown first, the uncited one, or the one
in the judge's own style. Then it says whether the judge is usable: kappa at least
--min-kappa and every slice (kind and language) at least --min-slice, with the reasons when
not. A record is stale as soon as the judge, any word of the prompt, or any label changes.
--min-kappa is a kappa (-1 to 1); --min-slice is a share of agreement (0 to 1), not a count.

--swap asks in both orders and calls a disagreement a tie: it turns verdicts that depend on
the order into honest ties, and cannot bring back right verdicts.

Judges: fake:clean, fake:position, fake:verbosity, fake:self, fake:mixed (deterministic
judges with switchable biases; see "evalbook probes"), or the base URL of an
OpenAI-compatible endpoint with --model, asked with a pairwise prompt (default: the
highest version of "pairwise"). For a model judge, replies that break the contract count
as ties and are reported; --vs ID also calibrates the same model with a second prompt and
reports the agreement of each and between them (a large gap means a wording-sensitive
judge); a fake judge does not read the prompt, so --vs with one is a usage error. Model judge flags are those of "evalbook judge": --concurrency, --rpm, --timeout,
--retries, --api-key-env, --model-seed, --cache, --prompts.

With no --pairs the built-in 30 pairs (datasets/judge/pairs.jsonl) are used, and a note says
so on stderr. Thirty pairs give a wide interval, and five pairs per slice are weak evidence
either way: a failing slice says where to label more.

Examples:
	evalbook calibrate --judge fake:mixed
	evalbook calibrate --judge fake:mixed --swap --json
	evalbook calibrate --pairs my_pairs.jsonl --judge http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-7B-Instruct --swap --vs pairwise@1
`

// calibrateReport is the JSON document of evalbook calibrate.
type calibrateReport struct {
	Kind     string                  `json:"kind"` // always "calibration"
	Pairs    string                  `json:"pairs"`
	Record   judge.Record            `json:"record"`
	MinKappa float64                 `json:"min_kappa"`
	MinSlice float64                 `json:"min_slice"`
	Usable   bool                    `json:"usable"`
	Reasons  []string                `json:"reasons"`
	Compare  *judge.PromptComparison `json:"prompt_comparison,omitempty"`
}

// openPairJudge turns a --judge value into a pairwise judge: a named fake
// judge, or a model behind an endpoint asked with prompt p.
func openPairJudge(e *env, cmd, spec string, cf *judgeClientFlags, p judge.Prompt) (judge.Judge, string, *modelJudge, error) {
	if name, ok := strings.CutPrefix(spec, "fake:"); ok {
		f, err := judge.FakeByName(name)
		if err != nil {
			return nil, "", nil, usagef("%s: --judge: %v", cmd, err)
		}
		return f, f.String(), nil, nil
	}
	if !strings.HasPrefix(spec, "http://") && !strings.HasPrefix(spec, "https://") {
		return nil, "", nil, usagef("%s: --judge must be fake:NAME or an endpoint URL such as http://127.0.0.1:8000/v1, not %q", cmd, spec)
	}
	m, err := cf.open(e, cmd, spec)
	if err != nil {
		return nil, "", nil, err
	}
	return judge.NewClientJudge(m.client, p), *cf.model + " at " + m.endpoint, m, nil
}

func runCalibrate(e *env) error {
	fs := newFlags(e, "calibrate", calibrateHelp)
	var (
		pairsPath = fs.String("pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:clean|position|verbosity|self|mixed, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID`: name, name@version or a hash prefix")
		vs        = fs.String("vs", "", "also calibrate with this second prompt `ID` and compare (model judges)")
		swap      = fs.Bool("swap", false, "ask in both orders; a disagreement is a tie")
		minKappa  = fs.Float64("min-kappa", 0.6, "lowest acceptable `kappa` (-1 to 1)")
		minSlice  = fs.Float64("min-slice", 0.6, "lowest acceptable agreement in any kind or language, a `share` from 0 to 1")
		resamples = fs.Int("resamples", judge.DefaultResamples, "bootstrap `resamples` for the agreement interval")
		seed      = fs.Uint64("seed", 1, "bootstrap random `seed` (same seed, same interval)")
		asJSON    = fs.Bool("json", false, "print one JSON document instead of tables")
		charts    = fs.String("charts", "", "write the per-kind agreement bars and the confusion heat map (PNG and SVG) to `DIR`")
	)
	export := addTableExportFlags(fs)
	cf := addJudgeClientFlags(fs, 8)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("calibrate: unexpected argument %q", args[0])
	}
	if *spec == "" {
		return usagef("calibrate: --judge is required (fake:NAME or an endpoint URL)")
	}
	if *resamples < 1 {
		return usagef("calibrate: --resamples must be positive")
	}
	if math.IsNaN(*minKappa) || *minKappa < -1 || *minKappa > 1 {
		return usagef("calibrate: --min-kappa is a kappa, between -1 and 1 (e.g. 0.6), not %v", *minKappa)
	}
	if math.IsNaN(*minSlice) || *minSlice < 0 || *minSlice > 1 {
		return usagef("calibrate: --min-slice is the lowest share of agreement a kind or language may show, between 0 and 1 (0.6 means 60%%), not a number of pairs; got %v", *minSlice)
	}
	if *vs != "" && strings.HasPrefix(*spec, "fake:") {
		return usagef("calibrate: --vs compares two prompts of a model judge; a fake judge does not read the prompt, so there is nothing to compare (drop --vs, or give an endpoint URL)")
	}
	p, err := chooseJudgePrompt("calibrate", *cf.prompts, *promptID, judge.KindPairwise)
	if err != nil {
		return err
	}
	var p2 judge.Prompt
	if *vs != "" {
		if p2, err = chooseJudgePrompt("calibrate", *cf.prompts, *vs, judge.KindPairwise); err != nil {
			return err
		}
	}
	pairs, pairsName, err := loadJudgePairs(e, "calibrate", *pairsPath)
	if err != nil {
		return err
	}
	j, name, m, err := openPairJudge(e, "calibrate", *spec, cf, p)
	if err != nil {
		return err
	}
	if m != nil {
		defer m.close()
	}
	opt := judge.CalibrateOptions{Judge: name, Swap: *swap, Resamples: *resamples, Seed: *seed, Workers: *cf.concurrency}
	tick, finish := judgeProgress(e, len(pairs), "calibrating")
	opt.Progress = tick
	rep := calibrateReport{Kind: "calibration", Pairs: pairsName, MinKappa: *minKappa, MinSlice: *minSlice}
	if m != nil && *vs != "" {
		var pc judge.PromptComparison
		pc, err = judge.ComparePrompts(e.ctx, m.client, p, p2, pairs, opt)
		for _, r := range []*judge.Record{&pc.First, &pc.Second} {
			r.Judge = name
		}
		rep.Record, rep.Compare = pc.First, &pc
	} else {
		rep.Record, err = judge.Calibrate(e.ctx, j, p, pairs, opt)
	}
	finish()
	if m != nil {
		m.report(e)
		if err != nil {
			return m.interrupted(err)
		}
	}
	if err != nil {
		return err
	}
	rep.Reasons = judge.Usable(rep.Record, *minKappa, *minSlice)
	rep.Usable = len(rep.Reasons) == 0
	if rep.Reasons == nil {
		rep.Reasons = []string{}
	}
	if err := export.write(e, "evalbook calibrate", judge.CalibrationTables(rep.Record, rep.Usable, rep.Reasons)); err != nil {
		return err
	}
	if *charts != "" {
		if err := calibrationCharts(e, *charts, rep.Record); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return rep.writeText(e.stdout, m == nil)
}

// calibrationCharts writes the per-kind agreement bars and the confusion
// heat map of a calibration record.
func calibrationCharts(e *env, dir string, r judge.Record) error {
	kinds, agree, n := r.KindShares()
	bars, err := chart.Calibration("Agreement with the human labels per kind: "+r.Judge, kinds, agree, n)
	if err != nil {
		return err
	}
	labels, m := r.ConfusionMatrix()
	heat, err := chart.Confusion("Human labels against "+r.Judge, "human (final label)", "judge", labels, m)
	if err != nil {
		return err
	}
	return writeFigures(e, dir, []chart.Named{{Name: "calibration-by-kind", Figure: bars}, {Name: "calibration-confusion", Figure: heat}})
}

func (rep *calibrateReport) writeText(w io.Writer, fake bool) error {
	r := rep.Record
	fmt.Fprintf(w, "calibration of %s against %s (%s, label set %s)\n", r.Judge, rep.Pairs, nounCount(r.N, "pair", "pairs"), r.LabelSet)
	order := "asked in one order (a shown first)"
	if r.Swap {
		order = "asked in both orders, a disagreement counted as a tie"
	}
	fmt.Fprintf(w, "prompt %s@%d (hash %s); %s\n", r.Prompt.Name, r.Prompt.Version, r.Prompt.Hash, order)
	if fake {
		fmt.Fprintln(w, "(a fake judge does not read the prompt; the record is tied to it all the same)")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "agreement\t%d/%d = %s\t%.0f%% bootstrap interval [%s, %s]\n", r.Agree, r.N, judgePct(r.Agreement), r.Confidence*100, judgePct(r.AgreementLow), judgePct(r.AgreementHigh))
	fmt.Fprintf(tw, "kappa\t%.3f\n", r.Kappa)
	fmt.Fprintf(tw, "order disagreements\t%d\n", r.OrderDisagreements)
	if !fake {
		if r.Invalid > 0 {
			fmt.Fprintf(tw, "invalid replies\t%d\t%s\n", r.Invalid, judgeReasonList(r.InvalidReasons))
		} else {
			fmt.Fprintf(tw, "invalid replies\t0\n")
		}
	}
	tw.Flush()

	fmt.Fprintln(w, "\nconfusion (rows: final human label; columns: the judge)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  human\ta\tb\ttie")
	for _, h := range judge.Labels {
		row := r.Confusion[h]
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\n", h, row[judge.LabelA], row[judge.LabelB], row[judge.LabelTie])
	}
	tw.Flush()

	fmt.Fprintln(w, "\nagreement per slice")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  slice\tagree\tn\tshare")
	for _, s := range []struct {
		what string
		m    map[string]judge.Share
	}{{"kind", r.ByKind}, {"lang", r.ByLang}} {
		for _, k := range judgeSortedKeys(judgeShareKeys(s.m)) {
			sh := s.m[k]
			v, _ := sh.Value()
			fmt.Fprintf(tw, "  %s %s\t%d\t%d\t%s\n", s.what, k, sh.Hits, sh.N, judgePct(v))
		}
	}
	tw.Flush()

	e := r.Errors
	fmt.Fprintf(w, "\nwrong decisive picks %d: the longer answer %d, the one shown first %d, the uncited one %d, the judge's own style %d\n",
		e.WrongDecisive, e.PickedLonger, e.PickedFirst, e.PickedUncited, e.PickedOwnStyle)
	if c := rep.Compare; c != nil {
		fmt.Fprintf(w, "\nprompt comparison: %s@%d agrees %d/%d, %s@%d agrees %d/%d (gap %+.3f); the two versions give the same label on %s pairs\n",
			c.First.Prompt.Name, c.First.Prompt.Version, c.First.Agree, c.First.N,
			c.Second.Prompt.Name, c.Second.Prompt.Version, c.Second.Agree, c.Second.N, c.Gap, c.Between)
	}
	verdict := "yes"
	if !rep.Usable {
		verdict = "no"
	}
	fmt.Fprintf(w, "\nusable (kappa >= %g and every slice >= %g): %s\n", rep.MinKappa, rep.MinSlice, verdict)
	for _, why := range rep.Reasons {
		fmt.Fprintf(w, "  - %s\n", why)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
	_, err := fmt.Fprintln(w, "\nA pass shows agreement with these labels on these kinds of pair; it does not show that the judge is right on other data, or that the labels are.")
	return err
}

func judgePct(x float64) string { return fmt.Sprintf("%.1f%%", x*100) }

func judgeShareKeys(m map[string]judge.Share) map[string]int {
	out := make(map[string]int, len(m))
	for k, s := range m {
		out[k] = s.N
	}
	return out
}

func judgeReasonList(m map[string]int) string {
	var parts []string
	for _, k := range judgeSortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
