// Package runsite writes the run store as a static site: an index of the
// runs with their figures and intervals and the history charts (each
// metric over the runs, a point with its interval per run), a page per
// run, and a diff page per run and the newest earlier run comparable
// with it (store.Incomparable). Every page is one self-contained HTML
// file with relative links to the others, opened from disk (file://) or
// from a forwarded zip: nothing to serve, nothing fetched (a
// Content-Security-Policy with default-src 'none' and no connect-src,
// no script, and no http or https URL in any page).
package runsite

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
)

// CSP is every page's Content-Security-Policy: nothing from the network,
// inline styles, images only as data: URLs, and no script.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

// Options configures Write.
type Options struct {
	// Flips is the number of flipped rows each diff page lists each way
	// per metric (0 means 50; -1 all).
	Flips int
	// Confidence, Resamples and Seed are the diffs' paired intervals (0:
	// store.DiffOptions' defaults).
	Confidence float64
	Resamples  int
	Seed       uint64
	// Tool names the program in the pages' footers.
	Tool string
	// Now is the time the pages say they were made (zero: not said).
	Now time.Time
}

// Summary says what Write wrote.
type Summary struct {
	Dir   string
	Runs  int
	Diffs int
	Files []string // base names, in the order written
	// Skipped lists the pairs whose diff could not be made, and why.
	Skipped []string
}

// WriteFile is how Write writes one file: create (or replace) path with
// what write writes. A command passes one that writes atomically.
type WriteFile func(path string, write func(io.Writer) error) error

