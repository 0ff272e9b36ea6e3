package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// lm-evaluation-harness (EleutherAI) with --output_path DIR --log_samples
// writes DIR/<model>/results_<date>.json (the aggregates: "results" maps
// a task to "metric,filter" values and "metric_stderr,filter" standard
// errors) and one DIR/<model>/samples_<task>_<date>.jsonl per task, a
// line per (document, filter): doc_id, doc, target, arguments, resps,
// filtered_resps, filter, metrics (the names), doc_hash, prompt_hash,
// target_hash, and each metric's value under its own name. Older
// releases wrote the lines without filter, metrics and the hashes, with
// arguments as a list of lists, and result keys without ",filter".

func init() {
	Register(Format{Name: "lm-eval", Detect: detectLMEval, Read: readLMEval})
}

var lmevalDate = regexp.MustCompile(`_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)$`)

func detectLMEval(path string) bool {
	base := filepath.Base(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		rs, ss, _ := findLMEval(path)
		for _, r := range rs {
			if lmevalResultsLike(r) {
				return true
			}
		}
		for _, s := range ss {
			if strings.HasPrefix(filepath.Base(s), "samples_") {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(base, "samples_") && strings.HasSuffix(base, ".jsonl") {
		return true
	}
	if strings.HasPrefix(base, "results") && strings.HasSuffix(base, ".json") {
		return lmevalResultsLike(path)
	}
	return false
}

// lmevalResultsLike tells an lm-eval results file from a lighteval one
// (both are results_<date>.json): lighteval's has config_general.
func lmevalResultsLike(path string) bool {
	head := headOf(path, 1<<16)
	return bytes.Contains(head, []byte(`"results"`)) && !bytes.Contains(head, []byte(`"config_general"`)) &&
		!bytes.Contains(head, []byte(`"schema_version"`)) && !bytes.Contains(head, []byte(`"evalId"`)) &&
		(bytes.Contains(head, []byte(`"configs"`)) || bytes.Contains(head, []byte(`"versions"`)) || bytes.Contains(head, []byte(`"n-shot"`)))
}

func headOf(path string, n int) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := f.Read(b)
	return b[:k]
}

// findLMEval lists the results and samples files under dir (three levels
// deep at most: DIR/<model>/ is where lm-eval writes), sorted.
func findLMEval(dir string) (resultsFiles, samples []string, err error) {
	root := filepath.Clean(dir)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= 2 {
				return filepath.SkipDir
			}
			return nil
		}
		b := d.Name()
		switch {
		case strings.HasSuffix(b, ".jsonl"):
			// samples_<task>_<date>.jsonl; before lm-eval 0.4.3,
			// <model_args>_<task>.jsonl holding one JSON array
			samples = append(samples, p)
		case strings.HasPrefix(b, "results") && strings.HasSuffix(b, ".json"):
			resultsFiles = append(resultsFiles, p)
		}
		return nil
	})
	sort.Strings(resultsFiles)
	sort.Strings(samples)
	return resultsFiles, samples, err
}

// lmevalRun is one results file and the samples files of the same run.
type lmevalRun struct {
	results string
	samples []string
}

func dateOf(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".jsonl"), ".json")
	if m := lmevalDate.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

// taskOf is the task of samples_<task>_<date>.jsonl (or samples_<task>.jsonl).
func taskOf(name string) string {
	t := strings.TrimSuffix(strings.TrimPrefix(name, "samples_"), ".jsonl")
	if m := lmevalDate.FindStringIndex(t); m != nil {
		t = t[:m[0]]
	}
	return t
}

func readLMEval(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "lm-eval", Source: path}
	var groups []lmevalRun
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		rs, ss, err := findLMEval(path)
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 && len(ss) == 0 {
			return nil, perr(path, 0, "", fmt.Errorf("%w: no results_*.json or samples_*.jsonl in the folder (run lm_eval with --output_path and --log_samples)", ErrMissing))
		}
		groups = pairLMEval(run, rs, ss)
	} else if strings.HasSuffix(path, ".jsonl") {
		groups = []lmevalRun{{samples: []string{path}}}
	} else {
		dir := filepath.Dir(path)
		d := dateOf(filepath.Base(path))
		var ss []string
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if n := e.Name(); strings.HasSuffix(n, ".jsonl") && dateOf(n) == d {
				ss = append(ss, filepath.Join(dir, n))
			}
		}
		groups = []lmevalRun{{results: path, samples: ss}}
	}
	models := map[string]bool{}
	for _, g := range groups {
		var info lmevalInfo
		if g.results != "" {
			run.Files = append(run.Files, g.results)
			var err error
			if info, err = readLMEvalResults(g.results, opt, run); err != nil {
				return nil, err
			}
		}
		model := info.model
		if model == "" {
			model = filepath.Base(filepath.Dir(firstOf(g.samples, g.results)))
		}
		models[model] = true
		for _, sf := range g.samples {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			run.Files = append(run.Files, sf)
			if err := readLMEvalSamples(sf, model, info, opt, run); err != nil {
				return nil, err
			}
		}
	}
	if len(models) == 1 {
		for m := range models {
			run.Model = m
		}
	}
	return run, nil
}

