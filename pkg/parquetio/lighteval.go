package parquetio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The layouts of lighteval's details_<task>_<date>.parquet files, as its
// EvaluationTracker has saved them (learnt from lighteval's
// logging/info_loggers.py and logging/evaluation_tracker.py):
const (
	// LightevalFlatText: releases before 0.8 turned every field of a
	// detail into its Python str() before saving, so every column is a
	// string: example, instruction, full_prompt, predictions ("['Paris']"),
	// gold, choices, gold_index, metrics ("{'em': 1.0}"), ...
	LightevalFlatText = "flat-text"
	// LightevalFlat: 0.8 to 0.10 save the detail's fields typed: example,
	// instruction, full_prompt (strings), predictions and gold
	// (list<string>), choices (list<string>), gold_index (list<int64>),
	// metrics (a struct of numbers), specifics, tokens, ...
	LightevalFlat = "flat"
	// LightevalNested: from 0.11 a detail is three structs: doc (query,
	// choices, gold_index, instruction, ...), model_response (text,
	// text_post_processed, input, ...) and metric (a struct of numbers).
	LightevalNested = "nested"
)

// LightevalMetric is one per-sample metric value of a detail.
type LightevalMetric struct {
	Name  string
	Value float64
}

// A LightevalSample is one row of a details file: one document of one
// task with the model's output and its per-sample metrics. Its fields
// are named as pkg/interop's Sample's, to which it maps one to one.
type LightevalSample struct {
	Task string
	// SampleID is the row's 0-based index in the file, as text (the
	// details have no id column: lighteval drops it before saving).
	SampleID string
	// Prompt is the query (doc.query, or example), Instruction the
	// task's instruction, FullPrompt the prompt as sent (full_prompt, or
	// model_response.input) when the layout has it.
	Prompt, Instruction, FullPrompt string
	// Response is the model's first output (text_post_processed when
	// present, else text; predictions in the flat layouts); Responses
	// holds every output. HasResponse is false for a log-likelihood
	// task, whose predictions are numbers.
	Response    string
	Responses   []string
	HasResponse bool
	// Golden is the first gold answer (doc.choices[gold_index], or gold);
	// Golds holds every one; HasGolden says whether there is one.
	Golden    string
	Golds     []string
	HasGolden bool
	Choices   []string
	GoldIndex []int64
	// Metrics is sorted by name; a metric that is null in a row is left
	// out of that row.
	Metrics []LightevalMetric
	// Line is the 1-based row in the file.
	Line int
	File string
}

// LightevalInfo says what ReadLighteval read.
type LightevalInfo struct {
	File   string
	Task   string // from the file name, "" when it does not follow lighteval's
	Date   string // the run's date id from the file name
	Layout string // LightevalFlatText, LightevalFlat or LightevalNested
	Rows   int
}

var detailsName = regexp.MustCompile(`^details_(.+)_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.parquet$`)

// LightevalTaskFromName splits lighteval's file name
// details_<task>_<date>.parquet into task and date ("", "" when the name
// is not lighteval's).
func LightevalTaskFromName(name string) (task, date string) {
	m := detailsName.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// ReadLightevalFile reads the lighteval details file at path (see
// ReadLighteval).
func ReadLightevalFile(ctx context.Context, path string, opt ReadOptions, each func(*LightevalSample) error) (LightevalInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return LightevalInfo{File: path}, err
	}
	defer f.Close()
	return ReadLighteval(ctx, f, path, opt, each)
}

