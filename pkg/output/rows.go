package output

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

// RowOptions says where the rows of a scoring run go.
type RowOptions struct {
	// Out is the verdict output: "" for none, "-" for Stdout, a name
	// ending in .parquet for typed Parquet rows, one ending in .eee.json
	// for an Every Eval Ever aggregate (its instance JSONL beside it),
	// anything else for the verdict CSV.
	Out    string
	Stdout io.Writer // where "-" writes
	// Dir, when not empty, is a new folder of Parquet files partitioned
	// by the input columns By, outermost first (parquetio.DirSink).
	Dir string
	By  []string
	// EEEModel is the model id (model_info.id) an Every Eval Ever export
	// names; required with Out NAME.eee.json.
	EEEModel string
	// Spool keeps a verdict CSV in a temporary file when Out is not a
	// CSV file, for a report that lists rows (VerdictCSV).
	Spool bool
	// Compression is the Parquet files' codec (parquetio.WriteOptions):
	// "" or "snappy", "zstd", "none".
	Compression string
	// RowGroupRows is the rows in each row group of Out NAME.parquet
	// (parquetio.WriteOptions); 0 means parquetio.DefaultRowGroupRows.
	RowGroupRows int
}

// IsEEE reports whether path names an Every Eval Ever export.
func IsEEE(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".eee.json") }

// IsParquet reports whether path names a Parquet file.
func IsParquet(path string) bool { return strings.EqualFold(filepath.Ext(path), ".parquet") }

// DirError is OpenRows' error for a partitioned folder that cannot be
// written (it exists, or By is empty).
type DirError struct{ Err error }

func (e *DirError) Error() string { return e.Err.Error() }
func (e *DirError) Unwrap() error { return e.Err }

// Rows are the open row outputs of one scoring run.
type Rows struct {
	opt      RowOptions
	verdicts io.Writer                  // qa.Options.Verdicts
	rows     []func(*results.Row) error // qa.Options.Rows, in order
	commits  []func() (string, error)   // in order; a non-empty string is said
	aborts   []func()
	spool    *os.File
	spoolBuf *bufio.Writer
	kept     []*results.Row // for the Every Eval Ever export
	n        int
	// early receives the outcome of the commits once qa.Options.Delivered
	// has started them (Deliver); nil until then.
	early chan committed
}

// committed is what the commits said, and their error.
type committed struct {
	said []string
	err  error
}

// OpenRows creates the row outputs of opt (files stay temporary until
// Commit).
func OpenRows(opt RowOptions) (*Rows, error) {
	o := &Rows{opt: opt}
	eee := IsEEE(opt.Out)
	switch {
	case opt.Out == "":
	case eee:
		if opt.EEEModel == "" {
			return nil, fmt.Errorf("%s: an Every Eval Ever export needs the model id (model_info.id)", opt.Out)
		}
		o.rows = append(o.rows, func(r *results.Row) error { o.kept = append(o.kept, r.Clone()); return nil })
	case opt.Out == "-":
		bw := bufio.NewWriterSize(opt.Stdout, 64<<10)
		o.verdicts = bw
		o.commits = append(o.commits, func() (string, error) { return "", bw.Flush() })
	default:
		w, commit, abort, err := outfile.Create(opt.Out)
		if err != nil {
			return nil, err
		}
		o.aborts = append(o.aborts, abort)
		if IsParquet(opt.Out) {
			fs := parquetio.NewFileSink(w, parquetio.WriteOptions{Compression: opt.Compression, RowGroupRows: opt.RowGroupRows})
			o.rows = append(o.rows, fs.Row)
			o.commits = append(o.commits, func() (string, error) {
				if err := fs.Close(); err != nil {
					return "", err
				}
				return "", commit()
			})
		} else {
			o.verdicts = w
			o.commits = append(o.commits, func() (string, error) { return "", commit() })
		}
	}
	if opt.Dir != "" {
		ds, err := parquetio.NewDirSink(opt.Dir, parquetio.DirOptions{By: opt.By, Compression: opt.Compression})
		if err != nil {
			o.Close()
			return nil, &DirError{err}
		}
		o.aborts = append(o.aborts, ds.Abort)
		o.rows = append(o.rows, ds.Row)
		o.commits = append(o.commits, func() (string, error) {
			dr, err := ds.Close()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s in %s to %s (partitioned by %s)", plural(int(dr.Rows), "row", "rows"),
				plural(dr.Files, "file", "files"), dr.Dir, strings.Join(dr.By, ", ")), nil
		})
	}
	if opt.Spool && (opt.Out == "" || opt.Out == "-" || eee || IsParquet(opt.Out)) {
		f, err := outfile.TempFile("evalbook-verdicts-*.csv")
		if err != nil {
			o.Close()
			return nil, err
		}
		o.spool, o.spoolBuf = f, bufio.NewWriterSize(f, 1<<20)
		if o.verdicts != nil {
			o.verdicts = io.MultiWriter(o.verdicts, o.spoolBuf)
		} else {
			o.verdicts = o.spoolBuf
		}
	}
	return o, nil
}

