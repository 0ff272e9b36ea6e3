package qa

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestSpecialBlocks holds specialBlocks (in assembly on amd64) to
// specialBlocksGo, which tests each byte in Go, on random bytes where
// commas, quotes and line feeds are frequent, every other byte value
// occurs, and blocks start at every offset of the buffer.
func TestSpecialBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 64))
	buf := make([]byte, 64*40+63)
	for range 2000 {
		for i := range buf {
			switch rng.IntN(8) {
			case 0:
				buf[i] = ','
			case 1:
				buf[i] = '"'
			case 2:
				buf[i] = '\n'
			default:
				buf[i] = byte(rng.IntN(256))
			}
		}
		off := rng.IntN(64)
		n := rng.IntN(41)
		got, want := make([]uint64, n), make([]uint64, n)
		gotHigh, wantHigh := make([]uint64, n), make([]uint64, n)
		specialBlocks(buf[off:off+64*n], got, gotHigh)
		specialBlocksGo(buf[off:off+64*n], want, wantHigh)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotHigh, wantHigh) {
			t.Fatalf("offset %d, %d blocks: specialBlocks %x %x, a byte at a time %x %x", off, n, got, gotHigh, want, wantHigh)
		}
		for j, m := range want { // and the Go version marks what it says it marks
			for b := range 64 {
				c := buf[off+j*64+b]
				if (m>>b&1 == 1) != (c == ',' || c == '"' || c == '\n') || (wantHigh[j]>>b&1 == 1) != (c >= 0x80) {
					t.Fatalf("block %d byte %d (%q): mask bits %d, %d", j, b, c, m>>b&1, wantHigh[j]>>b&1)
				}
			}
		}
	}
}

// TestParserLongRecords checks the parser against encoding/csv (fields,
// the line each record starts on, and for a record of one line its text
// as read) on random files whose records are longer than the 64-byte
// blocks the commas, quotes and line feeds are marked in: fields plain
// and quoted, with commas, line breaks (LF and CRLF) and doubled quotes
// inside, multi-byte text, empty lines, and now and then a stray quote
// (an error both must report, after the same records).
func TestParserLongRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 6))
	plain := []string{"", "a", "Delhi", "नई दिल्ली", "ঢাকা নদী", "q0000001", "0.5", "x y z w", "   ", "\r"}
	quoted := []string{`""`, `"a,b"`, `"नई, दिल्ली"`, `"line1` + "\n" + `line2"`, `"crlf` + "\r\n" + `x"`, `"say ""hi"""`, `","`, `"` + strings.Repeat("ক,", 40) + `"`}
	bad := []string{`a"b`, `"open`, `"x"y`}
	records, errs := 0, 0
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			if rng.IntN(15) == 0 {
				b.WriteString("\n") // an empty line
			}
			for f := range 1 + rng.IntN(9) {
				if f > 0 {
					b.WriteByte(',')
				}
				switch k := rng.IntN(100); {
				case k < 55:
					b.WriteString(plain[rng.IntN(len(plain))])
				case k < 99:
					b.WriteString(quoted[rng.IntN(len(quoted))])
				default:
					b.WriteString(bad[rng.IntN(len(bad))])
				}
			}
			if rng.IntN(3) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		text := b.String()
		if rng.IntN(4) == 0 {
			text = strings.TrimSuffix(text, "\n") // no line break at the end
		}
		type rec struct {
			fields []string
			line   int
		}
		var want, got []rec
		wrecs, wlines, werr := oracleRecords(text)
		for i, fs := range wrecs {
			want = append(want, rec{fs, wlines[i]})
		}
		recs, gerr := parsedRecords(text)
		for _, rc := range recs {
			got = append(got, rec{rc.fields, rc.line})
			if rc.raw == "" {
				t.Fatalf("%q: record on line %d has no raw text", text, rc.line)
			}
			if !strings.Contains(rc.raw, "\n") {
				if line := strings.Split(text, "\n")[rc.line-1]; strings.TrimSuffix(line, "\r") != rc.raw {
					t.Fatalf("%q: record on line %d reads as %q, the line is %q", text, rc.line, rc.raw, line)
				}
			}
		}
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%q: encoding/csv error %v, ours %v", text, werr, gerr)
		}
		if gerr != nil {
			var pe *ParseError
			if !errors.As(gerr, &pe) {
				t.Fatalf("%q: error %v is not a *ParseError", text, gerr)
			}
			errs++
			got = got[:min(len(got), len(want))]
		}
		if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: records %v, encoding/csv reads %v", text, got, want)
		}
		records += len(got)
	}
	if records < 10000 || errs < 100 {
		t.Fatalf("%d records, %d errors: the draw misses a case", records, errs)
	}
}