// ReadLighteval reads a lighteval details_<task>_<date>.parquet file from
// r, in any of the layouts lighteval has written (LightevalFlatText,
// LightevalFlat, LightevalNested, told apart by their columns), and gives
// each row to each as a LightevalSample (valid during the call; an error
// from each stops the reading and is returned). The task is taken from
// the file name. A file that is not Parquet or is truncated, a layout
// missing a column it needs, and a value of the wrong type are
// *tabular.ParseError values naming the file, the row and the column.
func ReadLighteval(ctx context.Context, r io.Reader, name string, opt ReadOptions, each func(*LightevalSample) error) (LightevalInfo, error) {
	info := LightevalInfo{File: name}
	info.Task, info.Date = LightevalTaskFromName(name)
	src, err := Open(r, name, opt)
	if err != nil {
		return info, err
	}
	cols := map[string]int{}
	for i, h := range src.header {
		cols[h] = i
	}
	var need []string
	switch {
	case has(cols, "doc") || has(cols, "model_response") || has(cols, "metric"):
		info.Layout = LightevalNested
		need = []string{"doc", "model_response", "metric"}
	case has(cols, "example") || has(cols, "full_prompt") || has(cols, "metrics"):
		info.Layout = LightevalFlat
		need = []string{"example", "predictions", "metrics"}
	default:
		return info, &tabular.ParseError{File: name, Err: fmt.Errorf("not lighteval details: the columns are %s; lighteval writes doc, model_response and metric (0.11 and later) or example, predictions, gold and metrics (earlier)", strings.Join(src.header, ", "))}
	}
	for _, n := range need {
		if !has(cols, n) {
			return info, &tabular.ParseError{File: name, Field: n, Err: fmt.Errorf("%w: lighteval details of the %s layout have a column %q (the file has %s)", tabular.ErrMissingColumn, info.Layout, n, strings.Join(src.header, ", "))}
		}
	}
	// The text layout is the flat one whose predictions are strings.
	sc, _ := src.fr.Schema()
	if info.Layout == LightevalFlat && isString(sc.Field(cols["predictions"]).Type) {
		info.Layout = LightevalFlatText
	}
	var s LightevalSample
	for {
		if err := ctx.Err(); err != nil {
			return info, err
		}
		for src.rec == nil || src.i >= int(src.rec.NumRows()) {
			if err := src.advance(); err != nil {
				if errors.Is(err, io.EOF) {
					return info, nil
				}
				return info, err
			}
		}
		src.line++
		s = LightevalSample{Task: info.Task, SampleID: strconv.Itoa(src.line - 1), Line: src.line, File: name,
			Responses: s.Responses[:0], Golds: s.Golds[:0], Choices: s.Choices[:0], GoldIndex: s.GoldIndex[:0], Metrics: s.Metrics[:0]}
		row := &lvRow{src: src, cols: cols, i: src.i}
		switch info.Layout {
		case LightevalNested:
			err = row.nested(&s)
		case LightevalFlat:
			err = row.flat(&s)
		default:
			err = row.flatText(&s)
		}
		src.i++
		src.inRG++
		if err != nil {
			return info, err
		}
		slices.SortFunc(s.Metrics, func(a, b LightevalMetric) int { return strings.Compare(a.Name, b.Name) })
		if len(s.Responses) > 0 && s.HasResponse {
			s.Response = s.Responses[0]
		}
		if len(s.Golds) > 0 {
			s.Golden, s.HasGolden = s.Golds[0], true
		}
		info.Rows++
		if err := each(&s); err != nil {
			return info, err
		}
	}
}

func has(m map[string]int, k string) bool { _, ok := m[k]; return ok }

func isString(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	case arrow.DICTIONARY:
		return isString(t.(*arrow.DictionaryType).ValueType)
	}
	return false
}

// lvRow reads the values of one row of a details file.
type lvRow struct {
	src  *Source
	cols map[string]int
	i    int
}

func (r *lvRow) err(field string, format string, a ...any) error {
	pe := r.src.errAt(r.src.line, -1, fmt.Errorf(format, a...)).(*tabular.ParseError)
	pe.Field = field
	return pe
}

// col returns the top-level column name, nil when the file has none.
func (r *lvRow) col(name string) arrow.Array {
	c, ok := r.cols[name]
	if !ok {
		return nil
	}
	return r.src.rec.Column(c)
}

// child returns the field name of struct array a (nil when a is nil,
// not a struct, or has no such field).
func child(a arrow.Array, name string) arrow.Array {
	st, ok := a.(*array.Struct)
	if !ok {
		return nil
	}
	k, ok := st.DataType().(*arrow.StructType).FieldIdx(name)
	if !ok {
		return nil
	}
	return st.Field(k)
}

