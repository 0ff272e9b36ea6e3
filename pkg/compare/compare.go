// Package compare answers "is version 2 better than version 1?" for two
// versions of a system scored on the same cases: each version's pass
// rate with an interval, the cases that flipped, the exact sign test and
// McNemar's test over the flips, a paired bootstrap interval for the
// change, and the same counts per group. It is what `evalbook compare`
// runs; the statistics are stats.ComparePaired and the result is a
// results.Comparison, which renders as text, JSON and tables.
//
// Files and Read pair the rows of two CSV tables (verdict files of
// `evalbook score --out`, run files of `evalbook run --out`, or any table
// with a key column and a 0/1 column) by a key; Versions takes outcomes
// that are already paired, as a notebook has them:
//
//	c, err := compare.Files("v1.csv", "v2.csv", compare.Options{Metric: "pass", By: "task", Seed: 1})
//	if err != nil {
//		return err
//	}
//	c.WriteText(os.Stdout) // what evalbook compare prints; c.Tables() for XLSX and HTML
package compare

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Options sets what is compared and how. Files, Read and Versions take
// opt.WithDefaults(), so a zero field means its default.
type Options struct {
	// Key names the column(s) that pair the rows of the two tables;
	// default id. Several columns identify a row together (id and model
	// in a verdict file with one row per question and model).
	Key []string
	// Metric is the 0/1 column compared. Files and Read pick the only
	// column besides Key and By that holds only 0 and 1 in both tables
	// when it is empty; Versions uses it as a label.
	Metric string
	// By, if set, is the group column: Comparison.Groups gets each
	// group's counts. Versions uses it as a label for its groups.
	By string
	// CI is the pass-rate interval: "wilson" (the default), "bootstrap",
	// "bca" (stats.BootstrapBCaProportion), or another
	// stats.ProportionInterval method ("clopper-pearson", "jeffreys",
	// "beta").
	CI string
	// Confidence is the level of every interval; default 0.95.
	Confidence float64
	// Resamples (default 10000) and Seed drive the bootstrap intervals
	// (the change's is always a paired bootstrap): the old pass rate's
	// uses Seed, the new one's Seed+1, the change's Seed+2. A zero Seed
	// is a seed like any other; evalbook compare's default is 1.
	Resamples int
	Seed      uint64
	// OldName and NewName name the versions in the result
	// (Comparison.OldFile and NewFile). Empty means the file names for
	// Files and Read, "old" and "new" for Versions.
	OldName, NewName string
}

