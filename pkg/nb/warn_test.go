package nb

import (
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/results"
)

// A figure's font warnings are printed before it is shown, as PNG or SVG,
// in a notebook and outside one.
func TestChartWarnings(t *testing.T) {
	tab := &results.Table{Title: "by language", Columns: []results.Column{{Name: "language"}, {Name: "accuracy", Kind: results.KindRate}},
		Rows: [][]string{{"हिन्दी", "0.6"}}}
	f, err := chart.TableRates(tab, "accuracy")
	if err != nil {
		t.Fatal(err)
	}
	f.Warnings = []results.Warning{{Code: "chart_font_missing", Count: 1, Message: "install fonts-noto-core"}}
	if out := capture(t, func() error { return Chart(f) }); !strings.HasPrefix(out, "warning: install fonts-noto-core\n[chart") {
		t.Errorf("outside a notebook: %q", out)
	}
	nbk := fakeNotebook(t)
	for _, show := range []func(*chart.Figure) error{Chart, ChartSVG} {
		if out := capture(t, func() error { return show(f) }); out != "warning: install fonts-noto-core\n" {
			t.Errorf("in a notebook: %q", out)
		}
	}
	if len(nbk.png) != 1 || len(nbk.svg)+len(nbk.html) != 1 {
		t.Errorf("shown: %d PNG, %d SVG, %d HTML; want one PNG and one SVG", len(nbk.png), len(nbk.svg), len(nbk.html))
	}
}
