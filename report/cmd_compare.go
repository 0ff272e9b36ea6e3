package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/stats"
)

func init() {
	register(&command{name: "compare", summary: "compare two versions on the same cases: pass rates, flips, sign test, McNemar", run: runCompare})
}

const compareHelp = `
Usage: evalbook compare --old FILE --new FILE [--key id[,COL...]] [--metric COL] [--by COL]
                        [--ci wilson|bootstrap] [--confidence 0.95] [--resamples N]
                        [--seed N] [--json]

Compares two versions of a system scored on the same cases. Each file is a CSV with a header:
a verdict file from "evalbook score --out", a run file from "evalbook run --out"
(id,task,set,lang,expect,outcome,fact,pass), or any table with a key column and a 0/1
column. Without --metric, the one column besides the key (and --by) that holds only 0 and 1
in both files is used; if there are several, name one.

It prints the number of cases, each version's pass rate with an interval (Wilson by default,
or a seeded percentile bootstrap), the cases that got better and worse, how many stayed the
same, the exact two-sided sign test over the flips, McNemar's chi-square test with continuity
correction, and a paired bootstrap interval for the change in pass rate. --by adds each
group's n and pass rates.

Read the p-values with care: 2 better and 0 worse gives p = 0.5, a result that chance
produces half the time; with fewer than about 25 flips McNemar's chi-square is rough and
the sign test (its exact form) is the one to quote. Looking at many groups multiplies the
chances of a fluke.

Both files must hold the same keys, each once; the metric must be 0 or 1 in every row. When
a row is identified only by several columns together, such as a verdict file with the same
question for two models, name them all: --key id,model (the case is then shown as id/model).
Files must be UTF-8.

Example:
	evalbook run --chunking paragraph --min-score 0.3 --out old.csv
	evalbook run --chunking sentence --min-score 0.4 --min-margin 0.1 --out new.csv
	evalbook compare --old old.csv --new new.csv --metric pass --by task
`

// compareReport is the JSON document of evalbook compare.
type compareReport struct {
	OldFile    string         `json:"old_file"`
	NewFile    string         `json:"new_file"`
	Key        string         `json:"key"`
	Metric     string         `json:"metric"`
	N          int            `json:"n"`
	OldPass    int            `json:"old_pass"`
	NewPass    int            `json:"new_pass"`
	Old        float64        `json:"old"`
	New        float64        `json:"new"`
	CI         string         `json:"ci"`
	Confidence float64        `json:"confidence"`
	Resamples  int            `json:"resamples"`
	Seed       uint64         `json:"seed"`
	OldCILow   float64        `json:"old_ci_low"`
	OldCIHigh  float64        `json:"old_ci_high"`
	NewCILow   float64        `json:"new_ci_low"`
	NewCIHigh  float64        `json:"new_ci_high"`
	Better     []string       `json:"better"`
	Worse      []string       `json:"worse"`
	Unchanged  int            `json:"unchanged"`
	PSign      float64        `json:"p_sign"`
	PMcNemar   float64        `json:"p_mcnemar"`
	Diff       float64        `json:"diff"`
	DiffCILow  float64        `json:"diff_ci_low"`
	DiffCIHigh float64        `json:"diff_ci_high"`
	By         string         `json:"by,omitempty"`
	Groups     []compareGroup `json:"groups"`
	Warnings   []string       `json:"warnings"`
}

type compareGroup struct {
	Group   string  `json:"group"`
	N       int     `json:"n"`
	OldPass int     `json:"old_pass"`
	NewPass int     `json:"new_pass"`
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	Better  int     `json:"better"`
	Worse   int     `json:"worse"`
}

