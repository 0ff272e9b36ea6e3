package irt

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// testdata/lsat.csv is the LSAT data (Law School Admission Test, Section
// 6; Bock and Lieberman 1970, Psychometrika 35:179-197; R's ltm ships it
// as LSAT) in long form, one row per examinee and item: the 32 response
// patterns expanded by their published counts (3, 6, 2, 11, 1, 1, 3, 4, 1,
// 8, 0, 16, 0, 3, 2, 15, 10, 29, 14, 81, 3, 28, 15, 80, 16, 56, 21, 173,
// 11, 61, 28, 298 for patterns 00000 to 11111, item 1 first; column Ob6 of
// vincentarelbundock/Rdatasets csv/psych/bock.table.csv). Reference: R
// ltm(LSAT ~ z1) as issue 28 quotes it; see stats.TestFit2PLLSAT for the
// tolerance and why.
func TestLSAT(t *testing.T) {
	f, err := os.Open("testdata/lsat.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := os.Open("testdata/lsat_subset.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	res, err := File(f, "testdata/lsat.csv", g, "testdata/lsat_subset.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 5 || len(res.Subjects) != 1001 {
		t.Fatalf("%d items, %d subjects", len(res.Items), len(res.Subjects))
	}
	wantB := []float64{-3.3597, -1.3696, -0.2799, -1.8659, -3.1236}
	wantA := []float64{0.8254, 0.7229, 0.8905, 0.6886, 0.6575}
	for j, it := range res.Items {
		if math.Abs(it.Difficulty-wantB[j]) > 2.5e-3 || math.Abs(it.Discrimination-wantA[j]) > 1e-3 {
			t.Errorf("%s: b %.4f a %.4f, want %.4f %.4f", it.Item, it.Difficulty, it.Discrimination, wantB[j], wantA[j])
		}
		if it.DifficultySE == nil || it.DiscriminationSE == nil {
			t.Errorf("%s: no standard error", it.Item)
		}
	}
	if math.Abs(res.LogLik+2466.65) > 0.005 {
		t.Errorf("log-likelihood %.4f, want -2466.65", res.LogLik)
	}
	// The new model answered items 1-3 (1, 1, 0): its estimate counts
	// those as answered (2 of 5) and adds items 4 and 5 by probability,
	// so it lies strictly between 2/5 and 4/5, with an interval.
	nm := res.Subjects[1000]
	if nm.Fitted || nm.Answered != 3 || !(nm.Estimate > 0.4 && nm.Estimate < 0.8) || !(nm.CILow < nm.Estimate && nm.Estimate < nm.CIHigh) {
		t.Errorf("new model: %+v", nm)
	}
	// A complete examinee's estimate is its observed score, exactly.
	if s := res.Subjects[0]; s.Estimate != s.Observed || s.EstimateSD > 1e-12 {
		t.Errorf("examinee 1: %+v", s)
	}
	if res.Alpha == nil || res.AlphaSubjects != 1000 {
		t.Errorf("alpha %v over %d", res.Alpha, res.AlphaSubjects)
	}
	// The items table counts 1,000 responses per item (the 1,000
	// complete examinees; the new model skipped items 4 and 5) with a
	// thousands separator, as the headline's counts, and item 1's
	// difficulty (ltm: −3.3597) with the minus sign.
	items := res.Tables()[0]
	if got := items.Cell(0, 1) + " " + items.Cell(0, 3); items.Columns[1].Name != "responses" || got != "1,000 −3.359" && got != "1,000 −3.360" {
		t.Errorf("item-1 responses and difficulty %q, want 1,000 −3.36x", got)
	}
}

// With Emulate "ltm" the LSAT fit is R's ltm(LSAT ~ z1)'s to the 4
// decimals issue 28 quotes (stats.TestFit2PLLTMLSAT shows the steps).
func TestLSATEmulateLTM(t *testing.T) {
	f, err := os.Open("testdata/lsat.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := File(f, "testdata/lsat.csv", nil, "", Options{Emulate: "ltm"})
	if err != nil {
		t.Fatal(err)
	}
	wantB := []string{"-3.3597", "-1.3696", "-0.2799", "-1.8659", "-3.1236"}
	wantA := []string{"0.8254", "0.7229", "0.8905", "0.6886", "0.6575"}
	for j, it := range res.Items {
		if b, a := strconv.FormatFloat(it.Difficulty, 'f', 4, 64), strconv.FormatFloat(it.Discrimination, 'f', 4, 64); b != wantB[j] || a != wantA[j] {
			t.Errorf("%s: b %s a %s, want %s %s", it.Item, b, a, wantB[j], wantA[j])
		}
	}
	if ll := strconv.FormatFloat(res.LogLik, 'f', 2, 64); ll != "-2466.65" || res.Emulate != "ltm" || res.Points != 21 {
		t.Errorf("log-likelihood %s, emulate %q, %d points", ll, res.Emulate, res.Points)
	}
	if _, err := File(strings.NewReader("subject,item,pass\na,q1,1\nb,q1,0\n"), "x.csv", nil, "", Options{Emulate: "mirt"}); err == nil || !strings.Contains(err.Error(), "ltm") {
		t.Errorf("emulate mirt: %v", err)
	}
}

// An item that runs against the others gets a negative discrimination and
// is flagged; alpha rises without it.
func TestFlags(t *testing.T) {
	var b strings.Builder
	b.WriteString("model,item,pass\n")
	// 40 subjects of rising ability; items q1-q4 follow ability, q5 runs
	// against it.
	for s := 0; s < 40; s++ {
		for j := 1; j <= 5; j++ {
			pass := s*5+j*7 > 100+j*8
			if j == 5 {
				pass = s < 20
			}
			if (s+j)%9 == 0 { // some noise
				pass = !pass
			}
			v := "0"
			if pass {
				v = "1"
			}
			b.WriteString("m" + strconv.Itoa(s) + ",q" + strconv.Itoa(j) + "," + v + "\n")
		}
	}
	rs, err := ReadResponses(strings.NewReader(b.String()), "flags.csv")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(rs, "flags.csv", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q5 := res.Items[4]
	if q5.Discrimination >= 0 || !strings.Contains(strings.Join(q5.Flags, " "), FlagNegative) || !strings.Contains(strings.Join(q5.Flags, " "), FlagAlphaRises) {
		t.Errorf("q5: %+v", q5)
	}
	for _, it := range res.Items[:4] {
		if it.Discrimination <= 0 {
			t.Errorf("%s: discrimination %g", it.Item, it.Discrimination)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, csv, want string
		line            int
	}{
		{"pass 2", "subject,item,pass\na,q1,1\na,q2,2\n", "want 0 or 1", 3},
		{"no item column", "subject,question,pass\na,q1,1\n", "no item column", 1},
		{"twice", "subject,item,pass\na,q1,1\na,q1,0\n", "answers item \"q1\" again", 3},
	} {
		_, err := ReadResponses(strings.NewReader(tc.csv), "r.csv")
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	rs, _ := ReadResponses(strings.NewReader("subject,item,pass\na,q1,1\na,q2,0\n"), "one.csv")
	if _, err := Analyze(rs, "one.csv", nil, Options{}); err == nil || !strings.Contains(err.Error(), "at least two subjects") {
		t.Errorf("one subject: %v", err)
	}
}
