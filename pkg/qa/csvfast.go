package qa

import (
	"bytes"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/evalbook/evalbook/internal/rawpos"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// This file is the fast CSV path: the file is cut into blocks that end on
// record boundaries, each block is parsed and scored by a worker, and the
// results are merged and written in file order. The parser accepts what
// encoding/csv accepts with its defaults (RFC 4180, comma, no lazy quotes,
// empty lines skipped, CRLF or LF) and reports the same problems; the
// tests check it against encoding/csv as an oracle.

// blockSize is the size of the blocks a CSV file is cut into (a variable so
// that tests can cut tiny blocks and exercise every boundary).
var blockSize = 256 << 10

// chunk is a run of whole records.
//
// text aliases buf (unsafe.String) so that no block is copied: every
// string that outlives the chunk (group keys, examples, clusters, the
// header) is cloned, and buf goes back to the pool only after the
// chunk's batch has been merged and written.
type chunk struct {
	seq       int
	text      string // the records, as one string (fields are substrings)
	firstLine int    // line number of text's first byte
	buf       []byte // backing store of text, from free
	free      *freeList
}

// freeList recycles byte buffers between the reader, the workers and the
// writer. Unlike sync.Pool it survives garbage collections, so a steady
// stream of blocks allocates a fixed handful of buffers, which bounds
// peak memory.
type freeList struct {
	c    chan []byte
	size int // capacity of new buffers
}

func newFreeList(n, size int) *freeList { return &freeList{c: make(chan []byte, n), size: size} }

func (f *freeList) get() []byte {
	select {
	case b := <-f.c:
		return b[:0]
	default:
		return make([]byte, 0, f.size)
	}
}

func (f *freeList) put(b []byte) {
	if cap(b) > 4*f.size {
		return // an outsized buffer (one huge record): let it go
	}
	select {
	case f.c <- b[:0]:
	default:
	}
}

// outsized reports whether the chunk's buffer is too big to be recycled
// (one huge record): a string of it stays valid once the chunk is
// released, so what outlives the chunk need not be a copy.
func (c *chunk) outsized() bool {
	return c.buf != nil && (c.free == nil || cap(c.buf) > 4*c.free.size)
}

func (c *chunk) release() {
	if c.buf != nil && c.free != nil {
		c.free.put(c.buf)
	}
	c.buf, c.text = nil, ""
}

// splitter cuts a reader into chunks of whole records.
type splitter struct {
	r     io.Reader
	file  string // for the error of a record over tabular.Limit
	carry []byte
	line  int // line number of the next chunk's first byte
	seq   int
	eof   bool
	free  *freeList
}

// next returns the next chunk, or io.EOF.
func (s *splitter) next() (*chunk, error) {
	if s.eof && len(s.carry) == 0 {
		return nil, io.EOF
	}
	if s.free == nil {
		s.free = newFreeList(16, blockSize+blockSize/8)
	}
	buf := append(s.free.get(), s.carry...)
	scanned, quotes := 0, 0 // buf[:scanned] has no boundary and holds quotes quotes
	var cut int
	for {
		if !s.eof {
			if cap(buf)-len(buf) < blockSize {
				// Grow by half: a long record's copies stay linear in its
				// size, and the peak (old and new buffer) 2.5 times it.
				nb := make([]byte, len(buf), len(buf)+len(buf)/2+blockSize)
				copy(nb, buf)
				buf = nb
			}
			n, err := io.ReadFull(s.r, buf[len(buf):len(buf)+blockSize])
			buf = buf[:len(buf)+n]
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				s.eof = true
			} else if err != nil {
				return nil, err
			}
		}
		cut = len(buf)
		if !s.eof {
			cut = lastBoundaryFrom(buf, scanned, quotes)
			if cut <= 0 {
				// one record longer than the buffer: read more, up to the limit
				max := tabular.Limit.MaxRecord
				if max <= 0 {
					max = tabular.DefaultMaxRecord
				}
				if len(buf) > max {
					return nil, &ParseError{File: s.file, Line: s.line, Err: fmt.Errorf("%w: a record starting here is longer than %s, the most this reader takes; %s (is the file really CSV? an unclosed quote makes the rest of the file one field)",
						tabular.ErrTooLong, tabular.Size(max), tabular.LimitHint)}
				}
				quotes += bytes.Count(buf[scanned:], quoteByte)
				scanned = len(buf)
				if len(buf) >= longRecord {
					var err error
					if buf, cut, err = s.long(buf, quotes); err != nil {
						return nil, err
					}
					break
				}
				continue
			}
		}
		break
	}
	c := &chunk{seq: s.seq, firstLine: s.line, buf: buf, free: s.free}
	if cut > 0 {
		c.text = unsafe.String(unsafe.SliceData(buf), cut)
	}
	s.seq++
	s.line += bytes.Count(buf[:cut], []byte{'\n'})
	s.carry = append(s.carry[:0], buf[cut:]...)
	if len(c.text) == 0 && s.eof {
		c.release()
		return nil, io.EOF
	}
	return c, nil
}

