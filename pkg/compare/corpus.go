package compare

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// CorpusOptions sets a corpus-level comparison of two systems' responses
// (evalbook compare --corpus): sacreBLEU's paired bootstrap resampling
// and approximate randomization tests of corpus BLEU, chrF or TER.
type CorpusOptions struct {
	// Metric is a corpus-level metric id: bleu, bleu_indic, chrf, chrf_pp
	// or ter.
	Metric string
	// Key pairs the rows of the two tables (default id).
	Key []string
	// Answer and Response name the golden-answer and response columns
	// (default answer and response). References, when set, names a list
	// column of several references per item (a JSON array of strings in
	// each cell, or text split on RefSeparator); it replaces Answer.
	Answer, Response string
	References       string
	RefSeparator     string
	// Tests is "bs", "ar" or "both" (default both).
	Tests string
	// Resamples (paired-bs, default 1000) and Trials (paired-ar, default
	// 10000) are sacreBLEU's defaults; Seed is used as given (evalbook
	// compare's default is sacreBLEU's 12345).
	Resamples, Trials int
	Seed              uint64
}

// CorpusComparison is the result of Corpus: each system's corpus value
// and the tests of their difference.
type CorpusComparison struct {
	Kind       string            `json:"kind"` // always "corpus_comparison"
	Metric     string            `json:"metric"`
	Old        string            `json:"old"`
	New        string            `json:"new"`
	N          int               `json:"n"`
	References string            `json:"references"` // "answer" or the list column
	OldScore   float64           `json:"old_score"`
	NewScore   float64           `json:"new_score"`
	Diff       float64           `json:"diff"` // new − old
	Tests      []CorpusTestRow   `json:"tests"`
	Warnings   []results.Warning `json:"warnings"`
}

// CorpusTestRow is one test: its p-value and, for paired-bs, sacreBLEU's
// mean ± half-width of each system's resampled value.
type CorpusTestRow struct {
	Method  string   `json:"method"` // paired-bs or paired-ar
	Samples int      `json:"samples"`
	Seed    uint64   `json:"seed"`
	P       float64  `json:"p"`
	OldMean *float64 `json:"old_mean"`
	OldCI   *float64 `json:"old_ci"`
	NewMean *float64 `json:"new_mean"`
	NewCI   *float64 `json:"new_ci"`
}

// Corpus reads two response tables (CSV or JSONL: a key, the golden
// answer or a references list, and the response), pairs their rows by
// key, computes the metric's sufficient statistics per row and runs the
// paired tests. Both tables must hold the same keys, each once, and the
// same references for a key.
func Corpus(oldPath, newPath string, opt CorpusOptions) (*CorpusComparison, error) {
	opt = opt.withDefaults()
	m, err := score.Lookup(opt.Metric)
	if err != nil {
		return nil, err
	}
	if m.Corpus == nil {
		return nil, fmt.Errorf("compare --corpus: %s is not a corpus-level metric (bleu, bleu_indic, chrf, chrf_pp, ter)", m.ID)
	}
	if opt.References != "" && !score.TakesReferences(m) {
		return nil, fmt.Errorf("compare --corpus: %s does not take several references", m.ID)
	}
	if opt.Resamples < 0 || opt.Trials < 0 {
		return nil, fmt.Errorf("compare --corpus: resamples %d, trials %d: want positive counts (0 for the defaults)", opt.Resamples, opt.Trials)
	}
	switch opt.Tests {
	case "bs", "ar", "both":
	default:
		return nil, fmt.Errorf("compare --corpus: tests %q: want bs, ar or both", opt.Tests)
	}
	old, err := readCorpusSide(oldPath, opt)
	if err != nil {
		return nil, err
	}
	nw, err := readCorpusSide(newPath, opt)
	if err != nil {
		return nil, err
	}
	res := &CorpusComparison{Kind: "corpus_comparison", Metric: m.ID, Old: oldPath, New: newPath, N: len(old.keys),
		References: opt.Answer, Tests: []CorpusTestRow{}, Warnings: []results.Warning{}}
	if opt.References != "" {
		res.References = opt.References
	}
	if len(nw.keys) != len(old.keys) {
		return nil, fmt.Errorf("%s has %d rows and %s %d: both must hold the same keys", oldPath, len(old.keys), newPath, len(nw.keys))
	}
	k := m.Corpus.NStats
	a := make([]float64, 0, k*len(old.keys))
	b := make([]float64, 0, k*len(old.keys))
	cs := m.Corpus.New()
	rs, _ := cs.(score.RefsStats)
	for i, key := range old.keys {
		j, ok := nw.index[key]
		if !ok {
			return nil, fmt.Errorf("%s:%d: key %s is not in %s", oldPath, old.lines[i], tabular.Quote(key), newPath)
		}
		if !equalRefs(old.refs[i], nw.refs[j]) {
			return nil, fmt.Errorf("%s:%d and %s:%d: key %s has different references in the two files; both systems must be scored against the same ones",
				oldPath, old.lines[i], newPath, nw.lines[j], tabular.Quote(key))
		}
		if rs != nil {
			a = rs.AppendStatsRefs(a, old.refs[i], old.resp[i])
			b = rs.AppendStatsRefs(b, old.refs[i], nw.resp[j])
		} else {
			a = cs.AppendStats(a, old.refs[i][0], old.resp[i])
			b = cs.AppendStats(b, old.refs[i][0], nw.resp[j])
		}
	}
	if opt.Tests != "ar" {
		t := stats.PairedBootstrapCorpus(a, b, k, m.Corpus.Final, opt.Resamples, opt.Seed)
		res.add(t)
	}
	if opt.Tests != "bs" {
		t := stats.ApproximateRandomizationCorpus(a, b, k, m.Corpus.Final, opt.Trials, opt.Seed)
		res.add(t)
	}
	return res, nil
}

