// Package leaderboard builds a models × languages table from a directory
// of response files, one per model and language (<model>_<language>.csv,
// the layout of per-language evaluation runs), scoring every file with
// pkg/qa under one metric.
//
// Each cell is a model's score on a language with its interval. The best
// model of a language is marked only when its lead over the runner-up is
// significant in a paired test on the questions both answered: the exact
// two-sided sign test over the questions where the two differ (for a
// pass/fail metric this is McNemar's exact test). A lead that is not
// significant is reported as such: with a few dozen questions per
// language, most leads are not.
//
// Every cell also has a rank within its language (1 + the models with a
// higher value, so ties share the better rank), a rank interval and a
// tier. The interval comes from a bootstrap over questions paired across
// models: each replicate resamples the language's questions once and
// recomputes every model's value on those same questions
// (stats.RankBootstrap); the interval is the percentile interval of the
// model's replicate ranks. Tiers need no resampling: the best model and
// every model the sign test (Holm-corrected over the round, or
// Benjamini-Hochberg) cannot separate from it form tier 1; they are
// removed and the rest is tiered the same way (stats.Tiers). Every
// language and every domain within a language gets a signal-to-noise
// ratio, the spread of the models' values over the bootstrap noise of
// one value; slices below stats.LowSNR are named in a low_snr_slice
// warning (CodeLowSNR).
//
// The language of a row comes from the file name when it has the
// <model>_<language> form, else from a language column, else from the
// script of the golden answer (textnorm.ScriptOf; Devanagari is taken as
// Hindi, Bengali script as Bengali, Latin as English, each flagged as a
// guess); every file records which.
//
// A board of harness outputs (Input.Run, from DiscoverDir or RunInputs:
// every format pkg/interop reads) ranks the harness's own per-sample
// values of one metric it wrote (ResolveMetric; by default
// interop.DefaultMetricOf), with the same cells, leader tests, ranks,
// tiers and signal-to-noise: by language when every sample has one (the
// task is then the domain), else by task, items paired across models by
// task and sample id (lm-eval's doc_hash when every sample has one).
// Nothing is re-scored unless Options.Rescore (or an evalbook metric id)
// asks, and such a board says it is a re-score (interop.CodeRescored).
package leaderboard

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// Options configures Build. The zero value scores response files with
// exact_substring with no normalisation (harness outputs: ranks the
// default metric of ResolveMetric), 95% intervals, and marks a leader at
// p < 0.05.
type Options struct {
	Metric     string           // metric id (default "exact_substring"); for harness outputs see ResolveMetric
	Profile    textnorm.Profile // normalisation applied before scoring
	Confidence float64          // default 0.95
	Alpha      float64          // significance level of the paired test (default 0.05)
	// Resamples, when positive, gives corpus-level metrics (chrf, bleu,
	// ter) a percentile bootstrap interval over rows with this many
	// resamples; otherwise they get none (their value is not a mean).
	Resamples int
	Seed      uint64 // bootstrap seed
	// RankResamples is the number of replicates of the paired rank
	// bootstrap that gives every cell its rank interval and every slice
	// its signal-to-noise ratio: 0 means Resamples when that is
	// positive, else stats.DefaultRankResamples for a row-level metric
	// (the bootstrap reuses the scored rows and costs little beside
	// scoring) and off for a corpus-level one (its replicates recompute
	// the corpus statistic, as the cells' bootstrap that Resamples turns
	// on); negative turns it off. Tiers need no resampling and are always
	// given.
	RankResamples int
	// TierCorrection is the multiple-testing correction of the tier
	// tests: stats.CorrectionHolm (the default) or stats.CorrectionBH.
	TierCorrection string
	Columns        qa.Columns // zero fields take qa.DefaultColumns
	// RepairUTF8 replaces invalid UTF-8 in CSV and JSONL files with
	// U+FFFD and counts the rows (a repaired_utf8 warning) instead of failing.
	RepairUTF8 bool
	Workers    int               // scoring goroutines per file (0: all cores)
	Progress   func(file string) // called before each file is scored
	// Rescore applies to harness outputs (Input.Run): their responses
	// are scored with evalbook's Metric (default exact_substring) instead
	// of ranking the harness's own per-sample values, and the board says
	// so (interop.CodeRescored). A Metric no run carries that pkg/score
	// knows re-scores too (ResolveMetric).
	Rescore bool
	// Advice maps a warning code to the advice that closes its message,
	// in place of the library's own, which can name no command flag (as
	// qa.Options.Advice): it applies to qa.CodeNotNFC,
	// qa.CodeNoInterval, interop.CodeHarnessMetrics and
	// interop.CodeRescored. nil keeps the library's advice.
	Advice map[string]string
}

