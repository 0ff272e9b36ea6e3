package main

func init() {
	register(&command{name: "aa", summary: "noise floor from two stored runs of the same system: flip rate with interval", run: runAA})
}

func runAA(e *env) error {
	fs := newFlags(e, "aa")
	var path string
	addStoreFlag(fs, &path)
	conf := confidenceValue(defaultConfidence)
	fs.Var(&conf, "confidence", "confidence `level` of the intervals, between 0 and 1")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
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
	return render(e, r, export)
}
