package chart

import (
	"encoding/xml"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"gonum.org/v1/plot/vg"
)

// svgText is one <text> of gonum/plot's SVG: its x, its font-family and
// size (from its style) and its text.
type svgText struct {
	X      float64
	Family string
	Size   float64
	Text   string
}

var (
	textRE  = regexp.MustCompile(`(?s)<text x="([-0-9.e]+)" y="[-0-9.e]+"[^>]*?style="([^"]*)"[^>]*>(.*?)</text>`)
	styleRE = regexp.MustCompile(`font-family:([^;]+);.*font-size:([0-9.]+)px`)
)

func svgTexts(t *testing.T, svg string) []svgText {
	t.Helper()
	var out []svgText
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		x, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatalf("text x %q: %v", m[1], err)
		}
		st := styleRE.FindStringSubmatch(m[2])
		if st == nil {
			t.Fatalf("text %q: no font-family and size in style %q", m[3], m[2])
		}
		size, _ := strconv.ParseFloat(st[2], 64)
		out = append(out, svgText{X: x, Family: st[1], Size: size, Text: html.UnescapeString(m[3])})
	}
	return out
}

// indicScore is a score with one group per language, named in its own
// script: Hindi, Bengali, Tamil and Telugu, and English.
func indicScore() *results.Score {
	s := &results.Score{Settings: results.Settings{Metrics: []string{"exact_match"}, CI: "wilson", Confidence: 0.95}}
	for i, name := range []string{"हिन्दी", "বাংলা", "தமிழ்", "తెలుగు", "English"} {
		acc := 0.4 + 0.1*float64(i)
		s.Groups = append(s.Groups, results.Group{By: "language", Group: name, N: 100,
			Metrics: map[string]results.MetricScore{"exact_match": {Correct: 100 * acc, Accuracy: acc, CILow: acc - 0.09, CIHigh: acc + 0.09}}})
	}
	return s
}

// An SVG chart with Hindi, Bengali, Tamil and Telugu group names places
// every label inside the picture: each run of text starts at x >= 0 and
// ends (its width shaped with the font it names) within the width, and
// names a font that has the script's glyphs. Before, labels were placed
// by the width of a Latin font without Indic glyphs, and हिन्दी began at
// x = -62, so a browser showed only its last vowel sign.
func TestSVGIndicLabelsInside(t *testing.T) {
	h := handler()
	if !h.ok() || len(h.missing) > 0 {
		t.Skipf("the Noto Sans fonts are not installed (missing %v; .ci/run installs fonts-noto-core)", h.missing)
	}
	f, err := Accuracy(indicScore(), "language")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 0 {
		t.Errorf("warnings for labels the fonts can draw: %v", f.Warnings)
	}
	b, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, "indic-labels.svg"), b, 0o644)
	}
	var root struct {
		Width string `xml:"width,attr"`
	}
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	width, err := strconv.ParseFloat(strings.TrimSuffix(root.Width, "pt"), 64)
	if err != nil {
		t.Fatalf("svg width %q: %v", root.Width, err)
	}
	wantFamily := map[string]string{"हिन्दी": "Noto Sans Devanagari", "বাংলা": "Noto Sans Bengali", "தமிழ்": "Noto Sans Tamil", "తెలుగు": "Noto Sans Telugu", "English": "Noto Sans"}
	seen := map[string]bool{}
	for _, tx := range svgTexts(t, string(b)) {
		w := float64(advance(h.shape(tx.Text, vg.Points(tx.Size))))
		if tx.X < 0 || tx.X+w > width+0.5 {
			t.Errorf("label %q from x = %.1f to %.1f: outside the picture (0 to %.1f)", tx.Text, tx.X, tx.X+w, width)
		}
		if want, ok := wantFamily[tx.Text]; ok {
			seen[tx.Text] = true
			if tx.Family != want {
				t.Errorf("label %q names font-family %q, want %q", tx.Text, tx.Family, want)
			}
		}
	}
	for name := range wantFamily {
		if !seen[name] {
			t.Errorf("label %q is not one <text> of the SVG", name)
		}
	}
}
