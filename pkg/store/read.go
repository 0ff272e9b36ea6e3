package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// ErrNoRun is the error (through errors.Is) for a run reference that
// names no stored run.
var ErrNoRun = errors.New("no such run")

const runColumns = `id, created, tool, command, title, dataset_path, dataset_file_hash, dataset_hash, settings, model,
	prompt_hash, judge_prompt_hash, normalizer, tokens_in, tokens_out, cost, key_kind, rows, warnings`

func scanRun(sc interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var created, settings, warnings string
	var tin, tout sql.NullInt64
	var cost sql.NullFloat64
	err := sc.Scan(&r.ID, &created, &r.Tool, &r.Command, &r.Title, &r.DatasetPath, &r.DatasetFileHash, &r.DatasetHash,
		&settings, &r.Model, &r.PromptHash, &r.JudgePromptHash, &r.Normalizer, &tin, &tout, &cost, &r.KeyKind, &r.Rows, &warnings)
	if err != nil {
		return r, err
	}
	if r.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return r, fmt.Errorf("run %d: time %q: %w", r.ID, created, err)
	}
	r.Settings = json.RawMessage(settings)
	if tin.Valid {
		r.TokensIn = &tin.Int64
	}
	if tout.Valid {
		r.TokensOut = &tout.Int64
	}
	if cost.Valid {
		r.Cost = &cost.Float64
	}
	if err := json.Unmarshal([]byte(warnings), &r.Warnings); err != nil {
		return r, fmt.Errorf("run %d: warnings: %w", r.ID, err)
	}
	if r.Warnings == nil {
		r.Warnings = []results.Warning{}
	}
	return r, nil
}

// List returns every stored run, oldest first, without group figures
// (Get gives them).
func (s *Store) List(ctx context.Context) (RunList, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM run ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := RunList{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Metrics, err = s.metrics(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Resolve turns a run reference into a run id: a number, "last" (the
// newest run), or "last~N" (the Nth before it).
func (s *Store) Resolve(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	back := -1
	switch {
	case ref == "last":
		back = 0
	case strings.HasPrefix(ref, "last~"):
		n, err := strconv.Atoi(ref[len("last~"):])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("run %q: want a run id, last or last~N", ref)
		}
		back = n
	}
	if back >= 0 {
		var id int64
		err := s.db.QueryRowContext(ctx, `SELECT id FROM run ORDER BY id DESC LIMIT 1 OFFSET ?`, back).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("run %q: %w (the store %s has fewer runs)", ref, ErrNoRun, s.path)
		}
		return id, err
	}
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("run %q: want a run id (see evalbook runs list), last or last~N", ref)
	}
	var one int
	err = s.db.QueryRowContext(ctx, `SELECT 1 FROM run WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("run %d: %w in %s (see evalbook runs list)", id, ErrNoRun, s.path)
	}
	return id, err
}

// Get returns the run ref names (see Resolve) with its metrics and group figures.
func (s *Store) Get(ctx context.Context, ref string) (Run, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return Run{}, err
	}
	r, err := scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM run WHERE id = ?`, id))
	if err != nil {
		return r, err
	}
	if r.Metrics, err = s.metrics(ctx, id); err != nil {
		return r, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT by_name FROM grouping WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return r, err
	}
	for rows.Next() {
		var by string
		if err := rows.Scan(&by); err != nil {
			rows.Close()
			return r, err
		}
		r.Groupings = append(r.Groupings, by)
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, `SELECT by_name, grp, metric, n, blank, empty_golden, correct, accuracy, ci_low, ci_high
		FROM group_score WHERE run_id = ? ORDER BY by_name != '', by_name, grp, metric`, id)
	if err != nil {
		return r, err
	}
	defer rows.Close()
	for rows.Next() {
		var g GroupScore
		if err := rows.Scan(&g.By, &g.Group, &g.Metric, &g.N, &g.Blank, &g.EmptyGolden, &g.Correct, &g.Accuracy, &g.CILow, &g.CIHigh); err != nil {
			return r, err
		}
		r.Groups = append(r.Groups, g)
	}
	return r, rows.Err()
}