func runCompare(e *env) error {
	fs := newFlags(e, "compare", compareHelp)
	oldFile := fs.String("old", "", "verdicts of the old version (`FILE`, CSV)")
	newFile := fs.String("new", "", "verdicts of the new version (`FILE`, CSV)")
	key := fs.String("key", "id", "`column` that pairs the rows of the two files, or several joined by commas (id,model)")
	metric := fs.String("metric", "", "0/1 `column` to compare (default: the only 0/1 column)")
	by := fs.String("by", "", "group `column` for per-group pass rates")
	ci := fs.String("ci", "wilson", "pass-rate `interval`: wilson or bootstrap")
	confidence := fs.Float64("confidence", 0.95, "confidence `level` of the intervals")
	resamples := fs.Int("resamples", 10000, "bootstrap `resamples`")
	seed := fs.Uint64("seed", 1, "bootstrap `seed`")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("compare: unexpected argument %q", args[0])
	}
	if *oldFile == "" || *newFile == "" {
		return usagef("compare: --old and --new are required (see evalbook compare --help)")
	}
	if *ci != "wilson" && *ci != "bootstrap" {
		return usagef("compare: --ci %q: want wilson or bootstrap", *ci)
	}
	if !(*confidence > 0 && *confidence < 1) {
		return usagef("compare: --confidence must be between 0 and 1, got %v", *confidence)
	}
	if *resamples < 1 {
		return usagef("compare: --resamples must be at least 1, got %d", *resamples)
	}
	keyCols, err := compareKeyColumns(*key, *metric, *by)
	if err != nil {
		return err
	}
	oldT, err := readCompareTable(*oldFile)
	if err != nil {
		return err
	}
	newT, err := readCompareTable(*newFile)
	if err != nil {
		return err
	}
	for _, t := range []*compareTable{oldT, newT} {
		for _, c := range append([]string{*metric, *by}, keyCols...) {
			if c != "" && t.col(c) < 0 {
				return fmt.Errorf("%s:1: no column %q; the header has %s", t.file, c, strings.Join(t.header, ", "))
			}
		}
	}
	if *metric == "" {
		if *metric, err = pickMetric(oldT, newT, keyCols, *by); err != nil {
			return err
		}
	}
	oldT.keyCols, newT.keyCols = keyCols, keyCols
	oldIdx, err := oldT.index(*metric)
	if err != nil {
		return err
	}
	newIdx, err := newT.index(*metric)
	if err != nil {
		return err
	}
	if err := sameKeys(oldT, newT, oldIdx, newIdx); err != nil {
		return err
	}
	oldV, err := oldT.binary(*metric)
	if err != nil {
		return err
	}
	newV, err := newT.binary(*metric)
	if err != nil {
		return err
	}
	// Pair in the old file's order.
	n := len(oldT.rows)
	keys := make([]string, n)
	o, nw := make([]float64, n), make([]float64, n)
	var groups []string
	for i, row := range oldT.rows {
		k := oldT.keyOf(row)
		j := newIdx[k]
		keys[i], o[i], nw[i] = oldT.showKey(row), oldV[i], newV[j]
		if *by != "" {
			g, h := row[oldT.col(*by)], newT.rows[j][newT.col(*by)]
			if g != h {
				return fmt.Errorf("%s:%d and %s:%d: %s %q has %s %q in the old file and %q in the new one", oldT.file, oldT.lines[i], newT.file, newT.lines[j], strings.Join(keyCols, ","), keys[i], *by, g, h)
			}
			groups = append(groups, g)
		}
	}
	rep := compareVersions(keys, o, nw, groups, *ci, *confidence, *resamples, *seed)
	rep.OldFile, rep.NewFile, rep.Key, rep.Metric, rep.By = *oldFile, *newFile, strings.Join(keyCols, ","), *metric, *by
	if err := export.write(e, "evalbook compare", compareTables(rep)); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return writeCompareText(e.stdout, rep)
}