// text returns the string at row i of a ("" for null or a missing column).
func (r *lvRow) text(a arrow.Array, i int, field string) (string, error) {
	if a == nil || a.IsNull(i) {
		return "", nil
	}
	if !isString(a.DataType()) {
		return "", r.err(field, "lighteval writes a string here; the column is %s", a.DataType())
	}
	v, err := r.src.cell(a, i, -1)
	var pe *tabular.ParseError
	if errors.As(err, &pe) {
		pe.Field = field
	}
	return v, err
}

// texts appends the strings of the list at row i of a to dst; ok is false
// when a holds a list of something other than strings (log-likelihoods).
func (r *lvRow) texts(dst []string, a arrow.Array, i int, field string) ([]string, bool, error) {
	if a == nil || a.IsNull(i) {
		return dst, true, nil
	}
	l, ok := a.(array.ListLike)
	if !ok {
		return dst, false, r.err(field, "lighteval writes a list here; the column is %s", a.DataType())
	}
	vals := l.ListValues()
	if !isString(vals.DataType()) {
		return dst, false, nil
	}
	start, end := l.ValueOffsets(i)
	for j := int(start); j < int(end); j++ {
		v, err := r.text(vals, j, field)
		if err != nil {
			return dst, false, err
		}
		dst = append(dst, v)
	}
	return dst, true, nil
}

// ints appends the integers of the list (or the single integer) at row i.
func (r *lvRow) ints(dst []int64, a arrow.Array, i int, field string) ([]int64, error) {
	if a == nil || a.IsNull(i) {
		return dst, nil
	}
	if l, ok := a.(array.ListLike); ok {
		start, end := l.ValueOffsets(i)
		for j := int(start); j < int(end); j++ {
			v, ok := intAt(l.ListValues(), j)
			if !ok {
				return dst, r.err(field, "lighteval writes integers here; the list holds %s", l.ListValues().DataType())
			}
			dst = append(dst, v)
		}
		return dst, nil
	}
	v, ok := intAt(a, i)
	if !ok {
		return dst, r.err(field, "lighteval writes an integer or a list of integers here; the column is %s", a.DataType())
	}
	return append(dst, v), nil
}

func intAt(a arrow.Array, i int) (int64, bool) {
	switch v := a.(type) {
	case *array.Int64:
		return v.Value(i), true
	case *array.Int32:
		return int64(v.Value(i)), true
	case *array.Int16:
		return int64(v.Value(i)), true
	case *array.Int8:
		return int64(v.Value(i)), true
	case *array.Uint32:
		return int64(v.Value(i)), true
	case *array.Uint64:
		return int64(v.Value(i)), true
	}
	return 0, false
}

// metrics appends the struct of numbers at row i of a.
func (r *lvRow) metrics(dst []LightevalMetric, a arrow.Array, i int, field string) ([]LightevalMetric, error) {
	st, ok := a.(*array.Struct)
	if !ok {
		return dst, r.err(field, "lighteval writes a struct of metric values here; the column is %s", a.DataType())
	}
	if st.IsNull(i) {
		return dst, nil
	}
	typ := st.DataType().(*arrow.StructType)
	for k := 0; k < st.NumField(); k++ {
		f := st.Field(k)
		if f.IsNull(i) {
			continue
		}
		name := typ.Field(k).Name
		var v float64
		switch x := f.(type) {
		case *array.Float64:
			v = x.Value(i)
		case *array.Float32:
			v = float64(x.Value(i))
		case *array.Boolean:
			if x.Value(i) {
				v = 1
			}
		default:
			n, ok := intAt(f, i)
			if !ok {
				// A corpus metric keeps a non-number per sample (a
				// [reference, prediction] pair): no per-sample value.
				continue
			}
			v = float64(n)
		}
		dst = append(dst, LightevalMetric{name, v})
	}
	return dst, nil
}

