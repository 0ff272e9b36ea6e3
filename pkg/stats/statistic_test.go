package stats

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// ratio is a corpus-level toy statistic: summed response length over
// summed golden length, rows of (response, golden).
func ratio(s []float64) float64 { return s[0] / s[1] }

func TestBootstrapStatistic(t *testing.T) {
	t.Run("two rows, by hand", func(t *testing.T) {
		// Rows (5, 10) and (2, 2). A resample of two rows is row 1 twice
		// (ratio 10/20 = 0.5, probability 1/4), both (7/12, 1/2) or row 2
		// twice (4/4 = 1, 1/4). Each tail holds 1/4 > 2.5%, so the 95%
		// interval is exactly [0.5, 1].
		iv := BootstrapStatistic([]float64{5, 10, 2, 2}, 2, ratio, 2000, 0.95, 1)
		if iv.Lo != 0.5 || iv.Hi != 1 || iv.Method != "bootstrap" || codes(iv.Warnings) != CodeFewResampled {
			t.Errorf("got %+v, want [0.5, 1] with one %s warning", iv, CodeFewResampled)
		}
		if !strings.Contains(iv.Warnings[0].Message, "only 2 rows") {
			t.Errorf("message %q lacks \"only 2 rows\"", iv.Warnings[0].Message)
		}
	})
	t.Run("mean as a ratio", func(t *testing.T) {
		// Rows (x, 1): the statistic is the mean of the resample. For the
		// 2000 values i/1999 of TestBootstrapMean the interval is close
		// to the normal one, 0.5 ∓ 1.96·√(0.0834/2000) = 0.5 ∓ 0.01266.
		rows := make([]float64, 0, 4000)
		for i := range 2000 {
			rows = append(rows, float64(i)/1999, 1)
		}
		iv := BootstrapStatistic(rows, 2, ratio, 5000, 0.95, 11)
		if !near(iv.Lo, 0.5-0.01266, 0.0015) || !near(iv.Hi, 0.5+0.01266, 0.0015) || iv.Warnings != nil {
			t.Errorf("got %+v, want about [0.48734, 0.51266] without warnings", iv)
		}
		// The interval depends on the seed only, not on the cores.
		prev := runtime.GOMAXPROCS(1)
		one := BootstrapStatistic(rows, 2, ratio, 5000, 0.95, 11)
		runtime.GOMAXPROCS(prev)
		if one.Lo != iv.Lo || one.Hi != iv.Hi {
			t.Errorf("GOMAXPROCS 1 gives [%v, %v], %d gives [%v, %v]", one.Lo, one.Hi, prev, iv.Lo, iv.Hi)
		}
		if other := BootstrapStatistic(rows, 2, ratio, 5000, 0.95, 12); other.Lo == iv.Lo && other.Hi == iv.Hi {
			t.Errorf("seeds 11 and 12 give the same interval [%v, %v]", iv.Lo, iv.Hi)
		}
	})
	t.Run("warnings", func(t *testing.T) {
		if iv := BootstrapStatistic(nil, 3, ratio, 10, 0.95, 1); iv.Lo != 0 || iv.Hi != 0 || codes(iv.Warnings) != CodeNoData {
			t.Errorf("no rows: %+v", iv)
		}
		// Twelve equal rows: every resample gives 3/4.
		var rows []float64
		for range 12 {
			rows = append(rows, 3, 4)
		}
		if iv := BootstrapStatistic(rows, 2, ratio, 100, 0.95, 1); iv.Lo != 0.75 || iv.Hi != 0.75 || codes(iv.Warnings) != CodePointInterval {
			t.Errorf("equal rows: %+v", iv)
		}
		// MinBootstrapN rows, not all equal: no warning.
		rows = rows[:0]
		for i := range MinBootstrapN {
			rows = append(rows, float64(i), 10)
		}
		if iv := BootstrapStatistic(rows, 2, ratio, 100, 0.95, 1); iv.Warnings != nil {
			t.Errorf("%d rows: warnings %q", MinBootstrapN, iv.Warnings)
		}
		if iv := BootstrapStatistic(rows[:2], 2, ratio, 100, 0.95, 1); !strings.Contains(messages(iv.Warnings), "only 1 row:") {
			t.Errorf("one row: warnings %q, want \"only 1 row:\"", iv.Warnings)
		}
	})
	t.Run("misuse", func(t *testing.T) {
		for name, f := range map[string]func(){
			"ragged rows": func() { BootstrapStatistic([]float64{1, 2, 3}, 2, ratio, 10, 0.95, 1) },
			"k = 0":       func() { BootstrapStatistic(nil, 0, ratio, 10, 0.95, 1) },
			"nil final":   func() { BootstrapStatistic([]float64{1, 2}, 2, nil, 10, 0.95, 1) },
		} {
			func() {
				defer func() {
					if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "stats: ") {
						t.Errorf("%s: recovered %v, want a \"stats: \" panic", name, r)
					}
				}()
				f()
			}()
		}
	})
}

// TestWarningCodes: every warning the package gives has a code from the
// documented list, and the code says what the message says.
func TestWarningCodes(t *testing.T) {
	known := map[string]bool{CodeNoData: true, CodeFewResampled: true, CodePointInterval: true, CodeEqualValues: true,
		CodeFewValues: true, CodeNearZeroVariance: true, CodeNoStandardError: true, CodeFewClusters: true}
	var all []Warning
	add := func(ws []Warning) { all = append(all, ws...) }
	add(WilsonInterval(0, 0, 0.95).Warnings)
	add(UnitMeanInterval(0, 0, 0, 0.95).Warnings)
	add(UnitMeanInterval(0.5, 0.25, 1, 0.95).Warnings)
	add(UnitMeanInterval(2.669, 1.780891, 4, 0.95).Warnings)
	add(BootstrapProportionInterval(3, 3, 10, 0.95, 1).Warnings)
	add(BootstrapMeanInterval(nil, 10, 0.95, 1).Warnings)
	add(PairedBootstrapDiffInterval([]float64{1}, []float64{1}, 10, 0.95, 1).Warnings)
	add(ClusterProportionEstimate([]float64{1}, []string{"a"}, 0.95).Warnings)
	add(ClusterBootstrapInterval([]float64{1, 0}, []string{"a", "b"}, 10, 0.95, 1).Warnings)
	add(BootstrapStatistic([]float64{1, 2}, 2, ratio, 10, 0.95, 1).Warnings)
	seen := map[string]bool{}
	for _, w := range all {
		if !known[w.Code] || w.Message == "" {
			t.Errorf("warning %+v: unknown code or no message", w)
		}
		seen[w.Code] = true
	}
	for c := range known {
		if !seen[c] {
			t.Errorf("code %s never given by the calls above", c)
		}
	}
}

func ExampleBootstrapStatistic() {
	// A corpus-level ratio (summed response length over summed golden
	// length) over two rows, (5, 10) and (2, 2): a resample is row 1
	// twice (0.5), both rows (7/12) or row 2 twice (1).
	rows := []float64{5, 10, 2, 2}
	iv := BootstrapStatistic(rows, 2, func(s []float64) float64 { return s[0] / s[1] }, 2000, 0.95, 1)
	fmt.Println(iv.Lo, iv.Hi)
	for _, w := range iv.Warnings {
		fmt.Println(w.Code, "-", w.Message)
	}
	// Output:
	// 0.5 1
	// few_resampled - bootstrap over only 2 rows: the interval is rough and too narrow
}