// longRecord is the length of buffered input without a record boundary
// after which the splitter reads on in pieces (long) instead of growing
// its buffer by half (a variable so that tests can exercise it on small
// input).
var longRecord = 4 << 20

// collectRecord is the length of a record read in pieces after which
// long collects the pieces at once.
const collectRecord = 4 << 20

// long reads on after buf, which holds quotes quotes and no record
// boundary, until a boundary or the end of the input, and returns one
// buffer of exactly the bytes read with the offset just after the last
// boundary (or its length at the end of the input).
//
// A buffer grown by half holds up to half its size unused, and the
// buffers it outgrew stay resident until a collection: for one record of
// 50 MB that made 2.5 to 3 times its size. Here the record is read in
// pieces of a quarter of what is buffered (so a record of n bytes costs
// a few dozen reads), copied once into a buffer of its size, and the
// pieces are collected at once (runtime.GC, once per record of
// collectRecord bytes or more: its cost is a mark of the live heap,
// small beside reading 4 MiB) so that
// the next big allocation, the lower-cased response, reuses their
// memory. The peak is the pieces and the copy: twice the record.
func (s *splitter) long(buf []byte, quotes int) ([]byte, int, error) {
	limit := tabular.Limit.MaxRecord
	if limit <= 0 {
		limit = tabular.DefaultMaxRecord
	}
	pieces := [][]byte{buf}
	total, cut := len(buf), -1
	for !s.eof {
		p := make([]byte, max(blockSize, total/4))
		n, err := io.ReadFull(s.r, p)
		p = p[:n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			s.eof = true
		} else if err != nil {
			return nil, 0, err
		}
		if n > 0 {
			pieces = append(pieces, p)
		}
		if c := lastBoundaryFrom(p, 0, quotes); c > 0 {
			cut = total + c
			total += n
			break
		}
		quotes += bytes.Count(p, quoteByte)
		total += n
		if total > limit && !s.eof {
			return nil, 0, &ParseError{File: s.file, Line: s.line, Err: fmt.Errorf("%w: a record starting here is longer than %s, the most this reader takes; %s (is the file really CSV? an unclosed quote makes the rest of the file one field)",
				tabular.ErrTooLong, tabular.Size(limit), tabular.LimitHint)}
		}
	}
	if cut < 0 {
		cut = total
	}
	out := make([]byte, 0, total)
	for i, p := range pieces {
		out = append(out, p...)
		pieces[i] = nil
	}
	if total >= collectRecord {
		runtime.GC()
	}
	return out, cut, nil
}

// lastBoundary returns the offset just after the last newline of buf that
// is outside quotes (buf starts at a record boundary), or 0.
//
// A newline is outside quotes when an even number of quotes comes before
// it: the opening and closing quote of a field count one each, and a
// doubled quote inside a field counts two. So one count of the quotes in
// buf (a vectorised scan) and a walk back from the end over the last few
// lines find the cut, instead of a walk from the start over every quoted
// field.
func lastBoundary(buf []byte) int { return lastBoundaryFrom(buf, 0, 0) }

