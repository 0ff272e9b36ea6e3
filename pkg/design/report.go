package design

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
)

// This file holds the results of the plan and cases commands as values:
// each computes nothing, carries what every renderer needs, encodes as the
// command's JSON document and writes the command's text. A notebook gets
// the same struct the command prints.

// File is one named input: a case file, a plan or a source, already read.
type File struct {
	Name string // how errors and reports name it
	Data []byte
}

// ReadCaseFiles reads the case records of every file under v and checks
// that no id repeats across them (CheckUnique). A file with no record is
// an error, as ReadCases has it.
func ReadCaseFiles(files []File, v Vocabulary) ([]Case, error) {
	if len(files) == 0 {
		return nil, errors.New("design: ReadCaseFiles: no case file")
	}
	var all []Case
	names := make([]string, len(files))
	for i, f := range files {
		cases, err := ReadCases(bytes.NewReader(f.Data), f.Name, v)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
		names[i] = f.Name
	}
	if err := CheckUnique(all); err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(names, ", "), err)
	}
	return all, nil
}

// LoadCases reads the case records of files under the vocabulary of plan
// (DefaultVocabulary extended by its case_values; plan may be nil), as
// ReadCaseFiles does, and returns them with that vocabulary and a label
// for the input: the file names joined by ", ". It is what every cases
// command does with its FILE arguments and --plan.
func LoadCases(files []File, plan *Plan) ([]Case, Vocabulary, string, error) {
	voc := plan.Vocabulary()
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	cases, err := ReadCaseFiles(files, voc)
	return cases, voc, strings.Join(names, ", "), err
}

// PlanCheck is the list of a plan's problems (Plan.Problems), as `evalbook
// plan check` prints it.
type PlanCheck struct {
	Kind     string   `json:"kind"` // always "plan_check"
	Problems []string `json:"problems"`
	// plan is the plan checked, for the report's chart of its thresholds
	// (nil for a check decoded from JSON); not in the JSON.
	plan *Plan
}

// Check returns the plan's problems as a PlanCheck.
func (p *Plan) Check() *PlanCheck {
	return &PlanCheck{Kind: "plan_check", Problems: p.Problems(), plan: p}
}

