// Package interop reads the per-sample outputs of other evaluation
// harnesses into one model (Run, Sample, Aggregate) so that evalbook's
// analyses (intervals, paired comparisons, leaderboards, agreement) run
// on them, and checks them: Check recomputes every aggregate the harness
// reported from its own per-sample records.
//
// Formats built in (see Formats): lm-eval (an lm-evaluation-harness
// output folder or file), lighteval (results_*.json aggregates), inspect
// (inspect_ai .eval and .json logs), promptfoo (-o results.json), eee
// (Every Eval Ever aggregate JSON plus instance JSONL) and openai-batch
// (OpenAI Batch API output JSONL joined with its request file). An edge
// package adds a format with Register from its init function, as
// pkg/xlsxread adds XLSX to pkg/qa: lighteval's details_*.parquet files
// are read that way, so this package stays on the standard library.
//
// Every reader is bounded (Options.Limits): a JSONL line, a JSON file, a
// ZIP member and a ZIP member's compression ratio have a ceiling, and an
// error names the limit. A problem at a place in a file is a
// *tabular.ParseError naming the file, the line (JSONL) or 0, and in
// Field the record: a JSON path ("results.results[3].gradingResult"),
// or for a ZIP log the member and path ("samples/2_epoch_1.json: scores").
package interop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Sample is one scored record of a harness: one document (prompt) of one
// task answered by one model, with the metric values the harness gave it.
// It is evalbook's one evaluated-sample model (pkg/sample), so a run read
// here flows into every analysis that takes samples.
type Sample = sample.Sample

// Metric is one named per-sample value.
type Metric = sample.Metric

// KV is one metadata entry.
type KV = sample.KV

// Aggregate is one figure the harness itself reported for a task.
type Aggregate struct {
	Model  string  `json:"model,omitempty"`
	Task   string  `json:"task"`
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
	// Stderr is the standard error the harness reported, when it did.
	Stderr    float64 `json:"stderr,omitempty"`
	HasStderr bool    `json:"-"`
	// Rounding is the number of decimals the harness rounds this figure
	// to before writing it (promptfoo writes scores unrounded; EEE
	// writes what its converter was given), or -1 when it does not round.
	Rounding int `json:"-"`
	// Filter is lm-eval's filter name ("none", "strict-match") the value
	// was reported under; Metric is "acc,none" style when it matters.
	Filter string `json:"filter,omitempty"`
	// Expected is the number of samples the harness says the figure
	// covers (lm-eval's n-samples effective, inspect's completed_samples,
	// promptfoo's test counts, EEE's num_samples or total_rows), 0 when
	// its files do not say; ExpectedFrom names where it was read.
	Expected     int    `json:"expected_n,omitempty"`
	ExpectedFrom string `json:"-"`
}

// BadValue is a value a harness file holds where a number belongs: a
// per-sample metric value (Run.BadValues) or a reported figure
// (Run.BadReported) that is a string, null, a list or an object.
type BadValue struct {
	Model, Task, Metric string
	// File is the file (with the ZIP member in brackets), Line the line
	// (JSONL) or record, SampleID the sample's id ("" for a figure), Field
	// the JSON path of the value.
	File     string
	Line     int
	SampleID string
	Field    string
	// What describes the value: `the string "0.75"`, `null`, `a list`.
	What string
	// List is true for a list or object value: lm-eval keeps corpus
	// metrics' per-sample values so (Run.Opaque); a metric whose values
	// are all lists is skipped, a mix of lists and numbers is an error.
	List bool
	// NA is true for lm-eval's "N/A", its word for a figure it could not
	// aggregate: not checked, and not an error.
	NA bool
}

// describe names a raw JSON value that is not a number.
func describe(raw []byte) (what string, list bool) {
	switch {
	case len(raw) == 0:
		return "empty", false
	case raw[0] == '"':
		s := text(raw)
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return fmt.Sprintf("the string %q", s), false
	case raw[0] == '[':
		return "a list", true
	case raw[0] == '{':
		return "an object", true
	case string(raw) == "null":
		return "null", false
	}
	return string(raw), false
}