// lastBoundaryFrom is lastBoundary for a buf whose first from bytes,
// holding quotesBefore quotes, are known to have no boundary (a record
// longer than one read, being read on): only the newlines after from are
// looked at, so a field of n bytes costs O(n) over all its reads, not
// O(n²/blockSize). (A newline's side of the quotes never changes as
// bytes are appended after it.)
func lastBoundaryFrom(buf []byte, from, quotesBefore int) int {
	quotes := quotesBefore + bytes.Count(buf[from:], quoteByte)
	end := len(buf)
	for {
		nl := bytes.LastIndexByte(buf[from:end], '\n')
		if nl < 0 {
			return 0
		}
		nl += from
		quotes -= bytes.Count(buf[nl+1:end], quoteByte)
		if quotes%2 == 0 {
			return nl + 1
		}
		end = nl
	}
}

var quoteByte = []byte{'"'}

// record is one parsed CSV record.
type record struct {
	fields []string
	line   int    // line of the record's first byte
	raw    string // the record's text without its line ending (fast path only)
}

// csvParser parses records out of a chunk.
type csvParser struct {
	file string
	text string
	pos  int
	line int
	buf  []string
	// quote caches nextQuote's answer (valid while quoteKnown and
	// quote >= pos): one search serves every line up to the next quote,
	// instead of a search of each line.
	quote      int
	quoteKnown bool
	// special marks the commas, quotes and line feeds of text
	// (specialMasks), once marked; a worker hands its arrays from one
	// chunk's parser to the next.
	special []uint64
	high    []uint64 // the bytes of text that are not ASCII, likewise
	marked  bool
	// nomask: the text is not marked (a chunk holding a record of
	// megabytes); every record goes to the general parser (slow).
	nomask bool
}

// nextQuote returns the offset of the first '"' at or after pos, or
// len(text) when there is none.
func (p *csvParser) nextQuote() int {
	if !p.quoteKnown || p.quote < p.pos {
		p.quoteKnown = true
		if k := strings.IndexByte(p.text[p.pos:], '"'); k >= 0 {
			p.quote = p.pos + k
		} else {
			p.quote = len(p.text)
		}
	}
	return p.quote
}

// parse returns the next record, or ok=false at the end of the chunk.
func (p *csvParser) parse() (rec record, ok bool, err error) {
	p.mark()
	for p.pos < len(p.text) {
		start, line := p.pos, p.line
		if fields, raw, next, ok := p.oneLine(); ok {
			p.pos = next
			p.line++
			if raw == "" {
				continue // encoding/csv skips empty lines
			}
			p.buf = fields
			return record{fields: fields, line: line, raw: raw}, true, nil
		}
		fields, err := p.slow()
		if err != nil {
			return record{}, false, err
		}
		raw := p.text[start:p.pos]
		raw = strings.TrimSuffix(strings.TrimSuffix(raw, "\n"), "\r")
		return record{fields: fields, line: line, raw: raw}, true, nil
	}
	return record{}, false, nil
}

// mark computes p.special and p.high (see specialMasks), once.
func (p *csvParser) mark() {
	if !p.marked && !p.nomask {
		p.special, p.high = specialMasks(p.text, p.special, p.high)
		p.marked = true
	}
}

// specialMasks returns, in the arrays of m and high when they are large
// enough, one word for each 64 bytes of t (the last one for what
// remains): in m, bit b is set when byte b of those 64 is a comma, a
// quote or a line feed, the bytes that end a field or a record or open
// and close a quoted one; in high, when it is not ASCII. Whole blocks
// are marked 16 bytes at a time (specialBlocks).
func specialMasks(t string, m, high []uint64) ([]uint64, []uint64) {
	n := (len(t) + 63) >> 6
	if cap(m) < n {
		m = make([]uint64, n)
	}
	if cap(high) < n {
		high = make([]uint64, n)
	}
	m, high = m[:n], high[:n]
	full := len(t) >> 6
	if full > 0 {
		specialBlocks(unsafe.Slice(unsafe.StringData(t), full<<6), m[:full], high[:full])
	}
	if full < n {
		m[full], high[full] = specialWord(t[full<<6:])
	}
	return m, high
}

