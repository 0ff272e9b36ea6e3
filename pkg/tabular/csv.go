package tabular

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// csvSource reads CSV by the rules of encoding/csv as this package used
// it (RFC 4180 quoting; LF or CRLF line ends; CRLF inside a quoted field
// read as LF, a CR before the end of the file dropped; empty lines
// skipped; a quote inside an unquoted field, or anything but a quote, a
// comma or the line end after a closing quote, is an error), but parses
// the bytes itself, in a buffer of its own. A field is cut from that
// buffer: Bytes hands it on as it is, and Fields copies the record once
// into one string. encoding/csv kept a raw line, a record buffer and the
// string, and this reader a window of the raw bytes on top to place
// errors: four copies of a long field where there are now two, and one
// for a caller of ScanBytes.
type csvSource struct {
	name   string
	r      io.Reader
	limit  int
	repair bool
	// buf[off:end] is read and not yet consumed; the record last read
	// is buf[off:off+recLen].
	buf      []byte
	off, end int
	eof      bool  // r has no more data
	rerr     error // a read error other than io.EOF, reported when the data runs out
	line     int   // line number of buf[off]
	// The record last read: its length (line end included), the line it
	// starts on, how many line breaks it holds (its own end included),
	// its fields, and its fields' unescaped or repaired bytes (Bytes).
	recLen   int
	recLine  int
	recNL    int
	spans    []span
	unq      []byte
	repaired bool
	hdr      []string
	hdrCols  []int
	// left is how many bytes the file has left to read, when r is a
	// file (unread), or -1: it bounds the growth of buf.
	left int64
	// given: strings alias buf (a huge record's fields, see strings), so
	// nothing may be written to it again; consume moves on to a new one.
	given bool
}

// aliasRecord is the length from which a record's fields of aliasField
// bytes or more are handed out as strings of the read buffer itself
// instead of a copy, and freeAfter
// the buffer size from which growing it returns the outgrown buffers to
// the system (variables so that tests can exercise both on small input).
var (
	aliasRecord = 4 << 20
	aliasField  = 64 << 10
	freeAfter   = 4 << 20
)

// span is one field of the record last read.
type span struct {
	start, end int // its raw bytes, quotes included, from the record's start
	line       int // line breaks in the record before it
	quoted     bool
	escaped    bool // quoted, and holds "" or CRLF: its text is not its raw bytes
	invalid    bool // not UTF-8
}

// csvBufSize is the buffer a csvSource starts with, and returns to after
// a long record.
const csvBufSize = 64 << 10

func newCSV(r io.Reader, name string, opt Options) (*csvSource, error) {
	s := &csvSource{name: name, r: r, limit: opt.MaxRecord, repair: opt.RepairUTF8, line: 1, buf: make([]byte, csvBufSize), left: unread(r)}
	for s.end-s.off < 3 && !s.eof {
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(s.buf[s.off:s.end], []byte("\xEF\xBB\xBF")) {
		s.off += 3
	}
	err := s.read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: expected a header row naming the columns", ErrEmptyFile)}
	}
	var pe *ParseError
	if errors.As(err, &pe) && errors.Is(err, ErrInvalidUTF8) {
		pe.Err = fmt.Errorf("header: %w", pe.Err)
	}
	if err != nil {
		return nil, err
	}
	s.hdr = s.strings()
	for i := range s.hdr {
		_, c := s.pos(i)
		s.hdrCols = append(s.hdrCols, c)
	}
	return s, nil
}

func (s *csvSource) header() []string { return s.hdr }

// unread returns how many bytes r has left to read when it is a regular
// file (an *os.File), or -1.
func unread(r io.Reader) int64 {
	f, ok := r.(interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	})
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil || pos > fi.Size() {
		return -1
	}
	return fi.Size() - pos
}

// raw returns the bytes of the record last read.
func (s *csvSource) raw() []byte { return s.buf[s.off : s.off+s.recLen] }

// fill reads more data into buf after end, moving the unconsumed bytes
// to its start and growing it (never far past the limit) when it is
// full.
func (s *csvSource) fill() error {
	if s.eof {
		return nil
	}
	if s.end == len(s.buf) {
		if s.end-s.off > s.limit {
			return s.tooLong()
		}
		if s.off > 0 && s.end-s.off < len(s.buf)/2 {
			s.end = copy(s.buf, s.buf[s.off:s.end])
			s.off = 0
		} else {
			size := min(2*len(s.buf), s.limit+csvBufSize)
			if s.left >= 0 {
				// no bigger than what the file has left (and a byte to
				// see its end): one huge record at the end of a file
				// gets a buffer of its size, not up to twice it
				size = min(size, s.end-s.off+int(min(s.left, int64(s.limit)))+1)
			}
			nb := make([]byte, size)
			s.end = copy(nb, s.buf[s.off:s.end])
			s.buf, s.off, s.given = nb, 0, false
			if len(nb) >= freeAfter {
				// One huge record: the buffers it outgrew (half this
				// one's size together) go back to the system now rather
				// than stay resident beside it.
				debug.FreeOSMemory()
			}
		}
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if s.left >= 0 {
			s.left = max(s.left-int64(n), 0) // a file that grows as it is read: a hint, no more
		}
		if err == io.EOF {
			s.eof = true
			return nil
		}
		if err != nil {
			s.rerr, s.eof = err, true
			return nil
		}
		if n > 0 {
			return nil
		}
	}
	s.rerr, s.eof = io.ErrNoProgress, true
	return nil
}

