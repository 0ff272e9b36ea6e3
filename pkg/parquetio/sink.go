package parquetio

import (
	"errors"
	"io"
	"path/filepath"

	"github.com/evalbook/evalbook/pkg/results"
)

// A FileSink is a Writer for qa.Options.Rows, started by the first row
// (whose schema it takes): what `score --out verdicts.parquet` uses.
//
//	sink := parquetio.NewFileSink(f, parquetio.WriteOptions{})
//	opt.Rows = sink.Row
//	res, err := qa.Score(ctx, in, name, opt)
//	... sink.Close()
type FileSink struct {
	w   io.Writer
	opt WriteOptions
	wr  *Writer
}

// NewFileSink returns a sink writing one Parquet file to w.
func NewFileSink(w io.Writer, opt WriteOptions) *FileSink { return &FileSink{w: w, opt: opt} }

// Row writes one row (the row is copied).
func (s *FileSink) Row(r *results.Row) error {
	if s.wr == nil {
		wr, err := NewWriter(s.w, r.Schema, s.opt)
		if err != nil {
			return err
		}
		s.wr = wr
	}
	return s.wr.Write(r)
}

// Rows returns the number of rows written.
func (s *FileSink) Rows() int64 {
	if s.wr == nil {
		return 0
	}
	return s.wr.Rows()
}

// Close finishes the file. With no rows there is no schema, hence no
// file: Close says so.
func (s *FileSink) Close() error {
	if s.wr == nil {
		return errors.New("parquetio: no rows were scored, so there is no Parquet file to write")
	}
	return s.wr.Close()
}

// A DirSink is a DirWriter for qa.Options.Rows, started by the first row:
// what `score --out-dir verdicts/ --partition-by model,language` uses. The
// target is checked when the sink is made (it must not exist or be an
// empty directory), the partition columns at the first row.
type DirSink struct {
	dir string
	opt DirOptions
	dw  *DirWriter
}

// NewDirSink returns a sink writing a partitioned folder at dir.
func NewDirSink(dir string, opt DirOptions) (*DirSink, error) {
	if len(opt.By) == 0 {
		return nil, errors.New("parquetio: name at least one column to partition by")
	}
	if err := checkTarget(filepath.Clean(dir)); err != nil {
		return nil, err
	}
	return &DirSink{dir: dir, opt: opt}, nil
}

// Row writes one row to its partition (the row is copied).
func (s *DirSink) Row(r *results.Row) error {
	if s.dw == nil {
		dw, err := NewDirWriter(s.dir, r.Schema, s.opt)
		if err != nil {
			return err
		}
		s.dw = dw
	}
	return s.dw.Write(r)
}

// Close finishes the files and puts the folder in place.
func (s *DirSink) Close() (DirResult, error) {
	if s.dw == nil {
		return DirResult{Dir: s.dir, By: s.opt.By}, errors.New("parquetio: no rows were scored, so there is no folder to write")
	}
	return s.dw.Close()
}

// Abort removes what was written (after a failed Score).
func (s *DirSink) Abort() {
	if s.dw != nil {
		s.dw.Abort()
	}
}
