package tabular

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// csvSource reads CSV with encoding/csv. csv.Reader reports byte columns
// and passes bytes through unchecked, so the raw bytes of the record
// being read are kept (window) to give the character column of a field,
// a quoting error or a bad byte.
type csvSource struct {
	name    string
	r       *csv.Reader
	w       *window
	repair  bool
	hdr     []string
	hdrCols []int
	fields  int // fields in the record last read
}

// window keeps the bytes csv.Reader has read since the start of the
// current record (plus its read-ahead), and refuses to grow past limit.
type window struct {
	r     io.Reader
	buf   []byte
	off   int64 // stream offset of buf[0], a line start
	line  int   // line number of buf[0]
	limit int
}

var errWindow = errors.New("window full")

func (w *window) Read(p []byte) (int, error) {
	if len(w.buf) > w.limit {
		return 0, errWindow
	}
	n, err := w.r.Read(p)
	w.buf = append(w.buf, p[:n]...)
	return n, err
}

// trim drops the bytes before stream offset off, which is a line start
// (csv.Reader.InputOffset after a record).
func (w *window) trim(off int64) {
	k := int(off - w.off)
	if k <= 0 {
		return
	}
	k = min(k, len(w.buf))
	w.line += bytes.Count(w.buf[:k], []byte{'\n'})
	if rest := len(w.buf) - k; cap(w.buf) > 1<<20 && rest < cap(w.buf)/8 {
		// A long record is behind: let its buffer go rather than keep
		// it for the rest of the file.
		w.buf = append(make([]byte, 0, max(2*rest, 64<<10)), w.buf[k:]...)
	} else {
		w.buf = append(w.buf[:0], w.buf[k:]...)
	}
	w.off += int64(k)
}

// lineStart returns the offset in buf of the start of line (absolute),
// or -1 when buf does not hold it.
func (w *window) lineStart(line int) int {
	start := 0
	for l := w.line; l < line; l++ {
		i := bytes.IndexByte(w.buf[start:], '\n')
		if i < 0 {
			return -1
		}
		start += i + 1
	}
	if line < w.line {
		return -1
	}
	return start
}

// charCol turns the 1-based byte column col of line into a character
// column (each invalid byte counts as one), or 0 when buf does not hold
// that place.
func (w *window) charCol(line, col int) int {
	start := w.lineStart(line)
	if start < 0 || col < 1 {
		return 0
	}
	end := start + col - 1
	if end > len(w.buf) || bytes.IndexByte(w.buf[start:end], '\n') >= 0 {
		return 0
	}
	return utf8.RuneCount(w.buf[start:end]) + 1
}

func newCSV(r io.Reader, name string, opt Options) (*csvSource, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
	}
	w := &window{r: br, line: 1, limit: opt.MaxRecord}
	cr := csv.NewReader(w)
	cr.FieldsPerRecord = -1 // checked here, with a message that says more
	s := &csvSource{name: name, r: cr, w: w, repair: opt.RepairUTF8}
	hdr, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: expected a header row naming the columns", ErrEmptyFile)}
	}
	if err != nil {
		return nil, s.wrap(err)
	}
	if err := s.checkLength(); err != nil {
		return nil, err
	}
	s.fields = len(hdr)
	for i := range hdr {
		if !utf8.ValidString(hdr[i]) {
			if !s.repair {
				pe := s.badUTF8(hdr, i)
				pe.Err = fmt.Errorf("header: %w", pe.Err)
				return nil, pe
			}
			hdr[i] = strings.ToValidUTF8(hdr[i], "\uFFFD")
		}
		_, c := s.pos(i)
		s.hdrCols = append(s.hdrCols, c)
	}
	s.hdr = hdr
	return s, nil
}

func (s *csvSource) header() []string { return s.hdr }

// checkLength refuses the record just read when it is longer than the
// limit. (The window refuses to grow much past the limit, but it grows
// by the csv.Reader's reads of several kilobytes, so a record a little
// longer would pass.)
func (s *csvSource) checkLength() *ParseError {
	if s.r.InputOffset()-s.w.off > int64(s.w.limit) {
		return s.wrap(errWindow)
	}
	return nil
}

// wrap turns an error of csv.Reader into a *ParseError.
func (s *csvSource) wrap(err error) *ParseError {
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe):
		return &ParseError{File: s.name, Line: pe.Line, Column: s.w.charCol(pe.Line, pe.Column), Err: fmt.Errorf("%w: %v", ErrQuote, pe.Err)}
	case errors.Is(err, errWindow):
		return &ParseError{File: s.name, Line: s.w.line, Err: fmt.Errorf("%w: a record starting here is longer than %d bytes, the most this reader takes (is the file really CSV? an unclosed quote makes the rest of the file one field)", ErrTooLong, s.w.limit)}
	}
	return &ParseError{File: s.name, Err: err}
}

// badUTF8 is the error for field i of rec, the record just read, which
// is not UTF-8: the line and character column of its first bad byte.
func (s *csvSource) badUTF8(rec []string, i int) *ParseError {
	f := rec[i]
	off := rawpos.InvalidUTF8String(f)
	fl, fc := s.r.FieldPos(i)
	pe := &ParseError{File: s.name, Line: fl + strings.Count(f[:off], "\n"), Err: BadByteError(f[off], utf8.RuneCountInString(f[:off])+1)}
	if l, c, ok := rawpos.CSVBadByte(s.w.buf, fl-s.w.line+1, fc, f[off]); ok {
		pe.Line, pe.Column = l+s.w.line-1, c
	}
	if i < len(s.hdr) {
		pe.Field = s.hdr[i]
	}
	return pe
}

// byteAt is the line and character column of the first byte b in the
// raw text of field i of the record just read.
func (s *csvSource) byteAt(i int, b byte) (line, col int, ok bool) {
	fl, fc := s.r.FieldPos(i)
	start := s.w.lineStart(fl)
	if start < 0 || fc < 1 || start+fc-1 > len(s.w.buf) {
		return 0, 0, false
	}
	field := s.w.buf[start+fc-1:]
	k := bytes.IndexByte(field, b)
	if k < 0 {
		return 0, 0, false
	}
	at := start + fc - 1 + k
	ls := bytes.LastIndexByte(s.w.buf[:at], '\n') + 1
	return fl + bytes.Count(field[:k], []byte("\n")), utf8.RuneCount(s.w.buf[ls:at]) + 1, true
}

func (s *csvSource) next(rec *Record) error {
	s.w.trim(s.r.InputOffset())
	f, err := s.r.Read()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return s.wrap(err)
	}
	if err := s.checkLength(); err != nil {
		return err
	}
	s.fields = len(f)
	rec.Line, _ = s.r.FieldPos(0)
	if len(f) != len(s.hdr) {
		return &ParseError{File: s.name, Line: rec.Line, Err: fmt.Errorf("%w: the record has %d fields, the header has %d", ErrFieldCount, len(f), len(s.hdr))}
	}
	for i := range f {
		if utf8.ValidString(f[i]) {
			continue
		}
		if !s.repair {
			return s.badUTF8(f, i)
		}
		f[i] = strings.ToValidUTF8(f[i], "\uFFFD")
		rec.Repaired = true
	}
	rec.Fields = f
	return nil
}

func (s *csvSource) pos(i int) (int, int) {
	if i < 0 || i >= s.fields {
		return 0, 0
	}
	line, col := s.r.FieldPos(i)
	return line, s.w.charCol(line, col)
}
