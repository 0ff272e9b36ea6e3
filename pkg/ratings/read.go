// Package ratings turns pairwise verdicts (model A against model B on an
// item: a, b or tie) into Bradley-Terry ratings with bootstrap intervals.
//
// A tie counts as half a win to each model. The fit is the maximum
// likelihood estimate by the MM algorithm of Hunter (2004)
// (stats.BradleyTerry), on the log-strength scale θ, anchored so that
// the models' θ sum to 0 (or so that a named model is 0), under which A
// beats B with probability 1/(1 + e^(θB − θA)). An Elo-like figure is
// given beside it: EloBase + 400/ln 10 · θ, so 400 Elo points are odds
// of 10 to 1.
//
// When the comparison graph is disconnected, or some group of models
// never lost (or never won) against the rest, the estimate does not
// exist; Analyze then returns a *NotEstimableError naming the groups
// instead of a fit.
package ratings

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxVerdicts bounds how many verdicts ReadVerdicts accepts.
const MaxVerdicts = 10_000_000

// Column names of a verdict file. ItemColumns are the names an optional
// item id column may have, in order of preference.
const (
	ColModelA = "model_a"
	ColModelB = "model_b"
	ColWinner = "winner"
)

// ItemColumns lists the accepted names of the optional item id column.
var ItemColumns = []string{"item", "item_id", "id"}

// The winners of a verdict.
const (
	WinnerA   = "a"
	WinnerB   = "b"
	WinnerTie = "tie"
)

// Verdict is one pairwise comparison: on Item (empty when the file has
// no item column), ModelA against ModelB, won by Winner (WinnerA,
// WinnerB or WinnerTie). Line is where it was read.
type Verdict struct {
	ModelA string `json:"model_a"`
	ModelB string `json:"model_b"`
	Winner string `json:"winner"`
	Item   string `json:"item,omitempty"`
	Line   int    `json:"line"`
}

// ReadVerdicts reads pairwise verdicts from CSV or JSONL (by name's
// extension, tabular.FormatOf) with the columns model_a, model_b and
// winner (a, b or tie, any case; "model_a"/"model_b" are accepted for a
// and b), and optionally an item id (item, item_id or id). Every error is
// a *tabular.ParseError naming the file, line, character column and
// field: a missing column, an empty model name, a model compared with
// itself, an unknown winner, invalid UTF-8 (tabular.ErrInvalidUTF8), more
// than MaxVerdicts verdicts. A file with no verdict is an error too.
func ReadVerdicts(r io.Reader, name string) ([]Verdict, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	header := rd.Header()
	col := func(c string) (int, error) {
		if i := rd.Index(c); i >= 0 {
			return i, nil
		}
		q := make([]string, len(header))
		for i, h := range header {
			q[i] = strconv.Quote(h)
		}
		return -1, &tabular.ParseError{File: name, Line: 1, Field: c, Err: fmt.Errorf("no column %q; the header has %s "+
			"(a verdict file needs model_a, model_b and winner, and may have item)", c, strings.Join(q, ", "))}
	}
	ia, err := col(ColModelA)
	if err != nil {
		return nil, err
	}
	ib, err := col(ColModelB)
	if err != nil {
		return nil, err
	}
	iw, err := col(ColWinner)
	if err != nil {
		return nil, err
	}
	ii := -1
	for _, c := range ItemColumns {
		if ii = rd.Index(c); ii >= 0 {
			break
		}
	}
	var out []Verdict
	for rd.Scan() {
		rec := rd.Record()
		if len(out) == MaxVerdicts {
			return nil, &tabular.ParseError{File: name, Line: rec.Line, Err: fmt.Errorf("more than %d verdicts; split the file", MaxVerdicts)}
		}
		v := Verdict{ModelA: strings.TrimSpace(rec.Fields[ia]), ModelB: strings.TrimSpace(rec.Fields[ib]), Line: rec.Line}
		if v.ModelA == "" {
			return nil, rd.Errorf(ia, "empty model name")
		}
		if v.ModelB == "" {
			return nil, rd.Errorf(ib, "empty model name")
		}
		if v.ModelA == v.ModelB {
			return nil, rd.Errorf(ib, "model %q is compared with itself", v.ModelB)
		}
		switch w := strings.ToLower(strings.TrimSpace(rec.Fields[iw])); w {
		case WinnerA, ColModelA:
			v.Winner = WinnerA
		case WinnerB, ColModelB:
			v.Winner = WinnerB
		case WinnerTie:
			v.Winner = WinnerTie
		default:
			return nil, rd.Errorf(iw, "winner %q: want a, b or tie", tabular.GuardFormula(truncate(rec.Fields[iw], 40)))
		}
		if ii >= 0 {
			v.Item = strings.TrimSpace(rec.Fields[ii])
		}
		out = append(out, v)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no verdicts")}
	}
	return out, nil
}

// truncate shortens s to at most n characters for a message.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