// WithDefaults returns o with every zero field that has a default set to
// it (Seed has none).
func (o Options) WithDefaults() Options {
	if o.Key == nil {
		o.Key = []string{"id"}
	}
	if o.CI == "" {
		o.CI = "wilson"
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Resamples == 0 {
		o.Resamples = 10000
	}
	return o
}

// Errors of Options, wrapped in an *OptionError.
var (
	ErrCI          = errors.New("unknown interval method (want wilson, clopper-pearson, jeffreys, beta, bootstrap or bca)")
	ErrConfidence  = errors.New("confidence not strictly between 0 and 1")
	ErrResamples   = errors.New("fewer than one resample")
	ErrKeyEmpty    = errors.New("a key column name is empty")
	ErrKeyRepeated = errors.New("a key column is named twice")
	// ErrKeyOverlap: a key column is the metric, or the only key column
	// is the group column (each case would be its own group).
	ErrKeyOverlap = errors.New("the key must name columns other than the metric and the group")
)

// An OptionError reports an Options field that cannot be used: Field is
// its name, Value the value at fault (for Key, the column concerned) and
// Err one of the ErrCI, ErrConfidence, ... sentinels.
type OptionError struct {
	Field string
	Value any
	Err   error
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("compare: Options.%s %q: %v", e.Field, fmt.Sprint(e.Value), e.Err)
}

func (e *OptionError) Unwrap() error { return e.Err }

// Validate checks o as it is, without defaults (a zero Confidence is an
// error here), and returns the first problem as an *OptionError: the
// interval method, the confidence, the resamples, then the key columns
// in order. A command whose flags set every field calls it to turn
// mistakes into usage errors before reading any file.
func (o Options) Validate() error {
	switch {
	case o.CI != "bootstrap" && o.CI != "bca" && !stats.IsProportionMethod(o.CI):
		return &OptionError{"CI", o.CI, ErrCI}
	case !(o.Confidence > 0 && o.Confidence < 1):
		return &OptionError{"Confidence", o.Confidence, ErrConfidence}
	case o.Resamples < 1:
		return &OptionError{"Resamples", o.Resamples, ErrResamples}
	}
	for i, c := range o.Key {
		switch {
		case c == "":
			return &OptionError{"Key", c, ErrKeyEmpty}
		case slices.Contains(o.Key[:i], c):
			return &OptionError{"Key", c, ErrKeyRepeated}
		case c == o.Metric:
			return &OptionError{"Key", c, ErrKeyOverlap}
		}
	}
	if len(o.Key) == 0 {
		return &OptionError{"Key", "", ErrKeyEmpty}
	}
	if len(o.Key) == 1 && o.Key[0] == o.By {
		return &OptionError{"Key", o.By, ErrKeyOverlap}
	}
	return nil
}

// Files compares the version in the CSV file oldPath with the one in
// newPath, as evalbook compare does; see Read.
func Files(oldPath, newPath string, opt Options) (*results.Comparison, error) {
	if err := opt.WithDefaults().Validate(); err != nil {
		return nil, err
	}
	if c, err := filesStream(oldPath, newPath, opt); !errors.Is(err, errSlowPath) {
		return c, err
	}
	// Something is wrong with the files: read them whole, whose errors
	// name every place.
	var ts [2]*table
	for i, path := range []string{oldPath, newPath} {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		ts[i], err = readTable(f, path, opt)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return compareTables(ts[0], ts[1], opt)
}

// Read compares two versions given as CSV tables with a header, old read
// from oldR and new from newR (oldName and newName name them in errors
// and the result). Rows are paired by opt.Key: both tables must hold the
// same keys, each once, and opt.Metric (or the one 0/1 column) must be 0
// or 1 in every row. With opt.By each case must be in the same group in
// both tables. Cases are listed in the old table's order.
//
// A problem at a place in a table is a *ParseError (file, line, column);
// every error matches one of the package's sentinels with errors.Is,
// except an error of the reader itself.
func Read(oldR io.Reader, oldName string, newR io.Reader, newName string, opt Options) (*results.Comparison, error) {
	if err := opt.WithDefaults().Validate(); err != nil {
		return nil, err
	}
	var ts [2]*table
	for i, in := range []struct {
		r    io.Reader
		name string
	}{{oldR, oldName}, {newR, newName}} {
		var err error
		if ts[i], err = readTable(in.r, in.name, opt); err != nil {
			return nil, err
		}
	}
	return compareTables(ts[0], ts[1], opt)
}

// compareTables pairs the rows of two tables read whole and compares them.
func compareTables(oldT, newT *table, opt Options) (*results.Comparison, error) {
	opt = opt.WithDefaults()
	var err error
	for _, t := range []*table{oldT, newT} {
		for _, c := range append([]string{opt.Metric, opt.By}, opt.Key...) {
			if c != "" && t.col(c) < 0 {
				return nil, &ParseError{File: t.file, Line: 1, Field: c,
					Err: errorf(ErrNoColumn, "no column %s; the header has %s", tabular.Quote(c), tabular.Names(t.header))}
			}
		}
	}
	if opt.Metric == "" {
		if opt.Metric, err = pickMetric(oldT, newT, opt.Key, opt.By); err != nil {
			return nil, err
		}
	}
	oldT.keyCols, newT.keyCols = opt.Key, opt.Key
	oldIdx, err := oldT.index(opt.Metric)
	if err != nil {
		return nil, err
	}
	newIdx, err := newT.index(opt.Metric)
	if err != nil {
		return nil, err
	}
	if err := sameKeys(oldT, newT, oldIdx, newIdx); err != nil {
		return nil, err
	}
	oldV, err := oldT.binary(opt.Metric)
	if err != nil {
		return nil, err
	}
	newV, err := newT.binary(opt.Metric)
	if err != nil {
		return nil, err
	}
	// Pair in the old file's order.
	n := len(oldT.rows)
	keys := make([]string, n)
	o, nw := make([]float64, n), make([]float64, n)
	var groups []string
	for i, row := range oldT.rows {
		j := newIdx[oldT.keyOf(row)]
		keys[i], o[i], nw[i] = oldT.showKey(row), oldV[i], newV[j]
		if opt.By != "" {
			g, h := row[oldT.col(opt.By)], newT.rows[j][newT.col(opt.By)]
			if g != h {
				return nil, errorf(ErrGroupChanged, "%s:%d and %s:%d: %s %s has %s %s in the old file and %s in the new one",
					oldT.file, oldT.lines[i], newT.file, newT.lines[j], strings.Join(opt.Key, ","), tabular.Quote(keys[i]), opt.By, tabular.Quote(g), tabular.Quote(h))
			}
			groups = append(groups, g)
		}
	}
	// Versions are named by their files' base names (results.DisplayName),
	// unless two files share one.
	oldName, newName := results.DisplayName(oldT.file), results.DisplayName(newT.file)
	if oldName == newName {
		oldName, newName = oldT.file, newT.file
	}
	if opt.OldName == "" {
		opt.OldName = oldName
	}
	if opt.NewName == "" {
		opt.NewName = newName
	}
	return versions(keys, o, nw, groups, opt), nil
}

// ErrLength is Versions' error for slices of different lengths (or
// Options.By without groups).
var ErrLength = errors.New("the slices differ in length")

// Versions compares two versions whose 0/1 outcomes are already paired:
// old[i] and new[i] are case i's, keys[i] names it in Better and Worse,
// and groups[i], when groups is not nil, is its group (opt.By names the
// grouping, "group" if empty; By without groups is an error). It is Read
// without the tables: the same figures, warnings and text.
func Versions(keys []string, old, new []float64, groups []string, opt Options) (*results.Comparison, error) {
	opt = opt.WithDefaults()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if len(old) != len(keys) || len(new) != len(keys) || groups != nil && len(groups) != len(keys) {
		return nil, errorf(ErrLength, "compare: %d keys, %d old outcomes, %d new ones and %d groups", len(keys), len(old), len(new), len(groups))
	}
	if groups == nil && opt.By != "" {
		return nil, errorf(ErrLength, "compare: Options.By is %q but there are no groups for the %d cases", opt.By, len(keys))
	}
	if groups != nil && opt.By == "" {
		opt.By = "group"
	}
	for i := range old {
		if old[i] != 0 && old[i] != 1 || new[i] != 0 && new[i] != 1 {
			return nil, errorf(ErrNotBinary, "compare: case %s (index %d) has outcomes %v and %v, not 0 or 1", tabular.Quote(keys[i]), i, old[i], new[i])
		}
	}
	if opt.OldName == "" {
		opt.OldName = "old"
	}
	if opt.NewName == "" {
		opt.NewName = "new"
	}
	return versions(keys, old, new, groups, opt), nil
}

// versions computes the comparison of valid, paired data.
func versions(keys []string, old, new []float64, groups []string, opt Options) *results.Comparison {
	return versionsKeyed(func(i int) string { return keys[i] }, old, new, groups, opt)
}

// versionsKeyed is versions with case i's key given by key(i), asked
// only of the cases that flipped.
func versionsKeyed(key func(int) string, old, new []float64, groups []string, opt Options) *results.Comparison {
	c := stats.ComparePaired(old, new, stats.CompareOptions{Method: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed})
	rep := &results.Comparison{
		Kind:    "compare",
		OldFile: opt.OldName, NewFile: opt.NewName, Key: strings.Join(opt.Key, ","), Metric: opt.Metric, By: opt.By,
		N: c.N, OldPass: c.OldPass, NewPass: c.NewPass, Old: c.OldMean, New: c.NewMean,
		CI: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed,
		OldCILow: c.Old.Lo, OldCIHigh: c.Old.Hi, NewCILow: c.New.Lo, NewCIHigh: c.New.Hi,
		Better: []string{}, Worse: []string{}, Unchanged: c.Unchanged,
		PSign: c.SignP, PMcNemar: c.McNemarP,
		Diff: c.Diff, DiffCILow: c.DiffInterval.Lo, DiffCIHigh: c.DiffInterval.Hi,
		Groups: []results.ComparisonGroup{}, Warnings: intervalWarnings(c),
	}
	for _, i := range c.Better {
		rep.Better = append(rep.Better, key(i))
	}
	for _, i := range c.Worse {
		rep.Worse = append(rep.Worse, key(i))
	}
	if flips := len(c.Better) + len(c.Worse); flips > 0 && flips < stats.McNemarMinFlips {
		rep.Warnings = append(rep.Warnings, results.Warning{Code: CodeFewFlips, Count: flips,
			Message: fmt.Sprintf("only %s changed: McNemar's chi-square is rough; quote the exact sign test", count(flips, "case", "cases"))})
	}
	rep.Ranks, rep.TierAlpha = ranks(old, new, c, opt), TierAlpha
	if groups != nil {
		rep.Groups = byGroup(old, new, groups, opt.Confidence)
		if len(rep.Groups) > 1 {
			rep.Warnings = append(rep.Warnings, results.Warning{Code: CodeManyGroups, Count: len(rep.Groups),
				Message: fmt.Sprintf("%d groups: with many slices some will differ by chance; small groups carry little evidence", len(rep.Groups))})
		}
	}
	return rep
}

// TierAlpha is the level of the sign test that puts the two versions in
// different tiers.
const TierAlpha = 0.05

// ranks ranks the two versions (stats.RankMeans: both on the same
// resampled cases, seed Seed+3, after the intervals' Seed to Seed+2) and
// tiers them by the exact sign test c already computed; none without
// cases.
func ranks(old, new []float64, c stats.Comparison, opt Options) []results.VersionRank {
	if len(old) == 0 {
		return []results.VersionRank{}
	}
	rr := stats.RankMeans([][]float64{old, new}, stats.RankOptions{Resamples: opt.Resamples, Confidence: opt.Confidence, Seed: opt.Seed + 3})
	tier, _ := stats.Tiers([]float64{c.OldMean, c.NewMean}, func(best, other int) (float64, bool) {
		return c.SignP, c.OldMean != c.NewMean
	}, TierAlpha, stats.CorrectionHolm)
	out := make([]results.VersionRank, 2)
	for i, name := range []string{"old", "new"} {
		out[i] = results.VersionRank{Version: name, Rank: rr.Ranks[i].Rank, RankLow: rr.Ranks[i].Lo, RankHigh: rr.Ranks[i].Hi, Tier: tier[i]}
	}
	return out
}

// byGroup counts each group's cases, passes and flips, groups sorted by
// name, with each version's Wilson interval at confidence.
func byGroup(old, new []float64, groups []string, confidence float64) []results.ComparisonGroup {
	var out []results.ComparisonGroup
	idx := map[string]int{}
	for i, g := range groups {
		j, ok := idx[g]
		if !ok {
			j = len(out)
			idx[g] = j
			out = append(out, results.ComparisonGroup{Group: g})
		}
		gr := &out[j]
		gr.N++
		gr.OldPass += int(old[i])
		gr.NewPass += int(new[i])
		if new[i] > old[i] {
			gr.Better++
		} else if new[i] < old[i] {
			gr.Worse++
		}
	}
	slices.SortFunc(out, func(a, b results.ComparisonGroup) int { return strings.Compare(a.Group, b.Group) })
	for i := range out {
		g := &out[i]
		g.Old, g.New = float64(g.OldPass)/float64(g.N), float64(g.NewPass)/float64(g.N)
		g.OldCILow, g.OldCIHigh = stats.Wilson(g.OldPass, g.N, confidence)
		g.NewCILow, g.NewCIHigh = stats.Wilson(g.NewPass, g.N, confidence)
	}
	return out
}

// intervalWarnings turns the warnings of the comparison's three intervals
// into results warnings that keep the stats code (results.FromStats): the
// old pass rate's, then the new one's (a warning the old one already gave
// is not repeated), then the change's, each message prefixed with the
// figure it qualifies.
func intervalWarnings(c stats.Comparison) []results.Warning {
	var fresh []stats.Warning
	for _, m := range c.New.Warnings {
		if !slices.Contains(c.Old.Warnings, m) {
			fresh = append(fresh, m)
		}
	}
	ws := results.FromStats("old", c.Old.Warnings)
	ws = append(ws, results.FromStats("new", fresh)...)
	return append(ws, results.FromStats("change", c.DiffInterval.Warnings)...)
}

func count(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