// WriteText writes "no problems", or the count and one problem a line.
func (c *PlanCheck) WriteText(w io.Writer) error {
	if len(c.Problems) == 0 {
		_, err := fmt.Fprintln(w, "no problems")
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem(s):\n", len(c.Problems))
	for _, pr := range c.Problems {
		b.WriteString("  " + pr + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Tables returns the problems as one table.
func (c *PlanCheck) Tables() []results.Table {
	t := results.Table{Title: "Plan problems", Columns: []results.Column{{Name: "problem"}}, Rows: [][]string{}}
	if len(c.Problems) == 0 {
		t.Note = "no problems"
	}
	for _, p := range c.Problems {
		t.Rows = append(t.Rows, []string{p})
	}
	return []results.Table{t}
}

// WriteText writes the gate's table (one row a plan metric) and then
// "release" or "no release:" with each reason.
func (v *GateDecision) WriteText(w io.Writer) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tfamily\tgate\tthreshold\tvalue\tn\tresult")
	for _, r := range v.Metrics {
		c := r.cells()
		fmt.Fprintln(tw, strings.Join(c[:], "\t"))
	}
	tw.Flush()
	if v.Release {
		b.WriteString("\nrelease\n")
	} else {
		b.WriteString("\nno release:\n")
		for _, r := range v.Reasons {
			b.WriteString("  " + r + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// cells is a gate row as the text table shows it: the threshold with its
// direction (">= 0.9"), the value to three decimals, "-" for what is not
// there, and the result (pass, FAIL, measured, not measured).
func (r GateRow) cells() [7]string {
	th := "-"
	if r.Threshold != nil {
		op := ">="
		if r.Direction == "max" {
			op = "<="
		}
		th = op + " " + strconv.FormatFloat(*r.Threshold, 'g', -1, 64)
	}
	res, n := "not measured", "-"
	switch {
	case r.Measured && r.Pass == nil:
		res, n = "measured", strconv.Itoa(r.N)
	case r.Measured && *r.Pass:
		res, n = "pass", strconv.Itoa(r.N)
	case r.Measured:
		res, n = "FAIL", strconv.Itoa(r.N)
	}
	val := "-"
	if r.Value != nil {
		val = strconv.FormatFloat(*r.Value, 'f', 3, 64)
	}
	return [7]string{r.Metric, r.Family, r.Gate, th, val, n, res}
}

// threshold is a gate row's threshold as the page and the workbook show
// it: a rate with its direction, "≥ 80.0%" ("" without one). Every plan
// metric is a rate (see MinThreshold).
func (r GateRow) threshold() string {
	if r.Threshold == nil {
		return ""
	}
	op := "≥ "
	if r.Direction == "max" {
		op = "≤ "
	}
	return op + results.FormatUnit(results.UnitRate, *r.Threshold)
}

// Tables returns the gate's metrics and its decision. Values are rates
// (shown as percentages, as the cards show them) and a missing value or
// n is an empty cell; the text table (cells) keeps its decimals.
func (v *GateDecision) Tables() []results.Table {
	t := results.Table{Title: "Release gate", Rows: [][]string{}, Columns: []results.Column{{Name: "metric"}, {Name: "family"}, {Name: "gate"},
		{Name: "threshold"}, {Name: "value", Kind: results.KindRate}, {Name: "n", Kind: results.KindCount}, {Name: "result"}}}
	for _, r := range v.Metrics {
		c := r.cells()
		val, n := "", ""
		if r.Value != nil {
			val, n = results.Float(*r.Value), strconv.Itoa(r.N)
		}
		t.Rows = append(t.Rows, []string{r.Metric, r.Family, r.Gate, r.threshold(), val, n, c[6]})
	}
	d := results.Table{Title: "Decision", Columns: []results.Column{{Name: "decision"}, {Name: "reason"}}, Rows: [][]string{}}
	if v.Release {
		d.Rows = append(d.Rows, []string{"release", ""})
	}
	for _, r := range v.Reasons {
		d.Rows = append(d.Rows, []string{"no release", r})
	}
	return []results.Table{t, d}
}

// CoverageReport is a coverage matrix with the number of cases and their
// hash, as `evalbook cases coverage` prints it. Its JSON is the Coverage's
// fields after n and hash.
type CoverageReport struct {
	Kind string `json:"kind"` // always "cases_coverage"
	N    int    `json:"n"`
	Hash string `json:"hash"`
	*Coverage
	// Input names the case files in the text's first line.
	Input string `json:"input,omitempty"`
}

// CoverageReportOf counts cases over rows x cols (as CoverageOf) and
// labels the result with the number of cases, their Hash and input, the
// name of the files they came from.
func CoverageReportOf(cases []Case, rows, cols string, v Vocabulary, min int, input string) (*CoverageReport, error) {
	cov, err := CoverageOf(cases, rows, cols, v, min)
	if err != nil {
		return nil, err
	}
	return &CoverageReport{Kind: "cases_coverage", N: len(cases), Hash: Hash(cases), Coverage: cov, Input: input}, nil
}

// WriteText writes the heading, the matrix with row totals, the thin cells
// and the empty cells.
func (r *CoverageReport) WriteText(w io.Writer) error {
	var b bytes.Buffer
	cov := r.Coverage
	fmt.Fprintf(&b, "%d %s from %s (hash %s)\n\n", r.N, nouns(r.N, "case", "cases"), r.Input, r.Hash)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s \\ %s\t", cov.Rows, cov.Cols)
	for _, c := range cov.ColValues {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintln(tw, "total\t")
	for i, row := range cov.RowValues {
		fmt.Fprintf(tw, "%s\t", row)
		sum := 0
		for j := range cov.ColValues {
			fmt.Fprintf(tw, "%d\t", cov.Counts[i][j])
			sum += cov.Counts[i][j]
		}
		fmt.Fprintf(tw, "%d\t\n", sum)
	}
	tw.Flush()
	fmt.Fprintf(&b, "\ncells with fewer than %d %s: %d of %d\n", cov.Min, nouns(cov.Min, "case", "cases"), len(cov.UnderMin), len(cov.RowValues)*len(cov.ColValues))
	for _, c := range cov.UnderMin {
		fmt.Fprintf(&b, "  %s x %s: %d\n", c.Row, c.Col, c.N)
	}
	fmt.Fprintf(&b, "empty cells: %d\n", len(cov.Empty))
	for _, c := range cov.Empty {
		fmt.Fprintf(&b, "  %s x %s\n", c.Row, c.Col)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Tables returns the matrix (with row totals) and the thin cells.
func (r *CoverageReport) Tables() []results.Table {
	cov := r.Coverage
	m := results.Table{
		Title: "Coverage: " + cov.Rows + " x " + cov.Cols,
		Note:  fmt.Sprintf("%d %s (hash %s)", r.N, nouns(r.N, "case", "cases"), r.Hash),
		Rows:  [][]string{},
	}
	m.Columns = append(m.Columns, results.Column{Name: cov.Rows + " \\ " + cov.Cols})
	for _, c := range cov.ColValues {
		m.Columns = append(m.Columns, results.Column{Name: c, Kind: results.KindNumber})
	}
	m.Columns = append(m.Columns, results.Column{Name: "total", Kind: results.KindNumber})
	for i, row := range cov.RowValues {
		cells := []string{row}
		sum := 0
		for j := range cov.ColValues {
			cells = append(cells, strconv.Itoa(cov.Counts[i][j]))
			sum += cov.Counts[i][j]
		}
		m.Rows = append(m.Rows, append(cells, strconv.Itoa(sum)))
	}
	thin := results.Table{
		Title:   fmt.Sprintf("Cells with fewer than %d %s", cov.Min, nouns(cov.Min, "case", "cases")),
		Note:    fmt.Sprintf("%s of %s cells, %s of them empty", results.Commas(int64(len(cov.UnderMin))), results.Commas(int64(len(cov.RowValues)*len(cov.ColValues))), results.Commas(int64(len(cov.Empty)))),
		Columns: []results.Column{{Name: cov.Rows}, {Name: cov.Cols}, {Name: "n", Kind: results.KindNumber}},
		Rows:    [][]string{},
	}
	for _, c := range cov.UnderMin {
		thin.Rows = append(thin.Rows, []string{c.Row, c.Col, strconv.Itoa(c.N)})
	}
	return []results.Table{m, thin}
}

// HashReport is the content hash of a set of cases, as `evalbook cases
// hash --json` prints it; its text is the hash alone.
type HashReport struct {
	Kind string `json:"kind"` // always "cases_hash"
	Hash string `json:"hash"`
	N    int    `json:"n"`
}

// HashOf returns the Hash of cases and their number.
func HashOf(cases []Case) *HashReport {
	return &HashReport{Kind: "cases_hash", Hash: Hash(cases), N: len(cases)}
}

// WriteText writes the hash alone on a line, so that it can label a file.
func (h *HashReport) WriteText(w io.Writer) error {
	_, err := fmt.Fprintln(w, h.Hash)
	return err
}

// Tables returns the hash and the count as one row.
func (h *HashReport) Tables() []results.Table {
	return []results.Table{{
		Title:   "Content hash",
		Columns: []results.Column{{Name: "hash"}, {Name: "n", Kind: results.KindNumber}},
		Rows:    [][]string{{h.Hash, strconv.Itoa(h.N)}},
	}}
}

// SplitReport is a dev/holdout split by ids, as `evalbook cases split`
// prints it. Dev and Holdout hold sorted ids.
type SplitReport struct {
	Kind    string   `json:"kind"` // always "cases_split"
	Salt    string   `json:"salt"`
	Share   float64  `json:"holdout_share"`
	Dev     []string `json:"dev"`
	Holdout []string `json:"holdout"`
}

// SplitOf splits cases as Split does and returns the sides' sorted ids.
func SplitOf(cases []Case, share float64, salt string) (*SplitReport, error) {
	dev, hold, err := Split(cases, share, salt)
	if err != nil {
		return nil, err
	}
	return &SplitReport{Kind: "cases_split", Salt: salt, Share: share, Dev: sortedIDs(dev), Holdout: sortedIDs(hold)}, nil
}

func sortedIDs(cases []Case) []string {
	out := make([]string, len(cases))
	for i := range cases {
		out[i] = cases[i].ID
	}
	sort.Strings(out)
	return out
}

// WriteText writes each side's ids on a line, then the share achieved.
func (s *SplitReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "dev %d: %s\n", len(s.Dev), strings.Join(s.Dev, " "))
	fmt.Fprintf(&b, "holdout %d: %s\n", len(s.Holdout), strings.Join(s.Holdout, " "))
	n := len(s.Dev) + len(s.Holdout)
	got := 0.0
	if n > 0 {
		got = float64(len(s.Holdout)) / float64(n)
	}
	fmt.Fprintf(&b, "salt %q, holdout share %g: %d of %d %s (%.3f)\n", s.Salt, s.Share, len(s.Holdout), n, nouns(n, "case", "cases"), got)
	_, err := io.WriteString(w, b.String())
	return err
}

// Tables returns one row per case: its id and its side.
func (s *SplitReport) Tables() []results.Table {
	t := results.Table{
		Title:   "Split",
		Note:    fmt.Sprintf("salt %q, holdout share %g", s.Salt, s.Share),
		Columns: []results.Column{{Name: "id"}, {Name: "side"}},
		Rows:    [][]string{},
	}
	for _, id := range s.Dev {
		t.Rows = append(t.Rows, []string{id, "dev"})
	}
	for _, id := range s.Holdout {
		t.Rows = append(t.Rows, []string{id, "holdout"})
	}
	return []results.Table{t}
}

// LeakageCheck is a LeakageReport with what its text needs to say how it
// was made: the split's sizes, salt and share, and the sources searched
// (all in its JSON, so that a saved check renders again).
type LeakageCheck struct {
	Kind string `json:"kind"` // always "cases_leakage"
	LeakageReport
	DevN     int              `json:"dev_n"`
	HoldoutN int              `json:"holdout_n"`
	Salt     string           `json:"salt"`
	Share    float64          `json:"holdout_share"`
	Searched []SearchedSource `json:"searched"`
}

// SearchedSource is an outside source a leakage check searched: its name
// and how many questions it holds.
type SearchedSource struct {
	Name      string `json:"name"`
	Questions int    `json:"questions"`
}

// CheckSplitLeakage splits cases (as Split, by share and salt) and checks
// the split and the sources for near-copies (as CheckLeakage).
func (c LeakageConfig) CheckSplitLeakage(cases []Case, share float64, salt string, sources []Source) (*LeakageCheck, error) {
	dev, hold, err := Split(cases, share, salt)
	if err != nil {
		return nil, err
	}
	rep, err := c.CheckLeakage(dev, hold, sources)
	if err != nil {
		return nil, err
	}
	searched := make([]SearchedSource, len(sources))
	for i, s := range sources {
		searched[i] = SearchedSource{Name: s.Name, Questions: len(s.Texts)}
	}
	return &LeakageCheck{Kind: "cases_leakage", LeakageReport: rep, DevN: len(dev), HoldoutN: len(hold), Salt: salt, Share: share, Searched: searched}, nil
}

// WriteText writes the near-copies across the split, then those in each
// outside source, with a clipped text of the source's line.
func (l *LeakageCheck) WriteText(w io.Writer) error {
	var b bytes.Buffer
	rep := l.LeakageReport
	fmt.Fprintf(&b, "across the split (dev %d, holdout %d; salt %q, share %g), threshold %g:\n", l.DevN, l.HoldoutN, l.Salt, l.Share, rep.Threshold)
	if len(rep.DevHoldout) == 0 {
		fmt.Fprintln(&b, "  none")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  dev\tholdout\tmethod\tscore")
		for _, r := range rep.DevHoldout {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%.2f\n", r.Dev, r.Holdout, r.Method, r.Score)
		}
		tw.Flush()
	}
	names := make([]string, len(l.Searched))
	for i, s := range l.Searched {
		names[i] = fmt.Sprintf("%s (%d)", s.Name, s.Questions)
	}
	list := strings.Join(names, ", ")
	if list == "" {
		list = "none given"
	}
	fmt.Fprintf(&b, "outside sources: %s\n", list)
	if len(l.Searched) > 0 && len(rep.Sources) == 0 {
		fmt.Fprintln(&b, "  none")
	}
	if len(rep.Sources) > 0 {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  id\tsource\tline\tmethod\tscore\ttext")
		for _, r := range rep.Sources {
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%.2f\t%s\n", r.ID, r.Source, r.Line, r.Method, r.Score, clip(r.Text, 60))
		}
		tw.Flush()
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Tables returns the near-copies across the split and in the sources.
func (l *LeakageCheck) Tables() []results.Table {
	split := results.Table{
		Title: "Near-copies across the split",
		Note:  fmt.Sprintf("dev %d, holdout %d; salt %q, share %g; threshold %g", l.DevN, l.HoldoutN, l.Salt, l.Share, l.Threshold),
		Columns: []results.Column{{Name: "dev"}, {Name: "holdout"}, {Name: "method"},
			{Name: "score", Kind: results.KindNumber}},
		Rows: [][]string{},
	}
	for _, r := range l.DevHoldout {
		split.Rows = append(split.Rows, []string{r.Dev, r.Holdout, r.Method, results.Float(r.Score)})
	}
	src := results.Table{
		Title: "Near-copies in outside sources",
		Columns: []results.Column{{Name: "id"}, {Name: "source"}, {Name: "line", Kind: results.KindNumber},
			{Name: "method"}, {Name: "score", Kind: results.KindNumber}, {Name: "text"}},
		Rows: [][]string{},
	}
	for _, r := range l.Sources {
		src.Rows = append(src.Rows, []string{r.ID, r.Source, strconv.Itoa(r.Line), r.Method, results.Float(r.Score), r.Text})
	}
	return []results.Table{split, src}
}

// nouns returns one when n is 1, else many.
func nouns(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
