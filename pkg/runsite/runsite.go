// Package runsite writes the run store as a static site: an index of the
// runs with their figures and intervals and the history charts (each
// metric over the runs, a point with its interval per run), a page per
// run, and a diff page per run and the newest earlier run comparable
// with it (store.Incomparable). Every page is one self-contained HTML
// file with relative links to the others, opened from disk (file://) or
// from a forwarded zip: nothing to serve, nothing fetched (a
// Content-Security-Policy with default-src 'none' and no connect-src,
// and no http or https URL in any page). The index and the run pages
// run no script; a diff page is the page evalbook runs diff --html
// writes (pkg/htmlreport, the report design every command shares),
// whose one inline script, allowed by its hash, lists the rows that
// changed a page at a time.
package runsite

import (
	"bytes"
	"context"
	"encoding/json"
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
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
)

// CSP is the Content-Security-Policy of the index and the run pages:
// nothing from the network, inline styles, images only as data: URLs,
// and no script. A diff page carries htmlreport's (the same, with its
// one script allowed by its hash).
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
	diffs := map[int64]*store.DiffResult{}
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
		diffs[r.ID] = d
		s.next[a] = append(s.next[a], r.ID)
	}
	if err := write("index.html", indexPage(), s.index(diffs)); err != nil {
		return nil, err
	}
	for i := range runs {
		if err := write(runFile(runs[i].ID), runPage(), s.runView(i, diffs)); err != nil {
			return nil, err
		}
	}
	for _, r := range runs {
		d, ok := diffs[r.ID]
		if !ok {
			continue
		}
		// The page runs diff --html writes, with links into the site.
		name := diffFile(d.A.ID, d.B.ID)
		p := results.PageOf("Runs compared", d)
		p.Links = []results.Link{{Text: "All runs", Href: "index.html"}, {Text: "Run " + strconv.FormatInt(d.A.ID, 10), Href: runFile(d.A.ID)},
			{Text: "Run " + strconv.FormatInt(d.B.ID, 10), Href: runFile(d.B.ID)}}
		if err := writeFile(filepath.Join(dir, name), func(w io.Writer) error { return htmlreport.WriteReport(w, p, false) }); err != nil {
			return nil, fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
		sum.Files = append(sum.Files, name)
		sum.Diffs++
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
	Charts  []historyPair
	Hashes  int // distinct content hashes
}

func (s *site) index(diffs map[int64]*store.DiffResult) *indexView {
	v := &indexView{Head: s.head("Run history")}
	seenM := map[string]bool{}
	hashes := map[string]bool{}
	for _, r := range s.runs {
		ir := indexRow{ID: r.ID, File: runFile(r.ID), Time: when(r.Created), Command: show(r.Command), Label: label(r),
			Model: show(r.Model), Data: show(baseName(r.DatasetPath)), ContentHash: r.DatasetHash, Rows: r.Rows, Figures: figures(r)}
		if d, ok := diffs[r.ID]; ok {
			ir.DiffFile, ir.DiffWith = diffFile(d.A.ID, d.B.ID), "run "+strconv.FormatInt(d.A.ID, 10)
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
		wide, ok := s.history(m, true)
		if !ok {
			continue
		}
		narrow, _ := s.history(m, false)
		v.Charts = append(v.Charts, historyPair{Metric: m, Wide: wide, Narrow: narrow})
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

func (s *site) runView(i int, diffs map[int64]*store.DiffResult) *runView {
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
		add("Settings", show(settingsText(r.Settings)))
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
		v.DiffFile, v.DiffLabel = diffFile(d.A.ID, d.B.ID), fmt.Sprintf("run %d → run %d", d.A.ID, d.B.ID)
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

// historyPair is one metric's history chart drawn twice: for a wide
// screen, at the size it is shown with every label whole, and for a phone,
// scaled to the screen's width with labels clipped (the page shows one).
type historyPair struct {
	Metric       string
	Wide, Narrow historyChart
}

// historyChart is one metric's figure in every run that has it, oldest
// at the top: a point and its interval per run, drawn as inline SVG.
type historyChart struct {
	Metric        string
	Wide          bool // drawn at Width px, not scaled to the screen
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

// wideLabelRunes is the longest run label the wide chart prints whole;
// labelUnits is the width of one character of its 13-unit labels, a
// little over Noto Sans's average (0.55 em).
const (
	wideLabelRunes = 60
	labelUnits     = 7.5
)

// history draws metric's chart. The narrow one is 460 units wide, so a
// phone's 374 px draws its 13-unit labels at 10.6 px, and clips labels
// to 24 characters; the wide one is drawn at its own width in px (text
// at 13 px, not scaled up to 20 px by a wide screen), its label column
// as wide as its longest label.
func (s *site) history(metric string, wide bool) (historyChart, bool) {
	c := historyChart{Metric: metric, Wide: wide, Width: 460, PlotX: 170, PlotW: 240}
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
	clipAt := 24
	if wide {
		clipAt = wideLabelRunes
		longest := 0
		for _, r := range pts {
			longest = max(longest, utf8.RuneCountInString(clip(label(r), clipAt)))
		}
		c.PlotX = max(170, 16+int(math.Ceil(labelUnits*float64(longest))))
		c.PlotW = 300
		c.Width = c.PlotX + c.PlotW + 60
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
		p := pointView{Label: clip(label(r), clipAt), File: runFile(r.ID), Y: f1(y), TextY: f1(y + 4), CapY1: f1(y - 5), CapY2: f1(y + 5), X: f1(x(g.Accuracy)),
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

// settingsText is a run's settings as a reader reads them: for a JSON
// object, "key: value" in the object's order, joined by "; ", a list's
// items joined by ", " (a list of lists, such as by's groupings, with
// "×" inside: [["Domain"],["model","language"]] is "Domain, model ×
// language");
// anything else, or JSON that does not parse, is the text as stored.
func settingsText(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return string(raw)
	}
	var parts []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return string(raw)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return string(raw)
		}
		parts = append(parts, fmt.Sprint(k)+": "+settingValue(v, false))
	}
	return strings.Join(parts, "; ")
}

func settingValue(v any, inner bool) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case string:
		return x
	case []any:
		sep := ", "
		if inner {
			sep = " × "
		}
		var items []string
		for _, e := range x {
			if _, nested := e.([]any); nested && !inner {
				sep = ", "
				items = append(items, settingValue(e, true))
				continue
			}
			items = append(items, settingValue(e, inner))
		}
		return strings.Join(items, sep)
	case map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	default:
		return fmt.Sprint(x)
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