// specialWord is the two masks (see specialMasks) of up to 64 bytes.
func specialWord(t string) (special, high uint64) {
	for k := 0; k < len(t) && k < 64; k++ {
		if c := t[k]; c == ',' || c == '"' || c == '\n' {
			special |= 1 << k
		} else if c >= 0x80 {
			high |= 1 << k
		}
	}
	return special, high
}

// specialBlocksGo is specialBlocks in Go, a byte at a time: the
// processors without an assembly version use it, and the tests hold the
// assembly to it.
func specialBlocksGo(t []byte, out, high []uint64) {
	for j := range out {
		out[j], high[j] = specialWord(unsafe.String(&t[j<<6], 64))
	}
}

// ascii reports whether f, a view of p.text, is all ASCII, from the
// masks (so valid UTF-8 without a look at its bytes); false when f is
// not a view of p.text (a field slow unquoted into a string of its own)
// or is not ASCII.
func (p *csvParser) ascii(f string) bool {
	n := uint(len(f))
	if n == 0 {
		return true
	}
	d := uint(uintptr(unsafe.Pointer(unsafe.StringData(f))) - uintptr(unsafe.Pointer(unsafe.StringData(p.text))))
	if d >= uint(len(p.text)) || n > uint(len(p.text))-d {
		return false // not a view of the text
	}
	end := d + n - 1
	first, last := d>>6, end>>6
	if last >= uint(len(p.high)) {
		return false
	}
	from, to := ^uint64(0)<<(d&63), ^uint64(0)>>(63-end&63)
	if first == last {
		return p.high[first]&from&to == 0
	}
	if p.high[first]&from != 0 || p.high[last]&to != 0 {
		return false
	}
	for _, m := range p.high[first+1 : last] {
		if m != 0 {
			return false
		}
	}
	return true
}

// oneLine splits the record at p.pos when it lies on one line and each
// of its quoted fields is opened at the field's start and closed on the
// line, followed by a comma or the line's end, with no doubled quote
// inside: the common record, which encoding/csv reads as the text
// between commas (the text between the quotes for a quoted field) of the
// line without its "\n" or "\r\n" (a "\r" that ends the input counts as
// a line end too). It returns the fields (in p.buf's array), the line
// without its ending (raw; "" for an empty line, which the caller skips)
// and the offset after the line's end; ok is false for any other
// record, which slow then parses from its start, errors included.
//
// It visits only the commas, quotes and line feeds of the line, from the
// masks of p.special, instead of searching the line for its end and then
// for each comma.
func (p *csvParser) oneLine() (fields []string, raw string, next int, ok bool) {
	if p.nomask {
		return nil, "", 0, false
	}
	t := p.text
	fields = p.buf[:0]
	start := p.pos
	fs := start     // the current field's first byte (after its opening quote when quoted)
	skip := start   // specials before skip are dealt with (the comma after a closing quote)
	quoted := false // the current field is quoted and not yet closed
	for blk := start >> 6; blk < len(p.special); blk++ {
		m := p.special[blk]
		if blk == start>>6 {
			m &= ^uint64(0) << (start & 63) // the records before (skip would pass over them, one by one)
		}
		for ; m != 0; m &= m - 1 {
			k := blk<<6 | bits.TrailingZeros64(m)
			if k < skip {
				continue
			}
			c := t[k]
			switch {
			case quoted && c == ',':
				// a comma inside the quoted field
			case quoted && c == '\n':
				return nil, "", 0, false // the field goes on past the line
			case quoted: // the closing quote
				fields = append(fields, t[fs:k])
				quoted = false
				switch {
				case k+1 == len(t):
					return fields, t[start : k+1], k + 1, true
				case t[k+1] == ',':
					fs, skip = k+2, k+2
				case t[k+1] == '\n':
					return fields, t[start : k+1], k + 2, true
				case t[k+1] == '\r' && k+2 == len(t):
					return fields, t[start : k+1], k + 2, true
				case t[k+1] == '\r' && t[k+2] == '\n':
					return fields, t[start : k+1], k + 3, true
				default:
					return nil, "", 0, false // a doubled quote, or text after the closing one
				}
			case c == '"':
				if k != fs {
					return nil, "", 0, false // a quote inside an unquoted field
				}
				quoted, fs = true, k+1
			case c == ',':
				fields = append(fields, t[fs:k])
				fs = k + 1
			default: // the line feed that ends the record
				end := k
				if end > start && t[end-1] == '\r' {
					end--
				}
				return append(fields, t[fs:max(fs, end)]), t[start:end], k + 1, true
			}
		}
	}
	if quoted {
		return nil, "", 0, false // never closed: slow says where it opened
	}
	end := len(t)
	if end > start && t[end-1] == '\r' {
		end--
	}
	return append(fields, t[fs:max(fs, end)]), t[start:end], len(t), true
}

