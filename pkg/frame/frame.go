// Package frame moves evalbook's tables in and out of gota DataFrames for
// notebooks: a response table or a verdict file becomes a DataFrame and
// goes back to CSV unchanged, and the per-group figures of a score result
// become DataFrames to sort, filter and join.
//
// Input text stays text. gota guesses column types and turns "NA" into a
// missing value by default; here every input column is a string column
// and no value is treated as missing, so that an answer "NA" or "1947"
// round-trips exactly. Only the columns evalbook computes (verdicts, word
// counts, blank_response, empty_golden) are numbers.
package frame

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/evalbook/evalbook/pkg/tabular"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// computed are the columns the scorer appends after the metric columns.
var computed = []string{"matching_words", "total_golden_words", "blank_response", "empty_golden"}

// readRecords reads a whole CSV (UTF-8, optional byte-order mark).
func readRecords(r io.Reader, name string) ([][]string, error) {
	data, err := tabular.ReadAll(r, name, 0) // bounded by tabular.MaxFile (--max-file-mib)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty file (no header row)", name)
	}
	// evalbook's CSV files guard formula cells (tabular.GuardFormula):
	// take the guard off, so that WriteCSV gives the file back.
	for _, rec := range recs[1:] {
		tabular.UnguardRecord(rec)
	}
	return recs, nil
}

// load builds a DataFrame with the given column types (string by default).
func load(recs [][]string, types map[string]series.Type) (dataframe.DataFrame, error) {
	if len(recs) == 1 {
		// gota refuses a header without rows; build empty columns.
		cols := make([]series.Series, len(recs[0]))
		for i, h := range recs[0] {
			t, ok := types[h]
			if !ok {
				t = series.String
			}
			cols[i] = series.New([]string{}, t, h)
		}
		df := dataframe.New(cols...)
		return df, df.Err
	}
	df := dataframe.LoadRecords(recs,
		dataframe.DetectTypes(false),
		dataframe.DefaultType(series.String),
		dataframe.NaNValues([]string{}),
		dataframe.WithTypes(types),
	)
	return df, df.Err
}

// ReadResponses loads a response table (CSV with a header row) with every
// column as text.
func ReadResponses(r io.Reader) (dataframe.DataFrame, error) {
	recs, err := readRecords(r, "responses")
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return load(recs, nil)
}

// ReadVerdicts loads a verdict file (the CSV of `evalbook score --out`).
// The columns of the given metric ids and the scorer's count columns
// (matching_words, total_golden_words, blank_response, empty_golden) are
// float columns; every other column is text.
func ReadVerdicts(r io.Reader, metrics ...string) (dataframe.DataFrame, error) {
	recs, err := readRecords(r, "verdicts")
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	types := map[string]series.Type{}
	for _, m := range metrics {
		if !slices.Contains(recs[0], m) {
			return dataframe.DataFrame{}, fmt.Errorf("verdicts: no column %q (columns: %v)", m, recs[0])
		}
		types[m] = series.Float
	}
	for _, c := range computed {
		if slices.Contains(recs[0], c) {
			types[c] = series.Float
		}
	}
	for line, rec := range recs[1:] {
		for i, h := range recs[0] {
			if _, ok := types[h]; ok {
				if _, ok := results.Number(rec[i]); !ok {
					return dataframe.DataFrame{}, fmt.Errorf("verdicts: line %d, column %s: %q is not a number", line+2, h, rec[i])
				}
			}
		}
	}
	return load(recs, types)
}

// FromRows builds the DataFrame of scored rows given as values (a
// results.RowTable that qa.Options.Rows filled, or a
// results.VerdictReader), with the columns and types ReadVerdicts gives
// the verdict file of the same rows: the columns of the schema's Header,
// the metric verdicts and the scorer's counts and flags as float
// columns (NaN where a verdict is missing), every other column as text.
// The strings of the rows are kept, so they must stay valid after the
// next row (true of both sources above).
func FromRows(rows results.Rows) (dataframe.DataFrame, error) {
	sc := rows.Schema()
	if sc == nil {
		return dataframe.DataFrame{}, fmt.Errorf("frame: no rows and no schema")
	}
	text := make([][]string, len(sc.Header))
	nums := make([][]float64, len(sc.Header))
	var cells []string
	for r, err := range rows.All() {
		if err != nil {
			return dataframe.DataFrame{}, err
		}
		cells = sc.AppendCells(cells[:0], r)
		for c, v := range cells {
			if !sc.Numeric[c] {
				text[c] = append(text[c], v)
				continue
			}
			x, ok := sc.Number(r, c)
			if !ok { // a scorer's column that a verdict file repeats
				if x, ok = results.Number(v); !ok {
					x = math.NaN()
				}
			}
			nums[c] = append(nums[c], x)
		}
	}
	cols := make([]series.Series, len(sc.Header))
	for c, h := range sc.Header {
		if sc.Numeric[c] {
			cols[c] = series.New(append([]float64{}, nums[c]...), series.Float, h)
		} else {
			cols[c] = series.New(append([]string{}, text[c]...), series.String, h)
		}
	}
	df := dataframe.New(cols...)
	return df, df.Err
}

// WriteCSV writes df as CSV with a header row: text as it is, numbers in
// their shortest form (1, not 1.000000), so that a table read by
// ReadResponses or ReadVerdicts is written back unchanged. A text cell a
// spreadsheet would run as a formula gets a leading ' as in every CSV
// evalbook writes (tabular.GuardFormula; ReadVerdicts takes it off).
func WriteCSV(w io.Writer, df dataframe.DataFrame) error {
	if df.Err != nil {
		return df.Err
	}
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{})
	names := df.Names()
	if err := cw.Write(names); err != nil {
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
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell formats element r of c for CSV.
func cell(c series.Series, r int) string {
	e := c.Elem(r)
	switch c.Type() {
	case series.Float:
		x := e.Float()
		if math.IsNaN(x) {
			return ""
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case series.Int:
		if e.IsNA() {
			return ""
		}
		v, _ := e.Int()
		return strconv.Itoa(v)
	}
	return e.String()
}
