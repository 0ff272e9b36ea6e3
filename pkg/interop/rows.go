package interop

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"

	"strings"
	"sync"
	"time"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// MetricNames lists every metric the samples carry, sorted.
func (r *Run) MetricNames() []string {
	seen := map[string]bool{}
	for i := range r.Samples {
		for _, m := range r.Samples[i].Metrics {
			seen[m.Name] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// RowColumns are the leading columns of WriteRows, before one column per
// metric.
var RowColumns = []string{"model", "task", "language", "sample_id", "doc_hash", "prompt", "response", "golden"}

// RowWriter writes a run's rows in a format WriteRows does not know
// (Parquet, from an edge package).
type RowWriter func(w io.Writer, run *Run) error

var (
	rowMu      sync.RWMutex
	rowWriters = map[string]RowWriter{}
)

// RegisterRowWriter makes WriteRows accept format (lower case, the file
// extension without its dot: "parquet"). Edge packages call it from init.
func RegisterRowWriter(format string, wr RowWriter) {
	rowMu.Lock()
	defer rowMu.Unlock()
	rowWriters[format] = wr
}

// CanWriteRows reports whether WriteRows writes format.
func CanWriteRows(format string) bool {
	if format == "csv" || format == "jsonl" {
		return true
	}
	rowMu.RLock()
	defer rowMu.RUnlock()
	return rowWriters[format] != nil || rowSinks[format] != nil
}

// ErrRowFormat is matched by WriteRows' error for a format it cannot write.
var ErrRowFormat = fmt.Errorf("unknown rows format")

// RowFormatOf is the rows format of an --out file name: jsonl, csv, or
// the extension of a registered writer.
func RowFormatOf(name string) string {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	if ext == "ndjson" {
		return "jsonl"
	}
	return ext
}

// WriteRows writes the run as evalbook rows, one per sample: model, task,
// language, sample_id, doc_hash, prompt, response, golden (empty where
// the format has none), then one column per metric (empty where the
// sample has no value). format is "csv" (formula cells guarded, as
// every evalbook CSV), "jsonl" (metrics under "metrics", only the texts
// the sample has) or a registered format.
func WriteRows(w io.Writer, run *Run, format string) error {
	rowMu.RLock()
	wr, sinkable := rowWriters[format], rowSinks[format] != nil
	rowMu.RUnlock()
	if wr != nil && !sinkable { // a writer registered the old way, with the whole run
		return wr(w, run)
	}
	sink, err := NewRowSink(w, format, run.MetricNames())
	if err != nil {
		return err
	}
	for i := range run.Samples {
		if err := sink.Write(&run.Samples[i]); err != nil {
			sink.Close() //nolint:errcheck // the write's error is the one to report
			return err
		}
	}
	return sink.Close()
}

// ResponseColumns are the columns of ResponseCSV: pkg/qa's default
// response table (qa.DefaultColumns) with the task as its Domain.
var ResponseColumns = []string{"id", "question", "answer", "Domain", "response", "language", "model"}

// ResponseCSV writes the run's samples that have a response as the
// response table pkg/qa scores (id, question, answer, Domain, response,
// language, model: the sample id, prompt, golden answer, task, response,
// language and model), so `evalbook score`, `agree` and `report` score a
// harness's responses with evalbook's metrics: qa.Score(ctx, &buf, path,
// qa.Options{Format: "csv"}). Its cells are raw, not formula-guarded:
// it is read back by evalbook, not opened in a spreadsheet (write a file
// for people with WriteRows). It returns the number of rows written; a
// run with no responses is an error.
func ResponseCSV(w io.Writer, run *Run) (int, error) { return responseCSV(w, run, "") }

// responseCSV writes the table with model, when set, in place of the
// samples' own.
func responseCSV(w io.Writer, run *Run, model string) (int, error) {
	// Raw: this table is a pipe into evalbook's own readers (qa, the
	// leaderboard), which do not strip a formula guard, so the text
	// scored is the text the harness wrote (a response "-0.4 km" is not
	// "'-0.4 km"); files written for people (WriteRows) are guarded.
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{Raw: true})
	if err := cw.Write(ResponseColumns); err != nil {
		return 0, err
	}
	n := 0
	for i := range run.Samples {
		s := &run.Samples[i]
		if !s.HasResponse {
			continue
		}
		id := s.SampleID
		if multiTask(run) {
			id = s.Task + "/" + s.SampleID
		}
		m := s.Model
		if model != "" {
			m = model
		}
		if err := cw.Write([]string{id, s.Prompt, s.Golden, s.Task, s.Response, s.Language, m}); err != nil {
			return n, err
		}
		n++
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, err
	}
	if n == 0 {
		return 0, fmt.Errorf("%s: no sample has a response to score (the %s output holds only metric values); compare or check its metrics instead", run.Source, run.Format)
	}
	return n, nil
}

func multiTask(run *Run) bool {
	for i := range run.Samples {
		if run.Samples[i].Task != run.Samples[0].Task {
			return true
		}
	}
	return false
}

// OutcomeCSV writes one row per sample that has metric: id (the
// document: Key's task and doc_hash or sample id), task, model and the
// metric's value under its own name, a table compare.Files and
// compare.Read pair by their default key id (compare.Options{
// Metric: metric, By: "task"}).
func OutcomeCSV(w io.Writer, run *Run, metric string) (int, error) {
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{Raw: true}) // a pipe into compare: ids as the harness wrote them
	if err := cw.Write([]string{"id", "task", "model", metric}); err != nil {
		return 0, err
	}
	n := 0
	for i := range run.Samples {
		s := &run.Samples[i]
		v, ok := s.Value(metric)
		if !ok || math.IsNaN(v) {
			continue
		}
		if err := cw.Write([]string{s.Task + "/" + s.SampleID, s.Task, s.Model, ftoa(v)}); err != nil {
			return n, err
		}
		n++
	}
	cw.Flush()
	return n, cw.Error()
}

func pairKey(s *Sample) string {
	id := s.SampleID
	if s.DocHash != "" {
		id = s.DocHash
	}
	return s.Task + "/" + id
}

// ErrUnpaired is matched by Paired's error when the runs do not hold the
// same documents.
var ErrUnpaired = fmt.Errorf("the runs do not hold the same documents")

// Paired matches the samples of two runs of the same tasks by document
// (lm-eval's doc_hash when both have it, else the task and sample id)
// and returns, in old's order, the keys, each run's value of metric and
// the task as the group: what compare.Versions takes. Every document
// with the metric must be in both runs, once.
func Paired(old, new *Run, metric string) (keys []string, a, b []float64, groups []string, err error) {
	keys, a, b, groups, _, err = paired(old, new, metric)
	return
}

// paired is Paired that also says what paired the samples. The keys it
// returns are the ids people know (task/doc_id), led by the model when a
// run holds one item under several models; the matching itself uses
// lm-eval's doc_hash when every sample of both runs has one.
func paired(old, new *Run, metric string) (keys []string, a, b []float64, groups []string, how string, err error) {
	useHash := allHashed(old, metric) && allHashed(new, metric)
	models := multiModel(old) || multiModel(new)
	key := func(s *Sample) string {
		k := s.Task + "/" + s.SampleID
		if useHash {
			k = pairKey(s)
		}
		if models {
			k = s.Model + "/" + k
		}
		return k
	}
	show := func(s *Sample) string {
		k := s.Task + "/" + s.SampleID
		if models {
			k = s.Model + "/" + k
		}
		return k
	}
	how = "task/sample id"
	if useHash {
		how = "task/doc_hash (shown as task/doc_id)"
	}
	if models {
		how = "model/" + how
	}
	keys, a, b, groups, err = pairBy(old, new, metric, key, show)
	return keys, a, b, groups, how, err
}

func multiModel(r *Run) bool {
	for i := 1; i < len(r.Samples); i++ {
		if r.Samples[i].Model != r.Samples[0].Model {
			return true
		}
	}
	return false
}

func pairBy(old, new *Run, metric string, key, show func(*Sample) string) (keys []string, a, b []float64, groups []string, err error) {
	idx := map[string]int{}
	var bv []float64
	for i := range new.Samples {
		s := &new.Samples[i]
		v, ok := s.Value(metric)
		if !ok {
			continue
		}
		k := key(s)
		if _, dup := idx[k]; dup {
			return nil, nil, nil, nil, fmt.Errorf("%w: %s holds document %s twice (%s line %d)", ErrUnpaired, new.Source, k, s.File, s.Line)
		}
		idx[k] = len(bv)
		bv = append(bv, v)
	}
	used := make([]bool, len(bv))
	for i := range old.Samples {
		s := &old.Samples[i]
		v, ok := s.Value(metric)
		if !ok {
			continue
		}
		k := key(s)
		j, ok := idx[k]
		if !ok {
			return nil, nil, nil, nil, fmt.Errorf("%w: document %s of %s (%s line %d) is not in %s", ErrUnpaired, k, old.Source, s.File, s.Line, new.Source)
		}
		if used[j] {
			return nil, nil, nil, nil, fmt.Errorf("%w: %s holds document %s twice", ErrUnpaired, old.Source, k)
		}
		used[j] = true
		keys = append(keys, show(s))
		a = append(a, v)
		b = append(b, bv[j])
		groups = append(groups, s.Task)
	}
	for j, u := range used {
		if !u {
			for k, i := range idx {
				if i == j {
					return nil, nil, nil, nil, fmt.Errorf("%w: document %s of %s is not in %s", ErrUnpaired, k, new.Source, old.Source)
				}
			}
		}
	}
	if len(keys) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("%w: no sample of %s has metric %q (it has %s)", ErrUnpaired, old.Source, metric, strings.Join(old.MetricNames(), ", "))
	}
	return keys, a, b, groups, nil
}

