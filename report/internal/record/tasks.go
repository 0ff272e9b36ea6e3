package record

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// FromTasks is the stored run of an evalbook task run: its details d and
// the result r that tasks.Score made of them. Every item is a row, with
// its task string as the slice (grouping "task"), its outcome per metric
// as tasks.Outcomes gives it (acc and acc_norm 1 or 0, pass@k the item's
// unbiased estimate; NaN, no verdict, for a metric its task string does
// not report and for every metric of an item whose call failed), its
// prompt, golden answer and response (the choice acc picks, or the first
// sample); the figures per task string as r reports them; the model,
// tokens and cost. Metric ids carry k (pass@5, not pass@k). Rows are
// keyed by item id, or by "id / task string" when an id repeats (the
// same item under two task strings).
func FromTasks(d *tasks.Details, r *tasks.Result) (store.Run, error) {
	outs, err := tasks.Outcomes(d)
	if err != nil {
		return store.Run{}, err
	}
	ks := map[string]int{}
	for _, ht := range d.Header.Tasks {
		ks[ht.Spec] = ht.K
	}
	withK := func(id string, k int) string {
		if k > 0 {
			return strings.Replace(id, "@k", "@"+strconv.Itoa(k), 1)
		}
		return id
	}
	// The metrics of every task string, in order of first appearance.
	var metrics []string
	for _, o := range outs {
		for _, m := range o.Metrics {
			if id := withK(m, ks[o.Sample.Task]); !slices.Contains(metrics, id) {
				metrics = append(metrics, id)
			}
		}
	}
	graded := make([]bool, len(metrics))
	for i, m := range metrics {
		graded[i] = strings.HasPrefix(m, "pass@") || strings.HasPrefix(m, "maj@")
	}
	schema := results.NewRowSchema([]string{"id", "question", "answer", "response"}, metrics, graded, false, []string{"task"})
	seen, repeated := map[string]bool{}, false
	for _, s := range d.Samples {
		repeated = repeated || seen[s.ID]
		seen[s.ID] = true
	}
	rows := make([]*results.Row, 0, len(outs))
	for i, o := range outs {
		s := o.Sample
		id := s.ID
		if repeated {
			id += " / " + s.Task
		}
		golden, response := s.Golden, ""
		if s.Gold >= 0 && s.Gold < len(s.Choices) {
			golden = s.Choices[s.Gold]
		}
		switch {
		case len(s.Scored) > 0:
			if acc, _ := s.Picks(); acc < len(s.Choices) {
				response = s.Choices[acc]
			}
		case len(s.Response) > 0:
			response = s.Response[0].Text
		}
		row := &results.Row{Schema: schema, Line: i + 1, Fields: []string{id, s.Prompt, golden, response}, Groups: []string{s.Task},
			Values: make([]float64, len(metrics)), Blank: !o.Failed && len(s.Scored) == 0 && strings.TrimSpace(response) == ""}
		for j := range row.Values {
			row.Values[j] = math.NaN()
		}
		for j, v := range o.Values { // none when the item failed
			row.Values[slices.Index(metrics, withK(o.Metrics[j], ks[s.Task]))] = v
		}
		rows = append(rows, row)
	}
	settings, err := json.Marshal(struct {
		Header     tasks.Header `json:"header"`
		Confidence float64      `json:"confidence"`
	}{d.Header, r.Confidence})
	if err != nil {
		return store.Run{}, err
	}
	specs := make([]string, len(d.Header.Tasks))
	for i, ht := range d.Header.Tasks {
		specs[i] = ht.Spec
	}
	run := store.Run{Command: "task run", DatasetPath: strings.Join(specs, ","), Settings: settings, Model: r.Model,
		TokensIn: r.Tokens.Prompt, TokensOut: r.Tokens.Completion, Source: results.NewRowTable(schema, rows),
		Groupings: []string{"task"}, Warnings: r.Warnings}
	if r.Cost != nil {
		run.Cost = r.Cost.Amount
	}
	for i, m := range metrics {
		run.Metrics = append(run.Metrics, store.Metric{ID: m, Graded: graded[i]})
	}
	for _, tr := range r.Tasks {
		for _, m := range tr.Metrics {
			c := m.Value * float64(m.N)
			if m.Correct != nil {
				c = float64(*m.Correct)
			}
			run.Groups = append(run.Groups, store.GroupScore{By: "task", Group: tr.Task, Metric: withK(m.ID, m.K), N: m.N,
				Correct: c, Accuracy: m.Value, CILow: m.CILow, CIHigh: m.CIHigh})
		}
	}
	if len(rows) == 0 {
		return store.Run{}, fmt.Errorf("store: the task run has no items to record")
	}
	return run, nil
}
