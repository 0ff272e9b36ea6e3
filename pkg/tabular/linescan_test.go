package tabular

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// lineScanner splits lines as bufio.Scanner with ScanLines does, on
// random inputs with "\n" and "\r\n" ends, stray "\r", blank lines, lines
// longer than its 64 KiB read buffer (read in pieces, into a buffer of
// their own that a later line does not overwrite) and a last line with or
// without its end; a line over the limit is errLineTooLong where the
// Scanner (given two bytes more, for the line end) says bufio.ErrTooLong.
func TestLineScannerMatchesScanner(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	errs := 0
	for n := range 400 {
		var b strings.Builder
		for range r.IntN(8) {
			switch r.IntN(6) {
			case 0:
				b.WriteString(strings.Repeat("x", 64<<10-1+r.IntN(3)))
			case 1:
				b.WriteString(strings.Repeat("ক", r.IntN(60000)))
			case 2:
				b.WriteString("a\rb")
			default:
				b.WriteString(strings.Repeat("y", r.IntN(20)))
			}
			b.WriteString([]string{"\n", "\r\n", "\n\n"}[r.IntN(3)])
		}
		if n%2 == 0 {
			b.WriteString("last")
		}
		in := b.String()
		max := 1 << 20
		if n%10 == 0 {
			max = 70 << 10
		}
		sc := bufio.NewScanner(strings.NewReader(in))
		sc.Buffer(make([]byte, 0, 64<<10), max+2)
		var want []string
		for sc.Scan() {
			want = append(want, sc.Text())
		}
		ls := &lineScanner{r: bufio.NewReaderSize(strings.NewReader(in), 64<<10), max: max}
		var got []string
		var owned [][]byte // the owned lines as read, to check they stay
		var ownedText []string
		for ls.Scan() {
			got = append(got, string(ls.Bytes()))
			if ls.owned {
				owned, ownedText = append(owned, ls.Bytes()), append(ownedText, string(ls.Bytes()))
			}
		}
		for i := range owned {
			if string(owned[i]) != ownedText[i] {
				t.Fatalf("input %d: an owned line was overwritten", n)
			}
		}
		if werr, gerr := sc.Err(), ls.Err(); (werr == nil) != (gerr == nil) || (werr != nil && !errors.Is(gerr, errLineTooLong)) {
			t.Fatalf("input %d: errors %v and %v", n, werr, gerr)
		} else if werr != nil {
			errs++
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("input %d: %d lines, want %d", n, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("input %d line %d: %d bytes, want %d", n, i+1, len(got[i]), len(want[i]))
			}
		}
	}
	if errs == 0 || errs > 100 {
		t.Errorf("%d inputs over the limit: the generator does not cover both", errs)
	}
}
