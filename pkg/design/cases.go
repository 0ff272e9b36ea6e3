package design

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Case is one evaluation case record: what to ask, what kind of task it is,
// which set it belongs to, its language, whether the system should answer
// or abstain, the documents that hold the answer, the strings a correct
// answer must contain, and why the case exists.
//
// Two consistency rules hold for every valid record: an answer case has
// both doc_ids and facts and an abstain case has neither; and task
// "unanswerable" goes with expect "abstain", and only with it.
type Case struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Task     string   `json:"task"`
	Set      string   `json:"set"`
	Lang     string   `json:"lang"`
	Expect   string   `json:"expect"`
	DocIDs   []string `json:"doc_ids"`
	Facts    []string `json:"facts"`
	Why      string   `json:"why"`
}

// Expectations are the allowed values of Case.Expect. Unlike task, set and
// lang, they cannot be extended: the harness scores exactly these two.
var Expectations = []string{"answer", "abstain"}

// MinWhy is the shortest allowed Case.Why, in characters.
const MinWhy = 10

// Vocabulary is the allowed values of a case's task, set and lang. A plan's
// case_values extends DefaultVocabulary with more. Every field needs at
// least one value: the zero Vocabulary allows nothing, and ReadCases
// refuses it (see Validate) rather than reject every record; start from
// DefaultVocabulary and Extend it.
type Vocabulary struct {
	Task []string `json:"task,omitempty"`
	Set  []string `json:"set,omitempty"`
	Lang []string `json:"lang,omitempty"`
}

// DefaultVocabulary is the taxonomy of the lesson (seed 003).
var DefaultVocabulary = Vocabulary{
	Task: []string{"lookup", "exact_term", "paraphrase", "multi_fact", "unanswerable"},
	Set:  []string{"golden", "adversarial", "production_like"},
	Lang: []string{"en", "bn"},
}

