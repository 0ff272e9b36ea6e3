package judge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

func calibrateFake(t *testing.T, name string, swap bool) Record {
	t.Helper()
	f, err := FakeByName(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Calibrate(context.Background(), f, mustPrompt(t, "pairwise@1"), loadPairs(t), CalibrateOptions{Judge: f.String(), Swap: swap})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestCalibrateMixed reproduces the lesson's calibration of the mixed judge
// (SPEC.md section 3, seed 003's printed output):
//
//	swap=False: agreement 0.633  kappa 0.456  order disagreements 0
//	  confusion (human rows): a [7, 0, 3], b [4, 5, 2], tie [2, 0, 7]
//	swap=True: agreement 0.6  kappa 0.416  order disagreements 17
//	  confusion (human rows): a [4, 0, 6], b [0, 5, 6], tie [0, 0, 9]
//	95% interval for that agreement: (0.467, 0.8) from 30 pairs
//	by kind: cite 3/5, clear 4/6, padded_wrong 5/5, self 0/5, tie 4/4, verbose_tie 3/5
//	by language: bn 0/2, en 19/28
//	wrong decisive picks 6: longer 6, first 6, uncited 4, own style 3
//
// Kappa by hand: without swap the judge says a 13, b 5, tie 12 against the
// human a 10, b 11, tie 9, so expected = (130 + 55 + 108)/900 = 293/900 and
// kappa = (570 - 293)/(900 - 293) = 277/607 = 0.4563. With swap it says
// a 4, b 5, tie 21: expected = (40 + 55 + 189)/900 = 284/900, kappa =
// (540 - 284)/(900 - 284) = 256/616 = 0.4156.
func TestCalibrateMixed(t *testing.T) {
	t.Run("one order", func(t *testing.T) {
		r := calibrateFake(t, "mixed", false)
		if r.N != 30 || r.Agree != 19 || round3(r.Agreement) != 0.633 {
			t.Errorf("agreement %d/%d = %v, want 19/30 = 0.633", r.Agree, r.N, r.Agreement)
		}
		if !near(r.Kappa, 277.0/607) || round3(r.Kappa) != 0.456 {
			t.Errorf("kappa %v, want 277/607 = 0.456", r.Kappa)
		}
		if round3(r.AgreementLow) != 0.467 || round3(r.AgreementHigh) != 0.8 {
			t.Errorf("interval (%v, %v), want (0.467, 0.8)", r.AgreementLow, r.AgreementHigh)
		}
		wantConf := map[Label]map[Label]int{
			LabelA:   {LabelA: 7, LabelB: 0, LabelTie: 3},
			LabelB:   {LabelA: 4, LabelB: 5, LabelTie: 2},
			LabelTie: {LabelA: 2, LabelB: 0, LabelTie: 7},
		}
		if !reflect.DeepEqual(r.Confusion, wantConf) {
			t.Errorf("confusion %v, want %v", r.Confusion, wantConf)
		}
		wantKind := map[string]Share{"cite": {3, 5}, "clear": {4, 6}, "padded_wrong": {5, 5}, "self": {0, 5}, "tie": {4, 4}, "verbose_tie": {3, 5}}
		if !reflect.DeepEqual(r.ByKind, wantKind) {
			t.Errorf("by kind %v, want %v", r.ByKind, wantKind)
		}
		if want := map[string]Share{"bn": {0, 2}, "en": {19, 28}}; !reflect.DeepEqual(r.ByLang, want) {
			t.Errorf("by language %v, want %v", r.ByLang, want)
		}
		if want := (ErrorShape{WrongDecisive: 6, PickedLonger: 6, PickedFirst: 6, PickedUncited: 4, PickedOwnStyle: 3}); r.Errors != want {
			t.Errorf("errors %+v, want %+v", r.Errors, want)
		}
		if r.OrderDisagreements != 0 {
			t.Errorf("order disagreements %d without swap", r.OrderDisagreements)
		}
	})
	t.Run("swap", func(t *testing.T) {
		r := calibrateFake(t, "mixed", true)
		if r.Agree != 18 || !near(r.Kappa, 256.0/616) || round3(r.Kappa) != 0.416 || r.OrderDisagreements != 17 {
			t.Errorf("agree %d kappa %v disagreements %d, want 18, 256/616 = 0.416, 17", r.Agree, r.Kappa, r.OrderDisagreements)
		}
		wantConf := map[Label]map[Label]int{
			LabelA:   {LabelA: 4, LabelB: 0, LabelTie: 6},
			LabelB:   {LabelA: 0, LabelB: 5, LabelTie: 6},
			LabelTie: {LabelA: 0, LabelB: 0, LabelTie: 9},
		}
		if !reflect.DeepEqual(r.Confusion, wantConf) {
			t.Errorf("confusion %v, want %v", r.Confusion, wantConf)
		}
	})
}

// TestUsable runs the lesson's exercise: usable(record, 0.6, 0.6) for the
// clean, verbosity, self and mixed judges without swap. The lesson prints
//
//	clean      usable
//	verbosity  ['slice verbose_tie 0/5']
//	self       ['slice self 0/5']
//	mixed      ['kappa 0.456', 'slice self 0/5']
//
// and the verbosity judge's agreement 0.833 with kappa 0.75. Usable here
// also checks language slices, so the Bangla-blind mixed judge is rejected
// for its 0/2 on Bengali as well.
func TestUsable(t *testing.T) {
	tests := []struct {
		judge string
		want  []string
	}{
		{"clean", nil},
		{"verbosity", []string{"kind verbose_tie agrees on 0/5, below 0.6"}},
		{"self", []string{"kind self agrees on 0/5, below 0.6"}},
		{"mixed", []string{"kappa 0.456 below 0.6", "kind self agrees on 0/5, below 0.6", "lang bn agrees on 0/2, below 0.6"}},
	}
	for _, tt := range tests {
		t.Run(tt.judge, func(t *testing.T) {
			r := calibrateFake(t, tt.judge, false)
			if got := Usable(r, 0.6, 0.6); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Usable = %q, want %q", got, tt.want)
			}
		})
	}
	// The verbosity judge looks good on average: 25/30 and, by hand,
	// judge a 12, b 14, tie 4 against human a 10, b 11, tie 9 gives
	// expected (120 + 154 + 36)/900 = 310/900 and kappa (750 - 310)/(900 - 310)
	// = 440/590 = 0.746 (the lesson rounds it to 0.75).
	r := calibrateFake(t, "verbosity", false)
	if r.Agree != 25 || !near(r.Kappa, 440.0/590) || math.Round(r.Kappa*100)/100 != 0.75 {
		t.Errorf("verbosity: agree %d, kappa %v; want 25, 440/590", r.Agree, r.Kappa)
	}
	// Thresholds: a kappa exactly at the minimum passes.
	if got := Usable(Record{N: 1, Kappa: 0.6}, 0.6, 0.6); got != nil {
		t.Errorf("kappa at the minimum: %q", got)
	}
	if got := Usable(Record{}, 0.6, 0.6); len(got) != 1 {
		t.Errorf("empty record: %q", got)
	}
}

// TestSwapMakesTies checks what the swap can and cannot do, judge by judge:
// every label either survives both orders or becomes a tie, so wrong
// decisive picks can only fall; an order bias (position) loses all of them,
// while a consistent bias (self-preference picks its own style in both
// orders) keeps them.
func TestSwapMakesTies(t *testing.T) {
	wrong := map[string][2]int{ // wrong decisive picks without and with swap
		"clean": {0, 0}, "position": {9, 0}, "verbosity": {5, 5}, "self": {5, 5}, "mixed": {6, 0},
	}
	for name, want := range wrong {
		t.Run(name, func(t *testing.T) {
			one, two := calibrateFake(t, name, false), calibrateFake(t, name, true)
			for i := range one.Pairs {
				if l := two.Pairs[i].Label; l != one.Pairs[i].Label && l != LabelTie {
					t.Errorf("%s: swap changed %s into %s", one.Pairs[i].ID, one.Pairs[i].Label, l)
				}
			}
			if got := [2]int{one.Errors.WrongDecisive, two.Errors.WrongDecisive}; got != want {
				t.Errorf("wrong decisive picks %v, want %v", got, want)
			}
			if two.Errors.PickedFirst != 0 {
				t.Errorf("picked first with swap: %d", two.Errors.PickedFirst)
			}
		})
	}
}

func TestIsStale(t *testing.T) {
	pairs := loadPairs(t)
	v1, v2 := mustPrompt(t, "pairwise@1"), mustPrompt(t, "pairwise@2")
	r := calibrateFake(t, "mixed", false)
	edited := v1
	edited.Text += " "
	relabelled := append([]Pair(nil), pairs...)
	relabelled[0].Final = LabelTie
	tests := []struct {
		name   string
		judge  string
		prompt Prompt
		pairs  []Pair
		want   bool
	}{
		{"same everything", "fake:mixed", v1, pairs, false},
		{"judge name not checked", "", v1, pairs, false},
		{"prompt v2", "fake:mixed", v2, pairs, true},
		{"one added space", "fake:mixed", edited, pairs, true},
		{"pair dropped", "fake:mixed", v1, pairs[:len(pairs)-1], true},
		{"label changed", "fake:mixed", v1, relabelled, true},
		{"other judge", "fake:clean", v1, pairs, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsStale(r, tt.judge, tt.prompt, tt.pairs); got != tt.want {
				t.Errorf("IsStale = %v (%q), want %v", got, StaleReasons(r, tt.judge, tt.prompt, tt.pairs), tt.want)
			}
		})
	}
}

