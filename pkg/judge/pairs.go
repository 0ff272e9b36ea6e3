package judge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A Label is a human or judge decision about a pair: answer a, answer b,
// or a tie.
type Label string

// The three labels of a pairwise decision.
const (
	LabelA   Label = "a"
	LabelB   Label = "b"
	LabelTie Label = "tie"
)

// Labels lists the labels in the order confusion tables use (rows and
// columns a, b, tie).
var Labels = []Label{LabelA, LabelB, LabelTie}

func (l Label) valid() bool { return l == LabelA || l == LabelB || l == LabelTie }

// Kinds lists the pair kinds of the labelled set, each a slice of the
// calibration:
//
//	clear         one answer is right, the other wrong
//	verbose_tie   the same facts, one answer padded with extra words
//	padded_wrong  a long wrong answer against a short right one
//	cite          the same facts, only one answer cites a source id
//	tie           the same facts and citations, worded differently
//	self          a plain cited answer against an uncited one in the
//	              judge's own style
var Kinds = []string{"clear", "verbose_tie", "padded_wrong", "cite", "tie", "self"}

// A Pair is one labelled comparison: a question, the facts a correct
// answer must state, two answers, and the labels of two annotators and the
// adjudicated final label.
type Pair struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Facts    []string `json:"facts"`
	A        string   `json:"a"`
	B        string   `json:"b"`
	Kind     string   `json:"kind"`
	Lang     string   `json:"lang"`
	Ann1     Label    `json:"ann1"`
	Ann2     Label    `json:"ann2"`
	Final    Label    `json:"final"`
	// Note is the annotators' note, required by guideline rule 4 when
	// they label a tie because they are unsure; optional otherwise.
	Note string `json:"note,omitempty"`
}

// A ParseError reports a problem in a data file with its position: the
// file, the 1-based line, the 1-based character column (0 when the
// problem concerns the whole line) and the field concerned. It is
// tabular.ParseError, the one error type of every evalbook reader.
type ParseError = tabular.ParseError

// ReadPairs reads labelled pairs from JSON Lines, one object per line
// (blank lines are skipped). Records are strict: unknown fields, missing
// fields, labels other than a, b and tie, kinds outside Kinds, an empty
// facts list, duplicate ids and invalid UTF-8 are errors, reported as a *ParseError
// naming the file (name), line, character column and field; so is a line
// longer than tabular.RecordLimit() (64 MiB unless --max-field-mib
// changed it).
func ReadPairs(r io.Reader, name string) ([]Pair, error) {
	ln := tabular.NewLines(r, name, 0) // tabular.Limit: --max-field-mib
	var pairs []Pair
	seen := map[string]int{}
	for ln.Scan() {
		raw := ln.Bytes()
		p, e := decodePair(raw)
		if e != nil {
			pe := &ParseError{File: name, Line: ln.Line(), Field: e.field, Err: e.err}
			switch {
			case e.off >= 0:
				pe.Column = ln.Column(e.off)
			case e.field != "":
				pe.Column = ln.KeyColumn(e.field)
			}
			return nil, pe
		}
		if first, dup := seen[p.ID]; dup {
			return nil, &ParseError{File: name, Line: ln.Line(), Column: ln.KeyColumn("id"), Field: "id",
				Err: fmt.Errorf("duplicate pair id %s (first on line %d)", tabular.Quote(p.ID), first)}
		}
		seen[p.ID] = ln.Line()
		pairs = append(pairs, p)
	}
	if err := ln.Err(); err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("no pairs")}
	}
	return pairs, nil
}

// pairError is a problem with one line: at byte offset off of it (-1:
// none), or at the key field.
type pairError struct {
	off   int
	field string
	err   error
}

// decodePair decodes and validates one line.
func decodePair(raw []byte) (Pair, *pairError) {
	var p Pair
	at := func(field string, format string, a ...any) *pairError {
		return &pairError{off: -1, field: field, err: fmt.Errorf(format, a...)}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			// Offset counts the bytes read, the bad one included.
			return p, &pairError{off: max(int(syn.Offset)-1, 0), err: fmt.Errorf("invalid JSON: %v", syn)}
		case errors.As(err, &typ):
			return p, at(typ.Field, "field %s: want %s, got JSON %s", tabular.Quote(typ.Field), typ.Type, typ.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return p, at(f, "unknown field %s", tabular.Quote(f))
		}
		return p, &pairError{off: -1, err: fmt.Errorf("invalid JSON: %v", err)}
	}
	if dec.More() {
		return p, &pairError{off: int(dec.InputOffset()), err: errors.New("more than one JSON value on the line")}
	}
	need := []struct {
		field string
		empty bool
	}{
		{"id", p.ID == ""}, {"question", p.Question == ""}, {"facts", len(p.Facts) == 0},
		{"a", p.A == ""}, {"b", p.B == ""}, {"kind", p.Kind == ""}, {"lang", p.Lang == ""},
		{"ann1", p.Ann1 == ""}, {"ann2", p.Ann2 == ""}, {"final", p.Final == ""},
	}
	for _, n := range need {
		if n.empty {
			return p, at(n.field, "pair %s: field %s is missing or empty", tabular.Quote(p.ID), tabular.Quote(n.field))
		}
	}
	for i, f := range p.Facts {
		if strings.TrimSpace(f) == "" {
			return p, at("facts", "pair %s: fact %d is empty", tabular.Quote(p.ID), i+1)
		}
	}
	for _, l := range []struct {
		field string
		l     Label
	}{{"ann1", p.Ann1}, {"ann2", p.Ann2}, {"final", p.Final}} {
		if !l.l.valid() {
			return p, at(l.field, "pair %s: %s is %s, want a, b or tie", tabular.Quote(p.ID), l.field, tabular.Quote(string(l.l)))
		}
	}
	if !contains(Kinds, p.Kind) {
		return p, at("kind", "pair %s: kind %s, want one of %s", tabular.Quote(p.ID), tabular.Quote(p.Kind), strings.Join(Kinds, ", "))
	}
	return p, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// LabelSetHash returns a short content hash of a labelled pair set: the
// first 12 hex digits of SHA-256 over the pairs' canonical JSON, one per
// line, sorted by id. It is independent of file order and of formatting,
// and changes with any edit to a question, fact, answer, kind, language,
// label or note, so a calibration record can say which labels it used.
func LabelSetHash(pairs []Pair) string {
	sorted := append([]Pair(nil), pairs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	h := sha256.New()
	for _, p := range sorted {
		b, _ := json.Marshal(p) // a Pair of strings always marshals
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
