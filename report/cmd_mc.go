package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/mc"
)

func init() {
	register(&command{name: "mc", summary: "score multiple-choice predictions (log-likelihoods or letters) per language and subject", run: runMC})
}

const mcHelp = `
Usage: evalbook mc [--predictions FILE] [--k 2] [--json] [--xlsx FILE] [--html FILE]

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
	)
	export := addTableExportFlags(fs)
	iv := addIntervalFlags(fs, "for the MRR interval")
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
	rep, err := mc.EvaluateFile(f, name, mc.Options{K: ks, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()})
	if err != nil {
		return err
	}
	return render(e, rep, *asJSON, export, "mc")
}
