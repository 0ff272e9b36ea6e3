package xlsxreport

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// chunkSize is the amount of a part deflated as one independent piece.
const chunkSize = 1 << 20

// parallelZip is the zip writer handed to excelize. It deflates each part
// in 1 MiB chunks on all cores, the way pigz does: every chunk is
// compressed on its own (BestSpeed) and ends with a sync flush, so that
// the chunks, written in order, form one valid deflate stream (RFC 1951:
// a sync flush ends on a byte boundary with a non-final block; only the
// last chunk ends with the final block).
//
// It also makes the workbook's bytes reproducible. excelize writes its
// streamed sheets in map order and lists the default content types in map
// order, so two runs over the same results gave different files. Here the
// deflated parts go to a spool (memory, then a temporary file past
// spoolMemory) and Close writes them in a fixed order, [Content_Types].xml
// first and then by name, with the content types sorted. Deflate is
// deterministic and every part's sizes and CRC-32 are known by then, so
// the same workbook always gives the same bytes.
type parallelZip struct {
	w     io.Writer
	spool spool
	parts []spooledPart
	cur   *partWriter
	ct    *bytes.Buffer // [Content_Types].xml, collected to be sorted
	ctFH  *zip.FileHeader
}

// spooledPart is a deflated part waiting in the spool.
type spooledPart struct {
	fh     *zip.FileHeader
	off, n int64
}

const contentTypesName = "[Content_Types].xml"

func newParallelZip(w io.Writer) *parallelZip { return &parallelZip{w: w} }

// Create starts a part, finishing the previous one.
func (p *parallelZip) Create(name string) (io.Writer, error) {
	if err := p.finish(); err != nil {
		return nil, err
	}
	fh := &zip.FileHeader{Name: name, Method: zip.Deflate}
	if name == contentTypesName {
		p.ct, p.ctFH = &bytes.Buffer{}, fh
		return p.ct, nil
	}
	p.cur = p.newPart(fh)
	return p.cur, nil
}

func (p *parallelZip) newPart(fh *zip.FileHeader) *partWriter {
	return &partWriter{fh: fh, out: &p.spool, off: p.spool.size, crc: crc32.NewIEEE(), workers: runtime.GOMAXPROCS(0)}
}

// AddFS adds the files of fsys, finishing the current part first.
func (p *parallelZip) AddFS(fsys fs.FS) error {
	if err := p.finish(); err != nil {
		return err
	}
	return fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := fsys.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		w, err := p.Create(name)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, f)
		return err
	})
}

// Close finishes the last part, writes every part in order, then the
// central directory, and removes the spool.
func (p *parallelZip) Close() error {
	defer p.discard()
	if err := p.finish(); err != nil {
		return err
	}
	slices.SortFunc(p.parts, func(a, b spooledPart) int {
		if (a.fh.Name == contentTypesName) != (b.fh.Name == contentTypesName) {
			if a.fh.Name == contentTypesName {
				return -1
			}
			return 1
		}
		return strings.Compare(a.fh.Name, b.fh.Name)
	})
	zw := zip.NewWriter(p.w)
	for _, part := range p.parts {
		raw, err := zw.CreateRaw(part.fh)
		if err != nil {
			return err
		}
		if _, err := io.Copy(raw, p.spool.section(part.off, part.n)); err != nil {
			return err
		}
	}
	return zw.Close()
}

// discard removes the spool's temporary file, if any; it is safe to call
// more than once and after a failure.
func (p *parallelZip) discard() { p.spool.remove() }

func (p *parallelZip) finish() error {
	if p.ct != nil {
		sorted, err := sortContentTypes(p.ct.Bytes())
		if err != nil {
			return err
		}
		p.cur = p.newPart(p.ctFH)
		p.cur.Write(sorted)
		p.ct, p.ctFH = nil, nil
	}
	if p.cur == nil {
		return nil
	}
	err := p.cur.close()
	if err == nil {
		p.parts = append(p.parts, spooledPart{fh: p.cur.fh, off: p.cur.off, n: int64(p.cur.comp)})
	}
	p.cur = nil
	return err
}

// The content types part ([Content_Types].xml, ECMA-376 part 2): defaults
// by file extension and overrides by part name. Order carries no meaning.
type contentTypes struct {
	XMLName   xml.Name     `xml:"http://schemas.openxmlformats.org/package/2006/content-types Types"`
	Defaults  []ctDefault  `xml:"Default"`
	Overrides []ctOverride `xml:"Override"`
}

type ctDefault struct {
	Extension   string `xml:"Extension,attr"`
	ContentType string `xml:"ContentType,attr"`
}

type ctOverride struct {
	PartName    string `xml:"PartName,attr"`
	ContentType string `xml:"ContentType,attr"`
}

