package mc

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// Columns names the columns of a prediction file.
//
// A log-likelihood file has one row per option: ID, Choice (the option's
// label), LogLik and Gold (the correct option's label, the same on every
// row of a question), and optionally Language, Subject, Text (the
// option's text, for length normalisation) and Tokens (its token count).
// A letter file has one row per question: ID, Gold and Prediction (the
// label the model gave), and optionally Language and Subject. A question
// is identified by its language and ID together, so a translated
// benchmark may reuse the ids in every language. In JSONL the columns
// are the keys of the first object.
type Columns struct {
	ID, Language, Subject, Choice, Text, LogLik, Tokens, Gold, Prediction string
}

// DefaultColumns are the column names used when none are given.
var DefaultColumns = Columns{ID: "id", Language: "language", Subject: "subject", Choice: "choice",
	Text: "choice_text", LogLik: "loglik", Tokens: "tokens", Gold: "gold", Prediction: "prediction"}

// ParseError is an error at a place in a prediction file: the file, the
// 1-based line, the 1-based character column (0 when unknown) and the
// column concerned. It is tabular.ParseError, the one error type of every
// evalbook reader.
type ParseError = tabular.ParseError

// ErrInvalidUTF8 is the error, wrapped in a *ParseError naming the file,
// line and column, of a field that is not valid UTF-8. Such a file is
// refused rather than repaired: a label or id with a stray byte would be
// scored as some other label, or split one question in two. It is
// tabular.ErrInvalidUTF8.
var ErrInvalidUTF8 = tabular.ErrInvalidUTF8

// File is a prediction file read into questions.
type File struct {
	Questions []Question
	Mode      string // "loglik" or "letters"
	// LanguageSource says where the language of the questions came from:
	// "column", "file name" (<model>_<language>.csv) or "none".
	LanguageSource string
	Hash           string // first 12 hex digits of SHA-256 of the bytes
}

// ReadFile reads the prediction file at path (CSV, or JSONL when the
// name ends in .jsonl or .ndjson).
func ReadFile(path string, cols Columns) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, cols)
}

// Read reads a prediction file from r; name is used in messages, to pick
// the format by extension and, when there is no language column, to take
// the language from a <model>_<language> file name. Zero fields of cols
// take DefaultColumns.
func Read(r io.Reader, name string, cols Columns) (*File, error) {
	cols = cols.fill()
	h := sha256.New()
	tee := io.TeeReader(r, h)
	format := "csv"
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		format = "jsonl"
	}
	// JSONL objects may leave out keys (a missing or null value is
	// absent) and add keys the first object lacks.
	rd, err := tabular.NewReader(tee, name, tabular.Options{Format: format, Sparse: true})
	if err != nil {
		return nil, err
	}
	b := &builder{file: name, cols: cols, rd: rd, byKey: map[string]int{}}
	if err := b.run(); err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, tee); err != nil { // the hash covers the whole input
		return nil, err
	}
	b.out.Hash = hex.EncodeToString(h.Sum(nil))[:12]
	return &b.out, nil
}

