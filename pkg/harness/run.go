package harness

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// RunCase is a case as the runner needs it (the fields of a case record).
type RunCase struct {
	ID, Question, Task, Set, Lang, Expect string
	DocIDs, Facts                         []string
}

// RunRow is the result of one case. Fact is, for an answer, the case's
// facts that the reply contains, in the case's order, joined by " | " (so it
// equals FactKey(facts) exactly when every fact is there); empty otherwise.
type RunRow struct {
	ID      string `json:"id"`
	Task    string `json:"task"`
	Set     string `json:"set"`
	Lang    string `json:"lang"`
	Expect  string `json:"expect"`
	Outcome string `json:"outcome"` // answer, abstain or error
	Fact    string `json:"fact"`
	Pass    bool   `json:"pass"`
	// The rest is not in the CSV.
	Source string  `json:"source,omitempty"` // document of the top evidence
	Cited  bool    `json:"cited"`            // an answer whose source is one of the case's doc_ids
	Score  float64 `json:"score"`
	Margin float64 `json:"margin"`
	Reason string  `json:"reason,omitempty"`
}

// FactKey is the fact key of an answer case for Summarize: its facts joined
// by " | ".
func FactKey(facts []string) string { return strings.Join(facts, " | ") }

// ContainedFacts returns the facts that text contains, compared after NFC,
// zero-width-joiner removal, Indic digit folding and lower-casing (so
// "৩০ দিন" is found in "৩০ দিনের" and in "30 দিন").
func ContainedFacts(text string, facts []string) []string {
	norm := func(s string) string {
		return strings.Join(strings.Fields(textnorm.Lower(textnorm.Indic.Apply(s))), " ")
	}
	t := norm(text)
	var out []string
	for _, f := range facts {
		if nf := norm(f); nf != "" && strings.Contains(t, nf) {
			out = append(out, f)
		}
	}
	return out
}

// Run asks the system every case, in order. A case passes when it expects
// abstain and the system abstained, or expects answer and the reply
// contains every fact (the rule of Summarize with FactKey as the fact).
func Run(s *System, cases []RunCase) []RunRow {
	rows := make([]RunRow, len(cases))
	for i, c := range cases {
		rep := s.Ask(c.Question)
		row := RunRow{ID: c.ID, Task: c.Task, Set: c.Set, Lang: c.Lang, Expect: c.Expect, Outcome: rep.Kind,
			Source: rep.Source, Score: rep.Score, Margin: rep.Margin, Reason: rep.Reason}
		if rep.Kind == KindAnswer {
			row.Fact = FactKey(ContainedFacts(rep.Text, c.Facts))
			for _, d := range c.DocIDs {
				row.Cited = row.Cited || d == rep.Source
			}
		}
		switch c.Expect {
		case KindAbstain:
			row.Pass = rep.Kind == KindAbstain
		case KindAnswer:
			row.Pass = rep.Kind == KindAnswer && len(c.Facts) > 0 && row.Fact == FactKey(c.Facts)
		}
		rows[i] = row
	}
	return rows
}

// CSVHeader is the header of a run file.
var CSVHeader = []string{"id", "task", "set", "lang", "expect", "outcome", "fact", "pass"}

// WriteCSV writes rows as a run file: CSVHeader, then one line per case with
// pass written 1 or 0.
// A cell a spreadsheet would run as a formula is written with a leading
// ' (tabular.NeedsFormulaGuard); WriteCSVOptions can turn that off and
// says how many cells it guarded.
func WriteCSV(w io.Writer, rows []RunRow) error {
	_, err := WriteCSVOptions(w, rows, tabular.CSVOptions{})
	return err
}

// WriteCSVOptions is WriteCSV with options; it returns the number of
// cells it guarded.
func WriteCSVOptions(w io.Writer, rows []RunRow, opt tabular.CSVOptions) (int, error) {
	cw := tabular.NewCSVWriter(w, opt)
	cw.Write(CSVHeader)
	for _, r := range rows {
		pass := "0"
		if r.Pass {
			pass = "1"
		}
		cw.Write([]string{r.ID, r.Task, r.Set, r.Lang, r.Expect, r.Outcome, r.Fact, pass})
	}
	cw.Flush()
	return cw.Guarded(), cw.Error()
}