// slow parses one record that contains quotes, starting at p.pos.
func (p *csvParser) slow() ([]string, error) {
	p.buf = p.buf[:0]
	t := p.text
	nl := -1           // offset of the next line break at or after p.pos, once known
	lineStart := p.pos // offset of the current line's first byte, for columns
	for {
		if p.pos < len(t) && t[p.pos] == '"' {
			openLine, openLineStart, openPos := p.line, lineStart, p.pos
			p.pos++
			fieldStart := p.pos
			escaped := false
			for {
				j := strings.IndexByte(t[p.pos:], '"')
				if j < 0 {
					return nil, &ParseError{File: p.file, Line: openLine, Column: col(t, openLineStart, openPos),
						Err: fmt.Errorf("%w: the quoted field opened here is never closed", ErrQuote)}
				}
				if nl := strings.Count(t[p.pos:p.pos+j], "\n"); nl > 0 {
					p.line += nl
					lineStart = p.pos + strings.LastIndexByte(t[p.pos:p.pos+j], '\n') + 1
				}
				p.pos += j + 1
				if p.pos < len(t) && t[p.pos] == '"' {
					escaped = true
					p.pos++
					continue
				}
				break
			}
			f := t[fieldStart : p.pos-1]
			if escaped {
				f = strings.ReplaceAll(f, `""`, `"`)
			}
			if strings.IndexByte(f, '\r') >= 0 {
				f = strings.ReplaceAll(f, "\r\n", "\n")
			}
			p.buf = append(p.buf, f)
			switch {
			case p.pos >= len(t):
				return p.buf, nil
			case t[p.pos] == ',':
				p.pos++
				continue
			case t[p.pos] == '\n':
				p.pos++
				p.line++
				return p.buf, nil
			case t[p.pos] == '\r' && p.pos+1 < len(t) && t[p.pos+1] == '\n':
				p.pos += 2
				p.line++
				return p.buf, nil
			case t[p.pos] == '\r' && p.pos+1 == len(t):
				// a carriage return that ends the file: encoding/csv
				// reads it as a line end
				p.pos++
				return p.buf, nil
			default:
				return nil, &ParseError{File: p.file, Line: p.line, Column: col(t, lineStart, p.pos),
					Err: fmt.Errorf("%w: extraneous or missing \" in quoted field (a quote inside a quoted field must be doubled)", ErrQuote)}
			}
		}
		// Unquoted field: up to the next comma or end of line (both
		// found with IndexByte; an unquoted field cannot hold a line
		// break, so the line's end bounds the comma search).
		if nl < p.pos {
			if k := strings.IndexByte(t[p.pos:], '\n'); k >= 0 {
				nl = p.pos + k
			} else {
				nl = len(t)
			}
		}
		end := nl
		if k := strings.IndexByte(t[p.pos:nl], ','); k >= 0 {
			end = p.pos + k
		}
		if q := p.nextQuote(); q < end {
			end = q // a bare quote: reported below
		}
		for end < len(t) && t[end] != ',' && t[end] != '\n' {
			if t[end] == '"' {
				return nil, &ParseError{File: p.file, Line: p.line, Column: col(t, lineStart, end),
					Err: fmt.Errorf("%w: bare \" in a field that does not start with a quote (quote the whole field and double the quote)", ErrQuote)}
			}
			end++
		}
		f := t[p.pos:end]
		p.pos = end
		if p.pos >= len(t) || t[p.pos] == '\n' {
			f = strings.TrimSuffix(f, "\r")
			p.buf = append(p.buf, f)
			if p.pos < len(t) {
				p.pos++
				p.line++
			}
			return p.buf, nil
		}
		p.buf = append(p.buf, f)
		p.pos++ // the comma
	}
}

