package chart

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-text/typesetting/di"
	gtfont "github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	xfont "golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The fonts charts draw their text in: Noto Sans for Latin text, Noto
// Sans Devanagari and Noto Sans Bengali for Hindi, Marathi, Nepali,
// Bengali and Assamese, and Noto Sans Tamil and Noto Sans Telugu. They
// are looked up on the system (no Go module packages them): in FontDirs,
// by these file names. Labels are measured with them in every format,
// and an SVG names them (font-family) on each run of text, so a browser
// draws a label with the font it was measured with.
var fontFiles = []struct {
	name   string
	script language.Script // 0: the face for every other script
	files  []string
}{
	{"Noto Sans", 0, []string{"NotoSans-Regular.ttf", "NotoSans-Regular.otf"}},
	{"Noto Sans Devanagari", language.Devanagari, []string{"NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Regular.otf"}},
	{"Noto Sans Bengali", language.Bengali, []string{"NotoSansBengali-Regular.ttf", "NotoSansBengali-Regular.otf"}},
	{"Noto Sans Tamil", language.Tamil, []string{"NotoSansTamil-Regular.ttf", "NotoSansTamil-Regular.otf"}},
	{"Noto Sans Telugu", language.Telugu, []string{"NotoSansTelugu-Regular.ttf", "NotoSansTelugu-Regular.otf"}},
}

// FontDirs returns the folders searched for the Noto fonts, in order:
// those in $EVALBOOK_FONT_DIR (a list like $PATH), then where Debian and
// Ubuntu (fonts-noto-core), Fedora (google-noto-sans-*-fonts) and macOS
// (fonts installed for the user or the machine) put them.
func FontDirs() []string {
	var dirs []string
	if env := os.Getenv("EVALBOOK_FONT_DIR"); env != "" {
		dirs = append(dirs, filepath.SplitList(env)...)
	}
	dirs = append(dirs,
		"/usr/share/fonts/truetype/noto",
		"/usr/share/fonts/opentype/noto",
		"/usr/share/fonts/noto",
		"/usr/share/fonts/google-noto",
		"/usr/share/fonts/google-noto-vf",
		"/usr/local/share/fonts",
		"/usr/local/share/fonts/noto",
	)
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "fonts"), filepath.Join(home, ".fonts"), filepath.Join(home, "Library", "Fonts"))
	}
	return append(dirs, "/Library/Fonts", "/System/Library/Fonts/Supplemental")
}

// shaper is the text handler of every chart when the Noto fonts are
// found: it splits a label into runs of one script, shapes each run with
// go-text's HarfBuzz port (so Devanagari and Bengali conjuncts, vowel
// signs and reordering come out right) and fills the glyph outlines as
// paths, so PNG and PDF output need no font on the viewer's side. SVG
// keeps its text as text, laid out with the same metrics.
type shaper struct {
	faces []*gtfont.Face // by fontFiles' order; nil where not found
	// svg are the same fonts as gonum/plot's SVG canvas names them
	// (their family name goes into font-family); nil where not found.
	svg     []*xfont.Font
	scripts []language.Script
	found   []string // the files loaded
	missing []string // the families not found
	plain   text.Handler
	// unshaped shapes each character alone, as a renderer without
	// shaping would (tests show the difference).
	unshaped bool
	mu       sync.Mutex
	hb       shaping.HarfbuzzShaper
}

var (
	textOnce    sync.Once
	textHandler *shaper
)

// handler returns the charts' text handler, loading the fonts once.
func handler() *shaper {
	textOnce.Do(func() { textHandler = loadShaper(FontDirs()) })
	return textHandler
}

