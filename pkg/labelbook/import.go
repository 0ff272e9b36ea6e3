package labelbook

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Warning codes of an import.
const (
	CodeOneLabeller   = "one_labeller"       // one workbook: no agreement to measure
	CodeUnlabelled    = "unlabelled_items"   // items nobody labelled, left out of the labelled file
	CodeUnadjudicated = "unadjudicated"      // items to adjudicate with no decision, left out
	CodeNameFromFile  = "labeller_from_file" // a workbook with no name in B1
)

// Statistics of the agreement table.
const (
	StatCohen  = "cohen_kappa"
	StatFleiss = "fleiss_kappa"
)

// ImportOptions are the interval settings of the agreement and the
// adjudicator's decisions.
type ImportOptions struct {
	Confidence float64
	Resamples  int
	Seed       uint64
	// Adjudicated maps an item's id to the human verdict an adjudicator
	// gave it (ReadAdjudicated); it overrides the labellers' labels.
	Adjudicated map[string]bool
}

// Labeller is what one workbook holds.
type Labeller struct {
	File         string `json:"file"`
	Labeller     string `json:"labeller"`
	NameFromFile bool   `json:"name_from_file"`
	Labelled     int    `json:"labelled"`
	Pass         int    `json:"pass"`
	Fail         int    `json:"fail"`
	Unsure       int    `json:"unsure"`
	Empty        int    `json:"empty"`
}

// Agreement is the agreement of the labellers on one group ("" is all
// items): Cohen's kappa for two labellers (items both labelled), Fleiss'
// for more (items every labeller labelled), over the labels pass, fail
// and unsure, with a percentile bootstrap interval over items
// (agree.BootstrapKappa, agree.BootstrapFleiss). Null figures: fewer
// than two labellers or no item labelled by all.
type Agreement struct {
	Group     string   `json:"group"`
	Statistic string   `json:"statistic"`
	Labellers int      `json:"labellers"`
	N         int      `json:"n"`
	Agreeing  int      `json:"agreeing"`
	Observed  *float64 `json:"observed"`
	Kappa     *float64 `json:"kappa"`
	CILow     *float64 `json:"ci_low"`
	CIHigh    *float64 `json:"ci_high"`
}

// LabelCell is one labeller's label and note on an item.
type LabelCell struct {
	Labeller string `json:"labeller"`
	Label    string `json:"label"`
	Note     string `json:"note,omitempty"`
}

// Adjudication is an item the labellers did not settle: their labels
// differ (disagree) or all who labelled it were unsure (unsure). Human
// is the adjudicator's verdict (0 or 1), null when none was given.
type Adjudication struct {
	ID     string      `json:"id"`
	Group  string      `json:"group"`
	Cell   string      `json:"cell"`
	Reason string      `json:"reason"`
	Labels []LabelCell `json:"labels"`
	Human  *int        `json:"human"`
}

// Row is one row of the labelled file: how it was settled (agreed:
// every label the same; adjudicated) and the verdicts.
type Row struct {
	ID      string `json:"id"`
	Group   string `json:"group"`
	Human   int    `json:"human"`
	Judge   int    `json:"judge"`
	Settled string `json:"settled"`
}

// ImportResult is label import's report: kind "label_import".
type ImportResult struct {
	Kind         string            `json:"kind"`
	Source       string            `json:"source"`
	By           string            `json:"by,omitempty"`
	Seed         uint64            `json:"seed"`
	Digest       string            `json:"digest"`
	Confidence   float64           `json:"confidence"`
	Resamples    int               `json:"resamples"`
	Items        int               `json:"items"`
	Workbooks    []Labeller        `json:"workbooks"`
	Agreement    []Agreement       `json:"agreement"`
	ToAdjudicate []Adjudication    `json:"to_adjudicate"`
	Adjudicated  int               `json:"adjudicated"`
	Labelled     int               `json:"labelled"`
	HumanPass    int               `json:"human_pass"`
	JudgePass    int               `json:"judge_pass"`
	LeftOut      int               `json:"left_out"`
	Rows         []Row             `json:"rows"`
	Warnings     []results.Warning `json:"warnings"`
}

// ErrMismatch matches workbooks of different exports.
var ErrMismatch = errors.New("workbooks of different exports")

