package xlsxreport

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// summaryWords is the narrowest and widest the Summary's last column
// (the key figures in words) is; long texts are merged over columns B to G.
const summaryWords, summaryWordsMax = 52, 84

// keyHeader is the header of the Summary's key figures.
var keyHeader = []string{"metric", "correct", "n", "accuracy", "CI low", "CI high", "in words"}

// summaryWidths returns the Summary sheet's column widths from its
// content: column A fits the longest label (and metric id), columns B
// to F their header or widest figure, with room for the bold header.
func summaryWidths(s *results.Score, labels []string) []float64 {
	w := make([]float64, 7)
	fit := func(c int, text string) {
		w[c] = max(w[c], float64(utf16Len(text))*1.1+2)
	}
	for _, l := range labels {
		fit(0, l)
	}
	for _, id := range s.Settings.Metrics {
		fit(0, id)
		ms := s.Combined.Metrics[id]
		fit(1, trimFloat(ms.Correct))
		for c, v := range []float64{ms.Accuracy, ms.CILow, ms.CIHigh} {
			fit(3+c, pct(v))
		}
	}
	fit(2, fmt.Sprint(s.Combined.N))
	for c, h := range keyHeader[:6] {
		fit(c, h)
	}
	w[0] = min(max(w[0], 14), 32)
	for _, id := range s.Settings.Metrics {
		w[6] = max(w[6], float64(utf16Len(keyWords(s, id)))+4)
	}
	w[6] = min(max(w[6], summaryWords), summaryWordsMax)
	return w
}

// keyWords says a metric's key figures in words.
func keyWords(s *results.Score, id string) string {
	ms := s.Combined.Metrics[id]
	words := fmt.Sprintf("%s of %s rows correct (%s)", trimFloat(ms.Correct), results.Commas(int64(metricN(s.Combined, id))), pct(ms.Accuracy))
	if s.Settings.CI != "none" && s.Settings.CI != "" {
		words += fmt.Sprintf("; %s from %s to %s", ciText(s), pct(ms.CILow), pct(ms.CIHigh))
	}
	return words
}

// summarySheet writes the Summary: provenance, settings, key figures, a
// guide to the sheets, and what each metric means. It is written last,
// when the other sheets and the rendering notes are known.
func (b *book) summarySheet() error {
	s := b.s
	const name = "Summary"
	if err := b.printLayout(name); err != nil {
		return err
	}
	sw := &summaryWriter{b: b, g: b.grid(name), s: s, widths: summaryWidths(s, nil)}
	// text is the width in characters of the merged B:G text cells.
	for _, x := range sw.widths[1:] {
		sw.text += x
	}
	g := sw.g
	g.set(1, 1, title(s), b.st.title)
	by := s.Tool
	if s.Created != nil {
		by += ", " + s.Created.UTC().Format("2006-01-02 15:04 UTC")
	}
	g.set(1, 2, by, b.st.subtitle)
	sw.row = 3
	if err := sw.verdict(); err != nil {
		return err
	}
	sw.settings()
	sw.keyFigures()
	sw.sheetGuide()
	sw.metricMeanings()
	if len(b.notes) > 0 {
		sw.section("Notes")
		for _, n := range b.notes {
			sw.pair("Note", n)
		}
	}
	sw.widths[0] = summaryWidths(s, sw.labels)[0]
	g.widths(sw.widths...)
	if g.err != nil {
		return g.err
	}
	// The title stays in view, and heads every printed page.
	b.printTitles[name] = 1
	return b.f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: 2, TopLeftCell: "A3", ActivePane: "bottomLeft"})
}

// summaryWriter writes the Summary sheet of a Score a row at a time.
type summaryWriter struct {
	b      *book
	g      *grid
	s      *results.Score
	row    int       // the last row written
	labels []string  // the labels of column A, which its width fits
	widths []float64 // the columns' widths (summaryWidths)
	text   float64   // the width in characters of the merged B:G text cells
}

// section writes a section's title two rows down, shaded over A:G.
func (sw *summaryWriter) section(t string) {
	sw.row += 2
	sw.g.set(1, sw.row, t, sw.b.st.section)
	for c := 2; c <= 7; c++ {
		sw.g.set(c, sw.row, "", sw.b.st.section)
	}
}

