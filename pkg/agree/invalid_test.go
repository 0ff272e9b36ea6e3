package agree

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// Values outside the constants print as such instead of panicking
// (Level) or passing for another value (Weights printed "none").
func TestEnumStrings(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  fmt.Stringer
		want string
	}{
		{"level ratio", LevelRatio, "ratio"},
		{"level 9", Level(9), "Level(9)"},
		{"level -1", Level(-1), "Level(-1)"},
		{"weights none", Unweighted, "none"},
		{"weights quadratic", Quadratic, "quadratic"},
		{"weights 7", Weights(7), "Weights(7)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s := tc.got.String(); s != tc.want {
				t.Errorf("String() = %q, want %q", s, tc.want)
			}
		})
	}
}

// Every invalid argument is an error wrapping ErrInvalid, never a panic,
// a silent fallback (weights 7 computed unweighted kappa) or another
// error (level 9 gave ErrOneLabel).
func TestInvalidArguments(t *testing.T) {
	a := strings.Fields("low mid high low mid")
	b := strings.Fields("low high high mid mid")
	units := [][]string{{"1", "2"}, {"2", "2"}, {"3", "1"}}
	dupOrder := []string{"low", "mid", "low", "high"}
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"WeightedKappa weights 7", func() error { _, err := WeightedKappa(a, b, nil, Weights(7)); return err }},
		{"WeightedKappa weights -1", func() error { _, err := WeightedKappa(a, b, nil, Weights(-1)); return err }},
		{"BootstrapKappa weights 7", func() error { _, err := BootstrapKappa(a, b, nil, Weights(7), 10, 0.95, 1); return err }},
		{"KrippendorffAlpha level 9", func() error { _, err := KrippendorffAlpha(units, Level(9), nil); return err }},
		{"BootstrapAlpha level 9", func() error { _, err := BootstrapAlpha(units, Level(9), nil, 10, 0.95, 1); return err }},
		{"NewConfusion repeated label", func() error { _, err := NewConfusion(a, b, dupOrder); return err }},
		{"NewConfusion empty label", func() error { _, err := NewConfusion(a, b, []string{"low", "", "mid", "high"}); return err }},
		{"WeightedKappa repeated label", func() error { _, err := WeightedKappa(a, b, dupOrder, Linear); return err }},
		{"BootstrapKappa repeated label", func() error { _, err := BootstrapKappa(a, b, dupOrder, Linear, 10, 0.95, 1); return err }},
		{"KrippendorffAlpha repeated value", func() error {
			_, err := KrippendorffAlpha(units, LevelOrdinal, []string{"1", "2", "1", "3"})
			return err
		}},
		{"BootstrapKappa 0 resamples", func() error { _, err := BootstrapKappa(a, b, nil, Unweighted, 0, 0.95, 1); return err }},
		{"BootstrapKappa confidence 95", func() error { _, err := BootstrapKappa(a, b, nil, Unweighted, 10, 95, 1); return err }},
		{"BootstrapFleiss -1 resamples", func() error { _, err := BootstrapFleiss(units, -1, 0.95, 1); return err }},
		{"BootstrapFleiss confidence 1", func() error { _, err := BootstrapFleiss(units, 10, 1, 1); return err }},
		{"BootstrapAlpha confidence 0", func() error { _, err := BootstrapAlpha(units, LevelNominal, nil, 10, 0, 1); return err }},
		{"BootstrapAlpha confidence NaN", func() error {
			_, err := BootstrapAlpha(units, LevelNominal, nil, 10, math.NaN(), 1)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if err := tc.call(); !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v, want one wrapping ErrInvalid", err)
			}
		})
	}
	// The method without an error result says so in its warnings and
	// computes nothing.
	c, _ := NewConfusion(a, b, nil)
	if k := c.Kappa(Weights(7)); k.Kappa != 0 || len(k.Warnings) != 1 || !strings.Contains(k.Warnings[0], "weights 7") {
		t.Errorf("Confusion.Kappa(Weights(7)) = %+v", k)
	}
}