// Import puts the labellers' workbooks together: every workbook must come
// from the same export (the same digest) and name a different labeller.
// An item's human verdict is the label every labeller who labelled it
// gave (pass 1, fail 0), or the adjudicator's (opt.Adjudicated); an item
// whose labels differ, or that only got unsure, goes to ToAdjudicate and
// stays out of the labelled rows until adjudicated; an item nobody
// labelled stays out too. Each group's agreement comes with its interval.
func Import(books []*Workbook, opt ImportOptions) (*ImportResult, error) {
	if len(books) == 0 {
		return nil, errors.New("no workbook to import")
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 {
		opt.Confidence = 0.95
	}
	if opt.Resamples < 1 {
		opt.Resamples = 10000
	}
	first := books[0]
	res := &ImportResult{Kind: "label_import", Source: first.Source, By: first.By, Seed: first.Seed, Digest: first.Digest,
		Confidence: opt.Confidence, Resamples: opt.Resamples, Items: len(first.Items),
		Agreement: []Agreement{}, ToAdjudicate: []Adjudication{}, Rows: []Row{}, Warnings: []results.Warning{}}
	if err := res.addWorkbooks(books); err != nil {
		return nil, err
	}
	for id := range opt.Adjudicated {
		if !slices.ContainsFunc(first.Items, func(it Item) bool { return it.ID == id }) {
			return nil, fmt.Errorf("adjudicated id %s is not an item of the workbooks (%d items from %s); adjudicate the items the import lists", tabular.Quote(id), len(first.Items), tabular.Quote(first.Source))
		}
	}
	unlabelled, unadjudicated := res.settle(books, opt.Adjudicated)
	res.Labelled = len(res.Rows)
	res.LeftOut = res.Items - res.Labelled
	res.warnLeftOut(len(books), unlabelled, unadjudicated)
	if len(books) > 1 {
		res.addAgreement(books, opt)
	}
	return res, nil
}

// addWorkbooks checks that the workbooks come from one export and name
// each labeller once, and counts each one's labels (with a warning for a
// labeller named after the file).
func (res *ImportResult) addWorkbooks(books []*Workbook) error {
	first := books[0]
	names := map[string]string{}
	for _, b := range books {
		if b.Digest != first.Digest {
			return fmt.Errorf("%s and %s: %w (their items differ: %s has %d from %s, %s %d from %s); import the workbooks of one export together",
				first.File, b.File, ErrMismatch, first.File, len(first.Items), tabular.Quote(first.Source), b.File, len(b.Items), tabular.Quote(b.Source))
		}
		if other, ok := names[strings.ToLower(b.Labeller)]; ok {
			return fmt.Errorf("%s and %s both name the labeller %s (cell B1 of the Labels sheet, or the file's name when B1 is empty); each labeller's workbook once, under their own name",
				other, b.File, tabular.Quote(b.Labeller))
		}
		names[strings.ToLower(b.Labeller)] = b.File
		s := Labeller{File: b.File, Labeller: b.Labeller, NameFromFile: b.NameFromFile}
		for _, l := range b.Labels {
			switch l {
			case Pass:
				s.Pass++
			case Fail:
				s.Fail++
			case Unsure:
				s.Unsure++
			default:
				s.Empty++
			}
		}
		s.Labelled = s.Pass + s.Fail + s.Unsure
		res.Workbooks = append(res.Workbooks, s)
		if b.NameFromFile {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeNameFromFile, Count: 1,
				Message: fmt.Sprintf("%s has no name in cell B1 of the Labels sheet; the labeller is called %s after the file", b.File, tabular.Quote(b.Labeller))})
		}
	}
	return nil
}

// settle decides each item's human label: the labellers' one label when
// they agree, the adjudicated one when given; an item they disagree on
// or are all unsure of is listed to adjudicate. Settled items become the
// rows; it returns how many items were left out unlabelled and how many
// unadjudicated.
func (res *ImportResult) settle(books []*Workbook, adjudicated map[string]bool) (unlabelled, unadjudicated int) {
	for i, it := range books[0].Items {
		var cells []LabelCell
		distinct := map[string]bool{}
		for _, b := range books {
			if l := b.Labels[i]; l != "" {
				cells = append(cells, LabelCell{Labeller: b.Labeller, Label: l, Note: b.Notes[i]})
				distinct[l] = true
			}
		}
		row := Row{ID: it.ID, Group: it.Group, Judge: int01(it.Judge), Settled: "agreed"}
		reason := ""
		switch {
		case len(cells) == 0:
		case len(distinct) > 1:
			reason = "disagree"
		case distinct[Unsure]:
			reason = "unsure"
		default:
			row.Human = int01(distinct[Pass])
		}
		if reason != "" {
			a := Adjudication{ID: it.ID, Group: it.Group, Cell: cell(2, firstRow+i), Reason: reason, Labels: cells}
			if h, ok := adjudicated[it.ID]; ok {
				a.Human = new(int01(h))
			}
			res.ToAdjudicate = append(res.ToAdjudicate, a)
		}
		if h, ok := adjudicated[it.ID]; ok {
			row.Human, row.Settled = int01(h), "adjudicated"
			res.Adjudicated++
		} else if reason != "" {
			unadjudicated++
			continue
		} else if len(cells) == 0 {
			unlabelled++
			continue
		}
		res.Rows = append(res.Rows, row)
		res.HumanPass += row.Human
		res.JudgePass += row.Judge
	}
	return unlabelled, unadjudicated
}