// Write writes the site of st's runs into dir (created if missing) with
// writeFile (nil: os.Create). The store must hold a run.
func Write(ctx context.Context, st *store.Store, dir string, opt Options, writeFile WriteFile) (*Summary, error) {
	if writeFile == nil {
		writeFile = plainWrite
	}
	if opt.Flips == 0 {
		opt.Flips = 50
	}
	list, err := st.List(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("the run store holds no run: record one with evalbook score --record (or judge, mc, task run, generate --record)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	runs := make([]store.Run, 0, len(list))
	for _, r := range list {
		full, err := st.Get(ctx, strconv.FormatInt(r.ID, 10))
		if err != nil {
			return nil, fmt.Errorf("run %d: %w", r.ID, err)
		}
		runs = append(runs, full)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	sum := &Summary{Dir: dir, Runs: len(runs)}
	s := &site{opt: opt, runs: runs, prev: map[int64]int64{}, next: map[int64][]int64{}}
	// Each run's diff partner: the newest earlier run comparable with it.
	for i, r := range runs {
		for j := i - 1; j >= 0; j-- {
			if len(store.Incomparable(runs[j], r)) == 0 {
				s.prev[r.ID] = runs[j].ID
				break
			}
		}
	}
	write := func(name string, t *template.Template, data any) error {
		if err := writeFile(filepath.Join(dir, name), func(w io.Writer) error { return t.Execute(w, data) }); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
		sum.Files = append(sum.Files, name)
		return nil
	}
	diffs := map[int64]*diffView{}
	for _, r := range runs {
		a, ok := s.prev[r.ID]
		if !ok {
			continue
		}
		d, err := st.Diff(ctx, strconv.FormatInt(a, 10), strconv.FormatInt(r.ID, 10), store.DiffOptions{
			Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed, Flips: opt.Flips, Texts: true})
		if err != nil {
			sum.Skipped = append(sum.Skipped, fmt.Sprintf("runs %d and %d: %v", a, r.ID, err))
			delete(s.prev, r.ID)
			continue
		}
		dv := s.diffView(d)
		diffs[r.ID] = dv
		s.next[a] = append(s.next[a], r.ID)
	}
	if err := write("index.html", indexPage, s.index(diffs)); err != nil {
		return nil, err
	}
	for i := range runs {
		if err := write(runFile(runs[i].ID), runPage, s.runView(i, diffs)); err != nil {
			return nil, err
		}
	}
	for _, r := range runs {
		if dv, ok := diffs[r.ID]; ok {
			if err := write(dv.File, diffPage, dv); err != nil {
				return nil, err
			}
			sum.Diffs++
		}
	}
	return sum, nil
}

func plainWrite(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func runFile(id int64) string    { return fmt.Sprintf("run-%d.html", id) }
func diffFile(a, b int64) string { return fmt.Sprintf("diff-%d-%d.html", a, b) }
func pct(x float64) string       { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }
func when(t time.Time) string    { return t.UTC().Format("2006-01-02 15:04 UTC") }
func baseName(p string) string   { return results.DisplayName(p) }
func show(s string) string       { return results.ShowInvisible(s) }
func signedPP(x float64) string {
	s := strconv.FormatFloat(100*x, 'f', 1, 64)
	if x > 0 {
		s = "+" + s
	}
	return s + " pp"
}

// pText is a p-value as people read it: below 0.001 as "< 0.001".
func pText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 0.001:
		return "< 0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

type site struct {
	opt  Options
	runs []store.Run
	prev map[int64]int64   // run -> the run its diff page compares it with
	next map[int64][]int64 // run -> the runs whose diff pages compare with it
}

// pageHead is what every page's header says.
type pageHead struct {
	Title, CSP, CSS, Tool, Made string
}

func (s *site) head(title string) pageHead {
	h := pageHead{Title: title, CSP: CSP, CSS: css, Tool: s.opt.Tool}
	if !s.opt.Now.IsZero() {
		h.Made = when(s.opt.Now)
	}
	return h
}

// figure is one metric's overall figure in a run.
type figure struct {
	Metric, Value, Interval string
	N                       int
}

func overall(r store.Run) map[string]store.GroupScore {
	m := map[string]store.GroupScore{}
	for _, g := range r.Groups {
		if g.By == "" && g.Group == "" {
			m[g.Metric] = g
		}
	}
	return m
}

func figures(r store.Run) []figure {
	all := overall(r)
	var out []figure
	for _, m := range r.Metrics {
		g, ok := all[m.ID]
		if !ok {
			continue
		}
		f := figure{Metric: m.ID, Value: pct(g.Accuracy), N: g.N}
		if g.CILow != g.CIHigh || g.CILow != g.Accuracy {
			f.Interval = pct(g.CILow) + " – " + pct(g.CIHigh)
		}
		out = append(out, f)
	}
	return out
}

// label is how a page names a run: its number, and its title or model.
func label(r store.Run) string {
	l := "run " + strconv.FormatInt(r.ID, 10)
	switch {
	case r.Title != "":
		l += " · " + show(r.Title)
	case r.Model != "":
		l += " · " + show(r.Model)
	}
	return l
}

type indexRow struct {
	ID                              int64
	File, Time, Command, Label      string
	Model, Data, ContentHash        string
	Rows                            int
	Figures                         []figure
	DiffFile, DiffWith, NotCompared string
}

type indexView struct {
	Head    pageHead
	Runs    []indexRow
	Metrics []string
	Charts  []historyChart
	Hashes  int // distinct content hashes
}

func (s *site) index(diffs map[int64]*diffView) *indexView {
	v := &indexView{Head: s.head("Run history")}
	seenM := map[string]bool{}
	hashes := map[string]bool{}
	for _, r := range s.runs {
		ir := indexRow{ID: r.ID, File: runFile(r.ID), Time: when(r.Created), Command: show(r.Command), Label: label(r),
			Model: show(r.Model), Data: show(baseName(r.DatasetPath)), ContentHash: r.DatasetHash, Rows: r.Rows, Figures: figures(r)}
		if d, ok := diffs[r.ID]; ok {
			ir.DiffFile, ir.DiffWith = d.File, "run "+strconv.FormatInt(d.A.ID, 10)
		} else {
			ir.NotCompared = "no earlier comparable run"
		}
		v.Runs = append(v.Runs, ir)
		hashes[r.DatasetHash] = true
		for _, m := range r.Metrics {
			if !seenM[m.ID] {
				seenM[m.ID] = true
				v.Metrics = append(v.Metrics, m.ID)
			}
		}
	}
	v.Hashes = len(hashes)
	slices.Reverse(v.Runs) // newest first
	for _, m := range v.Metrics {
		if c, ok := s.history(m); ok {
			v.Charts = append(v.Charts, c)
		}
	}
	return v
}

type kv struct{ K, V string }

type groupTable struct {
	By   string
	Rows []groupRow
}

type groupRow struct {
	Group, Metric, Value, Interval string
	N, Blank                       int
}

type runView struct {
	Head                pageHead
	R                   store.Run
	Label               string
	Facts               []kv
	Figures             []figure
	Groups              []groupTable
	Warnings            []results.Warning
	PrevFile, PrevLabel string
	NextFile, NextLabel string
	DiffFile, DiffLabel string
	Later               []kv // diff pages that compare a later run with this one: file, label
}

func (s *site) runView(i int, diffs map[int64]*diffView) *runView {
	r := s.runs[i]
	v := &runView{Head: s.head(label(r)), R: r, Label: label(r), Figures: figures(r), Warnings: r.Warnings}
	add := func(k, val string) {
		if val != "" {
			v.Facts = append(v.Facts, kv{k, val})
		}
	}
	add("Time", when(r.Created))
	add("Command", show(r.Command))
	add("Tool", show(r.Tool))
	add("Title", show(r.Title))
	add("Model", show(r.Model))
	add("Data", show(baseName(r.DatasetPath)))
	add("File hash", r.DatasetFileHash+" (SHA-256 of the file's bytes)")
	if r.DatasetFileHash == "" {
		v.Facts = v.Facts[:len(v.Facts)-1]
	}
	add("Content hash", r.DatasetHash+" (of the rows, in any order: runs with the same one are compared)")
	add("Rows", strconv.Itoa(r.Rows)+" (paired by "+r.KeyKind+")")
	add("Prompt hash", r.PromptHash)
	add("Judge prompt hash", r.JudgePromptHash)
	add("Normalisation", show(r.Normalizer))
	if r.TokensIn != nil || r.TokensOut != nil {
		add("Tokens", "in "+optInt(r.TokensIn)+", out "+optInt(r.TokensOut))
	}
	if r.Cost != nil {
		add("Cost", strconv.FormatFloat(*r.Cost, 'f', 4, 64))
	}
	if len(r.Settings) > 0 {
		add("Settings", show(string(r.Settings)))
	}
	byIdx := map[string]int{}
	for _, g := range r.Groups {
		if g.By == "" {
			continue
		}
		k, ok := byIdx[g.By]
		if !ok {
			k = len(v.Groups)
			byIdx[g.By] = k
			v.Groups = append(v.Groups, groupTable{By: show(g.By)})
		}
		gr := groupRow{Group: show(g.Group), Metric: g.Metric, Value: pct(g.Accuracy), N: g.N, Blank: g.Blank}
		if g.CILow != g.CIHigh || g.CILow != g.Accuracy {
			gr.Interval = pct(g.CILow) + " – " + pct(g.CIHigh)
		}
		v.Groups[k].Rows = append(v.Groups[k].Rows, gr)
	}
	if i > 0 {
		v.PrevFile, v.PrevLabel = runFile(s.runs[i-1].ID), label(s.runs[i-1])
	}
	if i+1 < len(s.runs) {
		v.NextFile, v.NextLabel = runFile(s.runs[i+1].ID), label(s.runs[i+1])
	}
	if d, ok := diffs[r.ID]; ok {
		v.DiffFile, v.DiffLabel = d.File, fmt.Sprintf("run %d → run %d", d.A.ID, d.B.ID)
	}
	for _, b := range s.next[r.ID] {
		v.Later = append(v.Later, kv{diffFile(r.ID, b), fmt.Sprintf("run %d → run %d", r.ID, b)})
	}
	return v
}

func optInt(p *int64) string {
	if p == nil {
		return "unknown"
	}
	return strconv.FormatInt(*p, 10)
}

type diffMetric struct {
	Metric, A, B, Delta, Interval, SignP, McNemarP, Class string
	N, Better, Worse                                      int
	Groups                                                []diffGroup
	Flips                                                 []flipView
}

type diffGroup struct {
	By, Group, A, B, Delta, Interval, SignP, Class string
	N, Better, Worse                               int
}

type flipView struct {
	ID, Question, Golden, RespA, RespB, Dir string
	A, B                                    string
}

type diffView struct {
	Head         pageHead
	File         string
	A, B         store.RunRef
	FileA, FileB string
	LabelA       string
	LabelB       string
	Paired       int
	OnlyA, OnlyB int
	Level        string
	Metrics      []diffMetric
	Warnings     []results.Warning
}

func deltaClass(x float64) string {
	switch {
	case x > 0:
		return "up"
	case x < 0:
		return "down"
	}
	return ""
}

func (s *site) runByID(id int64) store.Run {
	for _, r := range s.runs {
		if r.ID == id {
			return r
		}
	}
	return store.Run{ID: id}
}

func (s *site) diffView(d *store.DiffResult) *diffView {
	v := &diffView{File: diffFile(d.A.ID, d.B.ID), A: d.A, B: d.B, FileA: runFile(d.A.ID), FileB: runFile(d.B.ID),
		LabelA: label(s.runByID(d.A.ID)), LabelB: label(s.runByID(d.B.ID)), Paired: d.Paired, OnlyA: d.OnlyA, OnlyB: d.OnlyB,
		Level: strconv.FormatFloat(100*d.Confidence, 'g', -1, 64) + "%", Warnings: d.Warnings}
	v.Head = s.head(fmt.Sprintf("Run %d → run %d", d.A.ID, d.B.ID))
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	for _, m := range d.Metrics {
		dm := diffMetric{Metric: m.Metric, A: pct(m.MeanA), B: pct(m.MeanB), Delta: signedPP(m.Delta), Interval: signedPP(m.DeltaLow) + " to " + signedPP(m.DeltaHigh),
			SignP: pText(m.SignP), McNemarP: pText(m.McNemarP), Class: deltaClass(m.Delta), N: m.N, Better: m.Better, Worse: m.Worse}
		for _, g := range m.Groups {
			dm.Groups = append(dm.Groups, diffGroup{By: show(g.By), Group: show(g.Group), A: pct(g.MeanA), B: pct(g.MeanB), Delta: signedPP(g.Delta),
				Interval: signedPP(g.DeltaLow) + " to " + signedPP(g.DeltaHigh), SignP: pText(g.SignP), Class: deltaClass(g.Delta), N: g.N, Better: g.Better, Worse: g.Worse})
		}
		for dir, rows := range [][]store.Flip{m.WorseRows, m.BetterRows} {
			for _, f := range rows {
				fv := flipView{ID: show(f.ID), A: num(f.A), B: num(f.B), Dir: "worse"}
				if dir == 1 {
					fv.Dir = "better"
				}
				if f.TextA != nil {
					fv.Question, fv.Golden, fv.RespA = f.TextA.Question, f.TextA.Answer, f.TextA.Response
				}
				if f.TextB != nil {
					fv.RespB = f.TextB.Response
					if fv.Question == "" {
						fv.Question, fv.Golden = f.TextB.Question, f.TextB.Answer
					}
				}
				dm.Flips = append(dm.Flips, fv)
			}
		}
		v.Metrics = append(v.Metrics, dm)
	}
	return v
}

// historyChart is one metric's figure in every run that has it, oldest
// at the top: a point and its interval per run, drawn as inline SVG.
type historyChart struct {
	Metric        string
	Width, Height int
	PlotX, PlotW  int
	Ticks         []tickView
	Points        []pointView
	Reference     string // the newest run's content hash
	Mixed         bool   // some point is on another dataset
}

type tickView struct {
	X     string
	Label string
}

type pointView struct {
	Label, File, Tip    string
	Y, X, Lo, Hi, TextY string
	CapY1, CapY2        string
	Value               string
	Comparable          bool
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

func (s *site) history(metric string) (historyChart, bool) {
	// 460 units wide, so a phone's 374 px draws its 13-unit labels at
	// 10.6 px; a wide screen scales it up to 700 px.
	c := historyChart{Metric: metric, Width: 460, PlotX: 170, PlotW: 240}
	const rowH = 26
	var pts []store.Run
	for _, r := range s.runs {
		if _, ok := overall(r)[metric]; ok {
			pts = append(pts, r)
		}
	}
	if len(pts) == 0 {
		return c, false
	}
	c.Reference = pts[len(pts)-1].DatasetHash
	top := 28
	c.Height = top + rowH*len(pts) + 10
	x := func(v float64) float64 { return float64(c.PlotX) + max(0, min(1, v))*float64(c.PlotW) }
	for i := 0; i <= 10; i += 2 {
		c.Ticks = append(c.Ticks, tickView{X: f1(x(float64(i) / 10)), Label: strconv.Itoa(10*i) + "%"})
	}
	for i, r := range pts {
		g := overall(r)[metric]
		y := float64(top + rowH*i + rowH/2)
		p := pointView{Label: clip(label(r), 24), File: runFile(r.ID), Y: f1(y), TextY: f1(y + 4), CapY1: f1(y - 5), CapY2: f1(y + 5), X: f1(x(g.Accuracy)),
			Lo: f1(x(g.CILow)), Hi: f1(x(g.CIHigh)), Value: pct(g.Accuracy), Comparable: r.DatasetHash == c.Reference}
		p.Tip = fmt.Sprintf("%s, %s: %s (interval %s to %s, n %d)", label(r), when(r.Created), pct(g.Accuracy), pct(g.CILow), pct(g.CIHigh), g.N)
		if !p.Comparable {
			c.Mixed = true
			p.Tip += "; another dataset (content hash " + r.DatasetHash + ")"
		}
		c.Points = append(c.Points, p)
	}
	return c, true
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