// A repeated label in the order changed kappa before it was refused: the
// test shows the order is checked, not merely that some error comes.
func TestRepeatedOrderLabelMessage(t *testing.T) {
	_, err := WeightedKappa([]string{"a", "b"}, []string{"a", "a"}, []string{"a", "b", "a"}, Linear)
	if err == nil || !strings.Contains(err.Error(), `lists "a" twice`) {
		t.Errorf("error %v", err)
	}
}

// Weighted kappa and ordinal alpha without an order take labels that are
// not all numbers alphabetically; the result says so (the audit: only
// the command warned).
func TestGuessedOrderWarning(t *testing.T) {
	words := strings.Fields("a b tie a tie b a")
	other := strings.Fields("a tie tie b tie b a")
	nums := strings.Fields("1 2 3 1 3 2 1")
	numsOther := strings.Fields("1 3 3 2 3 2 1")
	const want = "linear weighted kappa needs the order of the labels; none was given and the labels are not all numbers, so they were taken alphabetically: a, b, tie"
	for _, tc := range []struct {
		name  string
		a, b  []string
		order []string
		w     Weights
		warn  bool
	}{
		{"linear on words", words, other, nil, Linear, true},
		{"quadratic on words", words, other, nil, Quadratic, true},
		{"words with an order", words, other, []string{"a", "tie", "b"}, Linear, false},
		{"linear on numbers", nums, numsOther, nil, Linear, false},
		{"unweighted on words", words, other, nil, Unweighted, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := WeightedKappa(tc.a, tc.b, tc.order, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			found := ""
			for _, w := range k.Warnings {
				if strings.Contains(w, "taken alphabetically") {
					found = w
				}
			}
			if tc.warn != (found != "") {
				t.Errorf("warnings %q, want the order warning: %v", k.Warnings, tc.warn)
			}
			if tc.w == Linear && tc.warn && !strings.HasPrefix(found, want) {
				t.Errorf("warning %q, want it to start %q", found, want)
			}
		})
	}
	units := [][]string{{"low", "mid"}, {"high", "high"}, {"mid", "mid"}, {"low", "low"}}
	for _, tc := range []struct {
		level Level
		order []string
		warn  bool
	}{
		{LevelOrdinal, nil, true},
		{LevelOrdinal, []string{"low", "mid", "high"}, false},
		{LevelNominal, nil, false},
	} {
		t.Run("alpha "+tc.level.String()+fmt.Sprint(tc.order), func(t *testing.T) {
			a, err := KrippendorffAlpha(units, tc.level, tc.order)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Contains(strings.Join(a.Warnings, "|"), "ordinal alpha needs the order of the labels; none was given and the labels are not all numbers, so they were taken alphabetically: high, low, mid")
			if got != tc.warn {
				t.Errorf("warnings %q, want the order warning: %v", a.Warnings, tc.warn)
			}
		})
	}
}