func (r *lvRow) nested(s *LightevalSample) error {
	doc, resp := r.col("doc"), r.col("model_response")
	if _, ok := doc.(*array.Struct); !ok {
		return r.err("doc", "lighteval writes a struct here; the column is %s", doc.DataType())
	}
	if _, ok := resp.(*array.Struct); !ok {
		return r.err("model_response", "lighteval writes a struct here; the column is %s", resp.DataType())
	}
	var err error
	i := r.i
	if s.Prompt, err = r.text(child(doc, "query"), i, "doc.query"); err != nil {
		return err
	}
	if s.Instruction, err = r.text(child(doc, "instruction"), i, "doc.instruction"); err != nil {
		return err
	}
	if in := child(resp, "input"); in != nil && isString(in.DataType()) {
		if s.FullPrompt, err = r.text(in, i, "model_response.input"); err != nil {
			return err
		}
	}
	if s.Choices, _, err = r.texts(s.Choices, child(doc, "choices"), i, "doc.choices"); err != nil {
		return err
	}
	if s.GoldIndex, err = r.ints(s.GoldIndex, child(doc, "gold_index"), i, "doc.gold_index"); err != nil {
		return err
	}
	for _, g := range s.GoldIndex {
		if g < 0 || int(g) >= len(s.Choices) {
			return r.err("doc.gold_index", "gold index %d is outside the %d choices", g, len(s.Choices))
		}
		s.Golds = append(s.Golds, s.Choices[g])
	}
	var ok bool
	field := "model_response.text_post_processed"
	pp := child(resp, "text_post_processed")
	if pp == nil || pp.IsNull(i) {
		pp, field = child(resp, "text"), "model_response.text"
	}
	if s.Responses, ok, err = r.texts(s.Responses, pp, i, field); err != nil {
		return err
	}
	s.HasResponse = ok && len(s.Responses) > 0
	s.Metrics, err = r.metrics(s.Metrics, r.col("metric"), i, "metric")
	return err
}

func (r *lvRow) flat(s *LightevalSample) error {
	var err error
	i := r.i
	if s.Prompt, err = r.text(r.col("example"), i, "example"); err != nil {
		return err
	}
	if s.Instruction, err = r.text(r.col("instruction"), i, "instruction"); err != nil {
		return err
	}
	if s.FullPrompt, err = r.text(r.col("full_prompt"), i, "full_prompt"); err != nil {
		return err
	}
	var ok bool
	if s.Responses, ok, err = r.texts(s.Responses, r.col("predictions"), i, "predictions"); err != nil {
		return err
	}
	s.HasResponse = ok && len(s.Responses) > 0
	if s.Golds, _, err = r.texts(s.Golds, r.col("gold"), i, "gold"); err != nil {
		return err
	}
	if s.Choices, _, err = r.texts(s.Choices, r.col("choices"), i, "choices"); err != nil {
		return err
	}
	if s.GoldIndex, err = r.ints(s.GoldIndex, r.col("gold_index"), i, "gold_index"); err != nil {
		return err
	}
	if len(s.Golds) == 0 {
		for _, g := range s.GoldIndex {
			if g >= 0 && int(g) < len(s.Choices) {
				s.Golds = append(s.Golds, s.Choices[g])
			}
		}
	}
	s.Metrics, err = r.metrics(s.Metrics, r.col("metrics"), i, "metrics")
	return err
}