func (s *Store) metrics(ctx context.Context, id int64) ([]Metric, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, graded FROM metric WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Metric{}
	for rows.Next() {
		var m Metric
		if err := rows.Scan(&m.ID, &m.Graded); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Remove deletes the run ref names, with its rows, in one transaction.
func (s *Store) Remove(ctx context.Context, ref string) (int64, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store %s: removing run %d: %w", s.path, id, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM run WHERE id = ?`, id); err != nil {
		return 0, fmt.Errorf("store %s: removing run %d: %w", s.path, id, err)
	}
	if err := dropUnusedTexts(ctx, tx); err != nil { // the texts only it had
		return 0, fmt.Errorf("store %s: removing run %d: %w", s.path, id, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store %s: removing run %d: %w", s.path, id, err)
	}
	return id, nil
}

// runData is a run's rows in memory, as the analyses pair them.
type runData struct {
	Run
	keys   []string    // sample id per row ("" when keyed by row)
	values [][]float64 // per metric of Run.Metrics, NaN = no verdict
	groups [][]int32   // per grouping, the row's label code
	labels [][]string  // per grouping, label by code
}

// load reads the rows of run id for the given metrics (all when nil).
func (s *Store) load(ctx context.Context, ref string, metrics []string) (*runData, error) {
	run, err := s.Get(ctx, ref)
	if err != nil {
		return nil, err
	}
	d := &runData{Run: run}
	var idxs []int
	for _, m := range metrics {
		i := -1
		for j, rm := range run.Metrics {
			if rm.ID == m {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("run %d has no metric %q (it has %s)", run.ID, m, metricList(run.Metrics))
		}
		idxs = append(idxs, i)
	}
	if metrics == nil {
		for i := range run.Metrics {
			idxs = append(idxs, i)
		}
	} else {
		keep := make([]Metric, len(idxs))
		for k, i := range idxs {
			keep[k] = run.Metrics[i]
		}
		d.Metrics = keep
	}
	if err := s.loadLabels(ctx, d); err != nil {
		return nil, err
	}
	if err := s.loadRowChunks(ctx, d); err != nil {
		return nil, err
	}
	for _, i := range idxs {
		vals, err := s.loadValues(ctx, run, i)
		if err != nil {
			return nil, err
		}
		d.values = append(d.values, vals)
	}
	return d, nil
}

// loadLabels reads the run's grouping labels, a list per grouping.
func (s *Store) loadLabels(ctx context.Context, d *runData) error {
	rows, err := s.db.QueryContext(ctx, `SELECT labels FROM grouping WHERE run_id = ? ORDER BY idx`, d.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var js string
		var l []string
		err := rows.Scan(&js)
		if err == nil {
			err = json.Unmarshal([]byte(js), &l)
		}
		if err != nil {
			return fmt.Errorf("run %d: grouping labels: %w", d.ID, err)
		}
		d.labels = append(d.labels, l)
	}
	return rows.Err()
}

// loadRowChunks reads the run's rows chunk by chunk: their ids (for a run
// keyed by id) and their label index in each grouping.
func (s *Store) loadRowChunks(ctx context.Context, d *runData) error {
	run := d.Run
	d.groups = make([][]int32, len(d.labels))
	for g := range d.groups {
		d.groups[g] = make([]int32, 0, run.Rows)
	}
	if run.KeyKind == KeyID {
		d.keys = make([]string, 0, run.Rows)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT first, n, ids, groups FROM row_chunk WHERE run_id = ? ORDER BY first`, run.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var buf []string
	var raw []json.RawMessage
	for rows.Next() {
		var first, n int
		var ids, groups string
		if err := rows.Scan(&first, &n, &ids, &groups); err != nil {
			return err
		}
		if run.KeyKind == KeyID {
			var err error
			if buf, err = parseStrings(buf[:0], ids); err != nil || len(buf) != n {
				return fmt.Errorf("run %d: row chunk %d: bad ids", run.ID, first)
			}
			d.keys = append(d.keys, buf...)
		}
		raw = raw[:0]
		if err := json.Unmarshal([]byte(groups), &raw); err != nil || len(raw) != len(d.groups) {
			return fmt.Errorf("run %d: row chunk %d: bad groups", run.ID, first)
		}
		for g := range raw {
			if d.groups[g], err = parseInts(d.groups[g], string(raw[g])); err != nil {
				return fmt.Errorf("run %d: row chunk %d: %w", run.ID, first, err)
			}
		}
	}
	return rows.Err()
}

// loadValues reads the values of the run's metric i, one per row.
func (s *Store) loadValues(ctx context.Context, run Run, i int) ([]float64, error) {
	vals := make([]float64, 0, run.Rows)
	rows, err := s.db.QueryContext(ctx, `SELECT vals FROM outcome_chunk WHERE run_id = ? AND metric_idx = ? ORDER BY first`, run.ID, i)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, err
		}
		if vals, err = parseNumbers(vals, js); err != nil {
			return nil, fmt.Errorf("run %d: %w", run.ID, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(vals) != run.Rows {
		return nil, fmt.Errorf("run %d: metric %s has %d values for %d rows", run.ID, run.Metrics[i].ID, len(vals), run.Rows)
	}
	return vals, nil
}

// SampleText is the stored text of one row.
type SampleText struct {
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Line     int    `json:"line"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Response string `json:"response"`
}

// texts returns the stored text of the rows at the given 0-based indices
// (sorted ascending) of run id.
func (s *Store) texts(ctx context.Context, id int64, idx []int) (map[int]SampleText, error) {
	out := map[int]SampleText{}
	for len(idx) > 0 {
		first := idx[0] / ChunkRows * ChunkRows
		var ids, lines, q, a, r string
		err := s.db.QueryRowContext(ctx, `SELECT ids, lines, question, answer, response FROM row_chunk WHERE run_id = ? AND first = ?`,
			id, first).Scan(&ids, &lines, &q, &a, &r)
		if err != nil {
			return nil, fmt.Errorf("run %d: text of row %d: %w", id, idx[0], err)
		}
		var is, qs, as, rs []string
		var ls []int
		for _, p := range []struct {
			s string
			v any
		}{{ids, &is}, {lines, &ls}, {q, &qs}, {a, &as}, {r, &rs}} {
			if err := json.Unmarshal([]byte(p.s), p.v); err != nil {
				return nil, fmt.Errorf("run %d: chunk %d: %w", id, first, err)
			}
		}
		for len(idx) > 0 && idx[0] < first+len(is) {
			k := idx[0] - first
			if k >= 0 && k < len(qs) && k < len(as) && k < len(rs) && k < len(ls) {
				out[idx[0]] = SampleText{Index: idx[0], ID: is[k], Line: ls[k], Question: qs[k], Answer: as[k], Response: rs[k]}
			}
			idx = idx[1:]
		}
	}
	return out, nil
}

func metricList(ms []Metric) string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return strings.Join(ids, ", ")
}