// noIntervalAdvice closes the qa.CodeNoInterval warning unless
// Options.Advice replaces it.
const noIntervalAdvice = "a bootstrap over rows gives one (Options.Resamples)"

// Input is one response file and what its name says.
type Input struct {
	Path     string
	Model    string // from the file name, or the base name
	Language string // from the file name; empty when it does not say
	// Name is how the board names the file (FileInfo.Path and the
	// warnings), e.g. where it lives in a repository when Path is a
	// temporary copy or a path in FS; empty means Path.
	Name string
	// FS, when set, holds the file: Path is then a path in FS, as
	// DiscoverFS gives it. nil means the operating system's files.
	FS fs.FS
	// Run, when set, is a harness output read by pkg/interop (Path is
	// its source, Model its model): the board ranks the harness's own
	// per-sample values (DiscoverDir). A board's inputs are all runs or
	// all response files.
	Run *interop.Run
	// stream, set by DiscoverDir, reads Run's samples from its file
	// when Build needs them: Run then holds none.
	stream *runStream
}

// name is the file's name on the board.
func (in Input) name() string {
	if in.Name != "" {
		return in.Name
	}
	return results.DisplayName(in.Path) // a forwarded board shows no local folders (issue 18)
}

// score scores the file with pkg/qa, from FS when it is set.
func (in Input) score(ctx context.Context, opt qa.Options) (*results.Score, error) {
	if in.FS == nil {
		return qa.ScoreFile(ctx, in.Path, opt)
	}
	f, err := in.FS.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return qa.Score(ctx, f, in.Path, opt)
}

// Discover lists the response files of dir (.csv, .jsonl, .ndjson and
// .xlsx, not descending into subdirectories), sorted by name, with the
// model and language their names give.
func Discover(dir string) ([]Input, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return discovered(entries, dir, func(name string) Input { return Input{Path: filepath.Join(dir, name)} })
}

// DiscoverFS is Discover over the directory dir of fsys (such as an
// embedded sample): each Input has FS set to fsys and Path a path in it.
func DiscoverFS(fsys fs.FS, dir string) ([]Input, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	return discovered(entries, dir, func(name string) Input { return Input{FS: fsys, Path: path.Join(dir, name)} })
}