func firstOf(l []string, alt string) string {
	if len(l) > 0 {
		return l[0]
	}
	return alt
}

// pairLMEval groups the files by folder and date; in a folder with
// several runs (results files of different dates) each becomes a group
// with the samples of its date.
func pairLMEval(run *Run, rs, ss []string) []lmevalRun {
	var out []lmevalRun
	used := map[string]bool{}
	for _, r := range rs {
		g := lmevalRun{results: r}
		d := dateOf(filepath.Base(r))
		for _, s := range ss {
			if filepath.Dir(s) == filepath.Dir(r) && dateOf(filepath.Base(s)) == d && !used[s] {
				g.samples = append(g.samples, s)
				used[s] = true
			}
		}
		out = append(out, g)
	}
	var loose []string
	for _, s := range ss {
		if !used[s] {
			loose = append(loose, s)
		}
	}
	if len(loose) > 0 {
		if len(rs) > 0 {
			run.warn(CodeSamplesWithoutResults, len(loose), "%d samples file(s) have no results_*.json of the same date beside them (%s): their samples are read, with no reported figures to check", len(loose), filepath.Base(loose[0]))
		}
		out = append(out, lmevalRun{samples: loose})
	}
	return out
}

// lmevalResults is the part of results_<date>.json read here.
type lmevalResults struct {
	Results       map[string]map[string]json.RawMessage `json:"results"`
	Groups        map[string]map[string]json.RawMessage `json:"groups"`
	GroupSubtasks map[string][]string                   `json:"group_subtasks"`
	ModelName     string                                `json:"model_name"`
	Config        struct {
		Model     string          `json:"model"`
		ModelArgs json.RawMessage `json:"model_args"`
	} `json:"config"`
	NSamples map[string]struct {
		Original  int `json:"original"`
		Effective int `json:"effective"`
	} `json:"n-samples"`
}

// lmevalInfo is what the samples reader needs from the results file.
type lmevalInfo struct {
	model string
	comma bool     // result keys are "metric,filter"
	tasks []string // for old sample file names <model_args>_<task>.jsonl
}

func readLMEvalResults(path string, opt Options, run *Run) (lmevalInfo, error) {
	var info lmevalInfo
	data, err := readBounded(path, opt.Limits.File)
	if err != nil {
		return info, err
	}
	var r lmevalResults
	if err := decodeDoc(path, data, &r); err != nil {
		return info, err
	}
	if r.Results == nil {
		return info, perr(path, 0, "results", fmt.Errorf("%w: no \"results\" object: is this an lm-eval results file?", ErrMissing))
	}
	model := r.ModelName
	if model == "" {
		model = modelFromArgs(r.Config.ModelArgs)
	}
	info.model = model
	comma := false
	tasks := make([]string, 0, len(r.Results))
	for t := range r.Results {
		tasks = append(tasks, t)
	}
	sort.Strings(tasks)
	for _, t := range tasks {
		_, isGroup := r.GroupSubtasks[t]
		if len(r.GroupSubtasks[t]) == 0 {
			isGroup = false
		}
		keys := make([]string, 0, len(r.Results[t]))
		for k := range r.Results[t] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "alias" || k == "samples" || strings.Contains(k, "_stderr") {
				continue
			}
			metric, filter, hasComma := strings.Cut(k, ",")
			comma = comma || hasComma
			field := "results." + t + "." + k
			raw := r.Results[t][k]
			v, ok := number(raw)
			if !ok { // lm-eval writes "N/A" for a figure it could not aggregate; anything else is no figure
				what, list := describe(raw)
				run.BadReported = append(run.BadReported, BadValue{Model: model, Task: t, Metric: k, File: path, Field: field, What: what, List: list, NA: string(raw) == `"N/A"`})
				continue
			}
			a := Aggregate{Model: model, Task: t, Metric: k, Value: v, Rounding: -1, Filter: filter}
			se := metric + "_stderr"
			if hasComma {
				se += "," + filter
			}
			if raw, has := r.Results[t][se]; has {
				if sv, ok := number(raw); ok {
					a.Stderr, a.HasStderr = sv, true
				} else if string(raw) != `"N/A"` {
					what, list := describe(raw)
					run.BadReported = append(run.BadReported, BadValue{Model: model, Task: t, Metric: se, File: path, Field: "results." + t + "." + se, What: what, List: list})
				}
			}
			if n, ok := r.NSamples[t]; ok && n.Effective > 0 {
				a.Expected, a.ExpectedFrom = n.Effective, "n-samples."+t+".effective in "+filepath.Base(path)
			}
			if isGroup {
				a.Filter = "group:" + strings.Join(r.GroupSubtasks[t], ",")
			}
			run.Reported = append(run.Reported, a)
		}
	}
	for _, t := range tasks {
		if n, ok := r.NSamples[t]; ok && n.Effective < n.Original {
			run.warn(CodeRunLimited, 1, "%s: lm-eval evaluated %d of the task's %d documents (n-samples in %s: lm_eval --limit): its figures are of those %d only", t, n.Effective, n.Original, filepath.Base(path), n.Effective)
		}
	}
	info.comma, info.tasks = comma, tasks
	return info, nil
}