// flatText reads the layout of lighteval before 0.8, whose values are
// Python str() of lists and dicts.
func (r *lvRow) flatText(s *LightevalSample) error {
	i := r.i
	str := func(field string) (string, error) { return r.text(r.col(field), i, field) }
	var err error
	if s.Prompt, err = str("example"); err != nil {
		return err
	}
	if s.Instruction, err = str("instruction"); err != nil {
		return err
	}
	if s.FullPrompt, err = str("full_prompt"); err != nil {
		return err
	}
	lit := func(field string) (any, error) {
		t, err := str(field)
		if err != nil || t == "" {
			return nil, err
		}
		v, perr := parsePyLiteral(t)
		if perr != nil {
			return nil, r.err(field, "lighteval wrote a Python literal here, but it cannot be read: %v", perr)
		}
		return v, nil
	}
	strs := func(dst []string, field string) ([]string, bool, error) {
		v, err := lit(field)
		if err != nil || v == nil {
			return dst, true, err
		}
		l, ok := v.([]any)
		if !ok {
			return dst, false, r.err(field, "lighteval wrote a list here; the value is %s", pyKind(v))
		}
		for _, x := range l {
			t, ok := x.(string)
			if !ok {
				return dst[:0], false, nil // log-likelihoods
			}
			dst = append(dst, t)
		}
		return dst, true, nil
	}
	var ok bool
	if s.Responses, ok, err = strs(s.Responses, "predictions"); err != nil {
		return err
	}
	s.HasResponse = ok && len(s.Responses) > 0
	if s.Golds, _, err = strs(s.Golds, "gold"); err != nil {
		return err
	}
	if s.Choices, _, err = strs(s.Choices, "choices"); err != nil {
		return err
	}
	if v, err := lit("gold_index"); err != nil {
		return err
	} else if l, ok := v.([]any); ok {
		for _, x := range l {
			if n, ok := x.(float64); ok && n == float64(int64(n)) {
				s.GoldIndex = append(s.GoldIndex, int64(n))
			}
		}
	}
	if len(s.Golds) == 0 {
		for _, g := range s.GoldIndex {
			if g >= 0 && int(g) < len(s.Choices) {
				s.Golds = append(s.Golds, s.Choices[g])
			}
		}
	}
	v, err := lit("metrics")
	if err != nil {
		return err
	}
	if v != nil {
		d, ok := v.(pyDict)
		if !ok {
			return r.err("metrics", "lighteval wrote a dict of metric values here; the value is %s", pyKind(v))
		}
		for _, kv := range d {
			switch x := kv.v.(type) {
			case float64:
				s.Metrics = append(s.Metrics, LightevalMetric{kv.k, x})
			case bool:
				b := 0.0
				if x {
					b = 1
				}
				s.Metrics = append(s.Metrics, LightevalMetric{kv.k, b})
			}
		}
	}
	return nil
}

// pyDict is a parsed Python dict with string keys, in order.
type pyDict []struct {
	k string
	v any
}

func pyKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case pyDict:
		return "a dict"
	}
	return "None"
}

// parsePyLiteral reads the repr() of Python values as lighteval's early
// releases wrote them: str (single or double quotes, backslash escapes),
// int, float (nan, inf), True, False, None, lists, tuples and dicts with
// str keys. Numbers become float64, lists and tuples []any, dicts pyDict.
func parsePyLiteral(s string) (any, error) {
	p := &pyParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at byte %d", p.s[p.i:min(p.i+10, len(p.s))], p.i+1)
	}
	return v, nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested more than 64 deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		return p.str()
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		var out []any
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				return out, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				return out, nil
			}
			return nil, fmt.Errorf("expected , or %c at byte %d", end, p.i+1)
		}
	case c == '{':
		p.i++
		var out pyDict
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return out, nil
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("a dict key at byte %d is not a string", p.i)
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, fmt.Errorf("expected : at byte %d", p.i+1)
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, struct {
				k string
				v any
			}{ks, v})
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return out, nil
			}
			return nil, fmt.Errorf("expected , or } at byte %d", p.i+1)
		}
	default:
		j := p.i
		for j < len(p.s) && strings.IndexByte(",]})]: \t\n", p.s[j]) < 0 {
			j++
		}
		word := p.s[p.i:j]
		p.i = j
		switch word {
		case "True":
			return true, nil
		case "False":
			return false, nil
		case "None":
			return nil, nil
		}
		f, err := strconv.ParseFloat(word, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a Python literal", word)
		}
		return f, nil
	}
}

func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", errors.New("a truncated escape")
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", fmt.Errorf("a bad escape \\%c%s", e, p.s[p.i:p.i+n])
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", errors.New("a string without its closing quote")
}