// col is the 1-based rune column of byte offset pos in the line starting at lineStart.
func col(t string, lineStart, pos int) int {
	if pos > len(t) {
		pos = len(t)
	}
	return utf8.RuneCountInString(t[lineStart:pos]) + 1
}

// badUTF8 locates the first invalid UTF-8 in rec for an error message:
// its line and column (the record may span lines) and its column name.
func badUTF8(file string, rec record, header []string) error {
	pe := &ParseError{File: file, Line: rec.line, Err: errInvalidUTF8}
	if off := rawpos.InvalidUTF8String(rec.raw); off >= 0 {
		pe.Line, pe.Column = lineCol(rec.raw, off, rec.line)
	}
	for i, f := range rec.fields {
		if off := rawpos.InvalidUTF8String(f); off >= 0 {
			if i < len(header) {
				pe.Field = header[i]
			}
			pe.Err = tabular.BadByteError(f[off], utf8.RuneCountInString(f[:off])+1)
			if rec.raw == "" {
				pe.Line = rec.line + strings.Count(f[:off], "\n")
			}
			break
		}
	}
	return pe
}

// nulInRecord is the error for the first NUL byte in rec, or nil: its
// line and character column in the file and its column name.
func nulInRecord(file string, rec record, header []string) error {
	if rec.raw != "" {
		off := strings.IndexByte(rec.raw, 0)
		if off < 0 {
			return nil
		}
		i := slices.IndexFunc(rec.fields, func(f string) bool { return strings.IndexByte(f, 0) >= 0 })
		pe := &ParseError{File: file, Err: tabular.NULError(utf8.RuneCountInString(rec.fields[i][:strings.IndexByte(rec.fields[i], 0)]) + 1)}
		pe.Line, pe.Column = lineCol(rec.raw, off, rec.line)
		if i < len(header) {
			pe.Field = header[i]
		}
		return pe
	}
	return nulInFields(file, rec.line, 0, rec.fields, header)
}

// nulInFields is the error for the first NUL byte in fields, the record
// at line, or nil; col is the NUL's column when known, else 0.
func nulInFields(file string, line, col int, fields, header []string) error {
	for i, f := range fields {
		if k := strings.IndexByte(f, 0); k >= 0 {
			pe := &ParseError{File: file, Line: line + strings.Count(f[:k], "\n"), Column: col, Err: tabular.NULError(utf8.RuneCountInString(f[:k]) + 1)}
			if i < len(header) {
				pe.Field = header[i]
			}
			return pe
		}
	}
	return nil
}

// lineCol returns the 1-based line and character column of byte offset
// off in text, whose first line is line; text[:off] must be valid UTF-8.
func lineCol(text string, off, line int) (int, int) {
	before := text[:off]
	nl := strings.LastIndexByte(before, '\n')
	return line + strings.Count(before, "\n"), utf8.RuneCountInString(before[nl+1:]) + 1
}

// readHeader parses the header record from the splitter's first chunk
// and returns the header and the rest of that chunk.
func readHeader(file string, c *chunk) ([]string, *chunk, error) {
	text := strings.TrimPrefix(c.text, "\uFEFF")
	p := &csvParser{file: file, text: text, line: c.firstLine}
	rec, ok, err := p.parse()
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, &ParseError{File: file, Err: ErrEmptyFile}
	}
	if off := rawpos.InvalidUTF8String(rec.raw); off >= 0 {
		line, col := lineCol(rec.raw, off, rec.line)
		return nil, nil, &ParseError{File: file, Line: line, Column: col, Err: fmt.Errorf("header: %w", errInvalidUTF8)}
	}
	header := make([]string, len(rec.fields))
	for i, f := range rec.fields {
		header[i] = strings.Clone(f)
	}
	rest := &chunk{seq: c.seq, text: text[p.pos:], firstLine: p.line, buf: c.buf, free: c.free}
	return header, rest, nil
}
