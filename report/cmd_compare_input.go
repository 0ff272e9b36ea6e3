package main

// Input checks and wording shared by the commands. The raw UTF-8 checks
// are the judge command's only (compare and generate read through
// pkg/tabular); they go when judge reads through it too.

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// nounCount returns "1 question" or "n questions".
func nounCount(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// errInputUTF8 marks the errors of rawUTF8CSV and rawUTF8JSONL.
var errInputUTF8 = errors.New("invalid UTF-8")

// rawUTF8FieldIn returns the error of a field s, named field (the header
// when ""), that starts at line and byte column col (as
// csv.Reader.FieldPos gives them) of data, the CSV bytes the reader
// parsed (after any byte-order mark), or nil when s is valid UTF-8. The
// error names the line and the character column of the first bad byte,
// as an editor shows them: see rawpos.CSVBadByte. When data does not hold
// the field where line and col say, the error names the bad byte's line
// only.
func rawUTF8FieldIn(data []byte, file string, line, col int, field, s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	off := rawpos.InvalidUTF8([]byte(s))
	badLine := line + strings.Count(s[:off], "\n")
	where := fmt.Sprintf("%s:%d", file, badLine)
	if l, c, ok := rawpos.CSVBadByte(data, line, col, s[off]); ok && l == badLine {
		where += fmt.Sprintf(":%d", c)
	}
	if field == "" {
		where += " (header)"
	} else {
		where += fmt.Sprintf(" (column %q)", field)
	}
	return fmt.Errorf("%s: %w: first bad byte 0x%02X at character %d of the field; re-save the file as UTF-8",
		where, errInputUTF8, s[off], utf8.RuneCountInString(s[:off])+1)
}

// rawUTF8CSV checks that every field of the CSV data is valid UTF-8 and
// returns the first one that is not, with its file, line and column.
// encoding/csv passes bytes through unchecked. Records the standard
// reader cannot parse are left to the caller's own reader, which reports
// them with its own wording.
func rawUTF8CSV(data []byte, file string) error {
	if utf8.Valid(data) {
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var header []string
	for first := true; ; first = false {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil
		}
		if first {
			header = append([]string(nil), rec...)
		}
		for i, f := range rec {
			name := ""
			if !first {
				name = fmt.Sprintf("%d", i+1)
				if i < len(header) && utf8.ValidString(header[i]) {
					name = header[i]
				}
			}
			line, col := r.FieldPos(i)
			if err := rawUTF8FieldIn(data, file, line, col, name, f); err != nil {
				return err
			}
		}
	}
}

// rawUTF8JSONL checks every line of JSON Lines data before it is
// decoded (encoding/json would quietly turn a bad byte into U+FFFD) and
// returns the first line that is not valid UTF-8, with the character
// column and the top-level key whose key or value holds the bad byte.
func rawUTF8JSONL(data []byte, file string) error {
	if utf8.Valid(data) {
		return nil
	}
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if utf8.Valid(line) {
			continue
		}
		off := rawpos.InvalidUTF8(line)
		where := fmt.Sprintf("%s:%d:%d", file, i+1, utf8.RuneCount(line[:off])+1)
		if key := rawpos.JSONKeyAt(line, off); key != "" {
			where += fmt.Sprintf(" (field %q)", key)
		}
		return fmt.Errorf("%s: %w: byte 0x%02X; re-save the file as UTF-8", where, errInputUTF8, line[off])
	}
	return nil
}
