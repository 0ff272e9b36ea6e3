package interop

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// inspect_ai (UK AISI) writes a log per task run. A .eval log is a ZIP of
// JSON members: _journal/start.json ({version, eval, plan}) when the run
// starts, samples/<id>_epoch_<n>.json and _journal/summaries/<k>.json as
// samples are flushed, and at the end header.json (the whole log without
// samples: status, eval, plan, results, stats), summaries.json and
// reductions.json. A log still being written has no header.json. Logs of
// the first .eval releases kept start.json, results.json and summary.json
// at the top level instead. A .json log is the same EvalLog as one JSON
// document with its samples inline. The log format's version is 1 or 2;
// in version 1 a sample had one "score", later a "scores" map by scorer.

func init() {
	Register(Format{Name: "inspect", Detect: detectInspect, Read: readInspect})
}

func detectInspect(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".eval":
		return true
	case ".json":
		h := headOf(path, 1<<16)
		return bytes.Contains(h, []byte(`"eval"`)) && bytes.Contains(h, []byte(`"version"`)) &&
			(bytes.Contains(h, []byte(`"task"`)) || bytes.Contains(h, []byte(`"status"`))) && !bytes.Contains(h, []byte(`"schema_version"`))
	}
	return false
}

// inspectMaxVersion is the newest log format version this reader knows.
const inspectMaxVersion = 2

type inspectLog struct {
	Version *int   `json:"version"`
	Status  string `json:"status"`
	Eval    struct {
		Task    string `json:"task"`
		Model   string `json:"model"`
		Dataset struct {
			Name string `json:"name"`
		} `json:"dataset"`
		Config struct {
			Epochs *int `json:"epochs"`
		} `json:"config"`
	} `json:"eval"`
	Results *struct {
		TotalSamples     int `json:"total_samples"`
		CompletedSamples int `json:"completed_samples"`
		Scores           []struct {
			Name    string                    `json:"name"`
			Scorer  string                    `json:"scorer"`
			Reducer string                    `json:"reducer"`
			Metrics map[string]inspectMetricV `json:"metrics"`
		} `json:"scores"`
		// version 1: one scorer
		Scorer *struct {
			Name    string                    `json:"name"`
			Metrics map[string]inspectMetricV `json:"metrics"`
		} `json:"scorer"`
	} `json:"results"`
	Samples []json.RawMessage `json:"samples"`
}

type inspectMetricV struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

type inspectSample struct {
	ID       json.RawMessage            `json:"id"`
	Epoch    int                        `json:"epoch"`
	Input    json.RawMessage            `json:"input"`
	Target   json.RawMessage            `json:"target"`
	Output   *inspectOutput             `json:"output"`
	Scores   map[string]json.RawMessage `json:"scores"`
	Score    json.RawMessage            `json:"score"` // log version 1
	Metadata map[string]json.RawMessage `json:"metadata"`
	Usage    map[string]inspectUsage    `json:"model_usage"`
	Error    json.RawMessage            `json:"error"`
}

type inspectOutput struct {
	Model      string `json:"model"`
	Completion string `json:"completion"`
	Choices    []struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage *inspectUsage `json:"usage"`
}

type inspectUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

