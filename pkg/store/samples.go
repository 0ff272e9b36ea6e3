package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/sample"
)

// Samples returns the rows of a stored run as evalbook's one sample model
// (pkg/sample), in the run's order, so any analysis that takes samples
// runs on a stored run: the run's model, the sample id (the row number
// when the run is keyed by row), the question, golden answer and
// response, every metric's value (NaN: no verdict), and each grouping's
// label as a slice — a grouping "task" or "language" fills the field of
// that name, a cross grouping ("model / language") one slice per part.
// Every metric is one evalbook or the harness computed when the run was
// recorded; Defs says which are graded.
func (s *Store) Samples(ctx context.Context, ref string) ([]sample.Sample, []sample.Def, error) {
	d, err := s.load(ctx, ref, nil)
	if err != nil {
		return nil, nil, err
	}
	out := make([]sample.Sample, d.Rows)
	for i := range out {
		smp := &out[i]
		smp.Model = d.Model
		smp.Task = d.DatasetPath
		smp.SampleID = strconv.Itoa(i + 1)
		if d.keys != nil {
			smp.SampleID = d.keys[i]
		}
		smp.Metrics = make([]sample.Metric, 0, len(d.Metrics))
		for m, vals := range d.values {
			smp.SetMetric(d.Metrics[m].ID, vals[i])
		}
		for g, by := range d.Groupings {
			label := d.labels[g][d.groups[g][i]]
			names, parts := strings.Split(by, " / "), strings.Split(label, " / ")
			if len(names) != len(parts) {
				names, parts = []string{by}, []string{label}
			}
			for k, name := range names {
				switch name {
				case sample.SliceTask:
					smp.Task = parts[k]
				case sample.SliceLanguage:
					smp.Language = parts[k]
				case sample.SliceModel:
					smp.Model = parts[k]
				default:
					smp.SetSlice(name, parts[k])
				}
			}
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT first, lines, question, answer, response FROM row_chunk WHERE run_id = ? ORDER BY first`, d.ID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var first int
		var lines, q, a, r string
		if err := rows.Scan(&first, &lines, &q, &a, &r); err != nil {
			return nil, nil, err
		}
		var ls []int
		var qs, as, rs []string
		for _, p := range []struct {
			s string
			v any
		}{{lines, &ls}, {q, &qs}, {a, &as}, {r, &rs}} {
			if err := json.Unmarshal([]byte(p.s), p.v); err != nil {
				return nil, nil, fmt.Errorf("run %d: chunk %d: %w", d.ID, first, err)
			}
		}
		for k := range qs {
			i := first + k
			if i >= len(out) || k >= len(as) || k >= len(rs) || k >= len(ls) {
				return nil, nil, fmt.Errorf("run %d: chunk %d: row %d out of place", d.ID, first, i)
			}
			smp := &out[i]
			smp.Line = ls[k]
			smp.Prompt, smp.Golden, smp.Response = qs[k], as[k], rs[k]
			smp.HasPrompt, smp.HasGolden, smp.HasResponse = true, true, true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	defs := make([]sample.Def, len(d.Metrics))
	for i, m := range d.Metrics {
		defs[i] = sample.Def{Name: m.ID, By: sample.ByEvalbook, Source: "evalbook " + d.Command, Graded: m.Graded}
		if d.Command == "import" {
			defs[i].By, defs[i].Source = sample.ByHarness, "the imported harness"
		}
	}
	return out, defs, nil
}
