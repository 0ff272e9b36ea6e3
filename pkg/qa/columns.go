package qa

import (
	"fmt"
	"strings"
)

// Columns names the columns of a response table. The zero value is not
// useful; start from DefaultColumns and rename what differs.
type Columns struct {
	Question string // required
	Answer   string // required: the golden answer
	Domain   string // required
	Response string // required: the model's raw output
	ID       string // optional: a row or question id
	Language string // optional
	Model    string // optional
	// References, when set, names a list column of several references
	// per item (score.ParseReferences: a JSON array of strings per cell,
	// or text split on Options.RefSeparator). The metrics that take
	// several references (score.TakesReferences: bleu, chrf, ter, rouge)
	// score against them instead of Answer; the others keep Answer.
	References string
}

// DefaultColumns are the column names of the seed format. Names match exactly.
var DefaultColumns = Columns{
	Question: "question",
	Answer:   "answer",
	Domain:   "Domain",
	Response: "response",
	ID:       "id",
	Language: "language",
	Model:    "model",
}

// layout is the resolved position of every column in a header.
type layout struct {
	header              []string
	question, answer    int
	domain, response    int
	id, language, model int // -1 when absent
	refs                int // Columns.References, -1 when not set
	errCol              int // ErrorColumn, -1 when absent
	byCols              [][]int
	byNames             []string
	cluster             int // -1 when not clustering
}

func resolve(file string, header []string, c Columns, by [][]string, cluster string) (*layout, error) {
	idx := map[string]int{}
	for i, h := range header {
		if _, dup := idx[h]; dup {
			return nil, &ParseError{File: file, Line: 1, Field: h, Err: fmt.Errorf("the header names column %q twice", h)}
		}
		idx[h] = i
	}
	var missing []string
	firstMissing := ""            // the column name of the first missing column
	reported := map[string]bool{} // a name missing in two roles is listed once
	required := false             // one of the four required columns is missing
	need := func(name, role string) int {
		if i, ok := idx[name]; ok {
			return i
		}
		if !reported[name] {
			reported[name] = true
			if firstMissing == "" {
				firstMissing = name
			}
			missing = append(missing, fmt.Sprintf("%q (%s)", name, role))
		}
		return -1
	}
	needRole := func(name, role string) int {
		i := need(name, role)
		if i < 0 {
			required = true
		}
		return i
	}
	opt := func(name string) int {
		if i, ok := idx[name]; ok && name != "" {
			return i
		}
		return -1
	}
	l := &layout{
		header:   header,
		question: needRole(c.Question, "the question"),
		answer:   needRole(c.Answer, "the golden answer"),
		domain:   needRole(c.Domain, "the domain"),
		response: needRole(c.Response, "the model's response"),
		id:       opt(c.ID),
		language: opt(c.Language),
		model:    opt(c.Model),
		errCol:   opt(ErrorColumn),
		cluster:  -1,
		refs:     -1,
	}
	if c.References != "" {
		l.refs = need(c.References, "the references")
	}
	for _, g := range by {
		cols := make([]int, len(g))
		for j, name := range g {
			if _, ok := idx[name]; !ok && name == c.Language {
				cols[j] = virtualLanguage
				continue
			}
			cols[j] = need(name, "a grouping column")
		}
		l.byCols = append(l.byCols, cols)
		l.byNames = append(l.byNames, strings.Join(g, " / "))
	}
	if cluster != "" {
		l.cluster = need(cluster, "the cluster column")
	}
	if len(missing) > 0 {
		return nil, &ParseError{File: file, Line: 1, Field: firstMissing, Err: &missingError{
			msg:      fmt.Sprintf("%v %s; the header has: %s", ErrMissingColumn, strings.Join(missing, ", "), quoteList(header)),
			required: required,
		}}
	}
	return l, nil
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// readColumns lists the columns whose values the scorer uses (scores,
// groups on, clusters by, or names rows by); a JSONL object or array is
// allowed in any other column.
func (l *layout) readColumns() []int {
	cols := []int{l.question, l.answer, l.domain, l.response, l.id, l.language, l.model, l.cluster, l.refs}
	for _, g := range l.byCols {
		cols = append(cols, g...)
	}
	return cols
}

// virtualLanguage stands, in a grouping, for the language column when the
// file has none: the language then comes from the file name or from the
// script of the golden answer.
const virtualLanguage = -2

// missingError lists the missing columns. It is ErrMissingColumn, and
// also ErrRequiredColumn when one of the four required columns (which
// Options.Columns can rename) is among them; a grouping or cluster
// column must simply exist.
type missingError struct {
	msg      string
	required bool
}

func (e *missingError) Error() string { return e.msg }

func (e *missingError) Is(target error) bool {
	return target == ErrMissingColumn || e.required && target == ErrRequiredColumn
}
