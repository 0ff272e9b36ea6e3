package compare_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/evalbook/evalbook/pkg/compare"
)

// Two versions' verdicts on the same eight cases, paired by id (the new
// file lists them in another order), compared as `evalbook compare --by
// task` does. By hand: c2, c6 and c8 got better and c3 worse, so the sign
// test is 2 · P(X ≤ 1) for X ~ Binomial(4, 1/2), 2 · 5/16 = 0.625.
func ExampleRead() {
	old := "id,task,pass\nc1,lookup,1\nc2,lookup,0\nc3,lookup,1\nc4,lookup,1\nc5,abstain,0\nc6,abstain,0\nc7,abstain,1\nc8,abstain,0\n"
	new := "id,task,pass\nc8,abstain,1\nc7,abstain,1\nc6,abstain,1\nc5,abstain,0\nc4,lookup,1\nc3,lookup,0\nc2,lookup,1\nc1,lookup,1\n"
	c, err := compare.Read(strings.NewReader(old), "v1.csv", strings.NewReader(new), "v2.csv",
		compare.Options{By: "task", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	c.WriteText(os.Stdout)
	// Output:
	// v1.csv -> v2.csv, metric pass, key id
	//
	// n          8 cases
	// old        0.500  (4/8)  95% interval 0.215 to 0.785 (Wilson)
	// new        0.750  (6/8)  95% interval 0.409 to 0.929
	// change     +0.250        95% interval -0.250 to 0.625 (paired bootstrap)
	// better     3             c2, c6, c8
	// worse      1             c3
	// unchanged  4
	// sign test  p = 0.625   exact, two-sided, 3 better vs 1 worse
	// McNemar    p = 0.6171  chi-square with continuity correction
	// ranks      old 2 (1-2), new 1 (1-2): 95% rank intervals, bootstrap over the cases
	// tiers      both tier 1: the sign test cannot separate them (α = 0.05)
	//
	//      task  n    old    new  better  worse
	//   abstain  4  0.250  0.750       2      0
	//    lookup  4  0.750  0.750       1      1
	//
	// warnings:
	//   change: bootstrap over only 8 pairs: the interval is rough and too narrow
	//   only 4 cases changed: McNemar's chi-square is rough; quote the exact sign test
	//   2 groups: with many slices some will differ by chance; small groups carry little evidence
}

// Outcomes already paired, as a notebook has them after running both
// versions on the same cases.
func ExampleVersions() {
	keys := []string{"q1", "q2", "q3", "q4", "q5", "q6"}
	v1 := []float64{0, 0, 0, 1, 1, 1}
	v2 := []float64{1, 1, 1, 1, 1, 0}
	c, err := compare.Versions(keys, v1, v2, nil, compare.Options{Metric: "pass", OldName: "version 1", NewName: "version 2", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d better %v, %d worse %v: sign test p = %.3f\n", len(c.Better), c.Better, len(c.Worse), c.Worse, c.PSign)
	for _, w := range c.Warnings {
		fmt.Println(w.Code+":", w.Message)
	}
	// Output:
	// 3 better [q1 q2 q3], 1 worse [q6]: sign test p = 0.625
	// few_resampled: change: bootstrap over only 6 pairs: the interval is rough and too narrow
	// few_flips: only 4 cases changed: McNemar's chi-square is rough; quote the exact sign test
}
