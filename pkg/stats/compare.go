package stats

import "fmt"

// McNemarMinFlips is the number of flips (better + worse) below which
// McNemar's chi-square approximation is rough and the exact sign test is
// the p-value to quote.
const McNemarMinFlips = 25

// CompareOptions sets how ComparePaired makes its intervals.
type CompareOptions struct {
	// Method makes the two pass-rate intervals: "bootstrap"
	// (BootstrapProportionInterval), "bca" (BootstrapBCaProportion) or a
	// ProportionInterval method ("wilson", "clopper-pearson", "jeffreys",
	// "beta").
	Method     string
	Confidence float64
	// Resamples and Seed drive the bootstrap intervals: the old pass
	// rate's uses Seed, the new one's Seed+1 and the change's Seed+2, so
	// the three draw independent streams.
	Resamples int
	Seed      uint64
}

// Comparison is the paired comparison of two versions' 0/1 outcomes on
// the same cases.
type Comparison struct {
	// PairedResult holds n, the indices of the cases that got better and
	// worse, the unchanged count and the two pass rates.
	PairedResult
	// OldPass and NewPass count the passing cases of each version.
	OldPass, NewPass int
	// Old and New are the pass rates' intervals, made by the chosen method.
	Old, New Interval
	// Diff is NewMean − OldMean and DiffInterval its paired bootstrap
	// interval (PairedBootstrapDiffInterval).
	Diff         float64
	DiffInterval Interval
	// SignP is the exact two-sided sign test over the flips (SignTest),
	// McNemarP McNemar's chi-square test with continuity correction
	// (McNemar); below McNemarMinFlips flips quote SignP.
	SignP, McNemarP float64
}

// ComparePaired compares old[i] with new[i], the 0/1 outcomes of two
// versions on case i: the flips (Paired), each pass rate with an interval,
// the sign test and McNemar's test over the flips, and the change in pass
// rate with a paired bootstrap interval:
//
//	Diff = (Σ new − Σ old) / n,  SignP = SignTest(b, w),  McNemarP = McNemar(b, w)
//
// with b and w the numbers of cases that got better and worse. It panics
// if the slices differ in length, hold a value other than 0 or 1, or opt
// is misused (an unknown Method, a confidence outside (0, 1), fewer than
// one resample).
func ComparePaired(old, new []float64, opt CompareOptions) Comparison {
	if opt.Method != "bootstrap" && opt.Method != "bca" && !IsProportionMethod(opt.Method) {
		panic(fmt.Sprintf("stats: ComparePaired method %q (want bootstrap, bca or one of %v)", opt.Method, ProportionMethods()))
	}
	c := Comparison{PairedResult: Paired(old, new)}
	for i := range old {
		if old[i] != 0 && old[i] != 1 || new[i] != 0 && new[i] != 1 {
			panic(fmt.Sprintf("stats: ComparePaired needs 0/1 outcomes, got %v and %v at index %d", old[i], new[i], i))
		}
		c.OldPass += int(old[i])
		c.NewPass += int(new[i])
	}
	switch opt.Method {
	case "bootstrap":
		c.Old = BootstrapProportionInterval(c.OldPass, c.N, opt.Resamples, opt.Confidence, opt.Seed)
		c.New = BootstrapProportionInterval(c.NewPass, c.N, opt.Resamples, opt.Confidence, opt.Seed+1)
	case "bca":
		c.Old = BootstrapBCaProportion(c.OldPass, c.N, opt.Resamples, opt.Confidence, opt.Seed)
		c.New = BootstrapBCaProportion(c.NewPass, c.N, opt.Resamples, opt.Confidence, opt.Seed+1)
	default:
		c.Old = ProportionInterval(opt.Method, c.OldPass, c.N, opt.Confidence)
		c.New = ProportionInterval(opt.Method, c.NewPass, c.N, opt.Confidence)
	}
	b, w := len(c.Better), len(c.Worse)
	c.SignP = SignTest(b, w)
	c.McNemarP = McNemar(b, w)
	c.Diff = c.NewMean - c.OldMean
	c.DiffInterval = PairedBootstrapDiffInterval(old, new, opt.Resamples, opt.Confidence, opt.Seed+2)
	return c
}
