// Command coverage prints docs/statistics.md's table of the exact coverage of
// the proportion intervals (stats.ProportionInterval: Wilson,
// Clopper-Pearson, Jeffreys, Beta posterior): for each n and method, the
// mean and minimum coverage over a grid of true rates p, the share of
// rates below the nominal level less 1 point, and the mean expected
// width. Coverage is computed exactly (stats.Coverages sums the binomial
// probabilities of the counts whose interval covers p), so there is no
// simulation noise and no seed.
//
//	go run ./internal/tools/coverage [-confidence 0.95] [-step 0.01] [-n 10,20,30,50,100,200,500]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/stats"
)

func main() {
	confidence := flag.Float64("confidence", 0.95, "confidence level of the intervals")
	step := flag.Float64("step", 0.01, "spacing of the grid of true rates, from step to 1 − step")
	ns := flag.String("n", "10,20,30,50,100,200,500", "comma-separated numbers of trials")
	flag.Parse()
	var sizes []int
	for _, f := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "coverage: -n: %q is not a positive number\n", f)
			os.Exit(2)
		}
		sizes = append(sizes, n)
	}
	if !(*confidence > 0 && *confidence < 1) || !(*step > 0 && *step < 0.5) {
		fmt.Fprintln(os.Stderr, "coverage: -confidence must be in (0, 1) and -step in (0, 0.5)")
		os.Exit(2)
	}
	if err := write(os.Stdout, sizes, grid(*step), *confidence); err != nil {
		fmt.Fprintln(os.Stderr, "coverage:", err)
		os.Exit(1)
	}
}

// grid returns step, 2·step, … up to 1 − step (computed from integers so
// that 0.01·k does not drift).
func grid(step float64) []float64 {
	var ps []float64
	for k := 1; float64(k)*step < 1-step/2; k++ {
		ps = append(ps, float64(k)*step)
	}
	return ps
}

// Summary is one row of the table.
type Summary struct {
	N                        int
	Method                   string
	Mean, Min, ShareLow, Wid float64
}

// Summarize computes the row of method at n over the rates ps.
func Summarize(method string, n int, ps []float64, confidence float64) Summary {
	cov, wid := stats.Coverages(method, n, ps, confidence)
	s := Summary{N: n, Method: method, Min: 1}
	for i := range ps {
		s.Mean += cov[i]
		s.Wid += wid[i]
		s.Min = min(s.Min, cov[i])
		if cov[i] < confidence-0.01 {
			s.ShareLow++
		}
	}
	k := float64(len(ps))
	s.Mean, s.Wid, s.ShareLow = s.Mean/k, s.Wid/k, s.ShareLow/k
	return s
}

func write(w io.Writer, sizes []int, ps []float64, confidence float64) error {
	level := strconv.FormatFloat(100*confidence, 'f', -1, 64)
	low := strconv.FormatFloat(100*confidence-1, 'f', -1, 64)
	fmt.Fprintf(w, "Exact coverage of %s%% intervals over p = %g, %g, …, %g (%d rates)\n\n", level, ps[0], ps[1], ps[len(ps)-1], len(ps))
	fmt.Fprintf(w, "| n | method | mean coverage | min coverage | rates below %s%% | mean width |\n", low)
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|")
	for _, n := range sizes {
		for _, m := range stats.ProportionMethods() {
			s := Summarize(m, n, ps, confidence)
			if _, err := fmt.Fprintf(w, "| %d | %s | %.4f | %.4f | %.0f%% | %.4f |\n", n, m, s.Mean, s.Min, 100*s.ShareLow, s.Wid); err != nil {
				return err
			}
		}
	}
	return nil
}