// warnLeftOut warns of a single labeller (no agreement to measure), of
// items no one labelled and of items left unadjudicated.
func (res *ImportResult) warnLeftOut(labellers, unlabelled, unadjudicated int) {
	if labellers == 1 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeOneLabeller, Count: 1,
			Message: "one workbook: no agreement between labellers to measure; a second labeller on the same export says how far the human labels themselves can be trusted"})
	}
	if unlabelled > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeUnlabelled, Count: unlabelled,
			Message: fmt.Sprintf("%d items have no label in any workbook and are left out of the labelled file", unlabelled)})
	}
	if unadjudicated > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeUnadjudicated, Count: unadjudicated,
			Message: fmt.Sprintf("%d items the labellers did not settle (they disagree, or all were unsure) are left out of the labelled file until adjudicated; the labelled items are then no longer a random sample and the correction is biased, so adjudicate them (--disagreements, then --adjudicated)", unadjudicated)})
	}
}

// addAgreement measures the labellers' agreement over all items and, in
// an export stratified by a column, within each group in the order the
// groups first appear; each group's warnings are named after it.
func (res *ImportResult) addAgreement(books []*Workbook, opt ImportOptions) {
	first := books[0]
	groups := []string{""}
	if first.By != "" {
		for _, it := range first.Items {
			if !slices.Contains(groups, it.Group) {
				groups = append(groups, it.Group)
			}
		}
	}
	for _, g := range groups {
		a, ws := agreement(books, g, opt)
		res.Agreement = append(res.Agreement, a)
		for _, w := range ws {
			w.Message = GroupLabel(g) + ": " + w.Message
			res.Warnings = append(res.Warnings, w)
		}
	}
}

// agreement measures the labellers' agreement on group g ("" all items).
func agreement(books []*Workbook, g string, opt ImportOptions) (Agreement, []results.Warning) {
	a := Agreement{Group: g, Statistic: StatCohen, Labellers: len(books)}
	if len(books) > 2 {
		a.Statistic = StatFleiss
	}
	var items [][]string
	for i, it := range books[0].Items {
		if g != "" && it.Group != g {
			continue
		}
		row := make([]string, len(books))
		full := true
		for j, b := range books {
			row[j] = b.Labels[i]
			full = full && row[j] != ""
		}
		if full {
			items = append(items, row)
		}
	}
	a.N = len(items)
	for _, row := range items {
		if !slices.ContainsFunc(row, func(l string) bool { return l != row[0] }) {
			a.Agreeing++
		}
	}
	if a.N == 0 {
		return a, []results.Warning{{Code: agree.CodeNoKappa, Count: 1, Message: "no item labelled by every labeller: no agreement"}}
	}
	a.Observed = new(float64(a.Agreeing) / float64(a.N))
	var ws []results.Warning
	if len(books) == 2 {
		x, y := make([]string, a.N), make([]string, a.N)
		for i, row := range items {
			x[i], y[i] = row[0], row[1]
		}
		k, err := agree.CohenKappa(x, y)
		if err != nil {
			return a, []results.Warning{{Code: agree.CodeNoKappa, Count: 1, Message: err.Error()}}
		}
		a.Kappa = new(k.Kappa)
		ws = append(ws, k.CodedWarnings()...)
		iv, err := agree.BootstrapKappa(x, y, nil, agree.Unweighted, opt.Resamples, opt.Confidence, opt.Seed)
		if err == nil {
			a.CILow, a.CIHigh = finite(iv.Lo), finite(iv.Hi)
			ws = append(ws, iv.CodedWarnings()...)
		}
		return a, ws
	}
	fk, err := agree.FleissKappa(items)
	if err != nil {
		return a, []results.Warning{{Code: agree.CodeNoKappa, Count: 1, Message: err.Error()}}
	}
	a.Kappa = new(fk.Kappa)
	ws = append(ws, fk.CodedWarnings()...)
	if iv, err := agree.BootstrapFleiss(items, opt.Resamples, opt.Confidence, opt.Seed); err == nil {
		a.CILow, a.CIHigh = finite(iv.Lo), finite(iv.Hi)
		ws = append(ws, iv.CodedWarnings()...)
	}
	return a, ws
}

