package agree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// wideTable writes a random label table whose ids and labels vary in
// width and script (so that the columns' widths, counted in runes,
// differ from their lengths in bytes), with missing ratings, optionally
// an id column, and now and then an id holding a tab (which
// text/tabwriter takes as a cell end).
func wideTable(r *rand.Rand, rows, raters int, withID, tabs bool) string {
	labels := []string{"a", "bb", "tie", "élevé", "日本語", "x y"}[:2+r.IntN(5)]
	var b strings.Builder
	if withID {
		b.WriteString("id,")
	}
	b.WriteString("note")
	for j := range raters {
		fmt.Fprintf(&b, ",rater %d", j+1)
	}
	b.WriteString("\n")
	for i := range rows {
		if withID {
			switch x := r.IntN(10); {
			case x == 0:
				fmt.Fprintf(&b, "\"ü%d\",", i)
			case x == 1 && tabs:
				fmt.Fprintf(&b, "\"t\t%d\",", i)
			case x == 2:
				fmt.Fprintf(&b, "%s%d,", strings.Repeat("long", r.IntN(6)), i)
			default:
				fmt.Fprintf(&b, "i%d,", i*7+r.IntN(7))
			}
		}
		if r.IntN(6) == 0 {
			b.WriteString("\"a\nb\"")
		}
		truth := r.IntN(len(labels))
		for range raters {
			b.WriteString(",")
			switch x := r.Float64(); {
			case x < 0.1:
				b.WriteString([]string{"", "NA", "-", "n/a"}[r.IntN(4)])
			case x < 0.75:
				b.WriteString(labels[truth])
			default:
				b.WriteString(labels[r.IntN(len(labels))])
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Result.WriteText, which lays out the disagreements itself, writes byte
// for byte what results.RaterAgreement.WriteText writes (through
// text/tabwriter) of the result Analyze gives for ReadLabels' table, the
// string-based path; and Agreement equals that result.
func TestResultWriteTextMatchesTabwriter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	compared, own := 0, 0
	for round := range 150 {
		raters := 2 + round%3
		withID := round%4 != 3
		text := wideTable(r, 1+r.IntN(80), raters, withID, round%5 == 0)
		var names []string
		for j := range raters {
			names = append(names, "rater "+strconv.Itoa(j+1))
		}
		id := ""
		if withID {
			id = "id"
		}
		tab, err := ReadLabels(strings.NewReader(text), "t.csv", names, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{Metric: MetricFleiss}, {Metric: MetricAlpha}, {Metric: MetricKappa}, {Metric: MetricKappa, Weights: Linear}} {
			if opt.Metric == MetricKappa && raters != 2 {
				continue
			}
			opt.Resamples, opt.Seed = 50, uint64(round)
			want, err1 := Analyze(tab, opt)
			res, err2 := AnalyzeCSVResult(strings.NewReader(text), "t.csv", names, id, opt)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("round %d %+v: errors %v and %v", round, opt, err1, err2)
			}
			if err1 != nil {
				continue
			}
			if got := res.Agreement(); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d %+v: Agreement %+v, want %+v", round, opt, got, want)
			}
			if res.Disagreements() != len(want.Disagreements) {
				t.Fatalf("round %d: %d disagreements, want %d", round, res.Disagreements(), len(want.Disagreements))
			}
			var wb, gb bytes.Buffer
			if err := want.WriteText(&wb); err != nil {
				t.Fatal(err)
			}
			if err := res.WriteText(&gb); err != nil {
				t.Fatal(err)
			}
			if gb.String() != wb.String() {
				t.Fatalf("round %d %+v: text\n%s\nwant\n%s\nof\n%s", round, opt, gb.String(), wb.String(), text)
			}
			compared++
			if res.Disagreements() > 0 && res.plainText() && !strings.Contains(text, "\t") {
				own++
			}
		}
	}
	if compared < 200 || own < 100 {
		t.Errorf("compared %d texts, %d laid out by Result itself", compared, own)
	}
}

// isMissingBytes agrees with isMissing on every string of up to two
// runes from a set that holds the missing markers' characters in both
// cases, the runes that upper-case to ASCII (ı, ſ) and others.
func TestIsMissingBytes(t *testing.T) {
	runes := []string{"", "n", "N", "a", "A", "/", ".", "-", "ı", "ſ", "ñ", "x", " ", "é"}
	check := func(s string) {
		if isMissingBytes([]byte(s)) != isMissing(s) {
			t.Errorf("%q: isMissingBytes %v, isMissing %v", s, isMissingBytes([]byte(s)), isMissing(s))
		}
	}
	for _, a := range runes {
		for _, b := range runes {
			for _, c := range runes {
				check(a + b + c)
			}
		}
	}
	for r := rune(0); r < 0x3000; r++ {
		check(string(r))
		check("n" + string(r))
		check(string(r) + "a")
		check("n/" + string(r))
	}
}
