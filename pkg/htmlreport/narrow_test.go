package htmlreport

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The page's font stack names the system UI fonts first, then Noto Sans
// Devanagari and Noto Sans Bengali (and the Windows and macOS fonts with
// those scripts), so Hindi and Bengali text never falls to boxes where
// one of them is installed.
func TestFontStack(t *testing.T) {
	stack := regexp.MustCompile(`\.evalbook\{font:[^;]*?px/[0-9.]+ ([^;]+);`).FindStringSubmatch(css)
	if stack == nil {
		t.Fatal("no font shorthand on .evalbook")
	}
	order := []string{"system-ui", `"Segoe UI"`, `"Noto Sans Devanagari"`, `"Noto Sans Bengali"`, `"Nirmala UI"`, `"Kohinoor Bangla"`, "sans-serif"}
	at := -1
	for _, f := range order {
		i := strings.Index(stack[1], f)
		if i <= at {
			t.Errorf("font stack %s: %s is missing or out of order (want %v)", stack[1], f, order)
		}
		at = i
	}
}

// Each accuracy chart is drawn twice: 600 units wide for wide screens and
// 360 wide for phones, the CSS showing one or the other at 600 px. On a
// 390 px phone (374 px for the page's content) the narrow chart's
// smallest text is at least 12 px, where the wide one scaled down would
// set its smallest (10.5) at 7.4 px.
func TestNarrowChart(t *testing.T) {
	s, v := sample(t)
	_, page := render(t, s, Options{Verdicts: strings.NewReader(string(v))})
	svgs := regexp.MustCompile(`(?s)<svg class="chart (wide|narrow)" viewBox="0 0 (\d+) \d+".*?</svg>`).FindAllStringSubmatch(page, -1)
	count := map[string]int{}
	for _, m := range svgs {
		count[m[1]]++
		width, _ := strconv.Atoi(m[2])
		if m[1] != "narrow" {
			continue
		}
		if width > 374 {
			t.Errorf("narrow chart %d units wide: wider than a 390 px phone's content", width)
		}
		for _, fs := range regexp.MustCompile(`font-size="([0-9.]+)"`).FindAllStringSubmatch(m[0], -1) {
			size, _ := strconv.ParseFloat(fs[1], 64)
			if px := size * 374 / float64(width); px < 12 {
				t.Errorf("narrow chart text of size %v draws at %.1f px on a phone", size, px)
			}
		}
	}
	if count["wide"] == 0 || count["wide"] != count["narrow"] {
		t.Errorf("charts: %v, want one narrow per wide", count)
	}
	for _, rule := range []string{`@media (max-width:600px){.evalbook svg.chart.wide{display:none}.evalbook svg.chart.narrow{display:block}`, `.evalbook svg.chart.narrow{display:none`} {
		if !strings.Contains(css, rule) {
			t.Errorf("the CSS lacks %s", rule)
		}
	}
}