func readInspect(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "inspect", Source: path, Files: []string{path}}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return readInspectJSON(ctx, path, opt, run)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return nil, perr(path, 0, "", fmt.Errorf("%w: not a complete ZIP archive (%v): an .eval log is a ZIP; is the file truncated, or still being copied?", ErrSchema, err))
	}
	members := map[string]*zip.File{}
	entry := map[string]int{}
	var sampleNames []string
	for i, m := range zr.File {
		// members are read from the archive, never written or opened as
		// files; a name that would leave a folder is refused all the same
		if !fs.ValidPath(m.Name) || strings.Contains(m.Name, `\`) {
			return nil, perr(path+"["+m.Name+"]", 0, "", fmt.Errorf("%w: the archive's entry %d is named %q, a path outside the archive's folder (absolute, or with ..): inspect writes header.json and samples/<id>_epoch_<n>.json; is this log from inspect?", ErrSchema, i+1, m.Name))
		}
		if j, dup := entry[m.Name]; dup {
			if opt.DropDuplicates {
				run.Dropped++
				continue // the first is kept
			}
			return nil, perr(path+"["+m.Name+"]", 0, "", fmt.Errorf("%w: the member %s is in the archive twice (entries %d and %d): its sample would be counted twice; rewrite the log (inspect log convert), or give --drop-duplicates to keep the first", ErrDuplicate, m.Name, j+1, i+1))
		}
		entry[m.Name] = i
		members[m.Name] = m
		if strings.HasPrefix(m.Name, "samples/") && strings.HasSuffix(m.Name, ".json") {
			sampleNames = append(sampleNames, m.Name)
		}
	}
	var heads []*zip.File
	switch {
	case members["header.json"] != nil:
		heads = []*zip.File{members["header.json"]}
	case members["results.json"] != nil && members["start.json"] != nil: // the first .eval releases
		heads = []*zip.File{members["start.json"], members["results.json"]}
	case members["_journal/start.json"] != nil || members["start.json"] != nil:
		m := members["_journal/start.json"]
		if m == nil {
			m = members["start.json"]
		}
		heads = []*zip.File{m}
		run.Partial = true
	default:
		return nil, perr(path, 0, "header.json", fmt.Errorf("%w: neither header.json nor _journal/start.json in the archive: is this an inspect_ai .eval log?", ErrMissing))
	}
	sortInspectMembers(sampleNames)
	ar := &archive{path: path, opt: opt, left: opt.Limits.Archive}
	if err := ar.declared(heads, sampleNames, members); err != nil {
		return nil, err
	}
	var log inspectLog
	for _, m := range heads {
		if err := ar.decode(m, &log); err != nil {
			return nil, err
		}
	}
	if run.Partial {
		run.warn(CodeLogStillWriting, 1, "%s has no header.json: the run was still being written (or was stopped) when the file was read; its %d flushed samples are read and there are no reported figures to check", filepath.Base(path), len(sampleNames))
	}
	if err := inspectHeader(path, "header.json", &log, run); err != nil {
		return nil, err
	}
	for _, name := range sampleNames {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := ar.member(members[name])
		if err != nil {
			return nil, err
		}
		if err := inspectSampleInto(path+"["+name+"]", data, 0, &log, opt, run); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// sortInspectMembers orders samples/<id>_epoch_<n>.json by epoch then id
// (numerically when the ids are numbers), as inspect sorts samples.
func sortInspectMembers(names []string) {
	key := func(n string) (int, string, float64, bool) {
		b := strings.TrimSuffix(strings.TrimPrefix(n, "samples/"), ".json")
		i := strings.LastIndex(b, "_epoch_")
		if i < 0 {
			return 0, b, 0, false
		}
		ep, _ := strconv.Atoi(b[i+7:])
		id := b[:i]
		f, err := strconv.ParseFloat(id, 64)
		return ep, id, f, err == nil
	}
	sort.SliceStable(names, func(a, b int) bool {
		ea, ia, fa, na := key(names[a])
		eb, ib, fb, nb := key(names[b])
		if ea != eb {
			return ea < eb
		}
		if na && nb && fa != fb {
			return fa < fb
		}
		return ia < ib
	})
}

// archive reads the members of one .eval archive within the limits:
// each member's (Limits.Member, Limits.Ratio) and what all of them
// inflate to together (Limits.Archive), declared and actual.
type archive struct {
	path string
	opt  Options
	left int64 // what the members not read yet may still inflate to
}

// archiveHint is what an error about an archive past Limits.Archive
// says to do.
const archiveHint = "if the log is genuine, raise the limit with --max-file-mib (interop Options.Limits.Archive), which bounds what one archive may inflate to as it bounds a JSON file"

// declared refuses an archive whose members to be read (heads, then
// the samples) declare more than Limits.Archive in all, before any is
// inflated.
func (a *archive) declared(heads []*zip.File, samples []string, members map[string]*zip.File) error {
	var total uint64
	for _, m := range heads {
		total += m.UncompressedSize64
	}
	for _, name := range samples {
		total += members[name].UncompressedSize64
	}
	if total > uint64(a.opt.Limits.Archive) {
		return perr(a.path, 0, "", fmt.Errorf("%w (%w): its %d members to read (the header and %d samples) declare %d bytes inflated in all, more than %s, the most one archive may inflate to: a ZIP bomb?; %s",
			ErrTooLarge, tabular.ErrFileTooLarge, len(heads)+len(samples), len(samples), total, sizeText(a.opt.Limits.Archive), archiveHint))
	}
	return nil
}

// member inflates m, counting its bytes against what the archive has
// left; a member whose header understates its data is stopped at the
// limit too.
func (a *archive) member(m *zip.File) ([]byte, error) {
	where, opt := a.path+"["+m.Name+"]", a.opt
	if m.UncompressedSize64 > uint64(opt.Limits.Member) {
		return nil, perr(where, 0, "", fmt.Errorf("%w: the member is %d bytes uncompressed, more than %d (interop Options.Limits.Member; no flag raises it)", ErrTooLarge, m.UncompressedSize64, opt.Limits.Member))
	}
	if m.CompressedSize64 > 0 && m.UncompressedSize64/m.CompressedSize64 > uint64(opt.Limits.Ratio) {
		return nil, perr(where, 0, "", fmt.Errorf("%w: the member expands %d times, more than %d (interop Options.Limits.Ratio; no flag raises it): a ZIP bomb?", ErrTooLarge, m.UncompressedSize64/m.CompressedSize64, opt.Limits.Ratio))
	}
	rc, err := m.Open()
	if err != nil {
		return nil, perr(where, 0, "", fmt.Errorf("cannot open the member: %v", err))
	}
	defer rc.Close()
	limit := min(opt.Limits.Member, a.left)
	// one buffer of the declared size (bounded by the limit), not the
	// doublings of io.ReadAll: a 200 MB member costs 200 MB, not 400
	data := make([]byte, 0, min(int64(m.UncompressedSize64), limit)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := rc.Read(data[len(data):min(int64(cap(data)), limit+1)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			break
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, perr(where, 0, "", fmt.Errorf("the member is damaged (%v): is the file truncated?", err))
		}
	}
	if int64(len(data)) > opt.Limits.Member {
		return nil, perr(where, 0, "", fmt.Errorf("%w: the member is larger than %d bytes (interop Options.Limits.Member; no flag raises it)", ErrTooLarge, opt.Limits.Member))
	}
	if int64(len(data)) > a.left {
		return nil, perr(where, 0, "", fmt.Errorf("%w (%w): the archive's members inflate past %s, the most one archive may inflate to (this member declares %d bytes); %s",
			ErrTooLarge, tabular.ErrFileTooLarge, sizeText(opt.Limits.Archive), m.UncompressedSize64, archiveHint))
	}
	a.left -= int64(len(data))
	// encoding/json would turn bytes that are not UTF-8 (a latin-1 é)
	// into U+FFFD without a word: the text would change unseen
	if !utf8.Valid(data) {
		line, col := lineCol(data, firstBad(data))
		return nil, &tabular.ParseError{File: where, Line: line, Column: col, Err: fmt.Errorf("%w: JSON is UTF-8, and this member holds a byte sequence that is not (latin-1 or cp1252 text?); re-encode the log as UTF-8", tabular.ErrInvalidUTF8)}
	}
	return data, nil
}

// decode reads the member m and decodes its JSON into v.
func (a *archive) decode(m *zip.File, v any) error {
	data, err := a.member(m)
	if err != nil {
		return err
	}
	return decodeDoc(a.path+"["+m.Name+"]", data, v)
}

func inspectHeader(where, member string, log *inspectLog, run *Run) error {
	if log.Version == nil {
		return perr(where, 0, "version", fmt.Errorf("%w \"version\" in %s: every inspect log states its format version", ErrMissing, member))
	}
	if *log.Version < 1 || *log.Version > inspectMaxVersion {
		return perr(where, 0, "version", fmt.Errorf("%w: log format version %d; this reader knows versions 1 to %d (update evalbook, or convert the log with inspect log convert)", ErrSchema, *log.Version, inspectMaxVersion))
	}
	if log.Eval.Task == "" {
		return perr(where, 0, "eval.task", fmt.Errorf("%w \"eval.task\" in %s", ErrMissing, member))
	}
	run.Version = strconv.Itoa(*log.Version)
	run.Model = log.Eval.Model
	if log.Status != "" && log.Status != "success" && !run.Partial {
		run.warn(CodeLogNotSuccessful, 1, "the log's status is %q, not success: its figures may cover only part of the samples", log.Status)
	}
	if log.Results == nil {
		return nil
	}
	epochs := 1
	if log.Eval.Config.Epochs != nil {
		epochs = *log.Eval.Config.Epochs
	}
	add := func(name string, ms map[string]inspectMetricV) {
		keys := make([]string, 0, len(ms))
		for k := range ms {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k != "accuracy" && k != "mean" {
				continue
			}
			a := Aggregate{Model: log.Eval.Model, Task: log.Eval.Task, Metric: name, Value: ms[k].Value, Rounding: -1, Filter: k}
			// inspect scores the completed samples (fewer than the total
			// when samples fail and --fail-on-error is off). With several
			// epochs the figure is over samples reduced across epochs and
			// whether the counts are of samples or of samples times epochs
			// is not settled here, so n is not compared then.
			if epochs > 1 {
				// no Expected
			} else if n := log.Results.CompletedSamples; n > 0 {
				a.Expected, a.ExpectedFrom = n, "results.completed_samples in "+member
			} else if n := log.Results.TotalSamples; n > 0 {
				a.Expected, a.ExpectedFrom = n, "results.total_samples in "+member
			}
			if se, ok := ms["stderr"]; ok && epochs == 1 {
				a.Stderr, a.HasStderr = se.Value, true
			}
			run.Reported = append(run.Reported, a)
		}
	}
	for _, s := range log.Results.Scores {
		add(s.Name, s.Metrics)
	}
	if log.Results.Scorer != nil {
		add(log.Results.Scorer.Name, log.Results.Scorer.Metrics)
	}
	return nil
}

func readInspectJSON(ctx context.Context, path string, opt Options, run *Run) (*Run, error) {
	data, err := readBounded(path, opt.Limits.File)
	if err != nil {
		return nil, err
	}
	var log inspectLog
	if err := decodeDoc(path, data, &log); err != nil {
		return nil, err
	}
	if err := inspectHeader(path, "the log", &log, run); err != nil {
		return nil, err
	}
	for i, raw := range log.Samples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := inspectSampleInto(path, raw, i, &log, opt, run); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// inspectSampleInto decodes one EvalSample. where names the file (and
// ZIP member); index is its place in a .json log's samples array.
func inspectSampleInto(where string, data []byte, index int, log *inspectLog, opt Options, run *Run) error {
	field := func(f string) string {
		if strings.HasSuffix(where, "]") {
			return f
		}
		return fmt.Sprintf("samples[%d].%s", index, f)
	}
	var es inspectSample
	if err := decodeDoc(where, data, &es); err != nil {
		var pe *tabular.ParseError
		if errors.As(err, &pe) && !strings.HasSuffix(where, "]") {
			pe.Field = field(pe.Field)
			pe.Line = 0
		}
		return err
	}
	if len(es.ID) == 0 {
		return perr(where, 0, field("id"), fmt.Errorf("%w \"id\": every inspect sample has one", ErrMissing))
	}
	s := Sample{Model: log.Eval.Model, Task: log.Eval.Task, File: where, Line: index + 1, Epoch: es.Epoch}
	s.SampleID = text(es.ID)
	if log.Eval.Config.Epochs != nil && *log.Eval.Config.Epochs > 1 {
		s.SampleID += ":" + strconv.Itoa(es.Epoch)
	}
	scores := es.Scores
	if scores == nil && len(es.Score) > 0 && string(es.Score) != "null" { // log version 1
		name := "score"
		if log.Results != nil && log.Results.Scorer != nil {
			name = log.Results.Scorer.Name
		}
		scores = map[string]json.RawMessage{name: es.Score}
	}
	names := make([]string, 0, len(scores))
	for k := range scores {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		var sc struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(scores[name], &sc); err != nil || len(sc.Value) == 0 {
			return perr(where, 0, field("scores."+name+".value"), fmt.Errorf("%w: score %q has no value", ErrMissing, name))
		}
		bad := func(metric, f string, raw []byte) {
			what, _ := describe(raw)
			// inspect would count it as 0 with a warning; Check refuses
			// a figure of this metric and names the sample
			run.noteBad(BadValue{Model: s.Model, Task: s.Task, Metric: metric, File: where, Line: s.Line, SampleID: s.SampleID, Field: f, What: what})
		}
		if sc.Value[0] == '{' {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(sc.Value, &m); err != nil {
				return perr(where, 0, field("scores."+name+".value"), err)
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if f, ok := valueToFloat(m[k]); ok {
					s.SetMetric(k, f)
				} else {
					bad(k, field("scores."+name+".value."+k), m[k])
				}
			}
			continue
		}
		if f, ok := valueToFloat(sc.Value); ok {
			s.SetMetric(name, f)
		} else {
			bad(name, field("scores."+name+".value"), sc.Value)
		}
	}
	inspectDetails(&s, &es, opt)
	return run.add(&opt, &s)
}

// inspectDetails copies what an EvalSample holds besides its scores
// into s: its texts (unless opt.NoText), token usage and metadata (the
// language among it), metadata keys in sorted order.
func inspectDetails(s *Sample, es *inspectSample, opt Options) {
	if !opt.NoText {
		s.Prompt, s.HasPrompt = inspectInput(es.Input)
		if len(es.Target) > 0 {
			s.Golden, s.HasGolden = text(es.Target), true
		}
		if es.Output != nil {
			s.Response, s.HasResponse = es.Output.Completion, true
			if s.Response == "" && len(es.Output.Choices) > 0 {
				s.Response = contentText(es.Output.Choices[0].Message.Content)
			}
		}
	}
	for _, u := range es.Usage {
		s.InputTokens += u.InputTokens
		s.OutputTokens += u.OutputTokens
	}
	if len(es.Usage) == 0 && es.Output != nil && es.Output.Usage != nil {
		s.InputTokens, s.OutputTokens = es.Output.Usage.InputTokens, es.Output.Usage.OutputTokens
	}
	keys := make([]string, 0, len(es.Metadata))
	for k := range es.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := text(es.Metadata[k])
		s.Metadata = append(s.Metadata, KV{Key: k, Value: v})
		if k == "language" || k == "lang" {
			s.Language = v
		}
	}
}

func appendOnce(l [][2]string, p [2]string) [][2]string {
	for _, x := range l {
		if x == p {
			return l
		}
	}
	return append(l, p)
}

// valueToFloat maps an inspect score value to a number as inspect's
// value_to_float does: numbers and booleans as themselves, "C" 1,
// "P" 0.5, "I" and "N" 0, "yes"/"true" 1, "no"/"false" 0 (any case), a
// numeric string as its number. ok is false for a value it cannot map
// (null, a list, any other string): inspect warns and counts it as 0,
// so a figure over it is not what the scores say, and Check refuses it.
func valueToFloat(raw json.RawMessage) (float64, bool) {
	if f, ok := number(raw); ok {
		return f, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	switch s {
	case "C":
		return 1, true
	case "P":
		return 0.5, true
	case "I", "N":
		return 0, true
	}
	switch strings.ToLower(s) {
	case "yes", "true":
		return 1, true
	case "no", "false":
		return 0, true
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f, true
	}
	return 0, false // inspect logs "Unable to convert value to float" and counts it as 0
}

// inspectInput is the sample's input: a string, or the text of its last
// user message.
func inspectInput(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		return text(raw), true
	}
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msgs) != nil {
		return string(raw), true
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return contentText(msgs[i].Content), true
		}
	}
	return "", true
}

// contentText is a message's text: a string, or the text parts of a list
// of content items joined.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return text(raw)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return string(raw)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Text != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