// Run is one harness output read whole: its samples in file order and
// the aggregates the harness reported.
type Run struct {
	// Format is the format name (lm-eval, inspect, ...).
	Format string `json:"format"`
	// Source is the path read (a folder or a file).
	Source string `json:"source"`
	// Version is the format's version when it states one (inspect's
	// log version, EEE's schema_version, promptfoo's results version).
	Version string `json:"version,omitempty"`
	// Model is the run's model when one model produced every sample.
	Model    string      `json:"model,omitempty"`
	Samples  []Sample    `json:"samples"`
	Reported []Aggregate `json:"reported,omitempty"`
	// Files lists the files read, in order.
	Files []string `json:"files,omitempty"`
	// Partial is true when the log was still being written (an inspect
	// .eval with no footer): samples are what was flushed, Reported is
	// empty.
	Partial bool `json:"partial,omitempty"`
	// Warnings are what the reader noticed and the user must see (a
	// checksum that does not match, a log still being written, lighteval
	// details with no Parquet reader registered).
	Warnings []results.Warning `json:"warnings,omitempty"`
	// Opaque lists the (task, metric) pairs whose per-sample values are
	// not numbers (lm-eval's bleu and f1 keep [reference, prediction]
	// pairs and aggregate them as a corpus), so Check cannot recompute
	// them from the samples.
	Opaque [][2]string `json:"-"`
	// Count is the number of samples read, also when Options.Each
	// received them and Samples stayed empty.
	Count int `json:"-"`
	// Defs, when a reader sets it, says who computed each per-sample
	// metric and by what rule (evalbook's task runs: evalbook, by the
	// registry's rules); nil means the harness computed every metric.
	Defs []sample.Def `json:"-"`
	// BadValues holds, per (task, metric), the first per-sample value
	// that is not a number (in file order); Check refuses to recompute a
	// reported figure of that metric and names the sample.
	BadValues []BadValue `json:"-"`
	// BadReported lists reported figures that are not numbers; Check
	// reports each as unchecked (lm-eval's "N/A" as skipped).
	BadReported []BadValue `json:"-"`
	// Short lists what the files say is missing from the samples read
	// (EEE's total_rows above the rows of the instance file); Check is
	// then partial.
	Short []string `json:"-"`
	// Dropped counts duplicated samples left out (Options.DropDuplicates).
	Dropped int `json:"-"`

	badMu sync.Mutex
}

// noteBad keeps b when it is the first bad value of its (task, metric)
// and kind (a list, or not) in file order; readers parsing in parallel
// call it from any goroutine.
func (r *Run) noteBad(b BadValue) {
	r.badMu.Lock()
	defer r.badMu.Unlock()
	if b.List {
		r.Opaque = appendOnce(r.Opaque, [2]string{b.Task, b.Metric})
	}
	for i := range r.BadValues {
		o := &r.BadValues[i]
		if o.Task == b.Task && o.Metric == b.Metric && o.List == b.List {
			if b.File < o.File || b.File == o.File && b.Line < o.Line {
				*o = b
			}
			return
		}
	}
	r.BadValues = append(r.BadValues, b)
}

func (r *Run) warn(code string, count int, format string, a ...any) {
	r.Warnings = append(r.Warnings, results.Warning{Code: code, Message: fmt.Sprintf(format, a...), Count: count})
}

// add gives a sample to opt.Each, or keeps it in r.Samples. A sample
// already read (the same model, task, id, epoch and metric names) is an
// error naming both places, or with Options.DropDuplicates is left out
// and counted in r.Dropped.
func (r *Run) add(opt *Options, s *Sample) error {
	// Value searches Metrics by name: readers registered from outside
	// may append them in any order.
	s.SortMetrics()
	if drop, err := opt.dups.check(s); err != nil {
		return err
	} else if drop {
		r.Dropped++
		return nil
	}
	r.Count++
	if r.Count > opt.Limits.Samples {
		return fmt.Errorf("%s: more than %d samples, the most one run may hold (interop Options.Limits.Samples; no flag raises it)", s.File, opt.Limits.Samples)
	}
	if opt.Each != nil {
		return opt.Each(s)
	}
	c := *s
	c.Metrics = slices.Clone(s.Metrics) // readers reuse the slice for the next line
	c.Metadata = slices.Clone(s.Metadata)
	r.Samples = append(r.Samples, c)
	return nil
}