// Attach makes q's run write to the outputs: q.Verdicts, q.Rows (after
// any callback q already has), and q.Delivered, which puts the files in
// place while the run is summed up (Deliver).
func (o *Rows) Attach(q *qa.Options) {
	if prev := q.Delivered; prev != nil {
		q.Delivered = func() { prev(); o.Deliver() }
	} else {
		q.Delivered = o.Deliver
	}
	if o.verdicts != nil {
		q.Verdicts = o.verdicts
		if where := o.formulaWhere(); where != "" {
			advice := map[string]string{qa.CodeFormulaCells: where}
			for k, v := range q.Advice {
				if k != qa.CodeFormulaCells {
					advice[k] = v
				}
			}
			q.Advice = advice
		}
	}
	if len(o.rows) == 0 {
		return
	}
	fns := o.rows
	// Every row output copies what it keeps (the Parquet writers copy
	// each value into a column, the Every Eval Ever export clones the
	// row), so the rows may be views of the input, unless a callback q
	// had already keeps strings.
	if q.Rows != nil {
		fns = append([]func(*results.Row) error{q.Rows}, fns...)
	} else {
		q.RowsCopy = true
	}
	if len(fns) == 1 { // one output: called straight, a call less per row
		q.Rows = fns[0]
		return
	}
	q.Rows = func(r *results.Row) error {
		for _, f := range fns {
			if err := f(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// formulaWhere says where the verdict rows went, for the formula_cells
// warning, when that is not a verdict file ("" when it is one).
func (o *Rows) formulaWhere() string {
	switch {
	case o.opt.Out == "-":
		return "got a leading ' in the verdict rows written to standard output (--raw-csv writes them as they came)"
	case o.spool != nil:
		return "came in the rows: the report shows them as text, never run; no verdict file was written (--out FILE.csv writes them with a leading ', --raw-csv as they came)"
	}
	return ""
}

// Commit finishes every output of the run whose result is res: flushes
// and renames the files into place, writes the Every Eval Ever files,
// and returns what there is to say of them (the partitioned folder).
func (o *Rows) Commit(res *results.Score) ([]string, error) {
	o.n = res.Combined.N
	var said []string
	var err error
	if o.early != nil {
		c := <-o.early
		o.early = nil
		said, err = c.said, c.err
	} else {
		said, err = runCommits(o.commits)
	}
	if err != nil {
		return said, err // Close aborts what was not committed
	}
	o.commits = nil
	if IsEEE(o.opt.Out) {
		if err := writeEEE(o.opt.Out, o.opt.EEEModel, res, o.kept); err != nil {
			return said, err
		}
	}
	return said, nil
}

// Deliver starts the commits in the background (qa.Options.Delivered:
// every row is out and the run cannot fail any more), so that putting
// the files in place, which for a file that replaces another includes
// the system freeing the old one's pages (16 ms for 230 MB), overlaps
// with the summing up of the run. Commit waits for them.
func (o *Rows) Deliver() {
	if o.early != nil || o.commits == nil {
		return
	}
	commits := o.commits
	o.early = make(chan committed, 1)
	go func() {
		said, err := runCommits(commits)
		o.early <- committed{said, err}
	}()
}

// runCommits runs commits in order up to the first error, and returns
// what they said.
func runCommits(commits []func() (string, error)) ([]string, error) {
	var said []string
	for _, c := range commits {
		s, err := c()
		if err != nil {
			return said, err
		}
		if s != "" {
			said = append(said, s)
		}
	}
	return said, nil
}

// Wrote says where the verdicts went, after Commit ("" when nowhere).
func (o *Rows) Wrote() string {
	switch {
	case o.opt.Out == "":
		return ""
	case IsEEE(o.opt.Out):
		return fmt.Sprintf("the Every Eval Ever aggregate to %s and %s to %s", o.opt.Out, plural(len(o.kept), "row", "rows"), interop.EEEInstancePath(o.opt.Out))
	case o.opt.Out == "-":
		return fmt.Sprintf("verdicts for %s to standard output", plural(o.n, "row", "rows"))
	}
	return fmt.Sprintf("verdicts for %s to %s", plural(o.n, "row", "rows"), o.opt.Out)
}

// VerdictCSV returns, after Commit, a verdict CSV file a report can list
// rows from: Out when it is one, else the spool (RowOptions.Spool); "" when
// there is none. Close removes the spool.
func (o *Rows) VerdictCSV() (string, error) {
	if o.spool != nil {
		if err := o.spoolBuf.Flush(); err != nil {
			return "", err
		}
		return o.spool.Name(), o.spool.Sync()
	}
	if o.opt.Out == "" || o.opt.Out == "-" || IsEEE(o.opt.Out) || IsParquet(o.opt.Out) {
		return "", nil
	}
	return o.opt.Out, nil
}

// Spooled reports whether VerdictCSV is a temporary file.
func (o *Rows) Spooled() bool { return o.spool != nil }

// Close removes every file not committed and the spool; safe to call
// after Commit and more than once.
func (o *Rows) Close() {
	if o.early != nil {
		<-o.early // started by Deliver and never collected by Commit
		o.early = nil
	}
	if o.commits != nil { // each abort passes over a file already in place
		for _, a := range o.aborts {
			a()
		}
	}
	o.aborts = nil
	if o.spool != nil {
		outfile.RemoveTemp(o.spool)
		o.spool = nil
	}
}

// writeEEE writes the Every Eval Ever aggregate at path and its instance
// JSONL beside it (interop.WriteEEE).
func writeEEE(path, model string, res *results.Score, rows []*results.Row) error {
	inst := interop.EEEInstancePath(path)
	var agg, ins bytes.Buffer
	if err := interop.WriteEEE(&agg, &ins, res, rows, interop.EEEExport{ModelID: model, InstancePath: filepath.Base(inst)}); err != nil {
		return err
	}
	if err := outfile.Write(inst, func(w io.Writer) error { _, err := w.Write(ins.Bytes()); return err }); err != nil {
		return err
	}
	return outfile.Write(path, func(w io.Writer) error { _, err := w.Write(agg.Bytes()); return err })
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
