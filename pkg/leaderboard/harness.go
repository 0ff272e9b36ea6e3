package leaderboard

import (
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// Codes of the warnings a board of harness outputs adds (with
// interop.CodeHarnessMetrics and interop.CodeRescored, which say whose
// values it ranks).
const (
	// CodeTasksLeftOut: tasks of the harness outputs with no value of the
	// board's metric, so not on the board (Count: the tasks).
	CodeTasksLeftOut = "tasks_left_out"
	// CodeSamplesWithoutValue: samples whose value of the board's metric
	// is NaN (no value: a failed call, an unscored sample), left out of
	// their cells (Count: the samples).
	CodeSamplesWithoutValue = "samples_without_value"
	// CodeRunsLeftOut: harness outputs with no value of the board's
	// metric, so not on the board (Count: the runs).
	CodeRunsLeftOut = "runs_left_out"
	// CodeLanguagePartial: some samples of the board carry a language and
	// some do not, so the board is by task (Count: the samples without).
	CodeLanguagePartial = "language_partial"
)

// harnessAdvice closes the interop.CodeHarnessMetrics warning unless
// Options.Advice replaces it; rescoreAdvice the interop.CodeRescored one.
const (
	harnessAdvice = "set Options.Rescore to score the responses with evalbook's metrics instead"
	rescoreAdvice = "name one of them in Options.Metric, without Options.Rescore, to rank by the harness's own values"
)

// ResolveMetric says what a board of the harness outputs among inputs
// ranks by when asked for name: a metric the runs carry (the name
// itself, or "acc" for the one metric "acc,<filter>" they carry) with
// rescore false, or an evalbook metric id (pkg/score) with rescore true
// when asked to re-score or when no run carries name. An empty name is
// interop.DefaultMetricOf's choice, or exact_substring when re-scoring.
// A name that is neither, or the prefix of several of the runs'
// metrics, is an error listing them.
func ResolveMetric(inputs []Input, name string, rescore bool) (metric string, rescored bool, err error) {
	runs := runsOf(inputs)
	if len(runs) == 0 {
		return "", false, fmt.Errorf("no harness outputs")
	}
	known := harnessMetrics(inputs)
	if rescore {
		if name == "" {
			return score.Default[0], true, nil
		}
		m, err := score.Lookup(name)
		if err != nil {
			return "", false, fmt.Errorf("a re-score uses evalbook's metrics: %v", err)
		}
		return m.ID, true, nil
	}
	if name == "" {
		var ps []*interop.Profile
		for _, in := range inputs {
			if in.Run != nil {
				ps = append(ps, in.profile())
			}
		}
		m, err := interop.DefaultMetricOfProfiles(ps)
		return m, false, err
	}
	if slices.Contains(known, name) {
		return name, false, nil
	}
	var under []string
	for _, k := range known {
		if strings.HasPrefix(k, name+",") {
			under = append(under, k)
		}
	}
	switch {
	case len(under) == 1:
		return under[0], false, nil
	case len(under) > 1:
		return "", false, fmt.Errorf("metric %q: the runs carry it under several filters (%s): name one", name, strings.Join(under, ", "))
	}
	if m, err := score.Lookup(name); err == nil {
		return m.ID, true, nil
	}
	return "", false, fmt.Errorf("metric %q: no run carries it and it is no evalbook metric; the runs carry %s (or re-score the responses with one of evalbook's: %s)",
		name, strings.Join(known, ", "), strings.Join(score.IDs(), ", "))
}

// SplitMetrics splits a comma-separated list of metric names where the
// names themselves may hold commas (lm-eval's "acc,none"): at each place
// the longest run of items that joins to a metric of the harness outputs
// among inputs is one name, any other item a name of its own.
func SplitMetrics(list string, inputs []Input) []string {
	known := harnessMetrics(inputs)
	items := strings.Split(list, ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	var out []string
	for i := 0; i < len(items); {
		j := i + 1
		for k := len(items); k > i+1; k-- {
			if slices.Contains(known, strings.Join(items[i:k], ",")) {
				j = k
				break
			}
		}
		if name := strings.Join(items[i:j], ","); name != "" {
			out = append(out, name)
		}
		i = j
	}
	return out
}

func runsOf(inputs []Input) []*interop.Run {
	var runs []*interop.Run
	for _, in := range inputs {
		if in.Run != nil {
			runs = append(runs, in.Run)
		}
	}
	return runs
}

// harnessMetrics lists the metrics the samples of the inputs' runs
// carry, sorted.
func harnessMetrics(inputs []Input) []string {
	var all []string
	for _, in := range inputs {
		if in.Run == nil {
			continue
		}
		for _, m := range in.profile().MetricNames() {
			if !slices.Contains(all, m) {
				all = append(all, m)
			}
		}
	}
	sort.Strings(all)
	return all
}

// buildRuns builds the board of harness outputs: each model's cell is the
// mean of the per-sample values of the metric the harness wrote, per
// language when every sample has one (the task then its domain), else per
// task; items pair across models by task and sample id (or lm-eval's
// doc_hash when every sample has one). Nothing is re-scored, unless
// ResolveMetric says so (rescoreRuns).
func buildRuns(ctx context.Context, inputs []Input, opt Options) (*Board, error) {
	metric, rescore, err := ResolveMetric(inputs, opt.Metric, opt.Rescore)
	if err != nil {
		return nil, err
	}
	if rescore {
		return rescoreRuns(ctx, inputs, metric, opt)
	}
	if opt.Profile != textnorm.None {
		return nil, fmt.Errorf("normalisation (%s) applies to a re-score: %s is ranked by the values the harness wrote", opt.Profile, metric)
	}
	sv, err := surveyRuns(ctx, inputs, metric)
	if err != nil {
		return nil, err
	}
	if !sv.anyValue {
		return nil, fmt.Errorf("no sample has a value of %s (the runs carry %s)", metric, strings.Join(harnessMetrics(inputs), ", "))
	}
	d := sv.metricDef(metric)
	b, m := sv.emptyBoard(d, opt)
	warnHarnessValues(b, d, metric, opt)
	sv.warnLeftOut(b, inputs, metric)
	cells, err := gatherRuns(ctx, inputs, metric, b, opt)
	if err != nil {
		return nil, err
	}
	b.assemble(cells, m, opt)
	return b, nil
}

// runSurvey is what a first pass over the values of a metric finds:
// binary or graded, in [0, 1], every sample with a language, every sample
// with a doc_hash, and the tasks and runs without it.
type runSurvey struct {
	graded, anyValue        bool
	withLang, withoutLang   int
	allHashed               bool
	nan                     int // samples whose value is NaN
	formats                 []string
	def                     *sample.Def // the first run's definition of the metric, if any
	tasksWith, tasksWithout []string
	empty                   []bool // empty[i]: input i has no value of metric (NaN aside)
}

// surveyRuns reads every sample of the inputs' runs once for the values
// of metric; a value outside [0, 1] is an error naming its file and line.
func surveyRuns(ctx context.Context, inputs []Input, metric string) (*runSurvey, error) {
	sv := &runSurvey{allHashed: true, empty: make([]bool, len(inputs))}
	for i, in := range inputs {
		r := in.Run
		if !slices.Contains(sv.formats, r.Format) {
			sv.formats = append(sv.formats, r.Format)
		}
		if sv.def == nil {
			if i := slices.IndexFunc(r.Defs, func(d sample.Def) bool { return d.Name == metric }); i >= 0 {
				d := r.Defs[i]
				sv.def = &d
			}
		}
		sv.empty[i] = true
		err := in.eachSample(ctx, true, func(s *sample.Sample) error { return sv.add(s, r, i, metric) })
		if err != nil {
			return nil, err
		}
	}
	return sv, nil
}

// add counts one sample of input i (run r).
func (sv *runSurvey) add(s *sample.Sample, r *interop.Run, i int, metric string) error {
	v, ok := s.Value(metric)
	if !ok {
		if !slices.Contains(sv.tasksWithout, s.Task) {
			sv.tasksWithout = append(sv.tasksWithout, strings.Clone(s.Task))
		}
		return nil
	}
	if !slices.Contains(sv.tasksWith, s.Task) {
		sv.tasksWith = append(sv.tasksWith, strings.Clone(s.Task))
	}
	if math.IsNaN(v) {
		sv.nan++
		return nil
	}
	sv.empty[i] = false
	if math.IsInf(v, 0) || v < 0 || v > 1 {
		return fmt.Errorf("%s: sample %q of task %q: %s is %v; a board ranks values in [0, 1] (name another metric)", where(s, r), s.SampleID, s.Task, metric, v)
	}
	sv.anyValue = true
	sv.graded = sv.graded || v != 0 && v != 1
	if s.Language != "" {
		sv.withLang++
	} else {
		sv.withoutLang++
	}
	sv.allHashed = sv.allHashed && s.DocHash != ""
	return nil
}

// metricDef is the board's definition of metric: the run's own, else one
// saying the harness wrote it; graded as the values are.
func (sv *runSurvey) metricDef(metric string) sample.Def {
	d := sample.Def{Name: metric, By: sample.ByHarness, Source: strings.Join(sv.formats, ", "), Graded: sv.graded}
	if sv.def != nil {
		d = *sv.def
		d.Graded = sv.graded
	}
	return d
}

// emptyBoard is the empty board of metric d with its settings: interval,
// tier test, axis (languages when every sample has one, else tasks) and
// pair key; and the metric as the board's assembly takes it.
func (sv *runSurvey) emptyBoard(d sample.Def, opt Options) (*Board, *score.Metric) {
	b := newBoard(sample.MetricDef(d, d.Source), opt)
	m := &score.Metric{ID: d.Name, Name: b.Metric.Name, Graded: sv.graded}
	b.Settings.RankResamples = rankResamples(opt, m)
	b.Settings.Interval = "wilson"
	if sv.graded {
		b.Settings.Interval = "normal"
	}
	b.Settings.TierTest = "two-sided sign test on the items both answered"
	b.Axis = AxisTask
	if sv.withoutLang == 0 {
		b.Axis = AxisLanguage
	}
	b.Settings.PairKey = "task/sample id"
	if sv.allHashed {
		b.Settings.PairKey = "task/doc_hash"
	}
	return b, m
}

// warnHarnessValues says whose values the board ranks: the harness's own,
// or evalbook's scores of an evalbook task run.
func warnHarnessValues(b *Board, d sample.Def, metric string, opt Options) {
	who := b.Metric.Source
	if d.By == sample.ByHarness {
		advice, ok := opt.Advice[interop.CodeHarnessMetrics]
		if !ok {
			advice = harnessAdvice
		}
		b.warn(interop.CodeHarnessMetrics, 0, fmt.Sprintf("the values are %s's own per-sample %s, as the harness wrote them; nothing was re-scored (%s)", who, metric, advice))
	} else {
		b.warn(interop.CodeHarnessMetrics, 0, fmt.Sprintf("the values are the per-item %s of the %s run as evalbook scored it", metric, who))
	}
}

// warnLeftOut names the tasks and runs without a value of metric, counts
// the NaN values, and says when only some samples have a language.
func (sv *runSurvey) warnLeftOut(b *Board, inputs []Input, metric string) {
	isAre := func(one bool) string { return map[bool]string{true: "is", false: "are"}[one] }
	var left []string
	for _, t := range sv.tasksWithout {
		if !slices.Contains(sv.tasksWith, t) {
			left = append(left, t)
		}
	}
	if len(left) > 0 {
		b.warn(CodeTasksLeftOut, len(left), fmt.Sprintf("%s no value of %s and %s not on this board: %s; each board ranks one metric",
			plural(len(left), "task has", "tasks have"), metric, isAre(len(left) == 1), strings.Join(left, ", ")))
	}
	var none []string
	for i, in := range inputs {
		if sv.empty[i] {
			none = append(none, in.name())
		}
	}
	if len(none) > 0 {
		b.warn(CodeRunsLeftOut, len(none), fmt.Sprintf("%s no value of %s and %s not on this board: %s",
			plural(len(none), "harness output has", "harness outputs have"), metric, isAre(len(none) == 1), strings.Join(none, ", ")))
	}
	if sv.nan > 0 {
		b.warn(CodeSamplesWithoutValue, sv.nan, fmt.Sprintf("%s no value of %s (NaN: a failed call or an unscored sample) and %s left out of %s cells",
			plural(sv.nan, "sample has", "samples have"), metric, isAre(sv.nan == 1), map[bool]string{true: "its", false: "their"}[sv.nan == 1]))
	}
	if sv.withLang > 0 && sv.withoutLang > 0 {
		b.warn(CodeLanguagePartial, sv.withoutLang, fmt.Sprintf("%s no language while %d do, so the board is by task", plural(sv.withoutLang, "sample has", "samples have"), sv.withLang))
	}
}

// gatherRuns reads every run a second time for its rows (runRows), adds
// each run to the Files table, and merges the rows by model and column.
func gatherRuns(ctx context.Context, inputs []Input, metric string, b *Board, opt Options) (map[string]map[string]*rowSet, error) {
	cells := map[string]map[string]*rowSet{}
	used := map[string]bool{} // model labels of earlier runs
	for _, in := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if opt.Progress != nil {
			opt.Progress(in.Path)
		}
		info, rows, err := runRows(ctx, in, metric, b, used)
		if err != nil {
			return nil, err
		}
		b.Files = append(b.Files, info)
		for model, byCol := range rows {
			if cells[model] == nil {
				cells[model] = map[string]*rowSet{}
			}
			for col, rs := range byCol {
				if have := cells[model][col]; have != nil {
					have.appendSet(rs)
					have.clip()
				} else {
					cells[model][col] = rs
				}
			}
		}
	}
	return cells, nil
}

// runRows gives one run's values of metric as the board's rows, by
// model and column (language or task), and what the Files table says of
// it. A model an earlier run also holds is named "<model> [<file>]" here,
// as interop.ResponsesFS names it.
func runRows(ctx context.Context, in Input, metric string, b *Board, used map[string]bool) (FileInfo, map[string]map[string]*rowSet, error) {
	r := in.Run
	lb := &runLabels{in: in, used: used, labels: map[string]string{}}
	lb.base = path.Base(strings.ReplaceAll(r.Source, "\\", "/"))
	lb.base = strings.TrimSuffix(lb.base, path.Ext(lb.base))
	out := map[string]map[string]*rowSet{}
	cols := map[string]bool{}
	n := 0
	err := in.eachSample(ctx, false, func(s *sample.Sample) error {
		v, ok := s.Value(metric)
		if !ok || math.IsNaN(v) {
			return nil
		}
		model, err := lb.label(s)
		if err != nil {
			return err
		}
		rw, col := sampleRow(s, v, b)
		if out[model] == nil {
			out[model] = map[string]*rowSet{}
		}
		rs := out[model][col]
		if rs == nil {
			col = strings.Clone(col)
			rs = &rowSet{}
			out[model][col] = rs
			cols[col] = true
		}
		rs.add(rw)
		n++
		return nil
	})
	if err != nil {
		return FileInfo{}, nil, err
	}
	for _, l := range lb.labels {
		used[l] = true
	}
	info, err := runInfo(in, b, lb.labels, cols, n)
	if err != nil {
		return FileInfo{}, nil, err
	}
	for _, w := range r.Warnings {
		w.Message = in.name() + ": " + w.Message
		b.Warnings = append(b.Warnings, w)
	}
	warnRunDuplicates(in, b, out)
	return info, out, nil
}

// runLabels names the models of one run on the board.
type runLabels struct {
	in     Input
	base   string            // the run's file name without its extension
	used   map[string]bool   // model labels of earlier runs
	labels map[string]string // the model as the samples name it -> on the board
}

// label is the board's name of a sample's model: the sample's, else the
// run's, the input's or the file's name; "<model> [<file>]" when an
// earlier run holds the model, an error when that too is taken.
func (lb *runLabels) label(s *sample.Sample) (string, error) {
	name := s.Model
	if name == "" {
		name = lb.in.Run.Model
	}
	if name == "" {
		name = lb.in.Model
	}
	if name == "" {
		name = lb.base
	}
	if l, ok := lb.labels[name]; ok {
		return l, nil
	}
	name = strings.Clone(name) // a streamed sample's strings may be reused
	l := name
	if lb.used[l] {
		l += " [" + lb.base + "]"
	}
	if lb.used[l] {
		return "", fmt.Errorf("%s: another run has the same model %q and file name: rename one", lb.in.Run.Source, name)
	}
	lb.labels[name] = l
	return l, nil
}

// sampleRow is a sample's row with value v (its item key by the board's
// pair key, its domain the task on a board by language) and its column:
// the language, else the task.
func sampleRow(s *sample.Sample, v float64, b *Board) (row, string) {
	rw := row{value: v, blank: s.HasResponse && strings.TrimSpace(s.Response) == ""}
	id := s.SampleID
	if b.Settings.PairKey == "task/doc_hash" {
		id = s.DocHash
	}
	rw.key = b.id(s.Task + "\x1f" + id)
	col := s.Task
	if b.Axis == AxisLanguage {
		col, rw.domain = s.Language, b.id(s.Task)
	}
	return rw, col
}

// runInfo is the Files-table entry of a run of n rows: its hash, models
// (labels) and columns.
func runInfo(in Input, b *Board, labels map[string]string, cols map[string]bool, n int) (FileInfo, error) {
	r := in.Run
	hash, err := r.Hash()
	if err != nil {
		return FileInfo{}, err
	}
	info := FileInfo{Path: in.name(), Rows: n, Hash: hash, LanguageSource: "task"}
	if b.Axis == AxisLanguage {
		info.LanguageSource = "sample"
	}
	switch len(labels) {
	case 0:
		info.Model = r.Model
	case 1:
		for _, l := range labels {
			info.Model = l
		}
	default:
		info.Model = "(per sample)"
	}
	for c := range cols {
		info.Languages = append(info.Languages, c)
	}
	sort.Strings(info.Languages)
	return info, nil
}

// warnRunDuplicates trims every row set's spare capacity and warns of
// items a model has twice in a column of one run.
func warnRunDuplicates(in Input, b *Board, out map[string]map[string]*rowSet) {
	for _, model := range slices.Sorted(maps.Keys(out)) { // warnings in a fixed order
		byCol := out[model]
		for _, col := range slices.Sorted(maps.Keys(byCol)) {
			rs := byCol[col]
			rs.clip()
			dups := duplicates(rs.keys)
			if dups > 0 {
				b.warn(CodeDuplicateQuestion, dups, fmt.Sprintf("%s: model %q, %s %q: %s an item (%s); the paired test uses the first",
					in.name(), model, b.Axis, col, plural(dups, "sample repeats", "samples repeat"), b.Settings.PairKey))
			}
		}
	}
}

// where names a sample's file and line.
func where(s *sample.Sample, r *interop.Run) string {
	switch {
	case s.File != "" && s.Line > 0:
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	case s.File != "":
		return s.File
	}
	return r.Source
}

// rescoreRuns scores the runs' responses with evalbook's metric through
// their response tables (interop.ResponsesFS) and marks the board a
// re-score: its metric says evalbook computed it, and a warning names the
// harnesses' own metrics.
func rescoreRuns(ctx context.Context, inputs []Input, metric string, opt Options) (*Board, error) {
	var runs []*interop.Run
	for _, in := range inputs {
		if in.Run == nil {
			continue
		}
		r, err := in.fullRun(ctx) // the responses are what is scored
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	fsys, err := interop.ResponsesFS(runs)
	if err != nil {
		return nil, err
	}
	ins, err := DiscoverFS(fsys, ".")
	if err != nil {
		return nil, err
	}
	o := opt
	o.Metric, o.Rescore = metric, false
	b, err := Build(ctx, ins, o)
	if err != nil {
		return nil, err
	}
	b.Metric.By = sample.ByEvalbook
	var formats []string
	for _, r := range runs {
		if !slices.Contains(formats, r.Format) {
			formats = append(formats, r.Format)
		}
	}
	advice, ok := opt.Advice[interop.CodeRescored]
	if !ok {
		advice = rescoreAdvice
	}
	msg := fmt.Sprintf("this board is a re-score: the responses of the %s outputs were scored with evalbook's %s, not ranked by the harness's own per-sample metrics", strings.Join(formats, ", "), metric)
	if own := harnessMetrics(inputs); len(own) > 0 {
		msg += fmt.Sprintf(" (%s); %s", strings.Join(own, ", "), advice)
	}
	b.Warnings = append([]results.Warning{{Code: interop.CodeRescored, Message: msg}}, b.Warnings...)
	return b, nil
}