// loadShaper looks for the fonts in dirs.
func loadShaper(dirs []string) *shaper {
	s := &shaper{plain: plot.DefaultTextHandler}
	for _, ff := range fontFiles {
		var face *gtfont.Face
		for _, d := range dirs {
			for _, name := range ff.files {
				path := filepath.Join(d, name)
				b, err := os.ReadFile(path)
				if err != nil {
					continue
				}
				f, err := gtfont.ParseTTF(bytes.NewReader(b))
				if err != nil {
					continue
				}
				sf, err := xfont.Parse(b)
				if err != nil {
					continue
				}
				face = f
				s.svg = append(s.svg, sf)
				s.found = append(s.found, path)
				break
			}
			if face != nil {
				break
			}
		}
		if face == nil {
			s.missing = append(s.missing, ff.name)
			s.svg = append(s.svg, nil)
		}
		s.faces = append(s.faces, face)
		s.scripts = append(s.scripts, ff.script)
	}
	return s
}

// ok reports whether the Latin face was found: without it the charts
// draw with gonum/plot's own Liberation Sans.
func (s *shaper) ok() bool { return s.faces[0] != nil }

func (s *shaper) Cache() *font.Cache { return s.plain.Cache() }

func (s *shaper) Lines(txt string) []string { return s.plain.Lines(txt) }

// scale is points per font unit of f at size.
func scale(f *gtfont.Face, size vg.Length) float64 {
	return float64(size) / float64(f.Upem())
}

func (s *shaper) Extents(fnt font.Font) font.Extents {
	if !s.ok() {
		return s.plain.Extents(fnt)
	}
	// The tallest of the faces: Devanagari's head line and Bengali's
	// vowel signs reach above Latin capitals.
	var asc, desc, gap float64
	for _, f := range s.faces {
		if f == nil {
			continue
		}
		e, ok := f.FontHExtents()
		if !ok {
			continue
		}
		k := scale(f, fnt.Size)
		asc, desc, gap = max(asc, float64(e.Ascender)*k), max(desc, -float64(e.Descender)*k), max(gap, float64(e.LineGap)*k)
	}
	return font.Extents{Ascent: vg.Length(asc), Descent: vg.Length(desc), Height: vg.Length(asc + desc + gap)}
}

// run is a stretch of a label in one face.
type run struct {
	face       int
	start, end int
}

// faceFor returns the face index for r, or -1 when r takes the face of
// the runes around it (spaces, punctuation, digits, joiners, marks).
func (s *shaper) faceFor(r rune) int {
	sc := language.LookupScript(r)
	for i, want := range s.scripts {
		if i > 0 && want == sc && s.faces[i] != nil {
			return i
		}
	}
	if sc == language.Common || sc == language.Inherited || unicode.IsSpace(r) {
		return -1
	}
	return 0
}

// has reports whether face i has a glyph for r.
func (s *shaper) has(i int, r rune) bool {
	if s.faces[i] == nil {
		return false
	}
	_, ok := s.faces[i].NominalGlyph(r)
	return ok
}

// runs splits rs into runs of one face.
func (s *shaper) runs(rs []rune) []run {
	var out []run
	cur := -1
	start := 0
	for i, r := range rs {
		f := s.faceFor(r)
		if f < 0 && cur >= 0 && !s.has(cur, r) {
			// Punctuation the run's face lacks (a middle dot in a
			// Devanagari run): the first face that has it.
			for j := range s.faces {
				if s.has(j, r) {
					f = j
					break
				}
			}
		}
		if f < 0 || f == cur {
			continue
		}
		if cur >= 0 {
			out = append(out, run{cur, start, i})
			start = i
		}
		cur = f
	}
	if cur < 0 {
		cur = 0
	}
	if len(rs) > 0 {
		out = append(out, run{cur, start, len(rs)})
	}
	return out
}

// shape shapes one line of text at size.
func (s *shaper) shape(txt string, size vg.Length) []shaping.Output {
	out, _, _ := s.shapeRuns(txt, size)
	return out
}

