package stats

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnitMeanInterval checks both branches of UnitMeanInterval. The
// expected figures are hand computations with z = 1.959964 (z² = 3.841459)
// at 95%, checked to 6 decimals with a pocket calculator:
//
//   - every value equal (s² = 0), Wilson at p̂ = m:
//     m = 0, n = 2: hi = z²/(n + z²) = 3.841459/5.841459 = 0.657620, lo = 0
//     m = 1, n = 2: lo = n/(n + z²) = 2/5.841459 = 0.342380, hi = 1
//     m = 0.5, n = 4: centre 0.5, half = z/(1 + z²/4)·√(0.25/4 + z²/64)
//     = 0.999796 · √0.122523 = 0.349961, so [0.150039, 0.849961]
//   - one value 0.75: centre = (0.75 + z²/2)/(1 + z²) = 2.670730/4.841459
//     = 0.551638, half = z/4.841459 · √(0.1875 + z²/4) = 0.404829 · 1.071385
//     = 0.433728, so [0.117910, 0.985366]
//   - positive variance, values 0.2, 0.4, 0.6, 0.8: m = 0.5,
//     s² = (1.2 − 4·0.25)/3 = 0.066667, z·s/√4 = 1.959964 · 0.129099
//     = 0.253030, so [0.246970, 0.753030], the normal interval as before.
func TestUnitMeanInterval(t *testing.T) {
	tests := []struct {
		name       string
		sum, sumsq float64
		n          int
		lo, hi     float64
		method     string
		code, warn string
	}{
		{"n=2 all zero", 0, 0, 2, 0, 0.657620, "wilson", CodeEqualValues, "every value is equal"},
		{"n=2 all one", 2, 2, 2, 0.342380, 1, "wilson", CodeEqualValues, "every value is equal"},
		{"n=4 all one half", 2, 1, 4, 0.150039, 0.849961, "wilson", CodeEqualValues, "every value is equal"},
		{"n=1 value 0.75", 0.75, 0.5625, 1, 0.117910, 0.985365, "wilson", CodeEqualValues, "one value"},
		{"positive variance unchanged", 2, 1.2, 4, 0.246970, 0.753030, "normal", CodeFewValues, "fewer than 30"},
		{"no values", 0, 0, 0, 0, 1, "wilson", CodeNoData, "no cases"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			iv := UnitMeanInterval(tc.sum, tc.sumsq, tc.n, 0.95)
			if !near(iv.Lo, tc.lo, 5e-7) || !near(iv.Hi, tc.hi, 5e-7) || iv.Method != tc.method {
				t.Errorf("UnitMeanInterval(%v, %v, %d) = [%.6f, %.6f] %s, want [%.6f, %.6f] %s",
					tc.sum, tc.sumsq, tc.n, iv.Lo, iv.Hi, iv.Method, tc.lo, tc.hi, tc.method)
			}
			if codes(iv.Warnings) != tc.code || !strings.Contains(iv.Warnings[0].Message, tc.warn) {
				t.Errorf("warnings %q, want one %s containing %q", iv.Warnings, tc.code, tc.warn)
			}
		})
	}
	// The fallback warnings say what the Wilson interval is: that of a 0/1
	// score with the same mean. Bhatia–Davis bounds the variance of a
	// score in [0, 1], not the width of its interval, so they must not
	// call it the widest such a score allows.
	for _, n := range []int{1, 2} {
		iv := UnitMeanInterval(float64(n), float64(n), n, 0.95)
		if len(iv.Warnings) != 1 || !strings.HasSuffix(iv.Warnings[0].Message, ", as wide as a 0/1 score with this mean would get") ||
			strings.Contains(iv.Warnings[0].Message, "widest") {
			t.Errorf("n = %d: warnings %q, want one ending \"as wide as a 0/1 score with this mean would get\"", n, iv.Warnings)
		}
	}
	// With 0/1 values and an equal mean, the fallback is exactly Wilson.
	lo, hi := Wilson(0, 2, 0.95)
	if l, h := UnitMean(0, 0, 2, 0.95); l != lo || h != hi {
		t.Errorf("UnitMean(0, 0, 2) = [%v, %v], Wilson(0, 2) = [%v, %v]", l, h, lo, hi)
	}
	// Rounding in the sums of equal values (0.1 ten thousand times) is
	// not taken for a variance.
	sum, sumsq := 0.0, 0.0
	for i := 0; i < 10000; i++ {
		sum += 0.1
		sumsq += 0.1 * 0.1
	}
	if iv := UnitMeanInterval(sum, sumsq, 10000, 0.95); iv.Method != "wilson" || iv.Hi-iv.Lo < 1e-3 {
		t.Errorf("10000 values of 0.1: %+v, want the Wilson fallback", iv)
	}
}

func ExampleUnitMeanInterval() {
	// Two rows, both scoring 0 (e.g. squad_f1 of two blank responses):
	// the normal interval would be [0, 0]; the Wilson fallback is not.
	iv := UnitMeanInterval(0, 0, 2, 0.95)
	fmt.Printf("%s [%.4f, %.4f]\n", iv.Method, iv.Lo, iv.Hi)
	// Values 0.2, 0.4, 0.6, 0.8: a positive variance, the normal interval.
	iv = UnitMeanInterval(2, 1.2, 4, 0.95)
	fmt.Printf("%s [%.4f, %.4f]\n", iv.Method, iv.Lo, iv.Hi)
	// Output:
	// wilson [0.0000, 0.6576]
	// normal [0.2470, 0.7530]
}
