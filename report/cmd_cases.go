package main

import (
	"bytes"
	"flag"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var casesCommands = []cli.Command{
	{Name: "cases coverage", Summary: "count case records over two fields (task x set) and list thin and empty cells", Run: runCasesCoverage},
	{Name: "cases hash", Summary: "print the order-independent content hash of case records", Run: runCasesHash},
	{Name: "cases split", Summary: "split case records into dev and holdout by a salted hash of each id", Run: runCasesSplit},
	{Name: "cases leakage", Summary: "find near-copies across the split and in outside sources", Run: runCasesLeakage},
}

// kitSampleCases is the embedded case file used when no FILE is given.
const kitSampleCases = "helpdesk/cases.jsonl"

// kitReadFile reads a named file, or standard input for "-", refusing
// one larger than tabular.FileLimit() (--max-file-mib).
func kitReadFile(e *cli.Env, name string) ([]byte, error) {
	if name == "-" {
		return tabular.ReadAll(e.Stdin, "standard input", 0)
	}
	return tabular.ReadFile(name, 0)
}

// kitEmbedded reads a file of the embedded sample and says so on stderr.
func kitEmbedded(e *cli.Env, name, what string) ([]byte, error) {
	fmt.Fprintf(e.Stderr, "evalbook: no %s given; using the embedded sample datasets/%s\n", what, name)
	return datasets.Helpdesk.ReadFile(name)
}

// kitFiles reads the named files ("-" for standard input), or with none
// the embedded sample file, saying on stderr that no `what` was given.
func kitFiles(e *cli.Env, names []string, sample, what string) ([]design.File, error) {
	if len(names) == 0 {
		b, err := kitEmbedded(e, sample, what)
		return []design.File{{Name: "datasets/" + sample, Data: b}}, err
	}
	in := make([]design.File, len(names))
	for i, name := range names {
		b, err := kitReadFile(e, name)
		if err != nil {
			return nil, err
		}
		in[i] = design.File{Name: name, Data: b}
	}
	return in, nil
}

// kitLoadCases reads case records from files (the embedded sample when
// there are none, saying on stderr that no `what` was given) under the
// vocabulary of the plan file, if one is given: design.LoadCases.
func kitLoadCases(e *cli.Env, files []string, planFile, what string) ([]design.Case, design.Vocabulary, string, error) {
	var plan *design.Plan
	var err error
	if planFile != "" {
		if plan, err = kitPlanArg(e, planFile, ""); err != nil {
			return nil, design.Vocabulary{}, "", err
		}
	}
	in, err := kitFiles(e, files, kitSampleCases, what)
	if err != nil {
		return nil, design.Vocabulary{}, "", err
	}
	return design.LoadCases(in, plan)
}

func runCasesCoverage(e *cli.Env) error {
	fs := cli.NewFlags(e, "cases coverage")
	rows := fs.String("rows", "task", "case `field` along the rows: task, set, lang or expect")
	cols := fs.String("cols", "set", "case `field` along the columns: task, set, lang or expect")
	minN := fs.Int("min", design.DefaultMinPerCell, "a cell with fewer than `N` cases is listed as thin")
	planFile := cli.InputFlag(fs, "plan", "", "plan `FILE` whose case_values extend the allowed values")
	export := cli.AddTableExportFlags(fs)
	files, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if *minN < 1 {
		return cli.Usagef("cases coverage: --min must be at least 1")
	}
	for _, f := range []string{*rows, *cols} {
		if _, err := design.DefaultVocabulary.Values(f); err != nil {
			return cli.Usagef("cases coverage: %v", err)
		}
	}
	if *rows == *cols {
		return cli.Usagef("cases coverage: --rows and --cols are both %q", *rows)
	}
	cases, voc, label, err := kitLoadCases(e, files, *planFile, "FILE")
	if err != nil {
		return err
	}
	rep, err := design.CoverageReportOf(cases, *rows, *cols, voc, *minN, label)
	if err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}

func runCasesHash(e *cli.Env) error {
	fs := cli.NewFlags(e, "cases hash")
	planFile := cli.InputFlag(fs, "plan", "", "plan `FILE` whose case_values extend the allowed values")
	export := cli.AddTableExportFlags(fs)
	files, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	cases, _, _, err := kitLoadCases(e, files, *planFile, "FILE")
	if err != nil {
		return err
	}
	return cli.Render(e, design.HashOf(cases), export)
}

func kitSplitFlags(fs *flag.FlagSet) (*float64, *string) {
	return fs.Float64("holdout", design.DefaultHoldout, "holdout `share`, in [0, 1]"),
		fs.String("salt", design.DefaultSalt, "salt `S` mixed into each id's hash; change it to draw a new split")
}

func runCasesSplit(e *cli.Env) error {
	fs := cli.NewFlags(e, "cases split")
	share, salt := kitSplitFlags(fs)
	planFile := cli.InputFlag(fs, "plan", "", "plan `FILE` whose case_values extend the allowed values")
	export := cli.AddTableExportFlags(fs)
	files, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if *share < 0 || *share > 1 || *share != *share {
		return cli.Usagef("cases split: --holdout %v is outside [0, 1]", *share)
	}
	cases, _, _, err := kitLoadCases(e, files, *planFile, "FILE")
	if err != nil {
		return err
	}
	rep, err := design.SplitOf(cases, *share, *salt)
	if err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}

// kitSourceFile returns the FILE of a --source NAME=FILE.
func kitSourceFile(v string) (string, error) {
	name, file, ok := strings.Cut(v, "=")
	if !ok || name == "" || file == "" {
		return "", fmt.Errorf("want NAME=FILE, got %q", v)
	}
	return file, nil
}

func runCasesLeakage(e *cli.Env) error {
	fs := cli.NewFlags(e, "cases leakage")
	share, salt := kitSplitFlags(fs)
	threshold := fs.Float64("threshold", design.DefaultLeakageConfig.Threshold, "report pairs whose score reaches `T`, in (0, 1]")
	var sources []string
	cli.InputListVar(fs, &sources, "source", "outside source `NAME=FILE` (repeatable)", kitSourceFile)
	planFile := cli.InputFlag(fs, "plan", "", "plan `FILE` whose case_values extend the allowed values")
	export := cli.AddTableExportFlags(fs)
	files, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if *share < 0 || *share > 1 || *share != *share {
		return cli.Usagef("cases leakage: --holdout %v is outside [0, 1]", *share)
	}
	if !(*threshold > 0 && *threshold <= 1) {
		return cli.Usagef("cases leakage: --threshold %v is outside (0, 1]", *threshold)
	}
	cases, _, _, err := kitLoadCases(e, files, *planFile, "FILE")
	if err != nil {
		return err
	}
	var srcs []design.Source
	seen := map[string]bool{}
	for _, s := range sources {
		name, file, _ := strings.Cut(s, "=")
		if seen[name] {
			return cli.Usagef("cases leakage: --source %s given twice", name)
		}
		seen[name] = true
		b, err := kitReadFile(e, file)
		if err != nil {
			return err
		}
		src, err := design.ReadSource(bytes.NewReader(b), name, file)
		if err != nil {
			return err
		}
		srcs = append(srcs, src)
	}
	cfg := design.DefaultLeakageConfig // the threshold checked above is all Validate would check
	cfg.Threshold = *threshold
	rep, err := cfg.CheckSplitLeakage(cases, *share, *salt, srcs)
	if err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}