func finite(x float64) *float64 {
	if x != x || x > 1e308 || x < -1e308 {
		return nil
	}
	return &x
}

func int01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WriteLabelled writes the labelled file evalbook correct --labelled
// reads: CSV with id, human, judge and, when the export was stratified,
// the group column under its name. Cells a spreadsheet would run as a
// formula get a leading ' (tabular.CSVWriter): an id such as "=1+2" is
// then "'=1+2" in the file.
func (r *ImportResult) WriteLabelled(w io.Writer) error {
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{})
	hdr := []string{"id", "human", "judge"}
	if r.By != "" {
		hdr = append(hdr, r.By)
	}
	if err := cw.Write(hdr); err != nil {
		return err
	}
	for _, row := range r.Rows {
		rec := []string{row.ID, itoa(row.Human), itoa(row.Judge)}
		if r.By != "" {
			rec = append(rec, row.Group)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteDisagreements writes the items to adjudicate as CSV: id, the group
// column, each labeller's label and note, and an empty human column for
// the adjudicator (0 or 1, or pass/fail), which ReadAdjudicated reads
// back.
func (r *ImportResult) WriteDisagreements(w io.Writer) error {
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{})
	hdr := []string{"id"}
	if r.By != "" {
		hdr = append(hdr, r.By)
	}
	hdr = append(hdr, "reason")
	for _, b := range r.Workbooks {
		hdr = append(hdr, b.Labeller, b.Labeller+" note")
	}
	hdr = append(hdr, "human")
	if err := cw.Write(hdr); err != nil {
		return err
	}
	for _, a := range r.ToAdjudicate {
		rec := []string{a.ID}
		if r.By != "" {
			rec = append(rec, a.Group)
		}
		rec = append(rec, a.Reason)
		for _, b := range r.Workbooks {
			l, n := "", ""
			for _, c := range a.Labels {
				if c.Labeller == b.Labeller {
					l, n = c.Label, c.Note
				}
			}
			rec = append(rec, l, n)
		}
		h := ""
		if a.Human != nil {
			h = itoa(*a.Human)
		}
		rec = append(rec, h)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadAdjudicated reads an adjudicator's decisions (CSV or JSONL): id and
// human (1, 0, true, false, pass or fail; an empty cell is not decided
// yet and skipped). Other columns (the disagreements file's) are
// ignored. Errors are *tabular.ParseError naming the line and column.
func ReadAdjudicated(r io.Reader, name string) (map[string]bool, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	idCol, humanCol := rd.Index("id"), rd.Index("human")
	for _, c := range []struct {
		i    int
		name string
	}{{idCol, "id"}, {humanCol, "human"}} {
		if c.i < 0 {
			return nil, &tabular.ParseError{File: name, Line: 1, Field: c.name, Err: fmt.Errorf("no column %q; the header has %s (an adjudication file needs id and human)", c.name, tabular.QuoteList(rd.Header()))}
		}
	}
	out := map[string]bool{}
	lines := map[string]int{}
	for rd.Scan() {
		rec := rd.Record()
		id := tabular.UnguardFormula(strings.TrimSpace(rec.Fields[idCol]))
		if id == "" {
			return nil, rd.Errorf(idCol, "empty id")
		}
		if l, ok := lines[id]; ok {
			return nil, rd.Errorf(idCol, "id %s repeats line %d; one decision per item", tabular.Quote(id), l)
		}
		lines[id] = rec.Line
		switch v := normLabel(rec.Fields[humanCol]); v {
		case "":
		case "1", "true", Pass:
			out[id] = true
		case "0", "false", Fail:
			out[id] = false
		default:
			return nil, rd.Errorf(humanCol, "%s is not a verdict: want 1 or 0 (pass or fail), or empty for not decided", tabular.Quote(tabular.GuardFormula(rec.Fields[humanCol])))
		}
	}
	return out, rd.Err()
}