// shapeRuns shapes one line of text at size, and returns with each
// output the run of the text (in rs) it shaped.
func (s *shaper) shapeRuns(txt string, size vg.Length) ([]shaping.Output, []run, []rune) {
	rs := []rune(txt)
	var out []shaping.Output
	s.mu.Lock()
	defer s.mu.Unlock()
	runs := s.runs(rs)
	if s.unshaped {
		var one []run
		for _, r := range runs {
			for i := r.start; i < r.end; i++ {
				one = append(one, run{r.face, i, i + 1})
			}
		}
		runs = one
	}
	for _, r := range runs {
		f := s.faces[r.face]
		sc := s.scripts[r.face]
		if sc == 0 {
			sc = language.Latin
		}
		out = append(out, s.hb.Shape(shaping.Input{
			Text: rs, RunStart: r.start, RunEnd: r.end,
			Direction: di.DirectionLTR, Face: f,
			Size:   fixed.Int26_6(math.Round(float64(size) * 64)),
			Script: sc, Language: language.NewLanguage(scriptLang[sc]),
		}))
	}
	return out, runs, rs
}

var scriptLang = map[language.Script]string{language.Latin: "en", language.Devanagari: "hi", language.Bengali: "bn", language.Tamil: "ta", language.Telugu: "te"}

func advance(outs []shaping.Output) vg.Length {
	var w fixed.Int26_6
	for _, o := range outs {
		w += o.Advance
	}
	return vg.Length(float64(w) / 64)
}

func (s *shaper) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	if !s.ok() {
		return s.plain.Box(txt, fnt)
	}
	e := s.Extents(fnt)
	return advance(s.shape(txt, fnt.Size)), e.Ascent, e.Descent
}