func (c Columns) fill() Columns {
	d := DefaultColumns
	for _, f := range []struct {
		dst *string
		def string
	}{
		{&c.ID, d.ID}, {&c.Language, d.Language}, {&c.Subject, d.Subject}, {&c.Choice, d.Choice}, {&c.Text, d.Text},
		{&c.LogLik, d.LogLik}, {&c.Tokens, d.Tokens}, {&c.Gold, d.Gold}, {&c.Prediction, d.Prediction},
	} {
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	return c
}

// place is where a value is: its line and character column (0 when
// unknown).
type place struct{ line, col int }

// get returns the named field of the record just read and its place; a
// column the file lacks, a JSONL key left out and a JSON null are absent.
func (b *builder) get(col string) (string, place, bool) {
	rec := b.rd.Record()
	i := b.rd.Index(col)
	if i < 0 || i >= len(rec.Fields) {
		return "", place{rec.Line, 0}, false
	}
	if k := rec.Kind(i); k == tabular.Absent || k == tabular.Null {
		return "", place{rec.Line, 0}, false
	}
	line, c := b.rd.FieldPos(i)
	return rec.Fields[i], place{line, c}, true
}

// builder turns rows into questions.
type builder struct {
	file  string
	cols  Columns
	rd    *tabular.Reader
	out   File
	byKey map[string]int // language + "\x00" + id -> index in out.Questions
	// fileLang is the language taken from the file name, if any.
	fileLang string
}

func (b *builder) errf(p place, format string, a ...any) error {
	return &ParseError{File: b.file, Line: p.line, Column: p.col, Err: fmt.Errorf(format, a...)}
}

func (b *builder) run() error {
	header := b.rd.Header()
	has := map[string]bool{}
	for i, h := range header {
		if has[h] {
			return &ParseError{File: b.file, Line: 1, Column: b.rd.HeaderColumn(i), Err: fmt.Errorf("column %s appears twice in the header", tabular.Quote(h))}
		}
		has[h] = true
	}
	names := append([]string(nil), header...)
	if b.rd.Format() == "jsonl" {
		sort.Strings(names) // keys have no order of their own
	}
	columns := strings.Join(names, ", ")
	c := b.cols
	top := place{1, 0}
	switch {
	case has[c.LogLik]:
		b.out.Mode = "loglik"
		for _, need := range []string{c.ID, c.Choice, c.Gold} {
			if !has[need] {
				return b.errf(top, "log-likelihood file has no %s column (columns: %s)", tabular.Quote(need), columns)
			}
		}
	case has[c.Prediction]:
		b.out.Mode = "letters"
		for _, need := range []string{c.ID, c.Gold} {
			if !has[need] {
				return b.errf(top, "prediction file has no %s column (columns: %s)", tabular.Quote(need), columns)
			}
		}
	default:
		return b.errf(top, "neither a %q column (one row per option) nor a %q column (one row per question) (columns: %s)",
			c.LogLik, c.Prediction, columns)
	}
	b.out.LanguageSource = "none"
	if has[c.Language] {
		b.out.LanguageSource = "column"
	} else if _, lang, ok := textnorm.LanguageFromFileName(b.file); ok {
		b.fileLang = lang
		b.out.LanguageSource = "file name"
	}
	for b.rd.Scan() {
		if err := b.row(b.rd.Record().Line); err != nil {
			return err
		}
	}
	if err := b.rd.Err(); err != nil {
		return err
	}
	if len(b.out.Questions) == 0 {
		return &ParseError{File: b.file, Err: errors.New("no rows after the header")}
	}
	if b.out.Mode == "loglik" {
		for _, q := range b.out.Questions {
			if len(q.Choices) < 2 {
				return b.errf(place{q.Line, 0}, "question %s has %d option(s); a multiple-choice question needs at least 2", tabular.Quote(q.ID), len(q.Choices))
			}
			if goldPos(q) < 0 {
				return b.errf(place{q.Line, 0}, "question %s: the gold option %s is not among its options", tabular.Quote(q.ID), Letter(q.Gold))
			}
		}
	}
	return nil
}

func (b *builder) field(name string) (string, place) {
	v, p, _ := b.get(name)
	return v, p
}

func (b *builder) label(line int, col string, what string) (int, string, error) {
	v, c := b.field(col)
	i, ok := LetterIndex(v)
	if !ok {
		return 0, v, b.errf(c, "%s %s names no option (want a letter such as A, a digit, or an option letter such as क or ক)", what, tabular.Quote(v))
	}
	return i, v, nil
}

func (b *builder) row(line int) error {
	c := b.cols
	id, idCol := b.field(c.ID)
	id = strings.TrimSpace(id)
	if id == "" {
		return b.errf(idCol, "empty question id")
	}
	lang := b.fileLang
	if v, _, ok := b.get(c.Language); ok {
		lang = strings.TrimSpace(v)
		if l, ok := textnorm.ParseLanguage(lang); ok {
			lang = l
		}
	}
	subject, subjCol := b.field(c.Subject)
	subject = strings.TrimSpace(subject)
	gold, goldRaw, err := b.label(line, c.Gold, "gold label")
	if err != nil {
		return err
	}
	key := lang + "\x00" + id
	qi, seen := b.byKey[key]
	if b.out.Mode == "letters" {
		if seen {
			return b.errf(idCol, "question %s (language %s) appears twice; first on line %d", tabular.Quote(id), tabular.Quote(lang), b.out.Questions[qi].Line)
		}
		pred, _ := b.field(c.Prediction)
		p, ok := LetterIndex(pred)
		if !ok {
			p = -1
		}
		b.byKey[key] = len(b.out.Questions)
		b.out.Questions = append(b.out.Questions, Question{ID: id, Language: lang, Subject: subject, Line: line, Gold: gold, Predicted: p})
		return nil
	}
	if !seen {
		qi = len(b.out.Questions)
		b.byKey[key] = qi
		b.out.Questions = append(b.out.Questions, Question{ID: id, Language: lang, Subject: subject, Line: line, Gold: gold, Predicted: -1})
	}
	q := &b.out.Questions[qi]
	if q.Gold != gold {
		_, gc := b.field(c.Gold)
		return b.errf(gc, "question %s: gold label %s differs from %s on line %d", tabular.Quote(id), tabular.Quote(goldRaw), Letter(q.Gold), q.Line)
	}
	if q.Subject != subject {
		return b.errf(subjCol, "question %s: subject %s differs from %s on line %d", tabular.Quote(id), tabular.Quote(subject), tabular.Quote(q.Subject), q.Line)
	}
	idx, lab, err := b.label(line, c.Choice, "option label")
	if err != nil {
		return err
	}
	for _, ch := range q.Choices {
		if ch.Index == idx {
			_, cc := b.field(c.Choice)
			return b.errf(cc, "question %s: option %s appears twice (as %s before)", tabular.Quote(id), tabular.Quote(lab), tabular.Quote(ch.Label))
		}
	}
	llRaw, llCol := b.field(c.LogLik)
	ll, perr := strconv.ParseFloat(strings.TrimSpace(llRaw), 64)
	if perr != nil || !validLogLik(ll) {
		return b.errf(llCol, "log-likelihood %s is not a number (−inf is allowed; NaN and +inf are not)", tabular.Quote(llRaw))
	}
	text, _ := b.field(c.Text)
	tokens := 0
	if v, tc, ok := b.get(c.Tokens); ok && strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return b.errf(tc, "token count %s is not a positive whole number", tabular.Quote(v))
		}
		tokens = n
	}
	q.Choices = append(q.Choices, Choice{Label: lab, Index: idx, Text: text, LogLik: ll, Tokens: tokens, Line: line})
	return nil
}