// modelFromArgs finds pretrained=... (or model=, path=) in lm-eval's
// model_args, a string "k=v,k=v" or, in newer releases, an object.
func modelFromArgs(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		for _, kv := range strings.Split(s, ",") {
			k, v, _ := strings.Cut(kv, "=")
			if k == "pretrained" || k == "model" || k == "path" || k == "engine" {
				return v
			}
		}
		return ""
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"pretrained", "model", "path", "engine"} {
			if v, ok := m[k].(string); ok {
				return v
			}
		}
	}
	return ""
}

func readLMEvalSamples(path, model string, info lmevalInfo, opt Options, run *Run) error {
	task := taskOf(filepath.Base(path))
	if !strings.HasPrefix(filepath.Base(path), "samples_") {
		// lm-eval before 0.4.3: <model_args with / and = as __>_<task>.jsonl
		best := ""
		for _, t := range info.tasks {
			if strings.HasSuffix(filepath.Base(path), "_"+t+".jsonl") && len(t) > len(best) {
				best = t
			}
		}
		if best == "" {
			return perr(path, 0, "", fmt.Errorf("%w: the file name names no task of the results file (%s); lm-eval names sample files samples_<task>_<date>.jsonl", ErrMissing, strings.Join(info.tasks, ", ")))
		}
		task = best
	}
	sr := &lmevalSampleReader{path: path, model: model, task: task, comma: info.comma, opt: opt, run: run, bad: map[string]bool{}}
	sr.emit = func(s *Sample) error { return run.add(&sr.opt, s) }
	if bytes.HasPrefix(bytes.TrimLeft(headOf(path, 4096), " \t\r\n\ufeff"), []byte("[")) {
		return sr.array()
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if opt.sinks != nil && !opt.DropDuplicates && runtime.GOMAXPROCS(0) > 1 { // dropping keeps the first in file order: read in order
		return sr.parallel(f, runtime.GOMAXPROCS(0))
	}
	ln := tabular.NewLines(f, path, opt.Limits.Line)
	for ln.Scan() {
		if err := sr.object(ln.Bytes(), ln.Line()); err != nil {
			return err
		}
	}
	return ln.Err()
}

type lmevalSampleReader struct {
	path, model, task string
	comma             bool
	opt               Options
	run               *Run
	// bad remembers the metrics a bad value was noted for, so each is
	// noted once per reader (Run keeps the first in file order).
	bad   map[string]bool
	s     Sample
	names []string
	raw   [][2][]byte
	emit  func(*Sample) error
}

// array reads the samples file of lm-eval before 0.4.3: one JSON array
// (indented), named .jsonl all the same.
func (sr *lmevalSampleReader) array() error {
	data, err := readBounded(sr.path, sr.opt.Limits.File)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return decodeDoc(sr.path, data, new([]json.RawMessage))
	}
	for i := 0; dec.More(); i++ {
		off := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return decodeDoc(sr.path, data, new([]json.RawMessage))
		}
		line, _ := lineCol(data, off+len(data[off:])-len(bytes.TrimLeft(data[off:], " \t\r\n,")))
		if err := sr.object(compact(raw), line); err != nil {
			var pe *tabular.ParseError
			if errors.As(err, &pe) && pe.Field == "" {
				pe.Field = fmt.Sprintf("[%d]", i)
			}
			return err
		}
	}
	return nil
}

