package design

import (
	"fmt"
	"sort"
)

// DefaultMinPerCell is the smallest number of cases a coverage cell should
// hold before it says anything (the lesson's "fewer than 2").
const DefaultMinPerCell = 2

// Coverage is the count of cases in each combination of two categorical
// fields (task x set by default).
type Coverage struct {
	Rows      string   `json:"rows"`       // the field along the rows, e.g. "task"
	Cols      string   `json:"cols"`       // the field along the columns, e.g. "set"
	RowValues []string `json:"row_values"` // allowed values first, in vocabulary order
	ColValues []string `json:"col_values"`
	Counts    [][]int  `json:"counts"` // Counts[i][j]: cases with RowValues[i] and ColValues[j]
	Min       int      `json:"min"`
	// UnderMin lists the cells with fewer than Min cases, empty cells
	// included, in row-major order.
	UnderMin []Cell `json:"under_min"`
	// Empty lists the cells with no case at all, in row-major order.
	Empty []Cell `json:"empty"`
}

// Cell is one cell of a coverage matrix.
type Cell struct {
	Row string `json:"row"`
	Col string `json:"col"`
	N   int    `json:"n"`
}

// CoverageOf counts cases over the fields rows and cols (each one of task,
// set, lang, expect, and not the same field twice). Every allowed value of
// v gets a row or column even when no case has it, so a missing value shows
// as an empty row; values the vocabulary lacks (unvalidated cases) follow
// in sorted order. min below 1 means DefaultMinPerCell.
func CoverageOf(cases []Case, rows, cols string, v Vocabulary, min int) (*Coverage, error) {
	if rows == cols {
		return nil, fmt.Errorf("coverage needs two different fields, got %q twice", rows)
	}
	rv, err := axis(cases, rows, v)
	if err != nil {
		return nil, err
	}
	cv, err := axis(cases, cols, v)
	if err != nil {
		return nil, err
	}
	if min < 1 {
		min = DefaultMinPerCell
	}
	ri, ci := index(rv), index(cv)
	counts := make([][]int, len(rv))
	for i := range counts {
		counts[i] = make([]int, len(cv))
	}
	for i := range cases {
		counts[ri[cases[i].Field(rows)]][ci[cases[i].Field(cols)]]++
	}
	cov := &Coverage{Rows: rows, Cols: cols, RowValues: rv, ColValues: cv, Counts: counts, Min: min,
		UnderMin: []Cell{}, Empty: []Cell{}}
	for i, r := range rv {
		for j, c := range cv {
			n := counts[i][j]
			if n < min {
				cov.UnderMin = append(cov.UnderMin, Cell{r, c, n})
			}
			if n == 0 {
				cov.Empty = append(cov.Empty, Cell{r, c, 0})
			}
		}
	}
	return cov, nil
}

func axis(cases []Case, field string, v Vocabulary) ([]string, error) {
	allowed, err := v.Values(field)
	if err != nil {
		return nil, err
	}
	out := append([]string(nil), allowed...)
	var extra []string
	for i := range cases {
		val := cases[i].Field(field)
		if !contains(out, val) && !contains(extra, val) {
			extra = append(extra, val)
		}
	}
	sort.Strings(extra)
	return append(out, extra...), nil
}

func index(vals []string) map[string]int {
	m := make(map[string]int, len(vals))
	for i, s := range vals {
		m[s] = i
	}
	return m
}