func compareVersions(keys []string, old, new []float64, groups []string, ci string, confidence float64, resamples int, seed uint64) *compareReport {
	p := stats.Paired(old, new)
	rep := &compareReport{
		N: p.N, Old: p.OldMean, New: p.NewMean, CI: ci, Confidence: confidence, Resamples: resamples, Seed: seed,
		Better: []string{}, Worse: []string{}, Unchanged: p.Unchanged, Groups: []compareGroup{}, Warnings: []string{},
	}
	for i := range old {
		rep.OldPass += int(old[i])
		rep.NewPass += int(new[i])
	}
	for _, i := range p.Better {
		rep.Better = append(rep.Better, keys[i])
	}
	for _, i := range p.Worse {
		rep.Worse = append(rep.Worse, keys[i])
	}
	var oi, ni stats.Interval
	if ci == "bootstrap" {
		oi = stats.BootstrapProportionInterval(rep.OldPass, p.N, resamples, confidence, seed)
		ni = stats.BootstrapProportionInterval(rep.NewPass, p.N, resamples, confidence, seed+1)
	} else {
		oi = stats.WilsonInterval(rep.OldPass, p.N, confidence)
		ni = stats.WilsonInterval(rep.NewPass, p.N, confidence)
	}
	rep.OldCILow, rep.OldCIHigh, rep.NewCILow, rep.NewCIHigh = oi.Lo, oi.Hi, ni.Lo, ni.Hi
	b, w := len(p.Better), len(p.Worse)
	rep.PSign = stats.SignTest(b, w)
	rep.PMcNemar = stats.McNemar(b, w)
	rep.Diff = p.NewMean - p.OldMean
	di := stats.PairedBootstrapDiffInterval(old, new, resamples, confidence, seed+2)
	rep.DiffCILow, rep.DiffCIHigh = di.Lo, di.Hi
	for _, m := range oi.Warnings {
		rep.Warnings = append(rep.Warnings, "old: "+m.Message)
	}
	for _, m := range ni.Warnings {
		if !slices.Contains(oi.Warnings, m) {
			rep.Warnings = append(rep.Warnings, "new: "+m.Message)
		}
	}
	for _, m := range di.Warnings {
		rep.Warnings = append(rep.Warnings, "change: "+m.Message)
	}
	if b+w > 0 && b+w < 25 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("only %s changed: McNemar's chi-square is rough; quote the exact sign test", nounCount(b+w, "case", "cases")))
	}
	if groups != nil {
		idx := map[string]int{}
		for i, g := range groups {
			j, ok := idx[g]
			if !ok {
				j = len(rep.Groups)
				idx[g] = j
				rep.Groups = append(rep.Groups, compareGroup{Group: g})
			}
			gr := &rep.Groups[j]
			gr.N++
			gr.OldPass += int(old[i])
			gr.NewPass += int(new[i])
			if new[i] > old[i] {
				gr.Better++
			} else if new[i] < old[i] {
				gr.Worse++
			}
		}
		slices.SortFunc(rep.Groups, func(a, b compareGroup) int { return strings.Compare(a.Group, b.Group) })
		for i := range rep.Groups {
			g := &rep.Groups[i]
			g.Old, g.New = float64(g.OldPass)/float64(g.N), float64(g.NewPass)/float64(g.N)
		}
		if len(rep.Groups) > 1 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d groups: with many slices some will differ by chance; small groups carry little evidence", len(rep.Groups)))
		}
	}
	return rep
}

// compareKeyColumns splits --key into its columns: none empty or given
// twice, none the metric, and a single key column not the --by column
// (each case would be its own group).
func compareKeyColumns(key, metric, by string) ([]string, error) {
	var cols []string
	for _, c := range strings.Split(key, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "":
			return nil, usagef("compare: --key %q: want a column name, or several joined by commas (id,model)", key)
		case slices.Contains(cols, c):
			return nil, usagef("compare: --key %q names %s twice", key, c)
		case c == metric:
			return nil, usagef("compare: --key must name a column other than --metric and --by")
		}
		cols = append(cols, c)
	}
	if len(cols) == 1 && cols[0] == by {
		return nil, usagef("compare: --key must name a column other than --metric and --by")
	}
	return cols, nil
}

// compareTable is a CSV file read whole, with the line where each record starts.
type compareTable struct {
	file    string
	header  []string
	rows    [][]string
	lines   []int
	keyCols []string // the --key columns
}

// keyOf returns the key of a row, its key columns' values joined by NUL
// (a character no value holds in practice, so distinct keys stay distinct).
func (t *compareTable) keyOf(row []string) string {
	if len(t.keyCols) == 1 {
		return row[t.col(t.keyCols[0])]
	}
	vals := make([]string, len(t.keyCols))
	for i, c := range t.keyCols {
		vals[i] = row[t.col(c)]
	}
	return strings.Join(vals, "\x00")
}

// showKey returns the key of a row as messages and reports show it: the
// values joined by "/".
func (t *compareTable) showKey(row []string) string {
	return strings.ReplaceAll(t.keyOf(row), "\x00", "/")
}