// ReadCSV reads a run file written by WriteCSV. The header must be exactly
// CSVHeader; outcome must be answer, abstain or error; pass 1 or 0; ids
// unique; every field UTF-8; and there must be at least one row (an empty
// file or a header alone is an error wrapping ErrEmpty). Errors name file,
// line and column.
func ReadCSV(r io.Reader, file string) ([]RunRow, error) {
	rows, _, err := ReadCSVLines(r, file)
	return rows, err
}

// ReadCSVLines is ReadCSV that also returns, for each id, the line of the
// file on which its row starts.
func ReadCSVLines(r io.Reader, file string) ([]RunRow, map[string]int, error) {
	rd, err := tabular.Open(r, file, "csv")
	if errors.Is(err, tabular.ErrEmptyFile) {
		return nil, nil, emptyError(file, "no rows (the file is empty; a run file starts with the header "+strings.Join(CSVHeader, ",")+")")
	}
	if err != nil {
		return nil, nil, err
	}
	if head := rd.Header(); strings.Join(head, ",") != strings.Join(CSVHeader, ",") {
		return nil, nil, &ParseError{File: file, Line: 1, Err: fmt.Errorf("header is %q, want %q", strings.Join(head, ","), strings.Join(CSVHeader, ","))}
	}
	var rows []RunRow
	first := map[string]int{}
	for rd.Scan() {
		rec := rd.Record().Fields
		line := rd.Record().Line
		bad := func(col int, format string, a ...any) error { return rd.Errorf(col, format, a...) }
		u := tabular.UnguardFormula // WriteCSV guards formula cells
		row := RunRow{ID: u(rec[0]), Task: u(rec[1]), Set: u(rec[2]), Lang: u(rec[3]), Expect: u(rec[4]), Outcome: u(rec[5]), Fact: u(rec[6])}
		switch {
		case row.ID == "":
			return nil, nil, bad(0, "must not be empty")
		case first[row.ID] > 0:
			return nil, nil, bad(0, "%q already on line %d", row.ID, first[row.ID])
		case row.Expect != KindAnswer && row.Expect != KindAbstain:
			return nil, nil, bad(4, "%q is not answer or abstain", row.Expect)
		case row.Outcome != KindAnswer && row.Outcome != KindAbstain && row.Outcome != KindError:
			return nil, nil, bad(5, "%q is not answer, abstain or error", row.Outcome)
		case rec[7] != "0" && rec[7] != "1":
			return nil, nil, bad(7, "%q is not 1 or 0", rec[7])
		}
		first[row.ID] = line
		row.Pass = rec[7] == "1"
		rows = append(rows, row)
	}
	if err := rd.Err(); err != nil {
		return nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, emptyError(file, "no rows after the header")
	}
	return rows, first, nil
}

// Rate is a pass count over a number of cases.
type Rate struct {
	Passed int `json:"passed"`
	N      int `json:"n"`
}

// Value is Passed / N; call only when N > 0.
func (r Rate) Value() float64 { return float64(r.Passed) / float64(r.N) }

// Measure computes, from run rows, the plan metrics a run file can show:
//
//	answer_correct  = passing answer cases / answer cases
//	abstain_correct = passing abstain cases / abstain cases
//
// A metric with no case is left out. Citation support, retrieval recall
// and format are not in a run file and are never guessed.
func Measure(rows []RunRow) map[string]Rate {
	out := map[string]Rate{}
	for _, r := range rows {
		name := "answer_correct"
		if r.Expect == KindAbstain {
			name = "abstain_correct"
		}
		m := out[name]
		m.N++
		if r.Pass {
			m.Passed++
		}
		out[name] = m
	}
	return out
}

// ByField groups pass rates by a field of the rows (task, set, lang, expect
// or outcome), in sorted order of the values.
func ByField(rows []RunRow, field string) ([]string, map[string]Rate, error) {
	get := map[string]func(RunRow) string{
		"task": func(r RunRow) string { return r.Task }, "set": func(r RunRow) string { return r.Set },
		"lang": func(r RunRow) string { return r.Lang }, "expect": func(r RunRow) string { return r.Expect },
		"outcome": func(r RunRow) string { return r.Outcome },
	}[field]
	if get == nil {
		return nil, nil, fmt.Errorf("unknown field %q (want task, set, lang, expect or outcome)", field)
	}
	m := map[string]Rate{}
	for _, r := range rows {
		x := m[get(r)]
		x.N++
		if r.Pass {
			x.Passed++
		}
		m[get(r)] = x
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, m, nil
}
