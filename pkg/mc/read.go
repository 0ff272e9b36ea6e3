package mc

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

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

// ParseError is an error at a place in a prediction file.
type ParseError struct {
	File         string
	Line, Column int    // 1-based; 0 when unknown
	Field        string // the column concerned, when the message does not name it
	Err          error
}

func (e *ParseError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
		if e.Column > 0 {
			s += fmt.Sprintf(":%d", e.Column)
		}
	}
	if e.Field != "" {
		s += fmt.Sprintf(" (column %q)", e.Field)
	}
	return s + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

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
	data, err := io.ReadAll(io.TeeReader(r, h))
	if err != nil {
		return nil, err
	}
	var src rowSource
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		src, err = newJSONLSource(data, name)
	default:
		src, err = newCSVSource(data, name)
	}
	if err != nil {
		return nil, err
	}
	b := &builder{file: name, cols: cols, src: src, byKey: map[string]int{}}
	if err := b.run(); err != nil {
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

// rowSource yields a header, then records with their line numbers; get
// returns a named field and its column (1-based, 0 when not known).
type rowSource interface {
	header() []string
	next() (line int, err error) // io.EOF at the end
	get(col string) (value string, column int, ok bool)
}

type csvSource struct {
	r    *csv.Reader
	data []byte // what r reads, for the place of a bad byte
	name string
	hdr  []string
	pos  map[string]int
	rec  []string
}

func newCSVSource(data []byte, name string) (*csvSource, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = true
	s := &csvSource{r: r, data: data, name: name, pos: map[string]int{}}
	hdr, err := r.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: errors.New("empty file: no header")}
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	s.hdr = append([]string(nil), hdr...)
	for i, h := range s.hdr {
		line, col := r.FieldPos(i)
		if pe := fieldUTF8Error(data, name, line, col, "", h); pe != nil {
			pe.Err = fmt.Errorf("header: %w", pe.Err)
			return nil, pe
		}
		if _, dup := s.pos[h]; dup {
			return nil, &ParseError{File: name, Line: 1, Column: i + 1, Err: fmt.Errorf("column %q appears twice in the header", h)}
		}
		s.pos[h] = i
	}
	return s, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Line: pe.Line, Column: pe.Column, Err: pe.Err}
	}
	return &ParseError{File: name, Err: err}
}

func (s *csvSource) header() []string { return s.hdr }

func (s *csvSource) next() (int, error) {
	rec, err := s.r.Read()
	if err == io.EOF {
		return 0, io.EOF
	}
	if err != nil {
		return 0, csvError(s.name, err)
	}
	s.rec = rec
	for i, f := range rec {
		l, c := s.r.FieldPos(i)
		name := ""
		if i < len(s.hdr) {
			name = s.hdr[i]
		}
		if pe := fieldUTF8Error(s.data, s.name, l, c, name, f); pe != nil {
			return 0, pe
		}
	}
	line, _ := s.r.FieldPos(0)
	return line, nil
}

func (s *csvSource) get(col string) (string, int, bool) {
	i, ok := s.pos[col]
	if !ok {
		return "", 0, false
	}
	_, c := s.r.FieldPos(i)
	return s.rec[i], c, true
}

type jsonlSource struct {
	sc   *bufio.Scanner
	name string
	line int
	hdr  []string
	obj  map[string]json.RawMessage
	// first is the first object, read to find the columns.
	first     map[string]json.RawMessage
	firstLine int
}

func newJSONLSource(data []byte, name string) (*jsonlSource, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	s := &jsonlSource{sc: sc, name: name}
	line, obj, err := s.read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: errors.New("empty file: no records")}
	}
	if err != nil {
		return nil, err
	}
	s.first, s.firstLine = obj, line
	for k := range obj {
		s.hdr = append(s.hdr, k)
	}
	sort.Strings(s.hdr)
	return s, nil
}