// discovered keeps the response files among entries, as Discover says.
func discovered(entries []fs.DirEntry, dir string, input func(name string) Input) ([]Input, error) {
	var out []Input
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".csv", ".jsonl", ".ndjson", ".xlsx":
		default:
			continue
		}
		in := input(e.Name())
		if m, l, ok := textnorm.LanguageFromFileName(e.Name()); ok {
			in.Model, in.Language = m, l
		} else {
			in.Model = strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no response files (.csv, .jsonl, .xlsx)", dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Board is a leaderboard: cells, leaders, per-domain figures, the files
// it was built from, and warnings.
type Board struct {
	Kind   string            `json:"kind"` // always "leaderboard"
	Metric results.MetricDef `json:"metric"`
	// Axis is what Languages (and every "language" key) holds: "task" on
	// a board of harness outputs whose samples carry no language (a
	// models × tasks grid), "language" on one whose samples all do;
	// absent on a board of response files, which is by language.
	Axis string `json:"axis,omitempty"`
	// Level is "row" (the value is a proportion or mean of row values) or
	// "corpus" (computed from summed statistics, as corpus BLEU).
	Level     string            `json:"level"`
	Settings  Settings          `json:"settings"`
	Models    []string          `json:"models"`
	Languages []string          `json:"languages"`
	Cells     []Cell            `json:"cells"`   // by language, then model
	Leaders   []Leader          `json:"leaders"` // one per language with two or more models
	Domains   []DomainCell      `json:"domains"` // by domain, language, model
	Files     []FileInfo        `json:"files"`
	Warnings  []results.Warning `json:"warnings"`
	// TierTests lists the paired tests that formed the tiers, by
	// language and round; SNR the signal-to-noise ratio of every
	// language and every domain within a language (empty when the rank
	// bootstrap is off).
	TierTests []TierTest `json:"tier_tests"`
	SNR       []SliceSNR `json:"snr"`

	rankWarn results.IntervalWarnings

	// fileWarn gathers pkg/qa's warnings by code, in order of first
	// appearance, to be reported once per code.
	fileWarn     map[string]*fileWarning
	fileWarnCode []string
	// names holds the question keys and domains of every file's rows,
	// each once (the models of a board answer the same questions), by
	// the id rows hold; names[0] is "". corpus holds each row's corpus
	// statistics (row.st).
	names   []string
	nameIdx map[string]uint32
	corpus  [][]float64
}

// id returns the id of s among the board's names, adding a copy of s the
// first time (the caller's string may be a reused buffer's).
func (b *Board) id(s string) uint32 {
	if k, ok := b.nameIdx[s]; ok {
		return k
	}
	if b.nameIdx == nil {
		b.names, b.nameIdx = []string{""}, map[string]uint32{"": 0}
		if s == "" {
			return 0
		}
	}
	k := uint32(len(b.names))
	c := strings.Clone(s)
	b.names = append(b.names, c)
	b.nameIdx[c] = k
	return k
}

// name is the string of id.
func (b *Board) name(id uint32) string {
	if int(id) >= len(b.names) {
		return ""
	}
	return b.names[id]
}

// rowStats returns r's corpus statistics (nil for a row-level metric).
func (b *Board) rowStats(r *row) []float64 {
	if r.st == 0 {
		return nil
	}
	return b.corpus[r.st-1]
}

type fileWarning struct {
	count int
	files []string // "path (n)"
}

// fileWarning records a warning pkg/qa gave for one file.
func (b *Board) fileWarning(path string, w results.Warning) {
	if b.fileWarn == nil {
		b.fileWarn = map[string]*fileWarning{}
	}
	fw := b.fileWarn[w.Code]
	if fw == nil {
		fw = &fileWarning{}
		b.fileWarn[w.Code] = fw
		b.fileWarnCode = append(b.fileWarnCode, w.Code)
	}
	fw.count += w.Count
	fw.files = append(fw.files, fmt.Sprintf("%s (%d)", filepath.Base(path), w.Count))
}

// Settings records every choice that changes a figure.
type Settings struct {
	Normalize  string  `json:"normalize"`
	Confidence float64 `json:"confidence"`
	Alpha      float64 `json:"alpha"`
	Interval   string  `json:"interval"` // wilson, normal, bootstrap or none
	Resamples  int     `json:"resamples,omitempty"`
	Seed       uint64  `json:"seed"`
	// RankResamples is the number of replicates of the paired rank
	// bootstrap over questions (0: off); RankTies its tie rule.
	RankResamples int    `json:"rank_resamples"`
	RankTies      string `json:"rank_ties"`
	// TierTest and TierCorrection say how tiers are formed.
	TierTest       string `json:"tier_test"`
	TierCorrection string `json:"tier_correction"`
	// SNRThreshold is the signal-to-noise ratio below which a slice is
	// named in a low_snr_slice warning.
	SNRThreshold float64 `json:"snr_threshold"`
	// PairKey says what pairs a harness output's items across models
	// ("task/sample id", or "task/doc_hash" when every sample has
	// lm-eval's doc_hash); absent for response files, paired by the id
	// column, else the question text.
	PairKey string `json:"pair_key,omitempty"`
}

// Cell is one model's figures on one language.
type Cell struct {
	Model    string  `json:"model"`
	Language string  `json:"language"`
	N        int     `json:"n"`
	Blank    int     `json:"blank"` // blank responses
	Value    float64 `json:"value"`
	CILow    float64 `json:"ci_low"`
	CIHigh   float64 `json:"ci_high"`
	// Best is set on the language's leader when its lead is significant.
	Best bool `json:"best"`
	// Rank is 1 plus the number of models of the language with a higher
	// value (stats.RankTieRule); RankLow and RankHigh are its percentile
	// interval over the paired bootstrap replicates (absent when the
	// rank bootstrap is off).
	Rank     int `json:"rank"`
	RankLow  int `json:"rank_low,omitempty"`
	RankHigh int `json:"rank_high,omitempty"`
	// Tier is 1 for the best model of the language and every model the
	// paired test cannot separate from it, 2 for the best of the rest and
	// those not separable from it, and so on (TierTests).
	Tier int `json:"tier"`
}

// Leader compares the two best models of a language on the questions
// both answered.
type Leader struct {
	Language    string  `json:"language"`
	Best        string  `json:"best"`
	RunnerUp    string  `json:"runner_up"`
	BestValue   float64 `json:"best_value"`
	RunnerValue float64 `json:"runner_up_value"`
	// Shared is the number of questions (by id, else question text) both
	// models answered; Better and Worse count those the best scored
	// higher and lower on; the rest are ties.
	Shared      int     `json:"shared"`
	Better      int     `json:"better"`
	Worse       int     `json:"worse"`
	Test        string  `json:"test"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
}

// DomainCell is one model's value on one language within one domain.
type DomainCell struct {
	Domain   string  `json:"domain"`
	Model    string  `json:"model"`
	Language string  `json:"language"`
	N        int     `json:"n"`
	Value    float64 `json:"value"`
}

// FileInfo says what was read from one file.
type FileInfo struct {
	Path  string `json:"path"`
	Model string `json:"model"`
	// LanguageSource is "file name", "column" or "script".
	LanguageSource string   `json:"language_source"`
	Languages      []string `json:"languages"`
	Rows           int      `json:"rows"`
	Hash           string   `json:"hash"`
}

// row is one scored row of one file, under its model and language (the
// cells map), as a rowSet stores and hands it out: a million rows of a
// board are held in rowSets, about 8 bytes each, so it keeps nothing
// else. key and domain are ids of the board's strings (Board.id,
// Board.name), one string for every file that has them; a corpus-level
// metric's statistics are in Board.corpus.
type row struct {
	key    uint32 // question id, else question text
	domain uint32
	st     int32 // 1 + the index of the row's corpus statistics in Board.corpus; 0 none
	blank  bool
	value  float64
}

// Build scores every input and assembles the board. Harness outputs
// (Input.Run) are ranked by the harness's own per-sample values of
// opt.Metric (buildRuns), unless opt.Rescore or an evalbook metric id
// asks for a re-score of their responses.
func Build(ctx context.Context, inputs []Input, opt Options) (*Board, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	runs := 0
	for _, in := range inputs {
		if in.Run != nil {
			runs++
		}
	}
	switch {
	case runs > 0 && runs < len(inputs):
		return nil, fmt.Errorf("a board is built from harness outputs or from response files, not both (%d of %d inputs are harness outputs)", runs, len(inputs))
	case runs > 0:
		return buildRuns(ctx, inputs, opt)
	}
	if opt.Rescore {
		return nil, fmt.Errorf("rescore applies to harness outputs; response files are always scored with evalbook's metrics")
	}
	if opt.Metric == "" {
		opt.Metric = score.Default[0]
	}
	m, err := score.Lookup(opt.Metric)
	if err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no response files")
	}
	b := newBoard(results.MetricDef{ID: m.ID, Name: m.Name, Graded: m.Graded, Rule: m.Rule, FalsePositives: m.FalsePositives,
		FalseNegatives: m.FalseNegatives, Blank: m.Blank, Source: m.Source}, opt)
	b.Settings.Normalize = opt.Profile.String()
	b.Settings.RankResamples = rankResamples(opt, m)
	switch {
	case m.Corpus != nil && opt.Resamples > 0:
		b.Level, b.Settings.Interval, b.Settings.Resamples = "corpus", "bootstrap", opt.Resamples
	case m.Corpus != nil:
		b.Level, b.Settings.Interval = "corpus", "none"
		advice, ok := opt.Advice[qa.CodeNoInterval]
		if !ok {
			advice = noIntervalAdvice
		}
		b.warn(qa.CodeNoInterval, 0, fmt.Sprintf("%s is corpus-level (its value is not a mean of rows), so cells have no interval; %s", m.ID, advice))
	case m.Graded:
		b.Settings.Interval = "normal"
	default:
		b.Settings.Interval = "wilson"
	}
	// cells[model][language] holds the rows, in file order.
	cells := map[string]map[string]*rowSet{}
	for _, in := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if opt.Progress != nil {
			opt.Progress(in.Path)
		}
		info, rows, err := scoreFile(ctx, in, m, opt, b)
		if err != nil {
			return nil, err
		}
		b.Files = append(b.Files, info)
		for model, byLang := range rows {
			if cells[model] == nil {
				cells[model] = map[string]*rowSet{}
			}
			for lang, rs := range byLang {
				if have := cells[model][lang]; have.len() > 0 {
					b.warn(CodeMerged, rs.len(), fmt.Sprintf("model %q, language %q comes from more than one file; their rows are pooled", model, lang))
					have.appendSet(rs)
					have.clip()
				} else {
					cells[model][lang] = rs // not copied: a file's rows are held once
				}
			}
		}
	}
	b.assemble(cells, m, opt)
	return b, nil
}

// check fills opt's defaults (confidence, alpha, tier correction) and
// checks them.
func (opt *Options) check() error {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Alpha == 0 {
		opt.Alpha = 0.05
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) || !(opt.Alpha > 0 && opt.Alpha < 1) {
		return fmt.Errorf("confidence and alpha must lie between 0 and 1 (got %v and %v)", opt.Confidence, opt.Alpha)
	}
	if opt.TierCorrection == "" {
		opt.TierCorrection = stats.CorrectionHolm
	}
	if opt.TierCorrection != stats.CorrectionHolm && opt.TierCorrection != stats.CorrectionBH {
		return fmt.Errorf("tier correction %q: want %q or %q", opt.TierCorrection, stats.CorrectionHolm, stats.CorrectionBH)
	}
	return nil
}

// newBoard is an empty board of metric with opt's settings (row-level,
// no normalisation, the rank bootstrap off until the caller sets it).
func newBoard(metric results.MetricDef, opt Options) *Board {
	b := &Board{Kind: "leaderboard", Level: "row", Cells: []Cell{}, Leaders: []Leader{}, Domains: []DomainCell{},
		Warnings: []results.Warning{}, TierTests: []TierTest{}, SNR: []SliceSNR{}, Metric: metric}
	b.Settings = Settings{Normalize: textnorm.None.String(), Confidence: opt.Confidence, Alpha: opt.Alpha, Seed: opt.Seed,
		RankTies: stats.RankTieRule, TierTest: "two-sided sign test on the questions both answered",
		TierCorrection: opt.TierCorrection, SNRThreshold: stats.LowSNR}
	return b
}

func (b *Board) warn(code string, count int, msg string) {
	b.Warnings = append(b.Warnings, results.Warning{Code: code, Count: count, Message: msg})
}

// assemble computes the cells, leaders and domain figures.
func (b *Board) assemble(cells map[string]map[string]*rowSet, m *score.Metric, opt Options) {
	langSet := map[string]bool{}
	for model, byLang := range cells {
		b.Models = append(b.Models, model)
		for l := range byLang {
			langSet[l] = true
		}
	}
	sort.Strings(b.Models)
	for l := range langSet {
		b.Languages = append(b.Languages, l)
	}
	sort.Strings(b.Languages)
	for _, code := range b.fileWarnCode {
		fw := b.fileWarn[code]
		// pkg/qa words the warning for the total count and this board's metric.
		b.warn(code, fw.count, fmt.Sprintf("%s [%s: %s]", qa.WarningMessage(code, fw.count, []*score.Metric{m}, opt.Advice),
			plural(len(fw.files), "file", "files"), strings.Join(fw.files, ", ")))
	}
	var ivWarn results.IntervalWarnings
	for _, lang := range b.Languages {
		start := len(b.Cells)
		for _, model := range b.Models {
			rs, ok := cells[model][lang]
			if !ok {
				continue
			}
			c := Cell{Model: model, Language: lang, N: rs.len()}
			for _, w := range rs.blanks {
				c.Blank += bits.OnesCount64(w)
			}
			var iv stats.Interval
			c.Value, iv = b.aggregate(rs, m, opt)
			c.CILow, c.CIHigh = iv.Lo, iv.Hi
			ivWarn.Add("", iv.Warnings)
			b.Cells = append(b.Cells, c)
		}
		if ld, ok := leader(lang, b.Cells[start:], cells, opt.Alpha); ok {
			if ld.Significant {
				for i := start; i < len(b.Cells); i++ {
					if b.Cells[i].Model == ld.Best {
						b.Cells[i].Best = true
					}
				}
			}
			b.Leaders = append(b.Leaders, ld)
		}
		b.rankLanguage(lang, b.Cells[start:], cells, m, opt)
	}
	// pkg/stats words the warnings of the cells' intervals; each is
	// listed once with the number of cells that gave it.
	b.Warnings = append(b.Warnings, ivWarn.Warnings("cell", "cells")...)
	one, many := b.axisNouns()
	if len(b.Leaders) > 1 {
		b.warn(CodeManyTests, len(b.Leaders), fmt.Sprintf("%d %s are tested at α = %g each, so about %.2f false "+
			"leaders are expected by chance when no model is truly better; look at the p-values, not only the marks",
			len(b.Leaders), many, opt.Alpha, float64(len(b.Leaders))*opt.Alpha))
	}
	// A models × tasks grid has no domains within its columns.
	if b.Axis != AxisTask {
		b.domains(cells, m, opt)
	}
	b.Warnings = append(b.Warnings, b.rankWarn.Warnings(one, many)...)
	if b.Axis != AxisTask {
		b.domainSNR(cells, m, opt)
	}
	b.snrWarning()
}

// aggregate returns a cell's value and interval.
func (b *Board) aggregate(rs *rowSet, m *score.Metric, opt Options) (float64, stats.Interval) {
	n := rs.len()
	if n == 0 {
		return 0, stats.Interval{Warnings: []stats.Warning{{Code: stats.CodeNoData, Message: "a cell with no rows"}}}
	}
	if m.Corpus != nil {
		v := b.corpusValue(rs, m.Corpus)
		if opt.Resamples <= 0 {
			return v, stats.Interval{Lo: v, Hi: v, Method: "none"}
		}
		st := make([]float64, 0, n*m.Corpus.NStats)
		for i := range n {
			r := rs.at(i)
			st = append(st, b.rowStats(&r)...)
		}
		return v, stats.BootstrapStatistic(st, m.Corpus.NStats, m.Corpus.Final, opt.Resamples, opt.Confidence, opt.Seed)
	}
	sum, sumsq := 0.0, 0.0
	for i := range n {
		v := rs.value(i)
		sum += v
		sumsq += v * v
	}
	mean := sum / float64(n)
	if !m.Graded {
		return mean, stats.WilsonInterval(int(math.Round(sum)), n, opt.Confidence)
	}
	// The interval pkg/qa gives graded metrics, with its warnings.
	return mean, stats.UnitMeanInterval(sum, sumsq, n, opt.Confidence)
}

// corpusValue is Final of the statistics summed over rs.
func (b *Board) corpusValue(rs *rowSet, def *score.CorpusDef) float64 {
	sums := make([]float64, def.NStats)
	for i := range rs.len() {
		r := rs.at(i)
		for j, v := range b.rowStats(&r) {
			sums[j] += v
		}
	}
	return def.Final(sums)
}

// leader finds the best and runner-up cells of a language and tests the
// lead on the questions both answered.
func leader(lang string, cs []Cell, cells map[string]map[string]*rowSet, alpha float64) (Leader, bool) {
	if len(cs) < 2 {
		return Leader{}, false
	}
	order := make([]Cell, len(cs))
	copy(order, cs)
	sort.SliceStable(order, func(i, j int) bool { return order[i].Value > order[j].Value })
	best, second := order[0], order[1]
	ld := Leader{Language: lang, Best: best.Model, RunnerUp: second.Model, BestValue: best.Value, RunnerValue: second.Value}
	a := byKey(cells[best.Model][lang])
	c := byKey(cells[second.Model][lang])
	for k, va := range a {
		vc, ok := c[k]
		if !ok {
			continue
		}
		ld.Shared++
		switch {
		case va > vc:
			ld.Better++
		case va < vc:
			ld.Worse++
		}
	}
	ld.Test = "sign test on row scores"
	if allBinary(cells[best.Model][lang]) && allBinary(cells[second.Model][lang]) {
		ld.Test = "sign test (exact McNemar)"
	}
	ld.P = stats.SignTest(ld.Better, ld.Worse)
	ld.Significant = best.Value > second.Value && ld.Better > ld.Worse && ld.P < alpha
	return ld, true
}

func allBinary(rs *rowSet) bool {
	for i := range rs.len() {
		if v := rs.value(i); v != 0 && v != 1 {
			return false
		}
	}
	return true
}

// byKey maps question keys to row values, keeping the first of duplicates.
func byKey(rs *rowSet) map[uint32]float64 {
	m := make(map[uint32]float64, rs.len())
	for i := range rs.len() {
		if _, dup := m[rs.keys[i]]; !dup {
			m[rs.keys[i]] = rs.value(i)
		}
	}
	return m
}

// domains fills the per-domain figures: each model's value per domain
// and language (no intervals: domains are small). The rows are summed
// where they lie, in their order, as aggregate sums a cell's.
func (b *Board) domains(cells map[string]map[string]*rowSet, m *score.Metric, opt Options) {
	type k struct{ domain, lang, model string }
	type sum struct {
		n     int
		value float64
		stats []float64
	}
	groups := map[k]*sum{}
	for model, byLang := range cells {
		for lang, rs := range byLang {
			for i := range rs.len() {
				r := rs.at(i)
				key := k{b.name(r.domain), lang, model}
				g := groups[key]
				if g == nil {
					g = &sum{}
					if m.Corpus != nil {
						g.stats = make([]float64, m.Corpus.NStats)
					}
					groups[key] = g
				}
				g.n++
				g.value += r.value
				for j, v := range b.rowStats(&r) {
					g.stats[j] += v
				}
			}
		}
	}
	keys := make([]k, 0, len(groups))
	for key := range groups {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, c := keys[i], keys[j]
		if a.domain != c.domain {
			return a.domain < c.domain
		}
		if a.lang != c.lang {
			return a.lang < c.lang
		}
		return a.model < c.model
	})
	for _, key := range keys {
		g := groups[key]
		v := g.value / float64(g.n)
		if m.Corpus != nil {
			v = m.Corpus.Final(g.stats)
		}
		b.Domains = append(b.Domains, DomainCell{Domain: key.domain, Model: key.model, Language: key.lang, N: g.n, Value: v})
	}
}