// Extend returns v with the values of more appended, each once, in order.
func (v Vocabulary) Extend(more Vocabulary) Vocabulary {
	join := func(a, b []string) []string {
		out := append([]string(nil), a...)
		for _, s := range b {
			if !contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	return Vocabulary{Task: join(v.Task, more.Task), Set: join(v.Set, more.Set), Lang: join(v.Lang, more.Lang)}
}

// ErrEmptyVocabulary is wrapped by Vocabulary.Validate's error for a
// vocabulary with no allowed value for task, set or lang.
var ErrEmptyVocabulary = errors.New("the case vocabulary is empty")

// Validate returns an error when no record could pass under v: a field
// among task, set and lang with no allowed value (wrapping
// ErrEmptyVocabulary; the zero Vocabulary has none for all three), or an
// allowed value that is blank or has surrounding spaces.
func (v Vocabulary) Validate() error {
	var empty []string
	var errs []error
	for _, f := range []struct {
		name string
		vals []string
	}{{"task", v.Task}, {"set", v.Set}, {"lang", v.Lang}} {
		if len(f.vals) == 0 {
			empty = append(empty, f.name)
		}
		for i, val := range f.vals {
			if strings.TrimSpace(val) == "" || val != strings.TrimSpace(val) {
				errs = append(errs, fmt.Errorf("case vocabulary %s[%d]: %s is not a non-empty value without surrounding spaces", f.name, i, tabular.Quote(val)))
			}
		}
	}
	if len(empty) > 0 {
		errs = append([]error{fmt.Errorf("%w: it allows no %s value (start from DefaultVocabulary and Extend it)",
			ErrEmptyVocabulary, strings.Join(empty, ", "))}, errs...)
	}
	return errors.Join(errs...)
}

// Values returns the allowed values of a categorical case field (task, set,
// lang or expect), in their documented order.
func (v Vocabulary) Values(field string) ([]string, error) {
	switch field {
	case "task":
		return v.Task, nil
	case "set":
		return v.Set, nil
	case "lang":
		return v.Lang, nil
	case "expect":
		return Expectations, nil
	}
	return nil, fmt.Errorf("unknown case field %q (want task, set, lang or expect)", field)
}

// Field returns the value of a categorical field of c (see Values).
func (c *Case) Field(field string) string {
	switch field {
	case "task":
		return c.Task
	case "set":
		return c.Set
	case "lang":
		return c.Lang
	case "expect":
		return c.Expect
	}
	return ""
}

// FieldError is a rule a record breaks, naming the field.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Validate returns every rule c breaks under the vocabulary v, in field
// order; nil when the record is valid.
func (c *Case) Validate(v Vocabulary) []*FieldError {
	var out []*FieldError
	add := func(field, format string, a ...any) {
		out = append(out, &FieldError{field, fmt.Errorf(format, a...)})
	}
	if strings.TrimSpace(c.ID) == "" {
		add("id", "must not be empty")
	} else if c.ID != strings.TrimSpace(c.ID) {
		add("id", "%s has surrounding spaces", tabular.Quote(c.ID))
	}
	if strings.TrimSpace(c.Question) == "" {
		add("question", "must not be empty")
	}
	for _, f := range []struct{ name, val string }{{"task", c.Task}, {"set", c.Set}, {"lang", c.Lang}, {"expect", c.Expect}} {
		allowed, _ := v.Values(f.name)
		switch {
		case len(allowed) == 0:
			add(f.name, "%s is not allowed: the vocabulary has no %s value", tabular.Quote(f.val), f.name)
		case !contains(allowed, f.val):
			add(f.name, "%s is not one of %s", tabular.Quote(f.val), strings.Join(allowed, ", "))
		}
	}
	for i, d := range c.DocIDs {
		if strings.TrimSpace(d) == "" {
			add("doc_ids["+strconv.Itoa(i)+"]", "must not be empty")
		}
	}
	for i, f := range c.Facts {
		if strings.TrimSpace(f) == "" {
			add("facts["+strconv.Itoa(i)+"]", "must not be empty")
		}
	}
	switch c.Expect {
	case "answer":
		if len(c.DocIDs) == 0 || len(c.Facts) == 0 {
			field := "doc_ids"
			if len(c.DocIDs) > 0 {
				field = "facts"
			}
			add(field, "an answer case needs doc_ids and facts")
		}
	case "abstain":
		if len(c.DocIDs) > 0 || len(c.Facts) > 0 {
			field := "doc_ids"
			if len(c.DocIDs) == 0 {
				field = "facts"
			}
			add(field, "an abstain case has neither doc_ids nor facts")
		}
	}
	if (c.Task == "unanswerable") != (c.Expect == "abstain") && contains(Expectations, c.Expect) {
		add("expect", "task unanswerable and expect abstain go together (task %s, expect %s)", tabular.Quote(c.Task), tabular.Quote(c.Expect))
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(c.Why)); n < MinWhy {
		add("why", "must be at least %d characters, has %d", MinWhy, n)
	}
	return out
}

var caseSchema = schema{"": {"id", "question", "task", "set", "lang", "expect", "doc_ids", "facts", "why"}}

// ErrDuplicateID is wrapped by the error for a case id used twice.
var ErrDuplicateID = errors.New("duplicate case id")

// ErrNoCases is wrapped by the error for an input that holds no case
// record at all: an empty file, or only blank lines.
var ErrNoCases = errors.New("no case records")

// ReadCases reads case records, one JSON object per line (JSONL), from r;
// file names the input in errors. Blank lines are skipped and a leading
// byte-order mark is allowed. Each record is decoded strictly (unknown or
// repeated fields, wrong types, text that is not UTF-8: see BadText) and
// validated under v; a repeated id is an error on its second line, and an
// input without any record is an error (ErrNoCases). Every problem is
// reported, as an ErrorList whose entries carry file, line, column and
// field. A line longer than tabular.RecordLimit() (64 MiB, --max-field-mib)
// stops the reading with an error naming the limit and the flag. A
// vocabulary that fails Vocabulary.Validate (such as the zero
// Vocabulary) is one error, returned before anything is read.
func ReadCases(r io.Reader, file string, v Vocabulary) ([]Case, error) {
	if err := v.Validate(); err != nil {
		return nil, err // the caller's mistake, not the file's
	}
	var (
		cases   []Case
		errs    ErrorList
		firstAt = map[string]int{}
		blank   = 0 // blank lines seen
	)
	sc, max := lineScanner(r)
	line := 0
	for sc.Scan() {
		line++
		data := sc.Bytes()
		if line == 1 {
			data = trimBOM(data)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			blank++
			continue
		}
		if off, terr := BadText(data); terr != nil {
			errs = append(errs, textError(file, data, line-1, off, terr, caseSchema))
			continue
		}
		c, ferrs, err := parseCaseLine(data, file, line, v)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(ferrs) > 0 {
			errs = append(errs, ferrs...)
			continue
		}
		if prev, dup := firstAt[c.ID]; dup {
			errs = append(errs, &ParseError{File: file, Line: line, Column: 1, Field: "id",
				Err: fmt.Errorf("%w %s (first on line %d)", ErrDuplicateID, tabular.Quote(c.ID), prev)})
			continue
		}
		firstAt[c.ID] = line
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, scanError(file, line, err, max))
	}
	if len(errs) == 0 && len(cases) == 0 {
		what := "the file is empty"
		if blank > 0 {
			what = "the file has only blank lines"
		}
		errs = append(errs, &ParseError{File: file, Err: fmt.Errorf("%w (%s)", ErrNoCases, what)})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return cases, nil
}

// ParseCase decodes and validates one JSONL line (used by ReadCases and by
// the fuzz test).
func parseCaseLine(data []byte, file string, line int, v Vocabulary) (Case, []*ParseError, *ParseError) {
	var c Case
	doc, err := parseStrict(data, caseSchema, &c)
	if err != nil {
		pe := toParseError(file, data, line-1, err).(*ParseError)
		return c, nil, pe
	}
	var out []*ParseError
	for _, fe := range c.Validate(v) {
		off := doc.at(fe.Field)
		if off < 0 { // a missing field: point at the start of the record
			off = doc.at("")
		}
		_, col := lineCol(data, off)
		out = append(out, &ParseError{File: file, Line: line, Column: col, Field: fe.Field, Err: fe.Err})
	}
	return c, out, nil
}

// CheckUnique returns an error for every id used by more than one case, as
// ErrDuplicateID; for cases gathered from several files.
func CheckUnique(cases []Case) error {
	seen := map[string]bool{}
	var errs []error
	for i := range cases {
		if seen[cases[i].ID] {
			errs = append(errs, fmt.Errorf("%w %s", ErrDuplicateID, tabular.Quote(cases[i].ID)))
		}
		seen[cases[i].ID] = true
	}
	return errors.Join(errs...)
}
