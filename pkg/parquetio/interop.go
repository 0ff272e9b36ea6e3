package parquetio

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// Registered with pkg/interop: lighteval's details_*.parquet reader
// (ReadLighteval) and the Parquet writer of `evalbook import --out
// rows.parquet` (TableWriter, a row at a time). pkg/interop stays on the standard library.
func init() {
	interop.RegisterLightevalDetails(readLightevalDetails)
	interop.RegisterRowSink("parquet", newInteropRowSink)
}

// readLightevalDetails maps each LightevalSample to an interop.Sample.
func readLightevalDetails(ctx context.Context, path, task, model string, opt interop.Options, add func(*interop.Sample) error) error {
	var s interop.Sample
	_, err := ReadLightevalFile(ctx, path, ReadOptions{MaxBytes: opt.Limits.File}, func(l *LightevalSample) error {
		s = interop.Sample{Model: model, Task: task, SampleID: l.SampleID, Line: l.Line, File: path, Metrics: s.Metrics[:0]}
		if s.Task == "" {
			s.Task = l.Task
		}
		if !opt.NoText {
			s.Prompt, s.HasPrompt = l.Prompt, true
			s.Response, s.HasResponse = l.Response, l.HasResponse
			s.Golden, s.HasGolden = l.Golden, l.HasGolden
		}
		for _, m := range l.Metrics { // sorted by name, as Sample wants
			s.Metrics = append(s.Metrics, interop.Metric{Name: m.Name, Value: m.Value})
		}
		return add(&s)
	})
	return err
}

// interopRowSink writes a Run's rows as interop.WriteRows does for CSV,
// a sample at a time: interop.RowColumns, then one column per metric; an
// absent prompt, response or golden answer, and an absent metric value,
// are null. Memory is one row group of rows.
type interopRowSink struct {
	tw      *TableWriter
	metrics []string
	text    []string
	null    []bool
	vals    []float64
}

func newInteropRowSink(w io.Writer, metrics []string) (interop.RowSink, error) {
	tw, err := NewTableWriter(w, interop.RowColumns, metrics, WriteOptions{})
	if err != nil {
		return nil, err
	}
	return &interopRowSink{tw: tw, metrics: metrics, text: make([]string, len(interop.RowColumns)),
		null: make([]bool, len(interop.RowColumns)), vals: make([]float64, len(metrics))}, nil
}

func (p *interopRowSink) Write(s *interop.Sample) error {
	text := p.text
	text[0], text[1], text[2], text[3], text[4], text[5], text[6], text[7] = s.Model, s.Task, s.Language, s.SampleID, s.DocHash, s.Prompt, s.Response, s.Golden
	p.null[5], p.null[6], p.null[7] = !s.HasPrompt, !s.HasResponse, !s.HasGolden
	for j, m := range p.metrics {
		v, ok := s.Value(m)
		if !ok {
			v = math.NaN()
		}
		p.vals[j] = v
	}
	return p.tw.Write(text, p.null, p.vals)
}

func (p *interopRowSink) Close() error { return p.tw.Close() }

// TaskDetailsFormat is the name evalbook's task-run details in Parquet
// (task run --details FILE.parquet) go by among pkg/interop's formats.
const TaskDetailsFormat = "evalbook-task-parquet"

func init() {
	interop.Register(interop.Format{Name: TaskDetailsFormat, Detect: detectTaskDetails, Read: readTaskDetailsRun})
}

// detectTaskDetails reports whether path is a Parquet file whose footer
// names the task details metadata key (ReadTaskDetails checks it for
// certain).
func detectTaskDetails(path string) bool {
	if !IsParquetPath(path) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() || st.Size() < 12 {
		return false
	}
	n := min(st.Size(), 1<<20)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, st.Size()-n); err != nil {
		return false
	}
	return bytes.HasSuffix(buf, []byte("PAR1")) && bytes.Contains(buf, []byte(TaskDetailsKey))
}

func readTaskDetailsRun(ctx context.Context, path string, opt interop.Options) (*interop.Run, error) {
	d, err := ReadTaskDetailsFile(path)
	if err != nil {
		return nil, err
	}
	run, err := tasks.DetailsRun(ctx, d, path, opt)
	if err != nil {
		return nil, err
	}
	run.Format = TaskDetailsFormat
	return run, nil
}
