// Package record builds the runs the evalbook command keeps in the run
// store (--record) from the results of its commands other than score:
// judge (FromJudge), mc (FromMC), task run (FromTasks) and generate
// (Generate). They live with the command, their one caller, so that
// pkg/store stays storage and imports none of these packages.
package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// FromJudge is the stored run of an evalbook judge run: the figures of
// res.Score, every row's verdicts (llm_judge empty, no
// verdict, where the judge's reply was invalid) read back from the
// verdict table of tbl, the judge prompt's hash, and the judge's model
// and prompt in the settings.
func FromJudge(res *judge.RunSummary, tbl *judge.Responses) (store.Run, error) {
	var buf bytes.Buffer
	if _, err := tbl.WriteVerdictsCSV(&buf, tabular.CSVOptions{Raw: true}); err != nil {
		return store.Run{}, err
	}
	rows, err := results.NewVerdictReader(&buf, "judge verdicts", res.Score)
	if err != nil {
		return store.Run{}, err
	}
	run, err := store.FromScore("judge", res.Score, rows)
	if err != nil {
		return store.Run{}, err
	}
	run.JudgePromptHash = res.Judge.Prompt.Hash
	if run.Settings, err = json.Marshal(struct {
		Score results.Settings `json:"score"`
		Judge judge.RunInfo    `json:"judge"`
	}{res.Score.Settings, res.Judge}); err != nil {
		return store.Run{}, err
	}
	return run, nil
}

// FromMC is the stored run of a multiple-choice evaluation (mc.Evaluate
// of f, with seed): the
// report's figures per language and subject, and each question's outcome
// per metric (pass 1/0; the reciprocal rank for mrr), found by
// evaluating the question alone with mc.Evaluate so that every outcome
// follows mc's own rules (ties, normalisation). Rows are keyed by
// question id, or by "id / language" when ids repeat across languages.
func FromMC(f *mc.File, rep *mc.Report, seed uint64) (store.Run, error) {
	graded := make([]bool, len(rep.Metrics))
	for i, m := range rep.Metrics {
		graded[i] = m == mc.MRR
	}
	schema := results.NewRowSchema([]string{"id", "question", "answer", "response"}, rep.Metrics, graded, false, []string{"language", "subject"})
	// A question id repeated across languages (the same question asked
	// in each) becomes "id / language", the key the rows are paired by.
	ids := map[string]bool{}
	repeated := false
	for _, q := range f.Questions {
		repeated = repeated || ids[q.ID]
		ids[q.ID] = true
	}
	var rows []*results.Row
	one := mc.Options{K: rep.Settings.K, Confidence: rep.Settings.Confidence, Resamples: 1, Seed: seed}
	for _, q := range f.Questions {
		r, err := mc.Evaluate([]mc.Question{q}, f.Mode, one)
		if err != nil {
			return store.Run{}, fmt.Errorf("question %s (line %d): %w", q.ID, q.Line, err)
		}
		id := q.ID
		if repeated && id != "" {
			id += " / " + q.Language
		}
		row := &results.Row{Schema: schema, Line: q.Line, Groups: []string{q.Language, q.Subject},
			Fields: []string{id, "", strconv.Itoa(q.Gold), ""}}
		if f.Mode == "letters" {
			row.Fields[3] = strconv.Itoa(q.Predicted)
		}
		for _, m := range rep.Metrics {
			row.Values = append(row.Values, r.Overall.Metrics[m].Correct)
		}
		rows = append(rows, row)
	}
	settings, err := json.Marshal(rep.Settings)
	if err != nil {
		return store.Run{}, err
	}
	run := store.Run{DatasetPath: rep.Source, DatasetFileHash: rep.Hash, Settings: settings, Source: results.NewRowTable(schema, rows), Warnings: rep.Warnings}
	for i, m := range rep.Metrics {
		run.Metrics = append(run.Metrics, store.Metric{ID: m, Graded: graded[i]})
	}
	for _, g := range append(append([]mc.Group{rep.Overall}, rep.Languages...), rep.Subjects...) {
		ids := make([]string, 0, len(g.Metrics))
		for id := range g.Metrics {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			m := g.Metrics[id]
			run.Groups = append(run.Groups, store.GroupScore{By: g.By, Group: g.Group, Metric: id, N: g.N, Correct: m.Correct,
				Accuracy: m.Value, CILow: m.CILow, CIHigh: m.CIHigh})
		}
	}
	return run, nil
}