func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func (sr *lmevalSampleReader) object(line []byte, lineNo int) error {
	opt := &sr.opt
	s := &sr.s
	*s = Sample{Model: sr.model, Task: sr.task, File: sr.path, Line: lineNo, Metrics: s.Metrics[:0]}
	sr.names, sr.raw = sr.names[:0], sr.raw[:0]
	var haveID, haveNames bool
	filter := ""
	err := eachKey(line, func(k, v []byte, off int) error {
		switch string(k) {
		case "doc_id":
			haveID = true
			if v[0] == '"' {
				s.SampleID = text(v)
			} else {
				s.SampleID = string(v)
			}
		case "doc_hash":
			if !opt.NoText || opt.Hashes {
				s.DocHash = text(v)
			}
		case "prompt_hash":
			if !opt.NoText {
				s.PromptHash = text(v)
			}
		case "doc", "resps", "target_hash":
		case "filter":
			filter = text(v)
		case "metrics":
			haveNames = true
			var err error
			if sr.names, err = stringList(v, sr.names); err != nil {
				return fmt.Errorf("\"metrics\" is not a list of names: %v", err)
			}
		case "target":
			if !opt.NoText {
				s.Golden, s.HasGolden = text(v), true
			}
		case "filtered_resps":
			if !opt.NoText {
				s.Response, s.HasResponse = text(v), true
			}
		case "arguments":
			if !opt.NoText {
				s.Prompt, s.HasPrompt = lmevalPrompt(v)
			}
		default:
			sr.raw = append(sr.raw, [2][]byte{k, v})
		}
		return nil
	})
	if err != nil {
		return &tabular.ParseError{File: sr.path, Line: lineNo, Column: syntaxColumn(err), Err: err}
	}
	if !haveID {
		return &tabular.ParseError{File: sr.path, Line: lineNo, Field: "doc_id", Err: fmt.Errorf("%w \"doc_id\": every lm-eval sample record has one", ErrMissing)}
	}
	if filter == "" && sr.comma {
		filter = "none"
	}
	if err := sr.metricValues(lineNo, filter, haveNames); err != nil {
		return err
	}
	return sr.emit(s)
}

// metricValues sets the sample's metrics from the record's other fields
// (sr.raw), named with the record's filter: only those "metrics" lists
// when it has one, each of which must have a value; a value that is not a
// number is noted once per metric (a list is a corpus metric's).
func (sr *lmevalSampleReader) metricValues(lineNo int, filter string, haveNames bool) error {
	s := &sr.s
	for _, kv := range sr.raw {
		name := string(kv[0])
		if haveNames && !slices.Contains(sr.names, name) {
			continue // a field of the task's own, not a metric
		}
		full := name
		if filter != "" {
			full = name + "," + filter
		}
		v, ok := number(kv[1])
		if !ok {
			// a list is a corpus metric's [reference, prediction] (bleu,
			// chrf): Check skips the metric when all its values are
			// lists; a string or null where a number belongs is noted,
			// and Check refuses a figure of that metric naming it
			what, list := describe(kv[1])
			key := full
			if list {
				key += "\x00list"
			}
			if !sr.bad[key] {
				sr.bad[key] = true
				sr.run.noteBad(BadValue{Model: sr.model, Task: sr.task, Metric: full, File: sr.path, Line: lineNo, SampleID: s.SampleID, Field: name, What: what, List: list})
			}
			continue
		}
		s.SetMetric(full, v)
	}
	if haveNames {
		for _, n := range sr.names {
			found := false
			for _, kv := range sr.raw {
				if string(kv[0]) == n {
					found = true
					break
				}
			}
			if !found {
				return &tabular.ParseError{File: sr.path, Line: lineNo, Field: n, Err: fmt.Errorf("%w: \"metrics\" names %q but the record has no value for it", ErrMissing, n)}
			}
		}
	}
	return nil
}

// lmevalPrompt is the first argument of the first request: the context
// string (new files: {"gen_args_0": {"arg_0": ...}}; old: [[ctx, ...]]).
func lmevalPrompt(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '{' {
		var m map[string]map[string]json.RawMessage
		if json.Unmarshal(raw, &m) == nil {
			if a, ok := m["gen_args_0"]["arg_0"]; ok {
				return text(a), true
			}
		}
		return "", false
	}
	var l [][]json.RawMessage
	if json.Unmarshal(raw, &l) == nil && len(l) > 0 && len(l[0]) > 0 {
		return text(l[0][0]), true
	}
	return "", false
}

