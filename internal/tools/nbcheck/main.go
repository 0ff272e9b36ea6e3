// Command nbcheck inspects Jupyter notebooks after headless execution and
// fails when a cell went wrong without Jupyter noticing.
//
// GoNB, the Go kernel, reports only build and `go get` failures as cell
// errors. A cell whose program panics, calls os.Exit(n) or log.Fatal, fails a
// %test or runs a failing !command still counts as executed: the only trace
// is a line such as "exit status 2" on the cell's stderr stream. nbconvert
// therefore exits 0, and this checker is what makes CI fail.
//
// Usage:
//
//	nbcheck [-require-rich] [-q] FILE.ipynb...
//
// A notebook fails when
//
//   - any output has output_type "error" (a kernel-reported error);
//   - a cell's stderr stream has a line matching
//     ^(\^C)?(exit status \d+|signal: .+)$ (a non-zero exit or a killed program);
//   - a code cell with non-blank source has no execution_count (it never ran,
//     for example because execution stopped at an earlier cell);
//   - with -require-rich: no output anywhere carries an image/* or text/html
//     representation (the notebook was meant to show a table or chart).
//
// Each problem is printed as "FAIL file: cell N [id]: message"; a clean
// notebook prints one "ok" line unless -q is given. Exit status: 0 when every
// notebook passes, 1 when any fails or cannot be read, 2 for usage errors.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the notebooks named in args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("nbcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts options
	fs.BoolVar(&opts.requireRich, "require-rich", false, "fail a notebook that has no image/* or text/html output")
	quiet := fs.Bool("q", false, "print only failures")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nbcheck [-require-rich] [-q] FILE.ipynb...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, path := range fs.Args() {
		sum, problems, err := checkFile(path, opts)
		if err != nil {
			fmt.Fprintf(stdout, "FAIL %s: %v\n", path, err)
			status = 1
			continue
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "FAIL %s: %s\n", path, p)
		}
		if len(problems) > 0 {
			status = 1
			continue
		}
		if !*quiet {
			fmt.Fprintf(stdout, "ok   %s: %d code cells executed, %d rich outputs\n", path, sum.executed, sum.rich)
		}
	}
	return status
}
