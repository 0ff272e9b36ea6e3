package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/pkg/labelbook"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/xlsxread"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var labelCommands = []cli.Command{
	{Name: "label export", Summary: "write a seeded, stratified sample of judged rows as an Excel workbook for people to label (a drop-down per row)", Run: runLabelExport},
	{Name: "label import", Summary: "read labelled workbooks back: agreement between labellers per group, items to adjudicate, the labelled file correct reads", Run: runLabelImport},
}

func runLabelExport(e *cli.Env) error {
	fs := cli.NewFlags(e, "label export")
	judged := cli.InputFlag(fs, "judged", "", "judged rows (`FILE`, CSV or JSONL: id, the judge's verdict 0/1, the --by column, the shown columns)")
	out := cli.OutputFlag(fs, "out", "", "the labelling workbook to write (`FILE`.xlsx)")
	n := fs.Int("n", 100, "items to sample in all (`N`), shared over the groups")
	by := fs.String("by", "language", "stratify by this `column` (default language, when the file has it)")
	judgeCol := fs.String("judge-col", "", "the judge's verdict `column` (default judge, or llm_judge in evalbook judge's verdict file)")
	show := fs.String("show", "", "`columns` the labellers see, comma-separated (default question, answer, response: those the file has)")
	alloc := cli.AddChoice(fs, "allocation", "share of the sample per group: `equal` (each group corrected with its own labels) or proportional", labelbook.Allocations()...)
	guidelines := cli.InputFlag(fs, "guidelines", "", "text `FILE` replacing the \"How to label\" guidelines (UTF-8, a paragraph a line)")
	seed := fs.Uint64("seed", cli.DefaultSeed, "sampling `seed` (same seed, same items)")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the file goes after --judged"); err != nil {
		return err
	}
	if *judged == "" || *out == "" {
		return cli.Usagef("label export: --judged FILE and --out FILE.xlsx are required (see evalbook label export --help)")
	}
	if *out == "-" || !strings.EqualFold(filepath.Ext(*out), ".xlsx") {
		return cli.Usagef("label export: --out %s: the workbook needs a file name ending in .xlsx", *out)
	}
	if *n < 1 || *n > labelbook.MaxItems {
		return cli.Usagef("label export: --n %d: want 1 to %d", *n, labelbook.MaxItems)
	}
	byGiven := false
	fs.Visit(func(f *flag.Flag) { byGiven = byGiven || f.Name == "by" })
	opt := labelbook.ExportOptions{By: *by, OptionalBy: !byGiven, JudgeColumn: *judgeCol, N: *n, Allocation: *alloc, Seed: *seed}
	if *show != "" {
		opt.Show = cli.SplitList(*show)
	}
	if *guidelines != "" {
		b, err := tabular.ReadFile(*guidelines, 0)
		if err != nil {
			return err
		}
		opt.Guidelines = string(b)
	}
	f, err := os.Open(*judged)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := labelbook.ReadJudged(f, *judged, opt)
	if err != nil {
		return err
	}
	s.Result.Out = *out
	if err := cli.WriteAtomic(*out, func(w io.Writer) error { return labelbook.WriteWorkbook(w, s) }); err != nil {
		return err
	}
	cli.Wrote(e, []string{fmt.Sprintf("%s (%d items to label)", *out, s.Result.Items)})
	return cli.Render(e, s.Result, export)
}

func runLabelImport(e *cli.Env) error {
	fs := cli.NewFlags(e, "label import")
	out := cli.OutputFlag(fs, "out", "", "write the labelled file correct --labelled reads (`FILE`, CSV: id, human, judge, the group column)")
	dis := cli.OutputFlag(fs, "disagreements", "", "write the items to adjudicate (`FILE`, CSV with an empty human column to fill; read back with --adjudicated)")
	adjFile := cli.InputFlag(fs, "adjudicated", "", "an adjudicator's decisions (`FILE`, CSV or JSONL: id, human 1/0 or pass/fail)")
	iv := cli.AddIntervalFlags(fs, "for the kappa interval")
	wb := cli.AddWorkbookLimitFlags(fs)
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if err := wb.Apply(); err != nil {
		return err
	}
	if len(args) == 0 {
		return cli.Usagef("label import: name the filled workbooks, one per labeller (see evalbook label import --help)")
	}
	var books []*labelbook.Workbook
	for _, a := range args {
		b, err := labelbook.ReadWorkbookFile(a, xlsxread.Limit)
		if err != nil {
			return err
		}
		books = append(books, b)
	}
	opt := labelbook.ImportOptions{Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	if *adjFile != "" {
		f, err := os.Open(*adjFile)
		if err != nil {
			return err
		}
		opt.Adjudicated, err = labelbook.ReadAdjudicated(f, *adjFile)
		f.Close()
		if err != nil {
			return err
		}
	}
	res, err := labelbook.Import(books, opt)
	if err != nil {
		return err
	}
	var wrote []string
	if *out != "" {
		if err := cli.WriteAtomic(*out, res.WriteLabelled); err != nil {
			return err
		}
		wrote = append(wrote, fmt.Sprintf("%s (%d labelled rows)", *out, res.Labelled))
	}
	if *dis != "" {
		if err := cli.WriteAtomic(*dis, res.WriteDisagreements); err != nil {
			return err
		}
		wrote = append(wrote, fmt.Sprintf("%s (%d items to adjudicate)", *dis, len(res.ToAdjudicate)))
	}
	cli.Wrote(e, wrote)
	return cli.Render(e, res, export)
}
