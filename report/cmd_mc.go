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

func runMC(e *env) error {
	fs := newFlags(e, "mc")
	var (
		predictions = fs.String("predictions", "", "prediction `FILE` (.csv or .jsonl); default: the built-in sample")
		kList       = fs.String("k", "2", "comma-separated `k` values for recall@k")
	)
	export := addTableExportFlags(fs)
	rec := addRecordFlag(fs)
	iv := addIntervalFlags(fs, "for the MRR interval")
	err := parseNoArgs(e, fs, "the file goes after --predictions")
	if err != nil {
		return err
	}
	defer rec.close()
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
	data, name, err := readOrSample(*predictions, datasets.MC, datasets.MCPredictionsName)
	if err != nil {
		return err
	}
	if *predictions == "" {
		fmt.Fprintf(e.stderr, "evalbook mc: no --predictions given; scoring the built-in sample %s\n", name)
	}
	f, err := mc.Read(bytes.NewReader(data), name, mc.Columns{})
	if err != nil {
		return err
	}
	mopt := mc.Options{K: ks, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	rep, err := mc.EvaluateFile(f, name, mopt)
	if err != nil {
		return err
	}
	if err := recordMC(e, rec, f, rep, mopt); err != nil {
		return err
	}
	return render(e, rep, export)
}