// lineTooLong is the error of tabular.Lines for line of path beyond max
// bytes, for the parallel reader, which splits lines itself.
func lineTooLong(path string, line, max int) *tabular.ParseError {
	return &tabular.ParseError{File: path, Line: line, Err: fmt.Errorf("%w: the line is longer than %s, the most this reader takes; %s (is the file really JSON Lines?)", tabular.ErrTooLong, tabular.Size(max), tabular.LimitHint)}
}

// parallel parses a JSONL samples file on several goroutines: one reads
// blocks of whole lines, each worker parses its blocks into its own sink
// (Options.sinks). The checks are those of tabular.Lines (line length,
// UTF-8, blank lines, a byte-order mark on line 1); of several bad lines
// the first in the file is reported.
func (sr *lmevalSampleReader) parallel(f *os.File, workers int) error {
	type block struct {
		idx, line int
		data      []byte
	}
	blocks := make(chan block, workers)
	var (
		mu       sync.Mutex
		firstIdx = -1
		firstErr error
		count    atomic.Int64
		wg       sync.WaitGroup
	)
	failed := func(idx int) bool {
		mu.Lock()
		defer mu.Unlock()
		return firstIdx >= 0 && idx > firstIdx
	}
	fail := func(idx int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstIdx < 0 || idx < firstIdx {
			firstIdx, firstErr = idx, err
		}
	}
	limit := int64(sr.opt.Limits.Samples)
	for range workers {
		var sink func(*Sample) error
		w := &lmevalSampleReader{path: sr.path, model: sr.model, task: sr.task, comma: sr.comma, opt: sr.opt, run: sr.run, bad: map[string]bool{}}
		w.emit = func(s *Sample) error {
			if _, err := w.opt.dups.check(s); err != nil { // DropDuplicates reads in order, not here
				return err
			}
			if count.Add(1) > limit {
				return fmt.Errorf("%s: more than %d samples, the most one run may hold (interop Options.Limits.Samples; no flag raises it)", s.File, limit)
			}
			return sink(s)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range blocks {
				if failed(b.idx) {
					continue
				}
				sink = sr.opt.sinks(sr.path, b.idx)
				if err := w.block(b.data, b.line); err != nil {
					fail(b.idx, err)
				}
			}
		}()
	}
	const blockSize = 4 << 20
	var pending []byte
	line, idx := 1, 0
	var readErr error
	for readErr == nil && !failed(idx) {
		buf := make([]byte, len(pending), max(blockSize, 2*len(pending)))
		copy(buf, pending)
		n, err := io.ReadFull(f, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			readErr = io.EOF
		} else if err != nil {
			readErr = err
			break
		}
		cut := bytes.LastIndexByte(buf, '\n') + 1
		if readErr == io.EOF {
			cut = len(buf)
		}
		if cut == 0 { // no line end yet: one long line
			if len(buf) > sr.opt.Limits.Line {
				fail(idx, lineTooLong(sr.path, line, sr.opt.Limits.Line))
				break
			}
			pending = buf
			continue
		}
		blocks <- block{idx, line, buf[:cut]}
		line += bytes.Count(buf[:cut], []byte{'\n'})
		idx++
		pending = buf[cut:]
	}
	close(blocks)
	wg.Wait()
	if readErr != nil && readErr != io.EOF {
		return readErr
	}
	sr.run.Count += int(count.Load())
	return firstErr
}

// block parses the lines of one block, the first of which is line first.
func (sr *lmevalSampleReader) block(data []byte, first int) error {
	line := first
	for len(data) > 0 {
		j := bytes.IndexByte(data, '\n')
		var l []byte
		if j < 0 {
			l, data = data, nil
		} else {
			l, data = data[:j], data[j+1:]
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		if line == 1 {
			l = bytes.TrimPrefix(l, []byte("\uFEFF"))
		}
		if len(l) > sr.opt.Limits.Line {
			return lineTooLong(sr.path, line, sr.opt.Limits.Line)
		}
		if len(bytes.TrimSpace(l)) > 0 {
			if !utf8.Valid(l) {
				off := firstBad(l)
				return &tabular.ParseError{File: sr.path, Line: line, Column: utf8.RuneCount(l[:off]) + 1, Err: tabular.BadByteError(l[off], 0)}
			}
			if err := sr.object(l, line); err != nil {
				return err
			}
		}
		line++
	}
	return nil
}
