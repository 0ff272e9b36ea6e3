package frame

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Score scores a response table held in a DataFrame (ReadResponses, or
// one built or filtered in a notebook) as qa.Score scores a file, and
// returns the verdicts as a DataFrame (the columns FromRows gives: the
// input columns, a float column per metric, the scorer's counts and
// flags) together with the result (accuracy per group with intervals,
// agreement, warnings). opt is qa.Options as for a file; opt.Rows, if
// set, still receives every row. Messages name the table "dataframe".
func Score(ctx context.Context, df dataframe.DataFrame, opt qa.Options) (dataframe.DataFrame, *results.Score, error) {
	if df.Err != nil {
		return dataframe.DataFrame{}, nil, df.Err
	}
	var in bytes.Buffer
	if err := writeRaw(&in, df); err != nil {
		return dataframe.DataFrame{}, nil, err
	}
	var rows results.RowTable
	user := opt.Rows
	opt.Rows = func(r *qa.Row) error {
		if user != nil {
			if err := user(r); err != nil {
				return err
			}
		}
		return rows.Add(r)
	}
	opt.Format = "csv"
	res, err := qa.Score(ctx, &in, "dataframe", opt)
	if err != nil {
		return dataframe.DataFrame{}, nil, err
	}
	out, err := FromRows(&rows)
	return out, res, err
}

// writeRaw writes df as CSV for the scorer: cells exactly as they are
// (no formula guard, which the scorer would read as part of the text).
func writeRaw(buf *bytes.Buffer, df dataframe.DataFrame) error {
	w := csv.NewWriter(buf)
	names := df.Names()
	if err := w.Write(names); err != nil {
		return err
	}
	cols := make([]series.Series, len(names))
	for i, n := range names {
		cols[i] = df.Col(n)
	}
	row := make([]string, len(names))
	for r := range df.Nrow() {
		for i, c := range cols {
			row[i] = cell(c, r)
		}
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// Models compares two models whose verdicts sit in one DataFrame, a row
// per case and model (a verdict DataFrame of a response table with a
// model column): compare.Models over the rows, with opt.Metric the 0/1
// column compared (required), opt.Key the column(s) that name a case
// (default id; several are joined with "/"), opt.By the group column
// (optional), and model the column that names the model. opt.OldName
// and NewName pick the two models (both empty: the DataFrame must hold
// exactly two). The pairing of the two models' rows is checked by key.
func Models(df dataframe.DataFrame, model string, opt compare.Options) (*results.ModelComparison, error) {
	if df.Err != nil {
		return nil, df.Err
	}
	if opt.Metric == "" {
		return nil, fmt.Errorf("frame: name the 0/1 column to compare (compare.Options.Metric)")
	}
	if opt.Key == nil {
		opt.Key = []string{"id"}
	}
	names := df.Names()
	need := append([]string{model, opt.Metric}, opt.Key...)
	if opt.By != "" {
		need = append(need, opt.By)
	}
	for _, c := range need {
		if !slices.Contains(names, c) {
			return nil, fmt.Errorf("frame: no column %q (columns: %s)", c, strings.Join(names, ", "))
		}
	}
	pass, err := zeroOne(df.Col(opt.Metric))
	if err != nil {
		return nil, err
	}
	models := df.Col(model).Records()
	keyCols := make([][]string, len(opt.Key))
	for i, k := range opt.Key {
		keyCols[i] = df.Col(k).Records()
	}
	var groups []string
	if opt.By != "" {
		groups = df.Col(opt.By).Records()
	}
	rows := make([]compare.Outcome, df.Nrow())
	parts := make([]string, len(opt.Key))
	for r := range rows {
		for i := range keyCols {
			parts[i] = keyCols[i][r]
		}
		rows[r] = compare.Outcome{Key: strings.Join(parts, "/"), Model: models[r], Pass: pass[r]}
		if groups != nil {
			rows[r].Group = groups[r]
		}
	}
	return compare.Models(rows, opt)
}

// zeroOne reads a column of 0/1 outcomes: numbers, or the text "0"/"1".
func zeroOne(c series.Series) ([]float64, error) {
	out := make([]float64, c.Len())
	for r := range out {
		var x float64
		switch c.Type() {
		case series.Float, series.Int:
			x = c.Elem(r).Float()
		default:
			v, ok := results.Number(c.Elem(r).String())
			if !ok {
				return nil, fmt.Errorf("frame: column %q, row %d: %q is not 0 or 1", c.Name, r+1, c.Elem(r).String())
			}
			x = v
		}
		if x != 0 && x != 1 {
			return nil, fmt.Errorf("frame: column %q, row %d: %v is not 0 or 1", c.Name, r+1, x)
		}
		out[r] = x
	}
	return out, nil
}