// pair writes a label and its value on the next row: text merged over
// B:G, an integer left-aligned, anything else as is.
func (sw *summaryWriter) pair(label string, v any) {
	g, st := sw.g, sw.b.st
	sw.row++
	sw.labels = append(sw.labels, label)
	g.set(1, sw.row, label, st.label)
	switch x := v.(type) {
	case string:
		g.text(2, 7, sw.row, x, st.wrap, sw.text)
	case int:
		// Left-aligned, like the settings' text beside it, and as
		// tall as a one-line text row.
		g.set(2, sw.row, x, st.intLeft)
		if g.err == nil {
			g.err = g.f.SetRowHeight(g.sheet, sw.row, rowHeight("", 1))
		}
	default:
		g.set(2, sw.row, x, st.text)
	}
}

// verdict writes the verdict in words (results.Score.Headline), as on
// every result's Summary, and its notes under it.
func (sw *summaryWriter) verdict() error {
	h := sw.s.Headline()
	if h.Verdict == "" {
		return nil
	}
	tone := h.Tone
	if tone == "" {
		tone = results.ToneNeutral
	}
	st, err := sw.b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true, Size: 13, Color: toneFill[tone][1]},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{toneFill[tone][0]}},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "center"}})
	if err != nil {
		return err
	}
	sw.g.text(1, 7, sw.row, h.Verdict, st, (sw.widths[0]+sw.text)*0.8)
	for _, n := range h.Notes {
		sw.row++
		sw.g.text(1, 7, sw.row, n, sw.b.st.muted, sw.widths[0]+sw.text)
	}
	return nil
}

// settings writes the Data and settings section: the file, its hash and
// rows, the metrics, normalisation, grouping and intervals.
func (sw *summaryWriter) settings() {
	s := sw.s
	sw.section("Data and settings")
	sw.pair("Dataset", s.Dataset.Path)
	sw.pair("Format", s.Dataset.Format)
	sw.pair("File hash", s.Dataset.Hash+" (the first 12 hex digits of SHA-256 over the file's bytes: the same hash means the same file; the run store's content hash, of the rows in any order, is another)")
	sw.pair("Rows", s.Dataset.Rows)
	sw.pair("Metrics", strings.Join(s.Settings.Metrics, ", "))
	sw.pair("Normalisation", normText(s.Settings.Normalize))
	var bys []string
	for _, b := range s.Settings.By {
		bys = append(bys, strings.Join(b, " × "))
	}
	if len(bys) == 0 {
		bys = []string{"no grouping (combined figures only)"}
	}
	sw.pair("Grouped by", strings.Join(bys, "; "))
	iv := ciText(s)
	if s.Settings.CI == "bootstrap" {
		iv += fmt.Sprintf(", %d resamples, seed %d", s.Settings.Resamples, s.Settings.Seed)
	}
	sw.pair("Intervals", iv)
}

// keyFigures writes the Key figures section: a row per metric (correct,
// n, accuracy, interval, in words), then blank responses, empty golden
// answers, disagreements between metrics and the warnings' codes.
func (sw *summaryWriter) keyFigures() {
	s, g, st := sw.s, sw.g, sw.b.st
	sw.section("Key figures (all rows)")
	sw.row++
	for c, h := range keyHeader {
		hs := st.headerNum
		switch c {
		case 0:
			hs = st.header
		case 6: // indented: clear of the right-aligned "CI high"
			hs = st.headerIndent
		}
		g.set(c+1, sw.row, h, hs)
	}
	for _, id := range s.Settings.Metrics {
		ms := s.Combined.Metrics[id]
		sw.row++
		row := sw.row
		g.set(1, row, id, st.label)
		if ms.Correct == float64(int64(ms.Correct)) {
			g.set(2, row, ms.Correct, st.integer)
		} else {
			g.set(2, row, ms.Correct, st.decimal)
		}
		g.set(3, row, metricN(s.Combined, id), st.integer)
		g.set(4, row, ms.Accuracy, st.percent)
		g.set(5, row, ms.CILow, st.percent)
		g.set(6, row, ms.CIHigh, st.percent)
		g.text(7, 7, row, keyWords(s, id), st.words, sw.widths[6]-3)
	}
	sw.pair("Blank responses", s.Combined.Blank)
	sw.pair("Empty golden answers", s.Combined.EmptyGolden)
	for _, a := range s.Agreement {
		if t := a.Total(); t > 0 {
			d := a.OnlyFirst + a.OnlySecond
			sw.pair("Disagreement", fmt.Sprintf("%s and %s disagree on %d of %d rows (%s): only %s passes on %d, only %s on %d. See the Agreement sheet.",
				a.First, a.Second, d, t, pct(float64(d)/float64(t)), a.First, a.OnlyFirst, a.Second, a.OnlySecond))
		}
	}
	if len(s.Warnings) > 0 {
		var codes []string
		for _, w := range s.Warnings {
			codes = append(codes, fmt.Sprintf("%s (%d)", w.Code, w.Count))
		}
		sw.pair("Warnings", strings.Join(codes, ", ")+". See the Warnings sheet.")
	}
}

