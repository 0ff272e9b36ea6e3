package main

import (
	"errors"

	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var aaCommand = cli.Command{Name: "aa", Summary: "noise floor from two or more stored runs of the same system: flip rate with interval, within- and between-item variance, flaky items", Run: runAA, ReadsNoFile: true}

func runAA(e *cli.Env) error {
	fs := cli.NewFlags(e, "aa")
	var path string
	cli.AddStoreFlag(fs, &path)
	conf := cli.AddConfidenceFlag(fs, "")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) < 2 {
		return cli.Usagef("aa: give two or more RUNs of the same system (see evalbook runs list)")
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := st.AARuns(e.Ctx, args, conf.Level())
	if errors.Is(err, store.ErrSameRun) {
		return cli.Usagef("aa: %v", err)
	}
	if err != nil {
		return err
	}
	return cli.Render(e, r, export)
}