func readCompareTable(path string) (*compareTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	r := csv.NewReader(br)
	place := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d:%d: %v", path, pe.Line, pe.Column, pe.Err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	t := &compareTable{file: path}
	if t.header, err = r.Read(); err == io.EOF {
		return nil, fmt.Errorf("%s:1: empty file: no header row", path)
	} else if err != nil {
		return nil, place(err)
	}
	for i := range t.header {
		line, col := r.FieldPos(i)
		if err := rawUTF8Field(path, line, col, "", t.header[i]); err != nil {
			return nil, err
		}
		t.header[i] = strings.TrimSpace(t.header[i])
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, place(err)
		}
		line, _ := r.FieldPos(0)
		for i := range rec {
			l, c := r.FieldPos(i)
			if err := rawUTF8Field(path, l, c, t.header[i], rec[i]); err != nil {
				return nil, err
			}
			rec[i] = strings.TrimSpace(rec[i])
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.rows) == 0 {
		return nil, fmt.Errorf("%s: no rows after the header", path)
	}
	return t, nil
}

func (t *compareTable) col(name string) int { return slices.Index(t.header, name) }

// index maps each key to its row, rejecting empty and duplicate keys. A
// duplicate's message suggests a key column that would tell the rows
// apart (metric is not a candidate).
func (t *compareTable) index(metric string) (map[string]int, error) {
	idx := make(map[string]int, len(t.rows))
	for i, row := range t.rows {
		for _, kc := range t.keyCols {
			if c := t.col(kc); row[c] == "" {
				return nil, fmt.Errorf("%s:%d:%d: empty %s", t.file, t.lines[i], c+1, kc)
			}
		}
		k := t.keyOf(row)
		if j, dup := idx[k]; dup {
			return nil, fmt.Errorf("%s:%d:%d: duplicate %s %q (first at line %d); %s", t.file, t.lines[i], t.col(t.keyCols[0])+1,
				strings.Join(t.keyCols, ","), t.showKey(row), t.lines[j], t.keyHint(metric))
		}
		idx[k] = i
	}
	return idx, nil
}

// keyHint suggests a --key that would make the rows unique: the key
// columns and one more, the column with the fewest distinct values that
// tells every duplicate apart (a model or language column rather than a
// free-text one), preferring columns that are not 0/1 and, on a tie, the
// one further left.
func (t *compareTable) keyHint(metric string) string {
	key := strings.Join(t.keyCols, ",")
	best, bestN, bestBinary := "", 0, true
	for c, name := range t.header {
		if name == "" || name == metric || slices.Contains(t.keyCols, name) || t.col(name) != c {
			continue
		}
		seen := make(map[string]bool, len(t.rows))
		values := map[string]bool{}
		unique := true
		for _, row := range t.rows {
			k := t.keyOf(row) + "\x00" + row[c]
			if seen[k] {
				unique = false
				break
			}
			seen[k] = true
			values[row[c]] = true
		}
		if !unique {
			continue
		}
		binary := allZeroOne(t, name)
		if best == "" || bestBinary && !binary || binary == bestBinary && len(values) < bestN {
			best, bestN, bestBinary = name, len(values), binary
		}
	}
	if best == "" {
		return fmt.Sprintf("if rows are unique only with other columns, name them all: --key %s,COLUMN,...", key)
	}
	return fmt.Sprintf("if rows are unique only with another column, pass --key %s,%s", key, best)
}

// binary reads a 0/1 column.
func (t *compareTable) binary(name string) ([]float64, error) {
	c := t.col(name)
	out := make([]float64, len(t.rows))
	for i, row := range t.rows {
		v, ok := zeroOne(row[c])
		if !ok {
			return nil, fmt.Errorf("%s:%d:%d: %s is %q, not 0 or 1", t.file, t.lines[i], c+1, name, row[c])
		}
		out[i] = v
	}
	return out, nil
}

func zeroOne(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || (v != 0 && v != 1) {
		return 0, false
	}
	return v, true
}