func (s *csvSource) tooLong() *ParseError {
	return &ParseError{File: s.name, Line: s.line, Err: fmt.Errorf("%w: a record starting here is longer than %s, the most this reader takes; %s (is the file really CSV? an unclosed quote makes the rest of the file one field)", ErrTooLong, Size(s.limit), LimitHint)}
}

// consume drops the record last read, and lets a buffer grown for a long
// record go rather than keep it for the rest of the file.
func (s *csvSource) consume() {
	s.off += s.recLen
	s.line += s.recNL
	s.recLen, s.recNL = 0, 0
	s.spans = s.spans[:0]
	s.unq = s.unq[:0]
	if rest := s.end - s.off; s.given || len(s.buf) > 1<<20 && rest < len(s.buf)/8 {
		nb := make([]byte, max(2*rest, csvBufSize))
		s.end = copy(nb, s.buf[s.off:s.end])
		s.buf, s.off, s.given = nb, 0, false
		s.unq = nil
	}
}

// read parses the next record (skipping empty lines) into spans and
// checks it: its length, UTF-8 (marking invalid fields when repairing)
// and NUL bytes. It returns io.EOF at the end of the input.
func (s *csvSource) read() error {
	s.consume()
	tried := -1 // bytes there were when the record was last found incomplete
	for {
		data := s.buf[s.off:s.end]
		switch {
		case len(data) > 0 && data[0] == '\n':
			s.off++
			s.line++
			continue
		case len(data) > 0 && data[0] == '\r' && (len(data) > 1 || s.eof):
			if len(data) == 1 { // a CR before the end of the file
				s.off++
				continue
			}
			if data[1] == '\n' {
				s.off += 2
				s.line++
				continue
			}
		case len(data) == 0 && s.eof:
			if s.rerr != nil {
				return &ParseError{File: s.name, Line: s.line, Err: s.rerr}
			}
			return io.EOF
		}
		// Parse again only once the data has doubled (or ended), so that
		// a long record is parsed a few times, not once per read.
		if len(data) > 0 && (s.eof || len(data) >= 2*tried) {
			n, nl, err := s.parse(data, s.eof)
			if err != nil {
				return err
			}
			if n > 0 {
				s.recLen, s.recNL, s.recLine = n, nl, s.line
				if n > s.limit {
					return s.tooLong()
				}
				return s.check()
			}
			tried = len(data)
		}
		if s.end-s.off > s.limit {
			return s.tooLong()
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// parse parses the record at the start of data, which is not an empty
// line. It returns its length in bytes, its line end included, and the
// number of line breaks in it (that end included), or 0 when data ends
// before the record does and more may come (eof false).
func (s *csvSource) parse(data []byte, eof bool) (n, nl int, err error) {
	s.spans = s.spans[:0]
	p, line := 0, 0
	lineEnd := -2 // index of the next '\n' at or after p; -1: none
	for {
		if p < len(data) && data[p] == '"' {
			start, startLine := p, line
			p++
			escaped := false
			for {
				i := bytes.IndexByte(data[p:], '"')
				if i < 0 {
					if !eof {
						return 0, 0, nil
					}
					return 0, 0, s.unclosed(data)
				}
				if c := bytes.Count(data[p:p+i], []byte{'\n'}); c > 0 {
					line += c
					escaped = escaped || bytes.Contains(data[p:p+i], []byte("\r\n"))
				}
				p += i + 1
				if p == len(data) {
					if !eof {
						return 0, 0, nil
					}
					s.spans = append(s.spans, span{start: start, end: p, line: startLine, quoted: true, escaped: escaped})
					return p, line, nil
				}
				switch data[p] {
				case '"':
					escaped = true
					p++
					continue
				case ',':
					s.spans = append(s.spans, span{start: start, end: p, line: startLine, quoted: true, escaped: escaped})
					p++
					lineEnd = -2
				case '\n':
					s.spans = append(s.spans, span{start: start, end: p, line: startLine, quoted: true, escaped: escaped})
					return p + 1, line + 1, nil
				case '\r':
					if p+1 == len(data) && !eof {
						return 0, 0, nil
					}
					if p+1 == len(data) || data[p+1] == '\n' {
						s.spans = append(s.spans, span{start: start, end: p, line: startLine, quoted: true, escaped: escaped})
						if p+1 == len(data) {
							return p + 1, line, nil
						}
						return p + 2, line + 1, nil
					}
					return 0, 0, s.quoteError(data, p-1, csv.ErrQuote)
				default:
					return 0, 0, s.quoteError(data, p-1, csv.ErrQuote)
				}
				break
			}
			continue
		}
		if lineEnd == -2 || (lineEnd >= 0 && lineEnd < p) {
			lineEnd = bytes.IndexByte(data[p:], '\n')
			if lineEnd >= 0 {
				lineEnd += p
			}
		}
		stop := lineEnd
		if stop < 0 {
			if !eof {
				return 0, 0, nil
			}
			stop = len(data)
		}
		if j := bytes.IndexByte(data[p:stop], ','); j >= 0 {
			if q := bytes.IndexByte(data[p:p+j], '"'); q >= 0 {
				return 0, 0, s.quoteError(data, p+q, csv.ErrBareQuote)
			}
			s.spans = append(s.spans, span{start: p, end: p + j, line: line})
			p += j + 1
			continue
		}
		end := stop
		if end > p && data[end-1] == '\r' {
			end--
		}
		if q := bytes.IndexByte(data[p:end], '"'); q >= 0 {
			return 0, 0, s.quoteError(data, p+q, csv.ErrBareQuote)
		}
		s.spans = append(s.spans, span{start: p, end: end, line: line})
		if lineEnd < 0 {
			return len(data), line, nil
		}
		return lineEnd + 1, line + 1, nil
	}
}

// place returns the line and character column of byte at of data, the
// record starting on line s.line.
func (s *csvSource) place(data []byte, at int) (line, col int) {
	ls := bytes.LastIndexByte(data[:at], '\n') + 1
	return s.line + bytes.Count(data[:ls], []byte{'\n'}), utf8.RuneCount(data[ls:at]) + 1
}

// quoteError is the error for a quote at byte at of data, the record
// being parsed.
func (s *csvSource) quoteError(data []byte, at int, cause error) *ParseError {
	line, col := s.place(data, at)
	return &ParseError{File: s.name, Line: line, Column: col, Err: fmt.Errorf("%w: %v", ErrQuote, cause)}
}

// unclosed is the error for a quoted field that the end of the file cut
// short: on the last line that holds data, after it (no column when the
// file ends with a line break, as encoding/csv placed it).
func (s *csvSource) unclosed(data []byte) *ParseError {
	pe := &ParseError{File: s.name, Err: fmt.Errorf("%w: %v", ErrQuote, csv.ErrQuote)}
	if d := bytes.TrimSuffix(data, []byte{'\r'}); len(d) > 0 && d[len(d)-1] == '\n' {
		pe.Line = s.line + bytes.Count(d, []byte{'\n'}) - 1
	} else {
		pe.Line, pe.Column = s.place(d, len(d))
	}
	return pe
}

// check marks the fields of the record just parsed that are not UTF-8,
// and refuses the record when one is (unless repairing) or when it holds
// a NUL byte.
func (s *csvSource) check() error {
	raw := s.raw()
	s.repaired = false
	if !utf8.Valid(raw) {
		for i := range s.spans {
			sp := &s.spans[i]
			if utf8.Valid(raw[sp.start:sp.end]) {
				continue
			}
			if !s.repair {
				return s.badUTF8(i)
			}
			sp.invalid = true
			s.repaired = true
		}
	}
	if k := bytes.IndexByte(raw, 0); k >= 0 {
		i := 0
		for i+1 < len(s.spans) && s.spans[i+1].start <= k {
			i++
		}
		line, col := s.place(raw, k)
		text := s.content(nil, i)
		pe := &ParseError{File: s.name, Line: line, Column: col, Err: NULError(utf8.RuneCount(text[:bytes.IndexByte(text, 0)]) + 1)}
		if i < len(s.hdr) {
			pe.Field = s.hdr[i]
		}
		return pe
	}
	return nil
}

// badUTF8 is the error for field i of the record just read, which is not
// UTF-8: the line and character column of its first bad byte.
func (s *csvSource) badUTF8(i int) *ParseError {
	raw := s.raw()
	sp := s.spans[i]
	at := sp.start + rawpos.InvalidUTF8(raw[sp.start:sp.end])
	text := s.content(nil, i)
	off := rawpos.InvalidUTF8(text)
	pe := &ParseError{File: s.name, Err: BadByteError(text[off], utf8.RuneCount(text[:off])+1)}
	pe.Line, pe.Column = s.place(raw, at)
	if i < len(s.hdr) {
		pe.Field = s.hdr[i]
	}
	return pe
}

// text returns the text of field i as the file holds it: without its
// quotes; escaped quotes and CRLF not yet undone.
func (s *csvSource) text(i int) []byte {
	sp := s.spans[i]
	raw := s.raw()
	if sp.quoted {
		return raw[sp.start+1 : sp.end-1]
	}
	return raw[sp.start:sp.end]
}

// content appends the text of field i to dst: "" read as ", CRLF as LF
// (but not repaired).
func (s *csvSource) content(dst []byte, i int) []byte {
	t := s.text(i)
	if !s.spans[i].escaped {
		return append(dst, t...)
	}
	for len(t) > 0 {
		k := bytes.IndexAny(t, "\"\r")
		if k < 0 {
			return append(dst, t...)
		}
		dst = append(dst, t[:k]...)
		switch {
		case t[k] == '"': // the first of two
			dst = append(dst, '"')
			t = t[k+2:]
		case k+1 < len(t) && t[k+1] == '\n':
			dst = append(dst, '\n')
			t = t[k+2:]
		default:
			dst = append(dst, '\r')
			t = t[k+1:]
		}
	}
	return dst
}

// bytes returns field i of the record last read, valid until the next
// read.
func (s *csvSource) bytes(i int) []byte {
	sp := s.spans[i]
	if !sp.escaped && !sp.invalid {
		return s.text(i)
	}
	start := len(s.unq)
	s.unq = s.content(s.unq, i)
	if sp.invalid {
		fixed := bytes.ToValidUTF8(s.unq[start:], []byte("\uFFFD"))
		s.unq = append(s.unq[:start], fixed...)
	}
	return s.unq[start:len(s.unq):len(s.unq)]
}

// strings returns the fields of the record last read as strings, cut
// from one copy of the record.
func (s *csvSource) strings() []string {
	if s.recLen >= aliasRecord && !s.escapedOrInvalid() {
		// A huge record whose fields are their raw bytes: cut them from
		// the buffer, which is not written again (given), instead of
		// holding the record twice. Its raw bytes stay as read, so pos
		// still places its fields.
		// Only long fields are cut so; the short ones are copied, so
		// that a caller keeping only them (an id) lets the buffer go.
		all := unsafe.String(&s.buf[s.off], s.recLen)
		out := make([]string, len(s.spans))
		var short strings.Builder
		for i := range s.spans {
			if t := s.text(i); len(t) < aliasField {
				short.Write(t)
			}
		}
		rest := short.String()
		for i, sp := range s.spans {
			start, end := sp.start, sp.end
			if sp.quoted {
				start, end = start+1, end-1
			}
			if end-start >= aliasField {
				out[i] = all[start:end]
			} else {
				out[i], rest = rest[:end-start], rest[end-start:]
			}
		}
		s.given = true
		return out
	}
	n := 0
	for i := range s.spans {
		n += len(s.text(i))
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]int, len(s.spans))
	for i, sp := range s.spans {
		switch {
		case sp.invalid:
			b.WriteString(strings.ToValidUTF8(string(s.content(nil, i)), "\uFFFD"))
		case sp.escaped:
			b.Write(s.content(nil, i))
		default:
			b.Write(s.text(i))
		}
		ends[i] = b.Len()
	}
	all := b.String()
	out := make([]string, len(s.spans))
	prev := 0
	for i, e := range ends {
		out[i] = all[prev:e]
		prev = e
	}
	return out
}

func (s *csvSource) escapedOrInvalid() bool {
	for _, sp := range s.spans {
		if sp.escaped || sp.invalid {
			return true
		}
	}
	return false
}

// nextRaw reads the next record and checks its field count.
func (s *csvSource) nextRaw(rec *Record) error {
	if err := s.read(); err != nil {
		return err
	}
	rec.Line = s.recLine
	rec.Repaired = s.repaired
	if len(s.spans) != len(s.hdr) {
		return &ParseError{File: s.name, Line: rec.Line, Err: fmt.Errorf("%w: the record has %d fields, the header has %d", ErrFieldCount, len(s.spans), len(s.hdr))}
	}
	return nil
}

func (s *csvSource) next(rec *Record) error {
	if err := s.nextRaw(rec); err != nil {
		return err
	}
	rec.Fields = s.strings()
	return nil
}

func (s *csvSource) pos(i int) (int, int) {
	if i < 0 || i >= len(s.spans) {
		return 0, 0
	}
	return s.place(s.raw(), s.spans[i].start)
}
