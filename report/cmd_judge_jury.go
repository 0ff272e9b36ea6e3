package main

import (
	"errors"
	"fmt"

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
	tbl, err := readJudgeResponses(e, r.responses, r.by, r.limit)
	if err != nil {
		return err
	}
	labels := &jury.Labels{Source: tbl.Name}
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
		tbl.JuryLabels(labels, model)
	}
	res, err := jury.Analyze(labels, jury.Options{Method: r.method})
	if err != nil {
		return err
	}
	if r.out != "" {
		if err := cli.WriteCSVFile(e, "judge", r.out, r.rawCSV, labels.WriteCSV); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s of %s to %s (evalbook jury --labels reads it)\n", cli.Plural(len(labels.Labels), "label", "labels"), cli.Plural(len(r.models), "judge", "judges"), r.out)
	}
	if err := cli.Render(e, res, r.export); err != nil || failed == 0 {
		return err
	}
	return fmt.Errorf("judge: %s failed after their retries; each is left out of its row's jury (the label file has an empty label there), and a rerun asks only for them", cli.Plural(failed, "call", "calls"))
}
