package interop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A raw NUL (or any control character below U+0020) inside a JSON
// string of an lm-eval sample line is refused, as encoding/json refuses
// it in every other reader, naming the file, the line and the column of
// the character; it was read into the golden answer as it stood. Read
// and Check (its parallel reader) both refuse it.
func TestLMEvalRawControlInString(t *testing.T) {
	for _, ctl := range []string{"\x00", "\x1f", "\t"} {
		dir := copyDir(t, "testdata/lmeval/new/evalbook__tiny-hi")
		name := filepath.Join(dir, "samples_arc_easy_hi_2026-12-01T10-00-00.123456.jsonl")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		at := strings.Index(lines[1], `"target": "`) + len(`"target": "`)
		if at < len(`"target": "`) {
			t.Fatal("line 2 has no target string")
		}
		lines[1] = lines[1][:at] + "x" + ctl + lines[1][at:]
		if err := os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		// the control is the character after the x, counted in characters
		// (the line holds Devanagari before it)
		col := utf8.RuneCountInString(lines[1][:at]) + 2
		_, e1 := Read(context.Background(), dir, Options{})
		_, e2 := Check(context.Background(), dir, Options{})
		for i, err := range []error{e1, e2} {
			var pe *tabular.ParseError
			if !errors.As(err, &pe) || pe.File != name || pe.Line != 2 || pe.Column != col || !strings.Contains(err.Error(), "raw control character") {
				t.Errorf("%q, reader %d: %v; want %s:2:%d and a raw control character", ctl, i+1, err, name, col)
			}
		}
	}
}

// controlAt finds the first byte below 0x20 at every position of a
// 40-byte string, and none in text of every other byte value (UTF-8
// Devanagari included), checked against a byte-by-byte scan.
func TestControlAt(t *testing.T) {
	base := []byte(strings.Repeat("ab ~\x7f", 8))
	for pos := range base {
		for _, c := range []byte{0x00, 0x09, 0x1f} {
			b := append([]byte(nil), base...)
			b[pos] = c
			if got := controlAt(b); got != pos {
				t.Errorf("control %#x at %d: found at %d", c, pos, got)
			}
		}
	}
	var all []byte
	for c := 0x20; c < 0x100; c++ {
		all = append(all, byte(c))
	}
	all = append(all, "पानी किताब"...)
	for start := range 8 {
		if got := controlAt(all[start:]); got != -1 {
			t.Errorf("from %d: a control found at %d in text with none", start, got)
		}
	}
}