// Metrics lists the distinct (task, metric) pairs of the samples, sorted.
func (r *Run) Metrics() [][2]string {
	seen := map[[2]string]bool{}
	for i := range r.Samples {
		for _, m := range r.Samples[i].Metrics {
			seen[[2]string{r.Samples[i].Task, m.Name}] = true
		}
	}
	out := make([][2]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	return out
}

// Limits bound what a reader accepts. Zero fields take their defaults:
// Line follows tabular.Limit (--max-field-mib) and File follows
// tabular.MaxFile (--max-file-mib), as every other reader of the module
// does, so a command's flags raise them; the others take DefaultLimits.
type Limits struct {
	// Line is the longest JSONL line in bytes; 0 means
	// tabular.RecordLimit() (64 MiB unless --max-field-mib changed it).
	Line int
	// File is the largest JSON document (a results file, a .json log) in
	// bytes; 0 means tabular.FileLimit() (1 GiB unless --max-file-mib
	// changed it).
	File int64
	// Member is the largest uncompressed ZIP member in bytes.
	Member int64
	// Ratio is the largest uncompressed/compressed ratio of a ZIP member.
	Ratio int64
	// Archive is the most bytes the members read from one ZIP archive
	// (an inspect .eval log) may inflate to in all, declared and
	// actual; 0 means tabular.FileLimit(), so an archive may inflate
	// to no more than a JSON file may hold (1 GiB unless --max-file-mib
	// changed it). Member and Ratio bound one member; this bounds a
	// log of many members each under them.
	Archive int64
	// Samples is the most samples one Run holds.
	Samples int
}

// DefaultLimits are the limits of a zero Limits when tabular's limits
// are at their defaults: 64 MiB lines, 1 GiB JSON files, 256 MiB ZIP
// members at a ratio of at most 200, 1 GiB inflated from one archive,
// 50 million samples. Its Line, File and Archive are what
// tabular.DefaultMaxRecord and tabular.DefaultMaxFile say; a zero Limits
// reads them from tabular when a reader starts, so --max-field-mib and
// --max-file-mib apply.
var DefaultLimits = Limits{Line: tabular.DefaultMaxRecord, File: tabular.DefaultMaxFile, Member: 256 << 20, Ratio: 200,
	Archive: tabular.DefaultMaxFile, Samples: 50_000_000}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	d.Line, d.File, d.Archive = tabular.RecordLimit(), tabular.FileLimit(), tabular.FileLimit()
	if l.Line > 0 {
		d.Line = l.Line
	}
	if l.File > 0 {
		d.File = l.File
	}
	if l.Member > 0 {
		d.Member = l.Member
	}
	if l.Ratio > 0 {
		d.Ratio = l.Ratio
	}
	if l.Archive > 0 {
		d.Archive = l.Archive
	}
	if l.Samples > 0 {
		d.Samples = l.Samples
	}
	return d
}