func (r *CorpusComparison) add(t stats.CorpusTest) {
	r.OldScore, r.NewScore, r.Diff = t.A, t.B, t.Diff
	row := CorpusTestRow{Method: t.Method, Samples: t.Samples, Seed: t.Seed, P: t.P}
	if t.Method == "paired-bs" {
		row.OldMean, row.OldCI, row.NewMean, row.NewCI = &t.AMean, &t.ACI, &t.BMean, &t.BCI
	}
	r.Tests = append(r.Tests, row)
	for _, w := range results.FromStats("", t.Warnings) {
		if !hasWarning(r.Warnings, w.Code) {
			r.Warnings = append(r.Warnings, w)
		}
	}
}

func hasWarning(ws []results.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

func equalRefs(x, y []string) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (o CorpusOptions) withDefaults() CorpusOptions {
	if o.Key == nil {
		o.Key = []string{"id"}
	}
	if o.Answer == "" {
		o.Answer = "answer"
	}
	if o.Response == "" {
		o.Response = "response"
	}
	if o.Tests == "" {
		o.Tests = "both"
	}
	if o.Resamples == 0 {
		o.Resamples = stats.DefaultPairedBootstrapResamples
	}
	if o.Trials == 0 {
		o.Trials = stats.DefaultRandomizationTrials
	}
	return o
}

type corpusSide struct {
	keys  []string
	lines []int
	refs  [][]string
	resp  []string
	index map[string]int
}

func readCorpusSide(path string, opt CorpusOptions) (*corpusSide, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCorpusTable(f, path, opt)
}

func readCorpusTable(r io.Reader, name string, opt CorpusOptions) (*corpusSide, error) {
	t, err := tabular.Open(r, name, "")
	if err != nil {
		return nil, err
	}
	col := func(c string) (int, error) {
		i := t.Index(c)
		if i < 0 {
			return 0, &ParseError{File: name, Line: 1, Field: c, Err: fmt.Errorf("%w %s (the header has %s)", ErrNoColumn, tabular.Quote(c), tabular.QuoteList(t.Header()))}
		}
		return i, nil
	}
	var keyCols []int
	for _, k := range opt.Key {
		i, err := col(k)
		if err != nil {
			return nil, err
		}
		keyCols = append(keyCols, i)
	}
	refName := opt.Answer
	if opt.References != "" {
		refName = opt.References
	}
	refCol, err := col(refName)
	if err != nil {
		return nil, err
	}
	respCol, err := col(opt.Response)
	if err != nil {
		return nil, err
	}
	s := &corpusSide{index: map[string]int{}}
	for t.Scan() {
		rec := t.Record()
		parts := make([]string, len(keyCols))
		for i, c := range keyCols {
			parts[i] = rec.Fields[c]
		}
		key := strings.Join(parts, "/")
		if strings.TrimSpace(key) == "" {
			return nil, &ParseError{File: name, Line: rec.Line, Field: strings.Join(opt.Key, ","), Err: ErrEmptyKey}
		}
		if first, dup := s.index[key]; dup {
			return nil, &ParseError{File: name, Line: rec.Line, Field: strings.Join(opt.Key, ","), Err: fmt.Errorf("%w %s (first on line %d)", ErrDuplicateKey, tabular.Quote(key), s.lines[first])}
		}
		var refs []string
		if opt.References != "" {
			refs, err = score.ParseReferences(rec.Fields[refCol], opt.RefSeparator)
			if err != nil {
				return nil, &ParseError{File: name, Line: rec.Line, Field: refName, Err: fmt.Errorf("%w: %v", ErrBadReferences, err)}
			}
		} else {
			refs = []string{rec.Fields[refCol]}
		}
		s.index[key] = len(s.keys)
		s.keys = append(s.keys, key)
		s.lines = append(s.lines, rec.Line)
		s.refs = append(s.refs, refs)
		s.resp = append(s.resp, rec.Fields[respCol])
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	if len(s.keys) == 0 {
		return nil, &ParseError{File: name, Err: ErrNoRows}
	}
	return s, nil
}

// ErrBadReferences: a references cell is not a JSON array of strings.
var ErrBadReferences = errors.New("bad references")

// WriteText writes the comparison as evalbook compare --corpus prints it.
func (r *CorpusComparison) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "corpus %s over %d paired rows (references: %s)\n", r.Metric, r.N, r.References)
	fmt.Fprintf(&b, "  old  %-8s %s\n", fmtScore(r.OldScore), r.Old)
	fmt.Fprintf(&b, "  new  %-8s %s\n", fmtScore(r.NewScore), r.New)
	fmt.Fprintf(&b, "  difference (new - old)  %+.4f\n", r.Diff)
	for _, t := range r.Tests {
		fmt.Fprintf(&b, "%s  p = %.4f  (%d %s, seed %d)\n", t.Method, t.P, t.Samples,
			map[bool]string{true: "resamples", false: "trials"}[t.Method == "paired-bs"], t.Seed)
		if t.OldMean != nil {
			fmt.Fprintf(&b, "  bootstrap mean ± 95%% half-width: old %.4f ± %.4f, new %.4f ± %.4f\n", *t.OldMean, *t.OldCI, *t.NewMean, *t.NewCI)
		}
	}
	b.WriteString("p = (resampled differences beyond the observed one + 1) / (samples + 1), as sacreBLEU --paired-bs / --paired-ar\n")
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning (%s): %s\n", wn.Code, wn.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtScore(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// Tables gives the scores and the tests for the workbook and the page.
func (r *CorpusComparison) Tables() []results.Table {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return num(*x)
	}
	scores := results.Table{Title: "Corpus " + r.Metric, Columns: []results.Column{{Name: "system"}, {Name: "file"}, {Name: r.Metric, Kind: results.KindNumber}},
		Rows: [][]string{{"old", results.DisplayName(r.Old), num(r.OldScore)}, {"new", results.DisplayName(r.New), num(r.NewScore)}, {"new - old", "", num(r.Diff)}}}
	tests := results.Table{Title: "Paired significance tests", Note: "sacreBLEU's --paired-bs and --paired-ar: p = (count + 1)/(samples + 1)",
		Columns: []results.Column{{Name: "method"}, {Name: "samples", Kind: results.KindNumber}, {Name: "seed", Kind: results.KindNumber},
			{Name: "p", Kind: results.KindP}, {Name: "old_mean", Kind: results.KindNumber}, {Name: "old_ci", Kind: results.KindNumber},
			{Name: "new_mean", Kind: results.KindNumber}, {Name: "new_ci", Kind: results.KindNumber}}}
	for _, t := range r.Tests {
		tests.Rows = append(tests.Rows, []string{t.Method, strconv.Itoa(t.Samples), strconv.FormatUint(t.Seed, 10), num(t.P),
			opt(t.OldMean), opt(t.OldCI), opt(t.NewMean), opt(t.NewCI)})
	}
	return append([]results.Table{scores, tests}, results.WarningTable(r.Warnings)...)
}