// sortContentTypes returns the content types part with its defaults
// sorted by extension and its overrides by part name.
func sortContentTypes(b []byte) ([]byte, error) {
	var ct contentTypes
	if err := xml.Unmarshal(b, &ct); err != nil {
		return nil, fmt.Errorf("xlsxreport: reading the workbook's %s: %w", contentTypesName, err)
	}
	slices.SortStableFunc(ct.Defaults, func(a, b ctDefault) int { return strings.Compare(a.Extension, b.Extension) })
	slices.SortStableFunc(ct.Overrides, func(a, b ctOverride) int { return strings.Compare(a.PartName, b.PartName) })
	out, err := xml.Marshal(ct)
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), out...), nil
}

// spool holds deflated parts until Close: in memory up to spoolMemory
// bytes, then in a temporary file.
type spool struct {
	mem  []byte
	file *os.File
	size int64
	err  error
}

// spoolMemory is how much of the deflated workbook is kept in memory
// before the spool moves to a temporary file (a variable for tests).
var spoolMemory int64 = 4 << 20

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.file == nil && s.size+int64(len(p)) > spoolMemory {
		f, err := os.CreateTemp("", "evalbook-xlsx-*.spool")
		if err != nil {
			s.err = fmt.Errorf("xlsxreport: a temporary file for the workbook: %w", err)
			return 0, s.err
		}
		// Unlinked at once: the open file stays usable and the system
		// frees it when it is closed or the process ends, even by a
		// signal, so no spool outlives the run (issue 17).
		os.Remove(f.Name())
		s.file = f
		if _, err := f.Write(s.mem); err != nil {
			s.err = err
			return 0, err
		}
		s.mem = nil
	}
	if s.file != nil {
		n, err := s.file.Write(p)
		s.size += int64(n)
		if err != nil {
			s.err = err
		}
		return n, err
	}
	s.mem = append(s.mem, p...)
	s.size += int64(len(p))
	return len(p), nil
}

func (s *spool) section(off, n int64) io.Reader {
	if s.file != nil {
		return io.NewSectionReader(s.file, off, n)
	}
	return bytes.NewReader(s.mem[off : off+n])
}

func (s *spool) remove() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
	s.mem = nil
}

// partWriter collects a part's bytes into chunks and deflates a batch of
// chunks (two per core) at a time.
type partWriter struct {
	fh         *zip.FileHeader
	out        io.Writer // the spool
	off        int64     // where the part starts in the spool
	crc        hash.Hash32
	size, comp uint64
	pending    []byte
	batch      [][]byte
	workers    int
	err        error
}

func (w *partWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	w.crc.Write(p)
	w.size += uint64(n)
	for len(p) > 0 {
		if w.pending == nil {
			w.pending = make([]byte, 0, chunkSize)
		}
		k := min(len(p), chunkSize-len(w.pending))
		w.pending = append(w.pending, p[:k]...)
		p = p[k:]
		if len(w.pending) == chunkSize {
			w.batch = append(w.batch, w.pending)
			w.pending = nil
			if len(w.batch) == 2*w.workers {
				if w.err = w.flush(false); w.err != nil {
					return 0, w.err
				}
			}
		}
	}
	return n, nil
}

// flush deflates the batch in parallel and writes it in order; with
// final, the last chunk ends the stream.
func (w *partWriter) flush(final bool) error {
	out := make([][]byte, len(w.batch))
	errs := make([]error, len(w.batch))
	var wg sync.WaitGroup
	sem := make(chan struct{}, w.workers)
	for i, c := range w.batch {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = deflateChunk(c, final && i == len(w.batch)-1)
		}()
	}
	wg.Wait()
	for i, c := range out {
		if errs[i] != nil {
			return errs[i]
		}
		if _, err := w.out.Write(c); err != nil {
			return err
		}
		w.comp += uint64(len(c))
	}
	w.batch = w.batch[:0]
	return nil
}

// close deflates what is left, ends the stream and records the CRC-32
// and sizes for the data descriptor and the central directory.
func (w *partWriter) close() error {
	if w.err != nil {
		return w.err
	}
	// The last chunk may be empty: it still carries the final block.
	w.batch = append(w.batch, w.pending)
	w.pending = nil
	if err := w.flush(true); err != nil {
		return err
	}
	fh := w.fh
	fh.CRC32 = w.crc.Sum32()
	fh.CompressedSize64, fh.UncompressedSize64 = w.comp, w.size
	// CreateRaw derives the deprecated 32-bit size fields from these
	// (capped at MaxUint32, which marks a zip64 entry).
	if w.comp >= math.MaxUint32 || w.size >= math.MaxUint32 {
		fh.ReaderVersion = 45 // zip64
	}
	return nil
}

var flaters = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(nil, flate.BestSpeed)
	return fw
}}

// deflateChunk compresses one chunk on its own, ending it with a sync
// flush, or with the final block when final.
func deflateChunk(c []byte, final bool) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(c)/4 + 64)
	fw := flaters.Get().(*flate.Writer)
	defer flaters.Put(fw)
	fw.Reset(&b)
	if _, err := fw.Write(c); err != nil {
		return nil, err
	}
	var err error
	if final {
		err = fw.Close()
	} else {
		err = fw.Flush()
	}
	return b.Bytes(), err
}