// TestDimensions reproduces the lesson's four dimension lines:
//
//	padded_wrong-1  human b    correctness b, evidence tie, concision b
//	verbose_tie-1   human tie  correctness tie, evidence tie, concision a
//	cite-1          human a    correctness tie, evidence a, concision tie
//	self-1          human b    correctness tie, evidence b, concision tie
func TestDimensions(t *testing.T) {
	pairs := loadPairs(t)
	tests := []struct {
		id    string
		final Label
		want  Dims
	}{
		{"padded_wrong-1", LabelB, Dims{LabelB, LabelTie, LabelB}},
		{"verbose_tie-1", LabelTie, Dims{LabelTie, LabelTie, LabelA}},
		{"cite-1", LabelA, Dims{LabelTie, LabelA, LabelTie}},
		{"self-1", LabelB, Dims{LabelTie, LabelB, LabelTie}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			p := pairByID(t, pairs, tt.id)
			if p.Final != tt.final {
				t.Errorf("final %s, want %s", p.Final, tt.final)
			}
			if got := Dimensions(p); got != tt.want {
				t.Errorf("Dimensions = %+v, want %+v", got, tt.want)
			}
		})
	}
	// Concision at the ratio boundary: 3 words against 2 is 1.5 times.
	if d := Dimensions(Pair{A: "x y", B: "x y z", Facts: []string{"x"}}); d.Concision != LabelA {
		t.Errorf("3 vs 2 words: concision %s, want a", d.Concision)
	}
	if d := Dimensions(Pair{A: "x y z", B: "x y z w", Facts: []string{"x"}}); d.Concision != LabelTie {
		t.Errorf("4 vs 3 words: concision %s, want tie", d.Concision)
	}
}

