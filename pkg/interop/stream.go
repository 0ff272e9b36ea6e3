package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// RowSink writes a run's rows one sample at a time, in one of WriteRows'
// formats, so a harness output is converted without being held
// (WriteRowsFrom). Write may keep nothing of the sample after it
// returns; Close writes what is buffered (a Parquet row group and the
// footer).
type RowSink interface {
	Write(s *Sample) error
	Close() error
}

// RowSinkFunc starts a RowSink writing to w with one column per metric
// name, in that order (after RowColumns).
type RowSinkFunc func(w io.Writer, metrics []string) (RowSink, error)

var rowSinks = map[string]RowSinkFunc{}

// RegisterRowSink makes format (lower case, the extension without its
// dot) writable a sample at a time, by WriteRows and WriteRowsFrom. Edge
// packages call it from init (the Parquet writer).
func RegisterRowSink(format string, f RowSinkFunc) {
	rowMu.Lock()
	defer rowMu.Unlock()
	rowSinks[format] = f
}

// NewRowSink starts writing rows in format with the metric columns
// metrics: "csv", "jsonl" (which ignores metrics: each row names its
// own) or a format registered with RegisterRowSink.
func NewRowSink(w io.Writer, format string, metrics []string) (RowSink, error) {
	switch format {
	case "csv":
		cw := tabular.NewCSVWriter(w, tabular.CSVOptions{})
		if err := cw.Write(append(slices.Clone(RowColumns), metrics...)); err != nil {
			return nil, err
		}
		return &csvRowSink{cw: cw, metrics: metrics, rec: make([]string, len(RowColumns)+len(metrics))}, nil
	case "jsonl":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return &jsonlRowSink{enc: enc}, nil
	}
	rowMu.RLock()
	f := rowSinks[format]
	rowMu.RUnlock()
	if f == nil {
		return nil, unknownRowFormat(format)
	}
	return f(w, metrics)
}

func unknownRowFormat(format string) error {
	known := []string{"csv", "jsonl"}
	rowMu.RLock()
	for k := range rowWriters {
		known = append(known, k)
	}
	for k := range rowSinks {
		if rowWriters[k] == nil {
			known = append(known, k)
		}
	}
	rowMu.RUnlock()
	sort.Strings(known[2:])
	return fmt.Errorf("%w %q (want %s)", ErrRowFormat, format, strings.Join(known, ", "))
}

type csvRowSink struct {
	cw      *tabular.CSVWriter
	metrics []string
	rec     []string
}

func (c *csvRowSink) Write(s *Sample) error {
	rec := c.rec
	rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7] = s.Model, s.Task, s.Language, s.SampleID, s.DocHash, s.Prompt, s.Response, s.Golden
	for j, m := range c.metrics {
		rec[len(RowColumns)+j] = ""
		if v, ok := s.Value(m); ok {
			rec[len(RowColumns)+j] = ftoa(v)
		}
	}
	return c.cw.Write(rec)
}

func (c *csvRowSink) Close() error {
	c.cw.Flush()
	return c.cw.Error()
}

type jsonlRowSink struct {
	enc     *json.Encoder
	metrics map[string]float64
}

// jsonlRow is one line of the JSONL rows: metrics under "metrics", only
// the texts the sample has.
type jsonlRow struct {
	Model    string             `json:"model,omitempty"`
	Task     string             `json:"task"`
	Language string             `json:"language,omitempty"`
	SampleID string             `json:"sample_id"`
	DocHash  string             `json:"doc_hash,omitempty"`
	Prompt   *string            `json:"prompt,omitempty"`
	Response *string            `json:"response,omitempty"`
	Golden   *string            `json:"golden,omitempty"`
	Metrics  map[string]float64 `json:"metrics"`
}

func (j *jsonlRowSink) Write(s *Sample) error {
	if j.metrics == nil {
		j.metrics = map[string]float64{}
	}
	clear(j.metrics)
	r := jsonlRow{Model: s.Model, Task: s.Task, Language: s.Language, SampleID: s.SampleID, DocHash: s.DocHash, Metrics: j.metrics}
	if s.HasPrompt {
		r.Prompt = &s.Prompt
	}
	if s.HasResponse {
		r.Response = &s.Response
	}
	if s.HasGolden {
		r.Golden = &s.Golden
	}
	for _, m := range s.Metrics {
		if !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) { // JSON has neither
			r.Metrics[m.Name] = m.Value
		}
	}
	return j.enc.Encode(r)
}

func (j *jsonlRowSink) Close() error { return nil }

// WriteRowsFrom reads the harness output at path (as Read does) and
// writes its rows to w in format (WriteRows' formats) as they are read,
// so memory does not grow with the file: "jsonl" is written in one pass;
// "csv" and the registered formats, whose header lists every metric,
// read the output twice, first without the texts to learn the metric
// names. It returns the run (Samples empty, Count set, the aggregates it
// reported) and the Summary Summarize would give of the run read whole.
// opt.Each must be nil.
func WriteRowsFrom(ctx context.Context, w io.Writer, path string, opt Options, format string) (*Run, *Summary, error) {
	if opt.Each != nil {
		return nil, nil, fmt.Errorf("interop.WriteRowsFrom: Options.Each is set: the rows are what WriteRowsFrom does with each sample")
	}
	if format != "jsonl" && format != "csv" {
		rowMu.RLock()
		ok := rowSinks[format] != nil
		rowMu.RUnlock()
		if !ok {
			return nil, nil, unknownRowFormat(format)
		}
	}
	sum := newSummarizer()
	var metrics []string
	if format != "jsonl" { // the header needs every metric name first
		seen := map[string]bool{}
		first := opt
		first.NoText = true
		first.Each = func(s *Sample) error {
			sum.add(s)
			for _, m := range s.Metrics {
				if !seen[m.Name] {
					seen[m.Name] = true
					metrics = append(metrics, m.Name)
				}
			}
			return nil
		}
		if _, err := Read(ctx, path, first); err != nil {
			return nil, nil, err
		}
		sort.Strings(metrics)
	}
	sink, err := NewRowSink(w, format, metrics)
	if err != nil {
		return nil, nil, err
	}
	opt.Each = func(s *Sample) error {
		if format == "jsonl" {
			sum.add(s)
		}
		return sink.Write(s)
	}
	run, err := Read(ctx, path, opt)
	if err != nil {
		sink.Close() //nolint:errcheck // the read's error is the one to report
		return nil, nil, err
	}
	if err := sink.Close(); err != nil {
		return nil, nil, err
	}
	return run, sum.summary(run), nil
}

// SummarizeFrom is Summarize of the harness output at path, read a sample
// at a time (without the texts, which a Summary does not show), so memory
// does not grow with the output.
func SummarizeFrom(ctx context.Context, path string, opt Options) (*Summary, error) {
	if opt.Each != nil {
		return nil, fmt.Errorf("interop.SummarizeFrom: Options.Each is set")
	}
	sum := newSummarizer()
	opt.NoText = true
	opt.Each = func(s *Sample) error {
		sum.add(s)
		return nil
	}
	run, err := Read(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	return sum.summary(run), nil
}