// TestParserASCII holds csvParser.ascii, which reads the masks, to a
// look at every byte, on random views of a random text of ASCII and
// Bengali (so that views start and end at every offset of a block),
// and says no for a string that is not a view of the text.
func TestParserASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 7))
	var b strings.Builder
	for b.Len() < 5000 {
		if rng.IntN(6) == 0 {
			b.WriteString("ক")
		} else {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
	}
	text := b.String()
	p := &csvParser{text: text}
	p.mark()
	for range 100000 {
		i := rng.IntN(len(text))
		j := i + rng.IntN(min(len(text)-i, 200)+1)
		f := text[i:j]
		want := true
		for k := 0; k < len(f); k++ {
			want = want && f[k] < 0x80
		}
		if got := p.ascii(f); got != want {
			t.Fatalf("ascii(text[%d:%d]) = %v, want %v", i, j, got, want)
		}
	}
	if p.ascii(strings.Clone(text[:10])) || !p.ascii("") {
		t.Fatal("ascii took a copy for a view, or the empty string for not ASCII")
	}
}

// TestBadByteInAnyColumn puts one invalid byte in a random column of a
// random row of 2000-row files (Bengali and English text, quoted fields
// with commas, lines longer than the 64-byte blocks) and checks that
// scoring fails with the line and the column of that byte, and that the
// same file without it scores.
func TestBadByteInAnyColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 8))
	cols := []string{"id", "question", "answer", "Domain", "response", "model"}
	words := []string{"নদী", "ঢাকা", "Delhi", "river", "the", "q1", "কোন"}
	for range 40 {
		badRow, badCol := rng.IntN(2000), rng.IntN(len(cols))
		var ok, bad strings.Builder
		ok.WriteString(strings.Join(cols, ",") + "\n")
		bad.WriteString(strings.Join(cols, ",") + "\n")
		for r := range 2000 {
			for c := range cols {
				var f strings.Builder
				for w := range 1 + rng.IntN(8) {
					if w > 0 {
						f.WriteByte(' ')
					}
					f.WriteString(words[rng.IntN(len(words))])
				}
				field := f.String()
				quote := rng.IntN(4) == 0
				sep := ","
				if c == len(cols)-1 {
					sep = "\n"
				}
				for i, out := range []*strings.Builder{&ok, &bad} {
					g := field
					if i == 1 && r == badRow && c == badCol {
						k := rng.IntN(len(g) + 1)
						for k > 0 && k < len(g) && g[k]&0xC0 == 0x80 {
							k-- // between characters, so that the byte is the one bad one
						}
						g = g[:k] + "\xff" + g[k:]
					}
					if quote {
						g = `"` + g + `, more"`
					}
					out.WriteString(g + sep)
				}
			}
		}
		if _, err := Score(context.Background(), strings.NewReader(ok.String()), "t.csv", Options{Verdicts: io.Discard}); err != nil {
			t.Fatalf("the file without the bad byte: %v", err)
		}
		_, err := Score(context.Background(), strings.NewReader(bad.String()), "t.csv", Options{Verdicts: io.Discard})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != badRow+2 || pe.Field != cols[badCol] {
			t.Fatalf("bad byte in row %d column %s: error %v", badRow, cols[badCol], err)
		}
	}
}
