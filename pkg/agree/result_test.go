package agree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
	// The last labels are about results.MaxTextCell characters long, on
	// both sides of it, which the text shortens.
	labels := []string{"a", "bb", "tie", "élevé", "日本語", "x y", strings.Repeat("ü", 200), strings.Repeat("ব", 201), strings.Repeat("l", 450)}[:2+r.IntN(8)]
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
			case x == 3:
				fmt.Fprintf(&b, "%s%d,", strings.Repeat("ਪ", 195+r.IntN(8)), i)
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
			if g, w := resultJSON(t, res), wantJSON(t, want); g != w {
				t.Fatalf("round %d %+v: JSON\n%s\nwant\n%s", round, opt, g, w)
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

// resultJSON is what Result.WriteJSON writes.
func resultJSON(t *testing.T, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wantJSON is what evalbook agree --json wrote of a whole result before
// WriteJSON (cli.WriteJSON: indented by two spaces, no HTML escapes).
func wantJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Result.WriteJSON streams the disagreements in blocks of ids: over
// several blocks, with and without an id column, and with none, it writes
// what the whole result encodes to.
func TestResultWriteJSONManyItems(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, withID := range []bool{true, false} {
		text := wideTable(r, 20000, 3, withID, true)
		id := ""
		if withID {
			id = "id"
		}
		names := []string{"rater 1", "rater 2", "rater 3"}
		res, err := AnalyzeCSVResult(strings.NewReader(text), "t.csv", names, id, Options{Resamples: 20, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Disagreements() < 2*4096 {
			t.Fatalf("%d disagreements: too few to span two blocks", res.Disagreements())
		}
		if g, w := resultJSON(t, res), wantJSON(t, res.Agreement()); g != w {
			t.Errorf("withID %v: JSON differs (%d and %d bytes)", withID, len(g), len(w))
		}
	}
	res, err := AnalyzeCSVResult(strings.NewReader("id,a,b\nx,1,1\ny,<&>,<&>\n"), "t.csv", []string{"a", "b"}, "id", Options{Resamples: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, w := resultJSON(t, res), wantJSON(t, res.Agreement())
	if g != w || !strings.Contains(g, `"disagreements": []`) || !strings.Contains(g, "<&>") {
		t.Errorf("no disagreements: JSON\n%s\nwant\n%s", g, w)
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

// parseNumber takes what strconv.ParseFloat takes, with the same value,
// and refuses the rest: random strings over the characters of numbers
// (and a few others), the spellings of infinity and NaN, every rune.
func TestParseNumber(t *testing.T) {
	check := func(s string) {
		v, err := parseNumber(s)
		w, werr := strconv.ParseFloat(s, 64)
		if (err == nil) != (werr == nil) || (err == nil && v != w && !(v != v && w != w)) {
			t.Errorf("%q: parseNumber %v, %v; ParseFloat %v, %v", s, v, err, w, werr)
		}
	}
	for _, s := range []string{"", "1", "-2.5e3", "0x1p-2", "0X1P+2", "1_000", "0x_1p0", "inf", "-Infinity", "NaN", "+nan", "infinity", "1e", ".5", "5.", "l3", "∞", "١"} {
		check(s)
	}
	for r := rune(0); r < 0x800; r++ {
		check(string(r))
		check("1" + string(r))
	}
	const alphabet = "0123456789+-._eEaAbBcCdDfFxXpPiInNtTyYlz "
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 1+r.IntN(8))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
}

// A label or id of 50 MiB used to pad every row of the disagreements to
// its width: gigabytes of text. The text shows at most
// results.MaxTextCell characters of one (the JSON keeps it whole), so a
// 1 MiB label makes a text of a few kilobytes, the same from both
// writers.
func TestLongLabelText(t *testing.T) {
	long := strings.Repeat("व", 1<<20/3)
	var b strings.Builder
	b.WriteString("id,a,b\n")
	b.WriteString("x1," + long + ",yes\n")
	for i := range 300 {
		fmt.Fprintf(&b, "i%d,yes,no\n", i)
	}
	res, err := AnalyzeCSVResult(strings.NewReader(b.String()), "t.csv", []string{"a", "b"}, "id", Options{Resamples: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var own, tw bytes.Buffer
	if err := res.WriteText(&own); err != nil {
		t.Fatal(err)
	}
	if err := res.Agreement().WriteText(&tw); err != nil {
		t.Fatal(err)
	}
	if own.String() != tw.String() {
		t.Fatalf("the two writers differ:\n%.2000s\n%.2000s", own.String(), tw.String())
	}
	shown := strings.Repeat("व", 199) + "…"
	if own.Len() > 200<<10 || !strings.Contains(own.String(), shown+"  ") || strings.Contains(own.String(), shown[:len(shown)-len("…")]+"व") {
		t.Errorf("text of %d bytes; the label is not shown as its first 199 characters and …", own.Len())
	}
	if got := res.Agreement().Confusion.Labels; !slices.Contains(got, long) {
		t.Errorf("the result's labels lost the whole label")
	}
}