// Options configure Read.
type Options struct {
	// Format forces a format by name; "" or "auto" detects it.
	Format string
	// Limits bound the reading; the zero value is DefaultLimits.
	Limits Limits
	// Requests is the OpenAI Batch request file to join with an output
	// file; "" looks beside the output for a file whose name has
	// "output" replaced by "input" or "requests" (see openai-batch).
	Requests string
	// NoText leaves Prompt, Response, Golden and the hashes empty
	// (faster, smaller), for when only metric values are needed.
	NoText bool
	// Hashes, with NoText, still reads each sample's DocHash (lm-eval's
	// doc_hash), which pairs documents across runs (Compare).
	Hashes bool
	// DropDuplicates leaves out a sample read before (the same model,
	// task, sample id, epoch and metric names: lm-eval's doc_id under one
	// filter, inspect's id and epoch, a ZIP member twice, a batch
	// custom_id twice), keeping the first, and counts them in
	// Run.Dropped with a warning; without it a duplicate is an error
	// naming both places. A duplicate is never counted twice.
	DropDuplicates bool
	// Root is the folder every path a harness file names (EEE's
	// detailed_evaluation_results.file_path) must resolve inside; "" is
	// the folder read, or the folder of the file read.
	Root string
	// Each, when set, receives every sample as it is read and Run.Samples
	// stays empty, so a million-sample file is checked in little memory.
	// The sample is valid only during the call; an error stops reading.
	Each func(s *Sample) error

	// sinks, when set (by Check), gives each block of a large JSONL
	// file (numbered in file order) its own consumer, so the file is
	// parsed on all cores; the consumer merges the blocks in order, so
	// the sums do not depend on the scheduling.
	sinks func(file string, block int) func(s *Sample) error
	// dups finds duplicated samples across the whole Read.
	dups *dedup
}

// Format is one readable format. Detect says whether path (a file or a
// folder) is in this format, cheaply (a name, a first line); Read reads
// it.
type Format struct {
	Name string
	// Detect reports whether path is in this format. It is asked in
	// registration order (built-ins first) and the first yes wins.
	Detect func(path string) bool
	Read   func(ctx context.Context, path string, opt Options) (*Run, error)
}

var (
	regMu   sync.RWMutex
	formats []Format
)

// Register adds a format. An edge package calls it from init (the
// parquet reader of lighteval details). A name already registered is
// replaced, keeping its place in the detection order.
func Register(f Format) {
	if f.Name == "" || f.Read == nil {
		panic("interop.Register: a format needs a name and a Read function")
	}
	regMu.Lock()
	defer regMu.Unlock()
	for i := range formats {
		if formats[i].Name == f.Name {
			formats[i] = f
			return
		}
	}
	formats = append(formats, f)
}

// Formats lists the registered format names in detection order.
func Formats() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Name
	}
	return out
}

// ErrUnknownFormat is matched by the error for a format name that is not
// registered or a path no format recognises.
var ErrUnknownFormat = errors.New("unknown format")

func lookup(name string) (Format, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Detect returns the name of the first format whose Detect accepts path.
func Detect(path string) (string, error) {
	if _, err := os.Stat(path); err != nil {
		return "", err
	}
	regMu.RLock()
	fs := slices.Clone(formats)
	regMu.RUnlock()
	for _, f := range fs {
		if f.Detect != nil && f.Detect(path) {
			return f.Name, nil
		}
	}
	return "", fmt.Errorf("%s: %w: not an output of %s; give --format", path, ErrUnknownFormat, strings.Join(Formats(), ", "))
}

// Read reads the harness output at path (a file or a folder) in
// opt.Format, or the detected format when that is "" or "auto".
func Read(ctx context.Context, path string, opt Options) (*Run, error) {
	name := opt.Format
	if name == "" || name == "auto" {
		var err error
		if name, err = Detect(path); err != nil {
			return nil, err
		}
	}
	f, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("--format %q: %w (want auto, %s)", name, ErrUnknownFormat, strings.Join(Formats(), ", "))
	}
	opt.Limits = opt.Limits.withDefaults()
	opt.dups = newDedup(opt.DropDuplicates)
	run, err := f.Read(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	if run.Dropped > 0 {
		first := ""
		if opt.dups.firstDropped != "" {
			first = "; the first dropped is " + opt.dups.firstDropped
		}
		run.warn(CodeDuplicatesDropped, run.Dropped, "%d duplicated sample(s) left out (--drop-duplicates): the first of each was kept%s", run.Dropped, first)
	}
	if run.Format == "" {
		run.Format = name
	}
	if run.Source == "" {
		run.Source = path
	}
	return run, nil
}