type failingJudge struct{}

func (f *failingJudge) Compare(ctx context.Context, q Query) (Winner, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return "", errors.New("endpoint down")
}

func TestCalibrateErrors(t *testing.T) {
	pairs := loadPairs(t)
	p := mustPrompt(t, "pairwise@1")
	if _, err := Calibrate(context.Background(), &failingJudge{}, p, pairs, CalibrateOptions{}); err == nil {
		t.Error("a failing judge gave a record")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Calibrate(ctx, Fake{}, p, pairs, CalibrateOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := Calibrate(context.Background(), Fake{}, p, nil, CalibrateOptions{}); err == nil {
		t.Error("no pairs gave a record")
	}
}

func ExampleUsable() {
	r := Record{N: 30, Kappa: 0.456, ByKind: map[string]Share{"self": {0, 5}, "tie": {4, 4}}, ByLang: map[string]Share{"en": {19, 28}}}
	for _, why := range Usable(r, 0.6, 0.6) {
		fmt.Println(why)
	}
	// Output:
	// kappa 0.456 below 0.6
	// kind self agrees on 0/5, below 0.6
}

// TestCalibrateWarningsSingular: a count of one reads as one ("1 pair",
// "1 judge reply ... was"), not "1 pairs".
func TestCalibrateWarningsSingular(t *testing.T) {
	pairs := loadPairs(t)
	t.Run("one pair in a language", func(t *testing.T) {
		var some []Pair
		bn := 0
		for _, p := range pairs {
			if p.Lang == "bn" {
				if bn++; bn > 1 {
					continue
				}
			}
			some = append(some, p)
		}
		f, _ := FakeByName("clean")
		r, err := Calibrate(context.Background(), f, mustPrompt(t, "pairwise@1"), some, CalibrateOptions{Judge: f.String()})
		if err != nil {
			t.Fatal(err)
		}
		// The clean judge agrees on all 29 pairs, so the interval warns too.
		want := results.Warning{Code: CodeFewLanguagePairs, Count: 1, Message: "language bn has only 1 pair: a reason to label more, not a measurement"}
		if len(r.Warnings) != 2 || !reflect.DeepEqual(r.Warnings[1], want) {
			t.Errorf("warnings %+v, want %+v second", r.Warnings, want)
		}
	})
	t.Run("one broken reply", func(t *testing.T) {
		v2 := mustPrompt(t, "pairwise@2")
		s := newScripted(t, pairs)
		s.judges[v2.Hash()], _ = FakeByName("clean")
		s.broken[pairByID(t, pairs, "clear-1").Question] = "The first answer is better."
		r, err := Calibrate(context.Background(), NewClientJudge(s, v2), v2, pairs, CalibrateOptions{Judge: "scripted"})
		if err != nil {
			t.Fatal(err)
		}
		want := results.Warning{Code: CodeInvalidReplies, Count: 1, Message: "1 judge reply broke the reply contract and was counted as a tie"}
		if r.Invalid != 1 || len(r.Warnings) == 0 || !reflect.DeepEqual(r.Warnings[0], want) {
			t.Errorf("invalid %d, warnings %+v", r.Invalid, r.Warnings)
		}
	})
}