// sheetGuide writes the Sheets in this workbook section: what each
// sheet holds, and why the verdict sheets are missing when they are.
func (sw *summaryWriter) sheetGuide() {
	sw.section("Sheets in this workbook")
	for _, sh := range sw.b.order {
		sw.pair(sh, sw.b.describe(sh))
	}
	if sw.b.rows == nil {
		sw.pair("(no verdicts)", "No verdict file was given, so there are no Verdicts and Disagreements sheets. Score with --out FILE (or pass --verdicts FILE to evalbook report) to include every row.")
	}
}

// metricMeanings writes the What each metric means section: each
// metric's name, whether it is graded, its rule, false positives and
// negatives, blank handling and source.
func (sw *summaryWriter) metricMeanings() {
	defs := map[string]results.MetricDef{}
	for _, d := range sw.s.Metrics {
		defs[d.ID] = d
	}
	sw.section("What each metric means")
	for _, id := range sw.s.Settings.Metrics {
		d, ok := defs[id]
		if !ok {
			continue
		}
		sw.row++
		head := id
		if d.Name != "" {
			head += ": " + d.Name
		}
		if d.Graded {
			head += " (graded: a score from 0 to 1 per row; accuracy is the mean score)"
		}
		sw.g.text(1, 7, sw.row, head, sw.b.st.label, 130)
		for _, f := range []struct{ label, text string }{
			{"Rule", d.Rule}, {"False positives", d.FalsePositives}, {"False negatives", d.FalseNegatives},
			{"Blank and empty", d.Blank}, {"Source", d.Source},
		} {
			if f.text != "" {
				sw.pair(f.label, f.text)
			}
		}
	}
}

// describe says what a sheet holds, and what of it is printed when only
// its first rows are.
func (b *book) describe(sheet string) string {
	d := b.describeSheet(sheet)
	if n, ok := b.printedRows[sheet]; ok {
		d += fmt.Sprintf(" Printed: the first %d of its %d rows (its print area; clear it to print them all).", printedRows, n)
	}
	return d
}

func (b *book) describeSheet(sheet string) string {
	if t, ok := b.tableTitles[sheet]; ok {
		return t + "."
	}
	switch {
	case sheet == "Summary":
		return "This page: data, settings, key figures, and what each metric means."
	case sheet == "Agreement":
		return "For each pair of binary metrics: rows where both pass, neither, only one; per group; example rows."
	case sheet == "Warnings":
		return "Everything the reader must know about the data: counts and first lines."
	case strings.HasPrefix(sheet, "Verdicts"):
		return "Every row with its verdict per metric (1 pass, 0 fail), as a filterable table. Passes are green, failures red."
	case strings.HasPrefix(sheet, "Disagreements"):
		return "The rows where the binary metrics disagree (one passes, another fails), for review; 'row' is the row's place in Verdicts."
	case strings.HasPrefix(sheet, "By "):
		return "Accuracy per group with intervals, a combined row, and a bar chart."
	}
	return ""
}

func normText(p string) string {
	switch p {
	case "", "none":
		return "none (the seed protocols exactly: lower-casing only)"
	case "nfc":
		return "nfc (Unicode NFC on both sides before scoring)"
	case "indic":
		return "indic (NFC, zero-width joiners removed, Indic digits folded to ASCII, punctuation such as the danda stripped from word ends, before scoring)"
	}
	return p
}

func trimFloat(x float64) string {
	if x == float64(int64(x)) {
		return results.Commas(int64(x))
	}
	return fmt.Sprintf("%.2f", x)
}

// metricN is the number of rows of g with a value of metric id: the
// group's n, or the metric's own n when fewer rows have one (a harness
// metric that only some tasks report).
func metricN(g results.Group, id string) int {
	if ms := g.Metrics[id]; ms.N > 0 {
		return ms.N
	}
	return g.N
}
