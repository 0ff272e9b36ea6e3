package compare

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// modelRows is a long table of two models on seven cases in two groups,
// rows shuffled, with a third model that Models must leave out when the
// two are named.
//
//	hi: a = 1 0 0 1, b = 1 1 1 1  (2 better, 0 worse)
//	bn: a = 1 1 0,   b = 0 1 0    (0 better, 1 worse)
func modelRows() []Outcome {
	return []Outcome{
		{"h1", "b", "hi", 1}, {"h1", "a", "hi", 1}, {"b3", "a", "bn", 0}, {"h2", "a", "hi", 0},
		{"h3", "c", "hi", 0}, {"h3", "a", "hi", 0}, {"h4", "b", "hi", 1}, {"b1", "a", "bn", 1},
		{"h2", "b", "hi", 1}, {"b2", "a", "bn", 1}, {"h4", "a", "hi", 1}, {"b1", "b", "bn", 0},
		{"h3", "b", "hi", 1}, {"b2", "b", "bn", 1}, {"b3", "b", "bn", 0},
	}
}

func TestModels(t *testing.T) {
	r, err := Models(modelRows(), Options{OldName: "a", NewName: "b", By: "language", Metric: "em", Seed: 1, Resamples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %.6f ± %g", name, got, want, tol)
		}
	}
	if r.All.N != 7 || r.All.APass != 4 || r.All.BPass != 5 || r.All.Better != 2 || r.All.Worse != 1 {
		t.Fatalf("all: %+v", r.All)
	}
	near("all diff", r.All.Diff, 1.0/7, 1e-12)
	// Sign test over 3 flips, 2 against 1: 2·P(X ≤ 1), X ~ Bin(3, ½) = 2·4/8 = 1.
	near("all p sign", r.All.PSign, 1, 1e-12)
	if len(r.Groups) != 2 || r.Groups[0].Group != "bn" || r.Groups[1].Group != "hi" {
		t.Fatalf("groups %+v, want bn then hi", r.Groups)
	}
	hi, bn := r.Groups[1], r.Groups[0]
	if hi.N != 4 || hi.APass != 2 || hi.BPass != 4 || hi.Better != 2 || hi.Worse != 0 {
		t.Errorf("hi: %+v", hi)
	}
	// Wilson 95% for 2/4 (z = 1.959964): centre (2 + z²/2)/(4 + z²) = ½,
	// half-width z·√(4·¼ + z²/4)/(4 + z²) = 0.349965.
	near("hi a low", hi.ALow, 0.5-0.349965, 1e-5)
	near("hi a high", hi.AHigh, 0.5+0.349965, 1e-5)
	// 2 better, 0 worse: sign test 2·(½)² = 0.5; McNemar (|2−0|−1)²/2 = ½,
	// p = P(χ²₁ > ½) = erfc(½) = 0.479500.
	near("hi p sign", hi.PSign, 0.5, 1e-12)
	near("hi p McNemar", hi.PMcNemar, math.Erfc(0.5), 1e-9)
	// bn: 0 better, 1 worse, sign test min(1, 2·½) = 1. Holm over (0.5, 1):
	// 2·0.5 = 1, then max(1, 1·1) = 1.
	near("bn p sign", bn.PSign, 1, 1e-12)
	near("hi p Holm", hi.PHolm, 1, 1e-12)
	near("bn p Holm", bn.PHolm, 1, 1e-12)
	near("hi diff", hi.Diff, 0.5, 1e-12)
	near("bn diff", bn.Diff, -1.0/3, 1e-12)
	if !(hi.DiffLow <= hi.Diff && hi.Diff <= hi.DiffHigh) || !(bn.DiffLow <= bn.Diff && bn.Diff <= bn.DiffHigh) {
		t.Errorf("a change outside its interval: hi %+v, bn %+v", hi, bn)
	}

	// Over all cases it is what Versions gives on the same pairs.
	v, err := Versions([]string{"h1", "h2", "h3", "h4", "b1", "b2", "b3"}, []float64{1, 0, 0, 1, 1, 1, 0}, []float64{1, 1, 1, 1, 0, 1, 0}, nil, Options{Seed: 1, Resamples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if v.Old != r.All.A || v.OldCILow != r.All.ALow || v.NewCIHigh != r.All.BHigh || v.PMcNemar != r.All.PMcNemar {
		t.Errorf("all cases differ from Versions: %+v vs %+v", r.All, v)
	}

	tables := r.Tables()
	if len(tables[0].Rows) != 3 || tables[0].Rows[0][0] != "all" || tables[0].Columns[0].Name != "language" {
		t.Errorf("table %+v", tables[0])
	}
	var sb strings.Builder
	if err := r.WriteText(&sb); err != nil || !strings.Contains(sb.String(), "b against a on em, paired by id") {
		t.Errorf("text %q, %v", sb.String(), err)
	}
}

func TestModelsPairing(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []Outcome
		opt  Options
		want error
		msg  string
	}{
		{"three models unnamed", modelRows(), Options{}, ErrModels, `3 models ("b", "a", "c")`},
		{"one named", modelRows(), Options{OldName: "a"}, ErrModels, "name both models"},
		{"unknown model", modelRows(), Options{OldName: "a", NewName: "z"}, ErrModels, `no rows of model "z"`},
		{"missing in b", []Outcome{{"1", "a", "", 1}, {"2", "a", "", 0}, {"1", "b", "", 1}}, Options{}, ErrPairing, `1 case of model "a" has no row for model "b": "2"`},
		{"missing in a", []Outcome{{"1", "a", "", 1}, {"1", "b", "", 1}, {"2", "b", "", 0}}, Options{}, ErrPairing, `1 case of model "b" has no row for model "a": "2" (row 3)`},
		{"twice", []Outcome{{"1", "a", "", 1}, {"1", "b", "", 1}, {"1", "a", "", 0}}, Options{}, ErrPairing, `case "1" of model "a" is on rows 1 and 3`},
		{"group differs", []Outcome{{"1", "a", "hi", 1}, {"1", "b", "bn", 1}}, Options{}, ErrPairing, `case "1" is in group "hi" for model "a" (row 1) but "bn" for model "b" (row 2)`},
		{"not 0/1", []Outcome{{"1", "a", "", 0.5}, {"1", "b", "", 1}}, Options{}, ErrNotBinary, "outcome 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Models(tc.rows, tc.opt)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v containing %q", err, tc.want, tc.msg)
			}
		})
	}
	// Two models, no groups: no group rows, and the order of appearance
	// names A and B.
	r, err := Models([]Outcome{{"1", "x", "", 0}, {"1", "y", "", 1}}, Options{})
	if err != nil || r.A != "x" || r.B != "y" || len(r.Groups) != 0 || r.By != "" {
		t.Errorf("%+v, %v", r, err)
	}
}