// pickMetric finds the one column besides the key columns and by that is
// 0/1 in every row of both files.
func pickMetric(a, b *compareTable, keyCols []string, by string) (string, error) {
	var cands []string
	for _, name := range a.header {
		if slices.Contains(keyCols, name) || name == by || name == "" || b.col(name) < 0 || slices.Contains(cands, name) {
			continue
		}
		if allZeroOne(a, name) && allZeroOne(b, name) {
			cands = append(cands, name)
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		return "", fmt.Errorf("no column besides %s holds only 0 and 1 in both %s and %s; name the metric with --metric (columns: %s)", strings.Join(keyCols, ","), a.file, b.file, strings.Join(a.header, ", "))
	}
	return "", fmt.Errorf("several 0/1 columns could be the metric: %s; choose one with --metric", strings.Join(cands, ", "))
}

func allZeroOne(t *compareTable, name string) bool {
	c := t.col(name)
	for _, row := range t.rows {
		if _, ok := zeroOne(row[c]); !ok {
			return false
		}
	}
	return true
}

// sameKeys reports keys present in only one file, the first few of each.
func sameKeys(a, b *compareTable, ai, bi map[string]int) error {
	var onlyA, onlyB []string
	for i, row := range a.rows {
		if _, ok := bi[a.keyOf(row)]; !ok {
			onlyA = append(onlyA, strconv.Quote(a.showKey(row))+" (line "+strconv.Itoa(a.lines[i])+")")
		}
	}
	for i, row := range b.rows {
		if _, ok := ai[b.keyOf(row)]; !ok {
			onlyB = append(onlyB, strconv.Quote(b.showKey(row))+" (line "+strconv.Itoa(b.lines[i])+")")
		}
	}
	key := strings.Join(a.keyCols, ",")
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return nil
	}
	var parts []string
	if len(onlyA) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in %s: %s", len(onlyA), a.file, firstFewItems(onlyA, 5)))
	}
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in %s: %s", len(onlyB), b.file, firstFewItems(onlyB, 5)))
	}
	return fmt.Errorf("the files do not hold the same %s values; %s", key, strings.Join(parts, "; "))
}

func formatPValue(p float64) string { return strconv.FormatFloat(p, 'g', 4, 64) }

func writeCompareText(w io.Writer, r *compareReport) error {
	method := "Wilson"
	if r.CI == "bootstrap" {
		method = fmt.Sprintf("bootstrap, %d resamples, seed %d", r.Resamples, r.Seed)
	}
	fmt.Fprintf(w, "%s -> %s, metric %s, key %s\n\n", r.OldFile, r.NewFile, r.Metric, r.Key)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "n\t%s\n", nounCount(r.N, "case", "cases"))
	fmt.Fprintf(tw, "old\t%s  (%d/%d)\t%g%% interval %s to %s (%s)\n", fixed3(r.Old), r.OldPass, r.N, 100*r.Confidence, fixed3(r.OldCILow), fixed3(r.OldCIHigh), method)
	fmt.Fprintf(tw, "new\t%s  (%d/%d)\t%g%% interval %s to %s\n", fixed3(r.New), r.NewPass, r.N, 100*r.Confidence, fixed3(r.NewCILow), fixed3(r.NewCIHigh))
	fmt.Fprintf(tw, "change\t%+.3f\t%g%% interval %s to %s (paired bootstrap)\n", r.Diff, 100*r.Confidence, fixed3(r.DiffCILow), fixed3(r.DiffCIHigh))
	for _, l := range []struct {
		name string
		keys []string
	}{{"better", r.Better}, {"worse", r.Worse}} {
		if len(l.keys) == 0 {
			fmt.Fprintf(tw, "%s\t0\n", l.name)
		} else {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", l.name, len(l.keys), strings.Join(l.keys, ", "))
		}
	}
	fmt.Fprintf(tw, "unchanged\t%d\n", r.Unchanged)
	fmt.Fprintf(tw, "sign test\tp = %s\texact, two-sided, %d better vs %d worse\n", formatPValue(r.PSign), len(r.Better), len(r.Worse))
	fmt.Fprintf(tw, "McNemar\tp = %s\tchi-square with continuity correction\n", formatPValue(r.PMcNemar))
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.By != "" {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\tn\told\tnew\tbetter\tworse\t\n", r.By)
		for _, g := range r.Groups {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t\n", g.Group, g.N, fixed3(g.Old), fixed3(g.New), g.Better, g.Worse)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
	return nil
}
