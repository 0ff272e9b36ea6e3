package qa

import (
	"encoding/csv"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestParserExhaustive checks the CSV parser (the quote-free lines, the
// quick path for fields quoted on one line and the slow path for the
// rest) against encoding/csv, which is the reference for what parses, on
// every text of up to 7 bytes over the five bytes that matter (a, quote,
// comma, line feed, carriage return): 97,656 inputs, each parsed as a
// whole and after a leading record "x,y\n" (so that a record also starts
// in the middle of a chunk).
func TestParserExhaustive(t *testing.T) {
	alphabet := []byte{'a', '"', ',', '\n', '\r'}
	buf := make([]byte, 0, 7)
	check := func(text string) {
		want, _, werr := oracleRecords(text)
		recs, gerr := parsedRecords(text)
		var got [][]string
		for _, rc := range recs {
			got = append(got, rc.fields)
		}
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%q: encoding/csv error %v, ours %v", text, werr, gerr)
		}
		if gerr != nil {
			var pe *ParseError
			if !errors.As(gerr, &pe) {
				t.Fatalf("%q: error %v is not a *ParseError", text, gerr)
			}
			got = got[:min(len(got), len(want))]
		}
		if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: records %q, encoding/csv reads %q", text, got, want)
		}
	}
	var walk func(n int)
	walk = func(n int) {
		check(string(buf))
		check("x,y\n" + string(buf))
		if n == cap(buf) {
			return
		}
		for _, c := range alphabet {
			buf = append(buf, c)
			walk(n + 1)
			buf = buf[:len(buf)-1]
		}
	}
	walk(0)
}

// oracleRecords reads text with encoding/csv, any number of fields a
// record: the records, the line each starts on, and the error that
// stopped the reading (nil at the end of the text).
func oracleRecords(text string) (recs [][]string, lines []int, err error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	for {
		fs, err := r.Read()
		if err == io.EOF {
			return recs, lines, nil
		}
		if err != nil {
			return recs, lines, err
		}
		line, _ := r.FieldPos(0)
		recs, lines = append(recs, fs), append(lines, line)
	}
}

// parsedRecords reads text with csvParser: the records (fields copied)
// and the error that stopped it.
func parsedRecords(text string) ([]record, error) {
	p := &csvParser{file: "t.csv", text: text, line: 1}
	var recs []record
	for {
		rc, ok, err := p.parse()
		if err != nil || !ok {
			return recs, err
		}
		rc.fields = append([]string(nil), rc.fields...)
		recs = append(recs, rc)
	}
}
