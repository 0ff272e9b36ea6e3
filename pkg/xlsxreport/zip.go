package xlsxreport

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"runtime"
	"sync"
)

// chunkSize is the amount of a part deflated as one independent piece.
const chunkSize = 1 << 20

// parallelZip is the zip writer handed to excelize. It deflates each part
// in 1 MiB chunks on all cores, the way pigz does: every chunk is
// compressed on its own (BestSpeed) and ends with a sync flush, so that
// the chunks, written in order, form one valid deflate stream (RFC 1951:
// a sync flush ends on a byte boundary with a non-final block; only the
// last chunk ends with the final block). Parts are written with a data
// descriptor (as archive/zip's own Create does), whose CRC-32 and sizes
// are known once the part is complete.
type parallelZip struct {
	zw  *zip.Writer
	cur *partWriter
}

func newParallelZip(w io.Writer) *parallelZip { return &parallelZip{zw: zip.NewWriter(w)} }

// Create starts a part, finishing the previous one.
func (p *parallelZip) Create(name string) (io.Writer, error) {
	if err := p.finish(); err != nil {
		return nil, err
	}
	fh := &zip.FileHeader{Name: name, Method: zip.Deflate, Flags: 0x8}
	raw, err := p.zw.CreateRaw(fh)
	if err != nil {
		return nil, err
	}
	p.cur = &partWriter{fh: fh, out: raw, crc: crc32.NewIEEE(), workers: runtime.GOMAXPROCS(0)}
	return p.cur, nil
}

// AddFS adds the files of fsys, finishing the current part first.
func (p *parallelZip) AddFS(fsys fs.FS) error {
	if err := p.finish(); err != nil {
		return err
	}
	return p.zw.AddFS(fsys)
}

// Close finishes the last part and writes the central directory.
func (p *parallelZip) Close() error {
	if err := p.finish(); err != nil {
		return err
	}
	return p.zw.Close()
}

func (p *parallelZip) finish() error {
	if p.cur == nil {
		return nil
	}
	err := p.cur.close()
	p.cur = nil
	return err
}

// partWriter collects a part's bytes into chunks and deflates a batch of
// chunks (two per core) at a time.
type partWriter struct {
	fh         *zip.FileHeader
	out        io.Writer
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
	if w.comp >= math.MaxUint32 || w.size >= math.MaxUint32 {
		fh.CompressedSize, fh.UncompressedSize = math.MaxUint32, math.MaxUint32
		fh.ReaderVersion = 45 // zip64
	} else {
		fh.CompressedSize, fh.UncompressedSize = uint32(w.comp), uint32(w.size)
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
