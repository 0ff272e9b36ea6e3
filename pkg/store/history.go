package store

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// HistoryOptions chooses the trend History gives.
type HistoryOptions struct {
	// Metric is the metric id (required). By names a grouping as the
	// runs recorded it ("language", "Domain"; "" for all rows).
	Metric string
	By     string
	// DatasetHash keeps only runs on that dataset ("" keeps all; runs on
	// another dataset than the newest run's are marked not comparable).
	DatasetHash string
	// Command keeps only runs of that command ("" keeps all).
	Command string
}

// HistoryResult is a metric's trend over stored runs, oldest first.
type HistoryResult struct {
	Kind   string         `json:"kind"` // always "history"
	Metric string         `json:"metric"`
	By     string         `json:"by,omitempty"`
	Points []HistoryPoint `json:"points"`
	// Reference is the dataset hash points are compared against (the
	// newest run's).
	Reference string            `json:"reference_dataset_hash"`
	Warnings  []results.Warning `json:"warnings"`
}

// HistoryPoint is one run's figure for one group.
type HistoryPoint struct {
	Run         int64     `json:"run"`
	Time        time.Time `json:"time"`
	Command     string    `json:"command"`
	Model       string    `json:"model,omitempty"`
	Title       string    `json:"title,omitempty"` // the run's --title
	DatasetHash string    `json:"dataset_hash"`
	Group       string    `json:"group,omitempty"`
	N           int       `json:"n"`
	Accuracy    float64   `json:"accuracy"`
	CILow       float64   `json:"ci_low"`
	CIHigh      float64   `json:"ci_high"`
	// Comparable reports whether the run has the reference dataset hash.
	Comparable bool `json:"comparable"`
}

// History returns the figures (with the intervals each run recorded) of
// one metric over the stored runs, oldest first, overall or for each
// group of one grouping. Runs on another dataset than the newest one are
// kept but marked not comparable (and counted in a warning), never
// silently mixed into one trend.
func (s *Store) History(ctx context.Context, opt HistoryOptions) (*HistoryResult, error) {
	if opt.Metric == "" {
		return nil, fmt.Errorf("history: no metric")
	}
	q := `SELECT r.id, r.created, r.command, r.model, r.title, r.dataset_hash, g.grp, g.n, g.accuracy, g.ci_low, g.ci_high
		FROM group_score g JOIN run r ON r.id = g.run_id
		WHERE g.metric = ? AND g.by_name = ?`
	args := []any{opt.Metric, opt.By}
	if opt.DatasetHash != "" {
		q += ` AND r.dataset_hash = ?`
		args = append(args, opt.DatasetHash)
	}
	if opt.Command != "" {
		q += ` AND r.command = ?`
		args = append(args, opt.Command)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY r.id, g.grp`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &HistoryResult{Kind: "history", Metric: opt.Metric, By: opt.By, Points: []HistoryPoint{}, Warnings: []results.Warning{}}
	for rows.Next() {
		var p HistoryPoint
		var created string
		if err := rows.Scan(&p.Run, &created, &p.Command, &p.Model, &p.Title, &p.DatasetHash, &p.Group, &p.N, &p.Accuracy, &p.CILow, &p.CIHigh); err != nil {
			return nil, err
		}
		if p.Time, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, err
		}
		res.Points = append(res.Points, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(res.Points) == 0 {
		what := "overall"
		if opt.By != "" {
			what = "by " + strconv.Quote(opt.By)
		}
		return nil, fmt.Errorf("history: no stored run has figures for metric %q %s (see evalbook runs list; --by takes a grouping as the runs recorded it)", opt.Metric, what)
	}
	res.Reference = res.Points[len(res.Points)-1].DatasetHash
	other := 0
	for i := range res.Points {
		res.Points[i].Comparable = res.Points[i].DatasetHash == res.Reference
		if !res.Points[i].Comparable {
			other++
		}
	}
	if other > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeNotComparable, Count: other,
			Message: fmt.Sprintf("%d points come from runs on another dataset than the newest run's (%s): they are marked, not comparable", other, res.Reference)})
	}
	return res, nil
}

// WriteText writes the trend as a table with a bar per point.
func (h *HistoryResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, t := range h.Tables() {
		if err := t.WriteText(ew); err != nil {
			return err
		}
		fmt.Fprintln(ew)
	}
	fmt.Fprintln(ew, "trend (|---[ * ]---| over 0..100%: the interval in brackets, * the figure):")
	for _, p := range h.Points {
		label := "run " + strconv.FormatInt(p.Run, 10)
		if p.Group != "" {
			label += " " + show(p.Group)
		}
		mark := ""
		if !p.Comparable {
			mark = "  (other dataset)"
		}
		fmt.Fprintf(ew, "%-24s %s %s%s\n", clipLabel(label, 24), bar(p.CILow, p.Accuracy, p.CIHigh, 40), pctText(p.Accuracy), mark)
	}
	return ew.err
}

func clipLabel(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// bar draws lo, x and hi on a scale of width characters.
func bar(lo, x, hi float64, width int) string {
	pos := func(v float64) int {
		i := int(v*float64(width-1) + 0.5)
		return max(0, min(width-1, i))
	}
	b := []byte(strings.Repeat(".", width))
	for i := pos(lo); i <= pos(hi); i++ {
		b[i] = '-'
	}
	b[pos(lo)], b[pos(hi)] = '[', ']'
	b[pos(x)] = '*'
	return "|" + string(b) + "|"
}

// Tables returns the trend: one row per run and group.
func (h *HistoryResult) Tables() []results.Table {
	f := results.Float
	title := "History of " + h.Metric
	if h.By != "" {
		title += " by " + h.By
	}
	t := results.Table{Title: title, Note: "each run's figure with the interval it recorded; comparable = same dataset as the newest run",
		Columns: []results.Column{{Name: "run"}, {Name: "time"}, {Name: "command"}, {Name: "model"}, {Name: "title"}, {Name: "group"}, {Name: "n", Kind: results.KindNumber},
			{Name: "accuracy", Kind: results.KindRate}, {Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate},
			{Name: "dataset_hash"}, {Name: "comparable"}}}
	for _, p := range h.Points {
		t.Rows = append(t.Rows, []string{strconv.FormatInt(p.Run, 10), p.Time.UTC().Format(time.RFC3339), show(p.Command), show(p.Model), show(p.Title), show(p.Group),
			strconv.Itoa(p.N), f(p.Accuracy), f(p.CILow), f(p.CIHigh), p.DatasetHash, results.YesNo(p.Comparable)})
	}
	return append([]results.Table{t}, results.WarningTable(h.Warnings)...)
}

// ChartTable returns the trend as a table for chart.TableRates: one row
// per run and group, named by them, with the figure and its interval
// bounds as rate columns.
func (h *HistoryResult) ChartTable() results.Table {
	t := results.Table{Title: "History of " + h.Metric, Columns: []results.Column{{Name: "run"},
		{Name: "ci_low", Kind: results.KindRate}, {Name: h.Metric, Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}}}
	for _, p := range h.Points {
		name := "run " + strconv.FormatInt(p.Run, 10)
		if p.Group != "" {
			name += " " + show(p.Group)
		}
		t.Rows = append(t.Rows, []string{name, results.Float(p.CILow), results.Float(p.Accuracy), results.Float(p.CIHigh)})
	}
	return t
}
