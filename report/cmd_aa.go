package main

func init() {
	register(&command{name: "aa", summary: "noise floor from two stored runs of the same system: flip rate with interval", run: runAA})
}

const aaHelp = `
Usage: evalbook aa [--store FILE] [--confidence C] [--json] [--xlsx FILE] [--html FILE] A B

An A/A test: A and B are two runs of the same system on the same data. For every metric both have,
gives the share of rows whose verdict flipped between them (with a Wilson interval) and the change
in the metric with its paired interval: what noise alone does at this sample size. A gate margin
below suggested_margin would fire on noise.

Example:
	evalbook judge ... --record && evalbook judge ... --record && evalbook aa last~1 last
` + runsStoreHelp

func runAA(e *env) error {
	fs := newFlags(e, "aa", aaHelp)
	var path string
	addStoreFlag(fs, &path)
	conf := confidenceValue(defaultConfidence)
	fs.Var(&conf, "confidence", "confidence `level` of the intervals, between 0 and 1")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return usagef("aa: give two RUNs of the same system (see evalbook runs list)")
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := st.AA(e.ctx, args[0], args[1], float64(conf))
	if err != nil {
		return err
	}
	return render(e, r, *asJSON, export, "aa")
}