// Draw draws txt as gonum/plot's plain handler does (lines, alignment,
// rotation), each line shaped and filled glyph by glyph.
//
// SVG keeps its text as text (searchable, read by screen readers, and
// shaped by the browser): each run of one script is a <text> placed
// where the shaped run starts and naming the font it was measured with
// (font-family Noto Sans Devanagari, ...), so a right-aligned Hindi
// label ends at the axis instead of being placed by the width of a
// Latin font that has no Devanagari glyphs.
func (s *shaper) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	if !s.ok() {
		s.plain.Draw(c, txt, sty, pt)
		return
	}
	svg := isSVG(c)
	txt = strings.TrimRight(txt, "\n")
	if len(txt) == 0 {
		return
	}
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := s.Lines(txt)
	ext := s.Extents(sty.Font)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - ext.Ascent
	for i, line := range lines {
		outs, runs, rs := s.shapeRuns(line, sty.Font.Size)
		x := pt.X + vg.Length(sty.XAlign)*advance(outs)
		y := pt.Y + vg.Length(len(lines)-i)*sty.Font.Size
		if svg {
			for j, o := range outs {
				r := runs[j]
				face := font.Face{Font: font.Font{Typeface: font.Typeface(fontFiles[r.face].name), Size: sty.Font.Size}, Face: s.svg[r.face]}
				c.FillString(face, vg.Point{X: x, Y: y}, string(rs[r.start:r.end]))
				x += vg.Length(float64(o.Advance) / 64)
			}
			continue
		}
		for _, o := range outs {
			k := scale(o.Face, sty.Font.Size)
			for _, g := range o.Glyphs {
				gx := float64(x) + float64(g.XOffset)/64
				gy := float64(y) + float64(g.YOffset)/64
				if p := glyphPath(o.Face, g.GlyphID, gx, gy, k); len(p) > 0 {
					c.Fill(p)
				}
				x += vg.Length(float64(g.Advance) / 64)
			}
		}
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// isSVG reports whether c draws SVG (directly or under a draw.Canvas).
func isSVG(c vg.Canvas) bool {
	for {
		switch dc := c.(type) {
		case *draw.Canvas:
			c = dc.Canvas
		case draw.Canvas:
			c = dc.Canvas
		case *vgsvg.Canvas:
			return true
		default:
			return false
		}
	}
}

// glyphPath is the outline of glyph gid of f with its origin at (x, y),
// k points per font unit.
func glyphPath(f *gtfont.Face, gid gtfont.GID, x, y, k float64) vg.Path {
	data, ok := f.GlyphData(gid).(gtfont.GlyphOutline)
	if !ok {
		return nil
	}
	var p vg.Path
	pt := func(a ot.SegmentPoint) vg.Point {
		return vg.Point{X: vg.Length(x + float64(a.X)*k), Y: vg.Length(y + float64(a.Y)*k)}
	}
	open := false
	for _, seg := range data.Segments {
		switch seg.Op {
		case ot.SegmentOpMoveTo:
			if open {
				p.Close()
			}
			p.Move(pt(seg.Args[0]))
			open = true
		case ot.SegmentOpLineTo:
			p.Line(pt(seg.Args[0]))
		case ot.SegmentOpQuadTo:
			p.QuadTo(pt(seg.Args[0]), pt(seg.Args[1]))
		case ot.SegmentOpCubeTo:
			p.CubeTo(pt(seg.Args[0]), pt(seg.Args[1]), pt(seg.Args[2]))
		}
	}
	if open {
		p.Close()
	}
	return p
}

// unshapable returns the runes of txt that no loaded face has a glyph
// for, sorted and without repeats.
func (s *shaper) unshapable(txt string) []rune {
	seen := map[rune]bool{}
	for _, r := range txt {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200c' || r == '\u200d' {
			continue
		}
		have := false
		if s.ok() {
			for _, f := range s.faces {
				if f == nil {
					continue
				}
				if _, ok := f.NominalGlyph(r); ok {
					have = true
					break
				}
			}
		} else {
			have = r < 0x250 // Liberation Sans: Latin only
		}
		if !have {
			seen[r] = true
		}
	}
	out := make([]rune, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// textWarnings returns a warning for the labels of a figure that its
// fonts cannot draw: code chart_font_missing when the Noto fonts were
// not found (and some label needs them, or the Latin face is missing),
// chart_text_unshapable when a found font has no glyph for a character.
func textWarnings(labels []string) []results.Warning { return handler().warnings(labels) }

func (s *shaper) warnings(labels []string) []results.Warning {
	var bad []string
	var runes []rune
	seen := map[rune]bool{}
	for _, l := range labels {
		u := s.unshapable(l)
		if len(u) == 0 {
			continue
		}
		bad = append(bad, l)
		for _, r := range u {
			if !seen[r] {
				seen[r] = true
				runes = append(runes, r)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	var chars []string
	for _, r := range runes[:min(len(runes), 8)] {
		chars = append(chars, fmt.Sprintf("U+%04X", r))
	}
	example := bad[0]
	if len([]rune(example)) > 30 {
		example = string([]rune(example)[:30]) + "…"
	}
	if len(s.missing) > 0 {
		return []results.Warning{{Code: CodeFontMissing, Count: len(bad), Message: fmt.Sprintf(
			"%d chart labels (e.g. %q) have characters (%s) that no font found can draw: %s not found in %s; install fonts-noto-core (Debian, Ubuntu) or the Noto Sans families, or set EVALBOOK_FONT_DIR; the PNG charts would draw boxes, so use the SVG charts or the HTML page",
			len(bad), example, strings.Join(chars, " "), strings.Join(s.missing, ", "), strings.Join(FontDirs(), ", "))}}
	}
	return []results.Warning{{Code: CodeTextUnshapable, Count: len(bad), Message: fmt.Sprintf(
		"%d chart labels (e.g. %q) have characters (%s) that the charts' fonts (Noto Sans, Devanagari, Bengali, Tamil, Telugu) have no glyph for: they are drawn as boxes",
		len(bad), example, strings.Join(chars, " "))}}
}

// shapeLabel sets the shaping text handler (when the fonts were found)
// on a text style of a plotter.
func shapeLabel(st *text.Style) {
	if h := handler(); h.ok() {
		st.Handler = h
	}
}

// useText sets the shaping text handler (when the fonts were found) on
// every text style of p.
func useText(p *plot.Plot) {
	h := handler()
	if !h.ok() {
		return
	}
	p.TextHandler = h
	p.Title.TextStyle.Handler = h
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Handler = h
		ax.Tick.Label.Handler = h
	}
	p.Legend.TextStyle.Handler = h
}
