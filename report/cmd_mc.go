package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/mc"
)

func init() {
	register(&command{name: "mc", summary: "score multiple-choice predictions (log-likelihoods or letters) per language and subject", run: runMC})
}

const mcHelp = `
Usage: evalbook mc [--predictions FILE] [--k 2] [--json]

Scores multiple-choice predictions for translated ARC / HellaSwag / BoolQ / MMLU style tasks,
overall, per language and per subject, with 95% intervals (Wilson for proportions, a seeded
percentile bootstrap for the MRR).

A log-likelihood file (CSV or JSONL) has one row per option, with columns id, choice (the
option's label), loglik and gold (the correct option's label), and optionally language,
subject, choice_text (for acc_norm_char) and tokens (for acc_norm_token). It gives:
  acc             the most likely option is the gold one
  acc_norm_char   the same with each log-likelihood divided by the option's length in characters
  acc_norm_token  the same per token (only when every option has a token count)
  mrr             mean reciprocal rank of the gold option
  recall@k        the gold option is among the k most likely (--k, comma-separated)
Ties go to the option listed first, so recall@1 equals acc.

A letter file has one row per question, with columns id, prediction and gold (and optionally
language and subject), and gives acc only; a prediction that names no option counts as wrong
and is reported, and so is a gold label past J (no common benchmark has more than ten
options). A positive log-likelihood cannot be a log-probability; it is scored, with a warning
naming its lines. A k given twice in --k counts once.

Labels may be Latin letters (A, b, "(C)", "Answer: D"), digits (1 = A), or the option letters
of Indic scripts: Devanagari क ख ग घ, अ आ इ ई or अ ब स द; Bengali ক খ গ ঘ; Tamil அ ஆ இ ஈ;
Telugu, Kannada, Gujarati, Odia and Malayalam likewise. A question is identified by its
language and id, so translations may share ids. Without a language column the language is
taken from a <model>_<language>.csv file name.

With no --predictions, the built-in sample (datasets/mc, 8 questions in 4 languages) is scored.

Examples:
	evalbook mc
	evalbook mc --predictions preds.csv --k 2,3
	evalbook mc --predictions letters.jsonl --json
`

func runMC(e *env) error {
	fs := newFlags(e, "mc", mcHelp)
	var (
		predictions = fs.String("predictions", "", "prediction `FILE` (.csv or .jsonl); default: the built-in sample")
		kList       = fs.String("k", "2", "comma-separated `k` values for recall@k")
		asJSON      = fs.Bool("json", false, "print one JSON document instead of tables")
		confidence  = fs.Float64("confidence", 0.95, "confidence `level` of the intervals")
		resamples   = fs.Int("resamples", 10000, "bootstrap `resamples` for the MRR interval")
		seed        = fs.Uint64("seed", 1, "bootstrap `seed`")
	)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("mc: unexpected argument %q (the file goes after --predictions)", args[0])
	}
	var ks []int
	for _, s := range strings.Split(*kList, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 {
			return usagef("mc: --k wants positive whole numbers, got %q", s)
		}
		ks = append(ks, k)
	}
	if !(*confidence > 0 && *confidence < 1) {
		return usagef("mc: --confidence must be between 0 and 1, got %v", *confidence)
	}
	if *resamples < 1 {
		return usagef("mc: --resamples must be positive, got %d", *resamples)
	}
	var f *mc.File
	name := *predictions
	if name == "" {
		data, err := datasets.MC.ReadFile(datasets.MCPredictionsName)
		if err != nil {
			return err
		}
		name = "datasets/" + datasets.MCPredictionsName
		fmt.Fprintf(e.stderr, "evalbook mc: no --predictions given; scoring the built-in sample %s\n", name)
		f, err = mc.Read(bytes.NewReader(data), name, mc.Columns{})
		if err != nil {
			return err
		}
	} else {
		f, err = mc.ReadFile(name, mc.Columns{})
		if err != nil {
			return err
		}
	}
	rep, err := mc.Evaluate(f.Questions, f.Mode, mc.Options{K: ks, Confidence: *confidence, Resamples: *resamples, Seed: *seed})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	rep.Source, rep.Hash = name, f.Hash
	if *asJSON {
		return writeJSON(e.stdout, struct {
			*mc.Report
			LanguageSource string `json:"language_source"`
		}{rep, f.LanguageSource})
	}
	return mcWriteText(e.stdout, rep, f)
}

// mcWriteText prints the report as tables: one row per group, one
// column per metric with its interval.
func mcWriteText(w io.Writer, r *mc.Report, f *mc.File) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Multiple choice: %s (hash %s)\n", r.Source, r.Hash)
	mode := "per-option log-likelihoods"
	if r.Mode == "letters" {
		mode = "predicted letters"
	}
	lang := "language from " + f.LanguageSource
	if f.LanguageSource == "none" {
		lang = "no language (no language column, and the file name is not <model>_<language>)"
	}
	fmt.Fprintf(&b, "%s, %s; %s; %.0f%% intervals (Wilson; MRR: bootstrap, %d resamples, seed %d)\n",
		nounCount(r.Overall.N, "question", "questions"), mode, lang, r.Settings.Confidence*100, r.Settings.Resamples, r.Settings.Seed)
	section := func(title string, gs []mc.Group) {
		if len(gs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s\n", title)
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		head := []string{strings.ToLower(strings.TrimPrefix(title, "By ")), "n"}
		head = append(head, r.Metrics...)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, g := range gs {
			name := g.Group
			if name == "" {
				name = "(none)"
			}
			row := []string{name, strconv.Itoa(g.N)}
			for _, m := range r.Metrics {
				s := g.Metrics[m]
				row = append(row, fmt.Sprintf("%.3f [%.3f, %.3f]", s.Value, s.CILow, s.CIHigh))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
	}
	overall := r.Overall
	overall.Group = "all"
	section("Overall", []mc.Group{overall})
	section("By language", r.Languages)
	section("By subject", r.Subjects)
	if len(r.Warnings) > 0 {
		b.WriteString("\nWarnings\n")
		for _, wn := range r.Warnings {
			fmt.Fprintf(&b, "  - %s", wn.Message)
			switch {
			case len(wn.Lines) == 1 && wn.Count == 1:
				fmt.Fprintf(&b, " (%s:%d)", r.Source, wn.Lines[0])
			case len(wn.Lines) > 0:
				more := ""
				if wn.Count > len(wn.Lines) {
					more = ", ..."
				}
				fmt.Fprintf(&b, " (%s, lines %s%s)", r.Source, mcLines(wn.Lines), more)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mcLines(lines []int) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	return strings.Join(s, ", ")
}
