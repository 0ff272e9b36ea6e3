package runsite

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/store"
)

func historyRun(id int64, title string, acc float64) store.Run {
	return store.Run{ID: id, Title: title, DatasetHash: "abc123", Metrics: []store.Metric{{ID: "exact_substring"}},
		Groups: []store.GroupScore{{Metric: "exact_substring", N: 100, Accuracy: acc, CILow: acc - 0.05, CIHigh: acc + 0.05}}}
}

// The index's history chart is drawn twice (issue 27): for a wide screen
// at the size it is shown (an <svg> whose width attribute is its viewBox
// width, which the CSS does not stretch), with every run label whole and
// a label column wide enough for it; for a phone 460 units wide, scaled
// to the screen, labels clipped to 24 characters. Before, one 460-unit
// chart was stretched to 700 px on a wide screen (13-unit text at 20 px)
// and cut "run 1 · kestrel-7b, first run" to "run 1 · kestrel-7b, fir…".
func TestHistoryChartWideDrawnAtItsSize(t *testing.T) {
	s := &site{runs: []store.Run{historyRun(1, "kestrel-7b, first run", 0.634), historyRun(2, "tern-13b", 0.683)}}
	v := s.index(nil)
	if len(v.Charts) != 1 {
		t.Fatalf("%d charts, want 1", len(v.Charts))
	}
	wide, narrow := v.Charts[0].Wide, v.Charts[0].Narrow
	full := "run 1 · kestrel-7b, first run" // 29 runes
	if wide.Points[0].Label != full {
		t.Errorf("wide label %q, want %q whole", wide.Points[0].Label, full)
	}
	// 29 runes at 7.5 units: 217.5, +16 padding: the label column needs 234.
	if wide.PlotX < 234 {
		t.Errorf("wide chart's plot starts at %d, left of its 234-unit label column", wide.PlotX)
	}
	if got := narrow.Points[0].Label; got != "run 1 · kestrel-7b, fir…" || utf8.RuneCountInString(got) != 24 {
		t.Errorf("narrow label %q, want clipped to 24 runes", got)
	}
	if narrow.Width != 460 {
		t.Errorf("narrow chart %d units wide, want 460", narrow.Width)
	}

	var b strings.Builder
	if err := indexPage().Execute(&b, v); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	svgs := regexp.MustCompile(`<svg class="hist( wide)?" viewBox="0 0 (\d+) (\d+)"( width="(\d+)" height="(\d+)")?`).FindAllStringSubmatch(page, -1)
	if len(svgs) != 2 {
		t.Fatalf("%d history <svg>, want 2 (wide and narrow):\n%s", len(svgs), page)
	}
	if svgs[0][1] != " wide" || svgs[0][5] != svgs[0][2] || svgs[0][6] != svgs[0][3] || svgs[0][2] != strconv.Itoa(wide.Width) {
		t.Errorf("wide <svg> %q: want class wide and width/height equal to its viewBox", svgs[0][0])
	}
	if svgs[1][1] != "" || svgs[1][4] != "" {
		t.Errorf("narrow <svg> %q: want no fixed size (it scales to the phone)", svgs[1][0])
	}
	if !strings.Contains(page, `<div class="scroll hide-narrow"><svg class="hist wide"`) || !strings.Contains(page, `<div class="scroll show-narrow"><svg class="hist"`) {
		t.Error("the wide chart is not in a hide-narrow box and the narrow one in a show-narrow box")
	}
	for _, rule := range []string{".site svg.hist.wide{width:auto}", ".site .show-narrow{display:none}", ".site .show-narrow{display:block}"} {
		if !strings.Contains(css, rule) {
			t.Errorf("CSS lacks %s", rule)
		}
	}
	if strings.Contains(css, "max-width:700px") {
		t.Error("CSS still stretches the history chart to 700 px")
	}
	if strings.Count(page, `<h3 id="history-exact_substring">`) != 1 {
		t.Error("the chart's heading is not there once")
	}
}

// Issue 27: a run page showed its settings as raw JSON
// ({"metrics":["exact_substring","word_overlap"],"normalize":"none",...}),
// which broke mid-word on a phone. It now reads "key: value" in the
// stored order; anything not a JSON object is shown as stored.
func TestSettingsText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"metrics":["exact_substring","word_overlap"],"normalize":"none","by":[["language"]],"ci":"wilson","confidence":0.95,"seed":1}`,
			"metrics: exact_substring, word_overlap; normalize: none; by: language; ci: wilson; confidence: 0.95; seed: 1"},
		{`{"by":[["Domain"],["model","language"]],"judge":null,"opts":{"k":2}}`, `by: Domain, model × language; judge: none; opts: {"k":2}`},
		{`[1,2]`, `[1,2]`},
		{`{"a":`, `{"a":`},
	} {
		if got := settingsText([]byte(c.in)); got != c.want {
			t.Errorf("settingsText(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}