func allHashed(r *Run, metric string) bool {
	for i := range r.Samples {
		if _, ok := r.Samples[i].Value(metric); ok && r.Samples[i].DocHash == "" {
			return false
		}
	}
	return true
}

// ResponsesFS holds each run's response table (ResponseCSV) as a file
// <model>.csv (a model's slashes as __), so leaderboard.DiscoverFS(fsys,
// ".") and Build rank harness outputs like response files. Two runs of
// the same model are told apart by their file names: the second is the
// model "<model> [<file>]" in its model column and its file name.
func ResponsesFS(runs []*Run) (fs.FS, error) {
	m := memFS{}
	clean := strings.NewReplacer("/", "__", "\\", "__", ":", "_")
	seen := map[string]bool{}
	for _, r := range runs {
		label := r.Model
		base := path.Base(strings.ReplaceAll(r.Source, "\\", "/"))
		base = strings.TrimSuffix(base, path.Ext(base))
		if label == "" {
			label = base
		}
		if seen[label] { // the same model twice: tell the runs apart by their file
			label += " [" + base + "]"
		}
		if seen[label] {
			return nil, fmt.Errorf("%s: another run has the same model %q and file name: rename one", r.Source, r.Model)
		}
		seen[label] = true
		var buf bytes.Buffer
		if _, err := responseCSV(&buf, r, label); err != nil {
			return nil, err
		}
		m[clean.Replace(strings.NewReplacer(" [", "__", "]", "").Replace(label))+".csv"] = buf.Bytes()
	}
	return m, nil
}

// memFS is a read-only in-memory folder of files.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &memDir{m: m}, nil
	}
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{name: name, r: bytes.NewReader(data), size: int64(len(data))}, nil
}

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]fs.DirEntry, len(names))
	for i, n := range names {
		out[i] = fs.FileInfoToDirEntry(memInfo{n, int64(len(m[n])), false})
	}
	return out, nil
}

type memFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.name, f.size, false}, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct{ m memFS }

func (d *memDir) Stat() (fs.FileInfo, error) { return memInfo{".", 0, true}, nil }
func (d *memDir) Read([]byte) (int, error)   { return 0, fmt.Errorf("read .: is a directory") }
func (d *memDir) Close() error               { return nil }
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	return d.m.ReadDir(".")
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
