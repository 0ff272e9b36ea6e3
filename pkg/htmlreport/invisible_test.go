package htmlreport

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
)

// A response holding U+202E RIGHT-TO-LEFT OVERRIDE ("Delhi" spelt
// backwards after it reads "Delhi" on screen) reached the page raw and
// reordered what a reader saw (finding 9). Now no control byte is left
// in the page, each shows as a <U+202E> mark wherever the text appears
// (verdict rows, agreement examples, the group name holding U+200F),
// and the page carries a bidi_controls warning with the count.
func TestBidiControlsShown(t *testing.T) {
	csv := "id,question,answer,Domain,response\n" +
		"1,Capital?,Delhi,Geo,\u202Eihled\n" +
		"2,Year?,1947,Hist\u200F,it was 1947\n" +
		"3,River?,Ganga,Geo,the Ganga river flows\n"
	var verdicts bytes.Buffer
	s, err := qa.Score(context.Background(), strings.NewReader(csv), "bidi.csv", qa.Options{
		By: [][]string{{"Domain"}}, Verdicts: &verdicts})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := Write(&page, s, Options{Verdicts: bytes.NewReader(verdicts.Bytes())}); err != nil {
		t.Fatal(err)
	}
	out := page.String()
	for _, r := range []string{"\u202E", "\u200F"} {
		if strings.Contains(out, r) {
			t.Errorf("page holds a raw %+q", r)
		}
	}
	mark := `<span class="ctl" title="an invisible control character">&lt;U+202E&gt;</span>ihled`
	// The response in the exact_substring and word_overlap agreement
	// examples (both fail row 1, so it is in the both-fail bucket's
	// examples), and in the verdict rows' JSON as text and the control's
	// name apart, which the page's script shows as the same mark.
	if n := strings.Count(out, mark); n < 1 {
		t.Errorf("%d marks for U+202E, want the example's", n)
	}
	if !strings.Contains(out, `["","U+202E","ihled"]`) {
		t.Error("the verdict rows' JSON does not hold the response as text and a control mark")
	}
	// The group name Hist<U+200F> in the Domain table and as a chart label
	// (plain text in SVG, escaped: html/template writes + as &#43; there).
	if !strings.Contains(out, `Hist<span class="ctl" title="an invisible control character">&lt;U+200F&gt;</span>`) ||
		!strings.Contains(out, `Hist&lt;U&#43;200F&gt;</text>`) {
		t.Error("group name with U+200F not marked in the table and the chart")
	}
	if !strings.Contains(out, "<code>bidi_controls</code>") {
		t.Error("no bidi_controls warning on the page")
	}
}