func (s *jsonlSource) read() (int, map[string]json.RawMessage, error) {
	for s.sc.Scan() {
		s.line++
		b := bytes.TrimSpace(s.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := lineUTF8Error(s.name, s.line, s.sc.Bytes()); err != nil {
			return 0, nil, err
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil {
			return 0, nil, &ParseError{File: s.name, Line: s.line, Err: fmt.Errorf("not a JSON object: %v", err)}
		}
		return s.line, obj, nil
	}
	if err := s.sc.Err(); err != nil {
		return 0, nil, &ParseError{File: s.name, Line: s.line + 1, Err: err}
	}
	return 0, nil, io.EOF
}

func (s *jsonlSource) header() []string { return s.hdr }

func (s *jsonlSource) next() (int, error) {
	if s.first != nil {
		s.obj, s.first = s.first, nil
		return s.firstLine, nil
	}
	line, obj, err := s.read()
	if err != nil {
		return 0, err
	}
	s.obj = obj
	return line, nil
}

// get returns a string value as is and a number in its JSON spelling; a
// null or missing key is absent.
func (s *jsonlSource) get(col string) (string, int, bool) {
	raw, ok := s.obj[col]
	if !ok || string(raw) == "null" {
		return "", 0, false
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str, 0, true
	}
	return string(raw), 0, true
}

// builder turns rows into questions.
type builder struct {
	file  string
	cols  Columns
	src   rowSource
	out   File
	byKey map[string]int // language + "\x00" + id -> index in out.Questions
	// fileLang is the language taken from the file name, if any.
	fileLang string
}

func (b *builder) errf(line, col int, format string, a ...any) error {
	return &ParseError{File: b.file, Line: line, Column: col, Err: fmt.Errorf(format, a...)}
}

func (b *builder) run() error {
	has := map[string]bool{}
	for _, h := range b.src.header() {
		has[h] = true
	}
	c := b.cols
	switch {
	case has[c.LogLik]:
		b.out.Mode = "loglik"
		for _, need := range []string{c.ID, c.Choice, c.Gold} {
			if !has[need] {
				return b.errf(1, 0, "log-likelihood file has no %q column (columns: %s)", need, strings.Join(b.src.header(), ", "))
			}
		}
	case has[c.Prediction]:
		b.out.Mode = "letters"
		for _, need := range []string{c.ID, c.Gold} {
			if !has[need] {
				return b.errf(1, 0, "prediction file has no %q column (columns: %s)", need, strings.Join(b.src.header(), ", "))
			}
		}
	default:
		return b.errf(1, 0, "neither a %q column (one row per option) nor a %q column (one row per question) (columns: %s)",
			c.LogLik, c.Prediction, strings.Join(b.src.header(), ", "))
	}
	b.out.LanguageSource = "none"
	if has[c.Language] {
		b.out.LanguageSource = "column"
	} else if _, lang, ok := textnorm.LanguageFromFileName(b.file); ok {
		b.fileLang = lang
		b.out.LanguageSource = "file name"
	}
	for {
		line, err := b.src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := b.row(line); err != nil {
			return err
		}
	}
	if len(b.out.Questions) == 0 {
		return &ParseError{File: b.file, Err: errors.New("no rows after the header")}
	}
	if b.out.Mode == "loglik" {
		for _, q := range b.out.Questions {
			if len(q.Choices) < 2 {
				return b.errf(q.Line, 0, "question %q has %d option(s); a multiple-choice question needs at least 2", q.ID, len(q.Choices))
			}
			if goldPos(q) < 0 {
				return b.errf(q.Line, 0, "question %q: the gold option %s is not among its options", q.ID, Letter(q.Gold))
			}
		}
	}
	return nil
}

func (b *builder) field(name string) (string, int) {
	v, col, _ := b.src.get(name)
	return v, col
}

func (b *builder) label(line int, col string, what string) (int, string, error) {
	v, c := b.field(col)
	i, ok := LetterIndex(v)
	if !ok {
		return 0, v, b.errf(line, c, "%s %q names no option (want a letter such as A, a digit, or an option letter such as क or ক)", what, v)
	}
	return i, v, nil
}

func (b *builder) row(line int) error {
	c := b.cols
	id, idCol := b.field(c.ID)
	id = strings.TrimSpace(id)
	if id == "" {
		return b.errf(line, idCol, "empty question id")
	}
	lang := b.fileLang
	if v, _, ok := b.src.get(c.Language); ok {
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
			return b.errf(line, idCol, "question %q (language %q) appears twice; first on line %d", id, lang, b.out.Questions[qi].Line)
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
		return b.errf(line, gc, "question %q: gold label %q differs from %s on line %d", id, goldRaw, Letter(q.Gold), q.Line)
	}
	if q.Subject != subject {
		return b.errf(line, subjCol, "question %q: subject %q differs from %q on line %d", id, subject, q.Subject, q.Line)
	}
	idx, lab, err := b.label(line, c.Choice, "option label")
	if err != nil {
		return err
	}
	for _, ch := range q.Choices {
		if ch.Index == idx {
			_, cc := b.field(c.Choice)
			return b.errf(line, cc, "question %q: option %q appears twice (as %q before)", id, lab, ch.Label)
		}
	}
	llRaw, llCol := b.field(c.LogLik)
	ll, perr := strconv.ParseFloat(strings.TrimSpace(llRaw), 64)
	if perr != nil || !validLogLik(ll) {
		return b.errf(line, llCol, "log-likelihood %q is not a number (−inf is allowed; NaN and +inf are not)", llRaw)
	}
	text, _ := b.field(c.Text)
	tokens := 0
	if v, tc, ok := b.src.get(c.Tokens); ok && strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return b.errf(line, tc, "token count %q is not a positive whole number", v)
		}
		tokens = n
	}
	q.Choices = append(q.Choices, Choice{Label: lab, Index: idx, Text: text, LogLik: ll, Tokens: tokens, Line: line})
	return nil
}
