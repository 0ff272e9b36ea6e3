package cli

import (
	"flag"

	"github.com/evalbook/evalbook/pkg/xlsxread"
)

// WorkbookLimitFlags are --max-inflated-mib and --max-inflate-ratio, the
// limits on reading an .xlsx input (xlsxread.Limit): what it may inflate
// to, and how far a large member may deflate, so a zip bomb is refused.
type WorkbookLimitFlags struct {
	inflatedMiB int64
	ratio       float64
}

// AddWorkbookLimitFlags declares the two flags on fs, with
// xlsxread.DefaultLimits as defaults; Apply sets xlsxread.Limit from them
// after parsing.
func AddWorkbookLimitFlags(fs *flag.FlagSet) *WorkbookLimitFlags {
	w := &WorkbookLimitFlags{}
	fs.Int64Var(&w.inflatedMiB, "max-inflated-mib", xlsxread.DefaultLimits.MaxInflated>>20,
		"refuse an .xlsx input that inflates to more than `N` MiB (a zip bomb); raise it for a genuine workbook that large")
	fs.Float64Var(&w.ratio, "max-inflate-ratio", xlsxread.DefaultLimits.MaxRatio,
		"refuse an .xlsx input with a member over 16 MiB inflated that deflates more than `R` times (a zip bomb)")
	return w
}

// Apply sets xlsxread.Limit; a value below 1 is a usage error.
func (w *WorkbookLimitFlags) Apply() error {
	if w.inflatedMiB < 1 || w.inflatedMiB > 1<<40 {
		return Usagef("--max-inflated-mib must be at least 1 (MiB), got %d", w.inflatedMiB)
	}
	if !(w.ratio >= 1) {
		return Usagef("--max-inflate-ratio must be at least 1, got %v", w.ratio)
	}
	// Written only when it changes, so commands run side by side in one
	// process (the tests) with the defaults only read it.
	if l := (xlsxread.Limits{MaxInflated: w.inflatedMiB << 20, MaxRatio: w.ratio, RatioFloor: xlsxread.Limit.RatioFloor}); l != xlsxread.Limit {
		xlsxread.Limit = l
	}
	return nil
}
