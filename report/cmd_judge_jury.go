package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// juryRun is judge --judges: the settings runJudgeJury needs.
type juryRun struct {
	endpoint, responses, by, out string
	limit                        int
	models                       []string
	method                       string
	prompt                       judge.Prompt
	cf                           *cli.ClientFlags
	export                       *cli.TableExport
	rawCSV, batch, record        bool
}

// The labels a model judge gives in a jury's label file.
const (
	juryCorrect   = "correct"
	juryIncorrect = "incorrect"
)

// runJudgeJury asks each model of the jury about every row, one model
// after the other (each through its own client on the shared cache), and
// aggregates the verdicts per row with pkg/jury: one label per model and
// row, correct or incorrect; a row whose call failed, or whose reply broke
// the verdict contract, gives that model no label on that row (left out of
// the item, never counted as wrong); a blank response is incorrect for
// every model, as in judge; a row whose response was never generated is
// left out. Failed calls end the run with exit 1 after the outputs are
// written, as judge does.
func runJudgeJury(e *cli.Env, r juryRun) error {
	switch {
	case len(r.models) < 2:
		return cli.Usagef("judge: --judges needs at least two models, comma-separated (one judge: --model)")
	case r.cf.S.Model != "":
		return cli.Usagef("judge: --judges names the models; drop --model")
	case r.batch:
		return cli.Usagef("judge: --judges runs online; --batch is for one --model")
	case r.record:
		return cli.Usagef("judge: --judges cannot --record (a stored run has one judge); keep the label file with --out")
	}
	seen := map[string]bool{}
	for _, m := range r.models {
		if seen[m] {
			return cli.Usagef("judge: --judges names %s twice", tabular.Quote(m))
		}
		seen[m] = true
	}
	data, name := datasets.Responses, datasets.ResponsesName
	var err error
	if r.responses == "" {
		fmt.Fprintf(e.Stderr, "evalbook: no --responses given: judging the built-in sample %s\n", name)
	} else {
		if data, err = tabular.ReadFile(r.responses, 0); err != nil {
			return err
		}
		name = r.responses
	}
	tbl, err := judge.ReadResponses(e.Ctx, data, name, judge.ResponseOptions{By: r.by, Limit: r.limit})
	if err != nil {
		return err
	}
	labels := &jury.Labels{Source: name}
	failed := 0
	for _, model := range r.models {
		r.cf.S.Model = model
		m, err := r.cf.Open(e, r.endpoint)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "evalbook: judge %s\n", model)
		tick, finish := cli.Progress(e, tbl.Sendable(), "judging ("+model+")")
		_, err = judge.JudgeResponses(e.Ctx, judge.NewClientJudge(m.Client, r.prompt), tbl, judge.RunOptions{
			Model: model, Endpoint: m.Client.Endpoint(), Workers: r.cf.S.Concurrency, Progress: tick})
		finish()
		m.Report(e)
		var rf *judge.RowsFailedError
		if err != nil && !errors.As(err, &rf) {
			m.Close()
			return m.Interrupted(err)
		}
		m.Close()
		if rf != nil {
			failed += rf.Failed
		}
		for _, row := range tbl.Rows {
			item := row.ID
			if item == "" {
				item = "line " + strconv.Itoa(row.Line)
			}
			v, label := row.Verdict, juryIncorrect
			switch {
			case row.GenError != "":
				continue
			case v.Failed() || !v.Valid:
				label = ""
			case v.Correct:
				label = juryCorrect
			}
			labels.Labels = append(labels.Labels, jury.Label{Item: item, Rater: model, Label: label, Errored: label == "", Line: len(labels.Labels) + 2}) // its line in --out
		}
	}
	res, err := jury.Analyze(labels, jury.Options{Method: r.method})
	if err != nil {
		return err
	}
	if r.out != "" {
		write := func(w io.Writer, opt tabular.CSVOptions) (int, error) {
			cw := tabular.NewCSVWriter(w, opt)
			cw.Write([]string{"item", "rater", "label"})
			for _, l := range labels.Labels {
				cw.Write([]string{l.Item, l.Rater, l.Label})
			}
			cw.Flush()
			return cw.Guarded(), cw.Error()
		}
		if err := cli.WriteCSVFile(e, "judge", r.out, r.rawCSV, write); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s of %s to %s (evalbook jury --labels reads it)\n", cli.Plural(len(labels.Labels), "label", "labels"), cli.Plural(len(r.models), "judge", "judges"), r.out)
	}
	if err := cli.Render(e, res, r.export); err != nil || failed == 0 {
		return err
	}
	return fmt.Errorf("judge: %s failed after their retries; each is left out of its row's jury (the label file has an empty label there), and a rerun asks only for them", cli.Plural(failed, "call", "calls"))
}