// At the ratio level a negative number is a number; the error says what
// is wrong with it.
func TestValueErrorProblem(t *testing.T) {
	for _, tc := range []struct {
		level Level
		value string
		want  string
	}{
		{LevelRatio, "-1", `agree: unit 2, rater 1: "-1" is negative, and the ratio level needs numbers of 0 or more`},
		{LevelRatio, "high", `agree: unit 2, rater 1: "high" is not a number, as the ratio level needs`},
		{LevelInterval, "high", `agree: unit 2, rater 1: "high" is not a number, as the interval level needs`},
		{LevelInterval, "Inf", `agree: unit 2, rater 1: "Inf" is not a finite number, as the interval level needs`},
	} {
		t.Run(tc.level.String()+" "+tc.value, func(t *testing.T) {
			_, err := KrippendorffAlpha([][]string{{"1", "2"}, {tc.value, "2"}}, tc.level, nil)
			var ve *ValueError
			if !errors.As(err, &ve) || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestFleissCategoriesMessage(t *testing.T) {
	_, err := FleissCounts([][]int{{2, 1}, {3}})
	if err == nil || err.Error() != "agree: item 2 has 1 category, item 1 has 2" {
		t.Errorf("error %v", err)
	}
}

// When every item agrees, each bootstrap interval is one point and a
// warning gives the Wilson interval of the observed agreement n/n. At
// n/n, Wilson's lower bound is n/(n + z²) and the upper bound 1; with
// z = 1.959964 (95%), z² = 3.841459:
//
//	11/11: 11/14.841459 = 0.74117
//	 4/4:   4/7.841459  = 0.51011
//	 5/5:   5/8.841459  = 0.56552
//
// and with z = 1.644854 (90%), z² = 2.705543: 11/13.705543 = 0.80259.
func TestAllAgreeWilsonWarning(t *testing.T) {
	eleven := strings.Fields("yes no yes no yes no yes no yes no no")
	for _, tc := range []struct {
		name string
		call func() (Interval, error)
		want string
	}{
		{"kappa 11 items", func() (Interval, error) { return BootstrapKappa(eleven, eleven, nil, Unweighted, 500, 0.95, 1) },
			"all 11 items agree, so every resample gives kappa 1.000 and the bootstrap interval has zero width; the 95% Wilson interval of the observed agreement 11/11 is 0.741 to 1.000"},
		{"kappa 90%", func() (Interval, error) { return BootstrapKappa(eleven, eleven, nil, Quadratic, 500, 0.90, 1) },
			"the 90% Wilson interval of the observed agreement 11/11 is 0.803 to 1.000"},
		{"fleiss 4 items", func() (Interval, error) {
			return BootstrapFleiss([][]string{{"a", "a", "a"}, {"b", "b", "b"}, {"a", "a", ""}, {"b", "b", "b"}}, 500, 0.95, 1)
		}, "all 4 items agree, so every resample gives Fleiss' kappa 1.000 and the bootstrap interval has zero width; the 95% Wilson interval of the observed agreement 4/4 is 0.510 to 1.000"},
		{"alpha 5 units", func() (Interval, error) {
			units := [][]string{{"1", "1", ""}, {"2", "2", "2"}, {"3", "", "3"}, {"1", "1", "1"}, {"2", "2", ""}, {"3", "", ""}}
			return BootstrapAlpha(units, LevelInterval, nil, 500, 0.95, 1)
		}, "all 5 pairable units agree, so every resample gives alpha 1.000 and the bootstrap interval has zero width; the 95% Wilson interval of the observed agreement 5/5 is 0.566 to 1.000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			iv, err := tc.call()
			if err != nil {
				t.Fatal(err)
			}
			if iv.Lo != 1 || iv.Hi != 1 {
				t.Errorf("interval %v to %v, want the figures kept at 1 to 1", iv.Lo, iv.Hi)
			}
			if !strings.Contains(strings.Join(iv.Warnings, "|"), tc.want) {
				t.Errorf("warnings %q, want one containing %q", iv.Warnings, tc.want)
			}
		})
	}
	// One disagreement among eleven: the interval has width and there is
	// no such warning.
	other := append([]string(nil), eleven...)
	other[0] = "no"
	iv, err := BootstrapKappa(eleven, other, nil, Unweighted, 500, 0.95, 1)
	if err != nil || iv.Lo == iv.Hi || strings.Contains(strings.Join(iv.Warnings, "|"), "Wilson") {
		t.Errorf("one disagreement: %+v, %v", iv, err)
	}
}

// wilson by hand, z = 1.959964, z² = 3.841459. 8 of 10: p = 0.8,
// z²/n = 0.3841459, centre = (0.8 + 0.1920730)/1.3841459 = 0.716740,
// half = 1.959964/1.3841459 · √(0.016 + 0.0096036) = 1.416008 · 0.160011
// = 0.226577, so 0.49016 to 0.94332. 0 of 10: 0 to z²/(n + z²) =
// 3.841459/13.841459 = 0.27753. 11 of 11: n/(n + z²) = 0.74117 to 1.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{8, 10, 0.49016, 0.94332},
		{0, 10, 0, 0.27753},
		{11, 11, 0.74117, 1},
	} {
		t.Run(fmt.Sprintf("%d of %d", tc.k, tc.n), func(t *testing.T) {
			lo, hi := wilson(tc.k, tc.n, 0.95)
			if !near(lo, tc.lo, 1e-5) || !near(hi, tc.hi, 1e-5) {
				t.Errorf("wilson = %.5f to %.5f, want %.5f to %.5f", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}
