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
//	nbcheck [-require-rich] [-max-lines N] [-against COMMITTED.ipynb] [-published DIR] [-unmarked] [-q] FILE.ipynb...
//
// A notebook fails when
//
//   - any output has output_type "error" (a kernel-reported error);
//   - a cell's stderr stream has a line matching
//     ^(\^C)?(exit status \d+|signal: .+)$ (a non-zero exit or a killed program);
//   - a code cell with non-blank source has no execution_count (it never ran,
//     for example because execution stopped at an earlier cell);
//   - with -require-rich: no output anywhere carries an image/* or text/html
//     representation (the notebook was meant to show a table or chart);
//   - with -max-lines N: a code cell has more than N lines of source (not
//     counting trailing blank lines);
//   - a markdown cell quotes a figure that the named code cell's output does
//     not show. scripts/nbgen.py turns a marker {{cell-id: 0.603}} in a
//     notebook source into the text 0.603 and a quote {"cell": "cell-id",
//     "text": "0.603"} in the cell's metadata.evalbook.quotes. The figure
//     must appear in that cell's stream, text/plain, text/markdown or
//     text/html output (tags removed, white space collapsed) as a whole
//     figure: "0.60" is not found in "0.603";
//   - with -against COMMITTED.ipynb (one FILE only): a code cell's outputs
//     differ from those of the cell with the same id in COMMITTED, or a
//     code cell is in one notebook only. A cell's stdout, its stderr and its
//     other outputs (in order, every MIME representation) are compared; the
//     interleaving of printed text with displays is not, since it depends on
//     timing, and neither are cell and output metadata (where nbclient
//     records timings) or execution counts;
//   - with -published DIR: DIR/NAME.html, the page scripts/nbhtml.py makes
//     of NAME.ipynb, is missing, was made from another version of the
//     notebook (its <meta name="evalbook-notebook"> records the notebook's
//     SHA-256), lacks its style sheet or shows a path of the machine it was
//     made on; and a page in DIR whose notebook is not beside the ones
//     given fails too;
//   - with -unmarked: a markdown cell's prose holds a figure (a decimal
//     such as 0.603 or a percentage such as 68.3% or 95%; code spans,
//     fenced code and link targets aside) that no marker covers. A figure a
//     cell prints gets a {{cell-id: 0.603}} marker; one that no cell prints
//     (an input, a threshold, a hand computation, a literature value) is
//     written {{=0.95}} in the notebook source, or {{=text}} around a
//     whole formula: scripts/nbgen.py shows the text alone and records it
//     in metadata.evalbook.plain. A figure is covered when it starts inside
//     the first occurrence, not yet used, of a marker's text in the cell.
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
	fs.IntVar(&opts.maxLines, "max-lines", 0, "fail a code cell with more than `N` lines of source (0: no limit)")
	fs.StringVar(&opts.against, "against", "", "fail when the outputs differ from those of the committed notebook `FILE` (one notebook only)")
	published := fs.String("published", "", "fail when `DIR`/NAME.html (scripts/nbhtml.py) is missing or was made from another version of NAME.ipynb")
	fs.BoolVar(&opts.unmarked, "unmarked", false, "fail a figure in markdown (0.603, 68.3%) that carries no {{cell-id: text}} or {{=text}} marker")
	quiet := fs.Bool("q", false, "print only failures")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nbcheck [-require-rich] [-max-lines N] [-against COMMITTED.ipynb] [-published DIR] [-unmarked] [-q] FILE.ipynb...")
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
	if opts.against != "" && fs.NArg() != 1 {
		fmt.Fprintln(stderr, "nbcheck: -against compares one notebook; give one FILE.ipynb")
		return 2
	}
	if opts.maxLines < 0 {
		fmt.Fprintln(stderr, "nbcheck: -max-lines must be 0 (no limit) or more")
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
	if *published != "" {
		problems, err := checkPublished(*published, fs.Args())
		if err != nil {
			fmt.Fprintf(stdout, "FAIL %s: %v\n", *published, err)
			return 1
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "FAIL %s\n", p)
		}
		if len(problems) > 0 {
			return 1
		}
		if !*quiet {
			fmt.Fprintf(stdout, "ok   %s: a page for each of %d notebooks, made from the notebook as it is\n", *published, fs.NArg())
		}
	}
	return status
}
