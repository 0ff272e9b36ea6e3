package tabular

import (
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// csvRecord is one record as a reader gives it, for comparing two.
type csvRecord struct {
	fields []string
	line   int
	lines  []int // each field's line
	cols   []int // each field's byte column
}

// stdlibCSV reads in with encoding/csv, as this package did before it
// parsed CSV itself: the reference. It returns the records and the
// error that stopped it (nil at the end) with its line.
func stdlibCSV(in string) ([]csvRecord, int, error) {
	r := csv.NewReader(strings.NewReader(in))
	r.FieldsPerRecord = -1
	var out []csvRecord
	for {
		f, err := r.Read()
		if err == io.EOF {
			return out, 0, nil
		}
		if err != nil {
			var pe *csv.ParseError
			errors.As(err, &pe)
			return out, pe.Line, err
		}
		rec := csvRecord{fields: f}
		rec.line, _ = r.FieldPos(0)
		for i := range f {
			l, c := r.FieldPos(i)
			rec.lines, rec.cols = append(rec.lines, l), append(rec.cols, c)
		}
		out = append(out, rec)
	}
}

// ownCSV reads in with csvSource, every record as a header would be read
// (no field count to match).
func ownCSV(in string, bufSize int) ([]csvRecord, int, error) {
	s := &csvSource{name: "x.csv", r: &trickle{s: in, n: 7}, limit: 1 << 20, line: 1, buf: make([]byte, bufSize)}
	var out []csvRecord
	for {
		err := s.read()
		if err == io.EOF {
			return out, 0, nil
		}
		if err != nil {
			return out, err.(*ParseError).Line, err
		}
		rec := csvRecord{fields: s.strings(), line: s.recLine}
		raw := s.raw()
		for i, sp := range s.spans {
			l, _ := s.pos(i)
			ls := strings.LastIndexByte(string(raw[:sp.start]), '\n') + 1
			rec.lines, rec.cols = append(rec.lines, l), append(rec.cols, sp.start-ls+1)
			if b := s.bytes(i); string(b) != rec.fields[i] {
				panic("bytes and strings differ")
			}
		}
		out = append(out, rec)
	}
}

// trickle hands out at most n bytes a Read, so records cross buffer
// refills.
type trickle struct {
	s string
	n int
}

func (t *trickle) Read(p []byte) (int, error) {
	if t.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), t.n)], t.s)
	t.s = t.s[k:]
	return k, nil
}

// checkSameCSV compares the two readers on in.
func checkSameCSV(t *testing.T, in string, bufSize int) {
	t.Helper()
	want, wline, werr := stdlibCSV(in)
	got, gline, gerr := ownCSV(in, bufSize)
	if (werr == nil) != (gerr == nil) || wline != gline {
		t.Fatalf("%q: error %v (line %d), encoding/csv %v (line %d)", in, gerr, gline, werr, wline)
	}
	if werr != nil && !errors.Is(gerr, ErrQuote) {
		t.Fatalf("%q: error %v, want a quoting error like encoding/csv's %v", in, gerr, werr)
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d records, encoding/csv %d", in, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if !slices.Equal(g.fields, w.fields) || g.line != w.line || !slices.Equal(g.lines, w.lines) || !slices.Equal(g.cols, w.cols) {
			t.Fatalf("%q: record %d is %q on line %d at %v:%v, encoding/csv %q on line %d at %v:%v", in, i, g.fields, g.line, g.lines, g.cols, w.fields, w.line, w.lines, w.cols)
		}
	}
}

// TestCSVAsEncodingCSV: the CSV parser gives what encoding/csv gives
// (fields, the line of each record and of each field and its byte
// column; where it fails, a quoting error on the same line) on 20,000
// random inputs made of the characters that matter (comma, quote, CR,
// LF, a letter, a Devanagari letter) and on hand-picked ones, with
// buffers small enough that records cross refills.
func TestCSVAsEncodingCSV(t *testing.T) {
	for _, in := range []string{
		"", "\n", "\r", "\r\n", "a", "a\r", "a\r\n", "a,b\r\nc", "\"a\"\r", "\"a\"\rb\n", "\"a\r\nb\"\r\n",
		"a,\"b\"\"c\",d\n", "\"\"\n", "a,\n,\n", "\n\n a \n\n", "\"a\nb\"\"\n", "a\"b\n", "\"a\"b\n", "\"abc",
		"\"abc\n", "x\n\"ab\r\n\r\nc\"\n", "क,\"ख\nग\",घ\n", "\r\r\n", "a,\"\r\",b\n",
	} {
		checkSameCSV(t, in, 16)
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{",", "\"", "\r", "\n", "a", "क"}
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for range r.IntN(30) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		checkSameCSV(t, b.String(), 8+r.IntN(40))
	}
}

// FuzzCSVAsEncodingCSV is TestCSVAsEncodingCSV on fuzzed inputs (valid
// UTF-8 without NUL, which this reader refuses and encoding/csv passes).
func FuzzCSVAsEncodingCSV(f *testing.F) {
	f.Add("a,\"b\"\"c\"\r\nd,\"e\nf\"\n", 16)
	f.Fuzz(func(t *testing.T, in string, bufSize int) {
		if !utf8.ValidString(in) || strings.ContainsRune(in, 0) || strings.HasPrefix(in, "\uFEFF") {
			return
		}
		checkSameCSV(t, in, 8+(bufSize&0xff))
	})
}
