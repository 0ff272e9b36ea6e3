package chart

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-text/typesetting/shaping"
	"gonum.org/v1/plot/vg"
)

var updateImages = flag.Bool("update-images", false, "rewrite the reference images in testdata")

// indicLabels is a chart of a Hindi and a Bengali label whose shapes need
// shaping: हिन्दी puts the vowel sign ि before the consonant it follows in
// memory and joins न्द; क्षेत्र has two conjuncts; স্বাস্থ্য stacks ব and থ
// under স, and ঠি reorders like ि.
func indicLabels(t *testing.T) *Figure {
	t.Helper()
	tab := &results.Table{Title: "शुद्धता · সঠিকতা", Columns: []results.Column{{Name: "language"}, {Name: "accuracy", Kind: results.KindRate}},
		Rows: [][]string{{"हिन्दी क्षेत्र", "0.62"}, {"বাংলা স্বাস্থ্য", "0.71"}}}
	f, err := TableRates(tab, "সঠিক उत्तर")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// diff is the mean absolute difference of two images of the same size,
// over the R, G and B channels, as a share of full scale (0 the same, 1
// black against white everywhere).
func diff(t *testing.T, a, b image.Image) float64 {
	t.Helper()
	if a.Bounds() != b.Bounds() {
		t.Fatalf("image sizes differ: %v and %v", a.Bounds(), b.Bounds())
	}
	var sum float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			for _, d := range []int{int(r1) - int(r2), int(g1) - int(g2), int(b1) - int(b2)} {
				sum += float64(max(d, -d))
			}
		}
	}
	return sum / (3 * 0xffff * float64(r.Dx()*r.Dy()))
}

// A Hindi and a Bengali label in a PNG chart come out as the reference
// image (testdata/indic-labels.png, drawn with Debian's fonts-noto-core
// and looked at: conjuncts and reordered vowel signs in place, no boxes)
// within a tolerance of 0.2% mean difference, which rasteriser or font
// version changes stay under. The same labels drawn a character at a
// time (no shaping) differ from it by more than the tolerance, so the
// comparison tells shaped from unshaped text.
func TestIndicLabelsShaped(t *testing.T) {
	h := handler()
	if !h.ok() || len(h.missing) > 0 {
		t.Skipf("the Noto Sans fonts are not installed (missing %v; .ci/run installs fonts-noto-core)", h.missing)
	}
	f := indicLabels(t)
	if len(f.Warnings) != 0 {
		t.Errorf("warnings for labels the fonts can draw: %v", f.Warnings)
	}
	got, err := f.Bytes("png")
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join("testdata", "indic-labels.png")
	if *updateImages {
		if err := os.WriteFile(ref, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, "indic-labels.png"), got, 0o644)
	}
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	const tolerance = 0.002
	if d := diff(t, decodePNG(t, got), decodePNG(t, want)); d > tolerance {
		os.WriteFile(ref+".got", got, 0o644)
		t.Errorf("the chart differs from %s by %.4f (tolerance %.4f); see %s.got", ref, d, tolerance, ref)
	}

	// Unshaped: one character at a time.
	h.unshaped = true
	raw, err := indicLabels(t).Bytes("png")
	h.unshaped = false
	if err != nil {
		t.Fatal(err)
	}
	d := diff(t, decodePNG(t, raw), decodePNG(t, want))
	t.Logf("unshaped labels differ from the reference by %.4f (tolerance %.4f)", d, tolerance)
	if os.Getenv("CHART_OUT") != "" {
		os.WriteFile(filepath.Join(os.Getenv("CHART_OUT"), "indic-labels-unshaped.png"), raw, 0o644)
	}
	if d <= tolerance {
		t.Errorf("unshaped labels differ from the reference by only %.4f: the comparison cannot tell shaping", d)
	}
}

// Shaping changes the width of Indic text: हिन्दी is narrower shaped (न्द
// is one conjunct glyph, not न, virama, द).
func TestShapingJoinsConjuncts(t *testing.T) {
	h := handler()
	if !h.ok() || len(h.missing) > 0 {
		t.Skip("the Noto Sans fonts are not installed")
	}
	shaped := h.shape("हिन्दी", vg.Points(10))
	h.unshaped = true
	unshaped := h.shape("हिन्दी", vg.Points(10))
	h.unshaped = false
	count := func(outs []shaping.Output) int {
		n := 0
		for _, o := range outs {
			n += len(o.Glyphs)
		}
		return n
	}
	if count(shaped) >= count(unshaped) || advance(shaped) >= advance(unshaped) {
		t.Errorf("shaped: %d glyphs, %v wide; unshaped: %d glyphs, %v wide", count(shaped), advance(shaped), count(unshaped), advance(unshaped))
	}
}

// Without the fonts, a chart with Indic labels says so in a warning
// naming the package to install, and keeps Latin labels warning-free.
func TestFontMissingWarning(t *testing.T) {
	s := loadShaper([]string{t.TempDir()})
	if s.ok() || len(s.missing) != len(fontFiles) {
		t.Fatalf("found fonts in an empty folder: %v", s.found)
	}
	if w := s.warnings([]string{"Accuracy by Domain", "Art", "50%"}); w != nil {
		t.Errorf("warnings for Latin labels: %v", w)
	}
	w := s.warnings([]string{"Accuracy", "हिन्दी", "বাংলা", "English"})
	if len(w) != 1 || w[0].Code != "chart_font_missing" || w[0].Count != 2 || !strings.Contains(w[0].Message, "fonts-noto-core") {
		t.Errorf("got %+v, want one chart_font_missing warning for 2 labels naming fonts-noto-core", w)
	}
	// With the fonts, a character none of them has (Gujarati) is reported.
	if h := handler(); h.ok() && len(h.missing) == 0 {
		w := h.warnings([]string{"हिन्दी", "தமிழ்", "తెలుగు", "ગુજરાતી"})
		if len(w) != 1 || w[0].Code != "chart_text_unshapable" || w[0].Count != 1 {
			t.Errorf("got %+v, want one chart_text_unshapable warning", w)
		}
	}
}

// The legend sits inside the plot area, clear of the figure's right edge:
// every swatch is drawn whole.
func TestLegendInside(t *testing.T) {
	f := indicLabels(t)
	p := f.Plot
	if p.Legend.XOffs >= 0 || p.Legend.YOffs >= 0 || !p.Legend.Top || p.Legend.Left {
		t.Errorf("legend at top right with offsets %v, %v: want it moved inwards", p.Legend.XOffs, p.Legend.YOffs)
	}
	b, err := f.Bytes("png")
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	// The rightmost 4 pixel columns are white: no swatch reaches the edge.
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Max.X - 4; x < r.Max.X; x++ {
			if cr, cg, cb, _ := img.At(x, y).RGBA(); cr < 0xf000 || cg < 0xf000 || cb < 0xf000 {
				t.Fatalf("pixel (%d,%d) at the right edge is not white", x, y)
			}
		}
	}
}
