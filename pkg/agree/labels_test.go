package agree

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

func TestReadLabels(t *testing.T) {
	// The question column may hold line breaks; only rating and id
	// columns may not.
	in := "\xef\xbb\xbfid,question,ann1,ann2\r\n" +
		"p01,Which bell?, a ,a\r\n" +
		"p02,\"Two\nlines\",b,NA\r\n" +
		"p03,x,tie,.\r\n"
	tab, err := ReadLabels(strings.NewReader(in), "pairs.csv", []string{"ann2", "ann1"}, "id")
	if err != nil {
		t.Fatal(err)
	}
	want := []LabelRow{
		{Line: 2, ID: "p01", Ratings: []string{"a", "a"}},
		{Line: 3, ID: "p02", Ratings: []string{"", "b"}},
		{Line: 5, ID: "p03", Ratings: []string{"", "tie"}},
	}
	for i := range tab.Rows {
		if g, w := tab.Rows[i], want[i]; g.Line != w.Line || g.ID != w.ID || !slices.Equal(g.Ratings, w.Ratings) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
	// CellError points at the cell, counted by hand: on line 2,
	// "p01,Which bell?," is 16 characters, so ann1 (" a ") starts at 17
	// and ann2 ("a") at 17+4 = 21; p02's "Two\nlines" puts its ratings
	// on line 4, where `lines",` is 7 characters: ann1 ("b") at 8,
	// ann2 ("NA") at 10. Raters are asked for as ann2, ann1.
	for _, c := range []struct{ row, rater, line, col int }{{0, 0, 2, 21}, {0, 1, 2, 17}, {1, 0, 4, 10}, {1, 1, 4, 8}} {
		pe := tab.CellError(c.row, c.rater, errors.New("x"))
		if pe.Line != c.line || pe.Column != c.col || pe.Field != tab.Raters[c.rater] {
			t.Errorf("CellError(%d, %d) at %d:%d (%q), want %d:%d", c.row, c.rater, pe.Line, pe.Column, pe.Field, c.line, c.col)
		}
	}
	if !slices.Equal(tab.RaterFields, []int{4, 3}) {
		t.Errorf("RaterFields = %v, want [4 3]", tab.RaterFields)
	}
	if got := tab.Rater(1); !slices.Equal(got, []string{"a", "b", "tie"}) {
		t.Errorf("Rater(1) = %q", got)
	}
	if tab.ItemName(1) != "p02" {
		t.Errorf("ItemName(1) = %q", tab.ItemName(1))
	}
	noID, err := ReadLabels(strings.NewReader(in), "pairs.csv", []string{"ann1"}, "")
	if err != nil || noID.ItemName(2) != "3" {
		t.Errorf("without id: %v, %v", noID, err)
	}
}

func TestReadLabelsErrors(t *testing.T) {
	tests := []struct {
		name, in string
		raters   []string
		id       string
		want     string // the full message
	}{
		{"empty", "", []string{"a"}, "", "f.csv: the file is empty: expected a header row naming the columns"},
		{"no such rater", "id,ann1\nx,a\n", []string{"ann1", "ann3"}, "id", `f.csv:1: no column "ann3"; the header has "id", "ann1"`},
		{"no such id", "ann1,ann2\na,b\n", []string{"ann1", "ann2"}, "id", `f.csv:1: no column "id"; the header has "ann1", "ann2"`},
		{"duplicate header", "id,ann1,ann1\nx,a,b\n", []string{"ann1"}, "id", `f.csv:1:9: column "ann1" appears twice in the header`},
		{"duplicate id", "id,ann1\nx,a\ny,b\nx,c\n", []string{"ann1"}, "id", `f.csv:4:1 (column "id"): duplicate id "x" (first on line 2)`},
		{"empty id", "id,ann1\nx,a\n ,b\n", []string{"ann1"}, "id", `f.csv:3:1 (column "id"): empty id`},
		{"short row", "id,ann1\nx,a\ny\n", []string{"ann1"}, "id", "f.csv:3: wrong number of fields: the record has 1 fields, the header has 2"},
		{"line break in a label", "id,ann1\nx,\"a\nb\"\n", []string{"ann1"}, "id", `f.csv:2:3 (column "ann1"): a label may not contain a line break`},
		{"bare quote", "id,ann1\nx,a\"b\n", []string{"ann1"}, "id", `f.csv:2:4: bad quoting: bare " in non-quoted-field`},
		// 0xFF also is text/tabwriter's escape character: it garbled the
		// confusion table. Columns count characters: "x,a" precedes the
		// bad byte (column 4); on line 4 of the next case `lines ` (6).
		{"invalid UTF-8 in a label", "id,ann1,ann2\nx,a\xff,b\ny,a,a\n", []string{"ann1", "ann2"}, "id",
			`f.csv:2:4 (column "ann1"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8`},
		{"invalid UTF-8 in an unused column", "id,note,ann1\nx,ok,a\ny,\"two\nlines \xc3\",b\n", []string{"ann1"}, "id",
			`f.csv:4:7 (column "note"): invalid UTF-8: first bad byte 0xC3 at character 11 of the field; re-save the file as UTF-8`},
		{"invalid UTF-8 in the header", "id,ann\xfe1\nx,a\n", []string{"ann1"}, "id",
			`f.csv:1:7: header: invalid UTF-8: first bad byte 0xFE at character 4 of the field; re-save the file as UTF-8`},
		{"tab in a label", "id,ann1\nx,\"a\tb\"\n", []string{"ann1"}, "id", `f.csv:2:3 (column "ann1"): label "a\tb" holds the control character U+0009, which would garble the tables`},
		// The one NUL policy of every reader (pkg/tabular, issue 17): the column is the NUL's own.
		{"NUL in a label", "id,ann1\nx,a\x00\n", []string{"ann1"}, "id", `f.csv:2:4 (column "ann1"): NUL byte (U+0000) at character 2 of the field: a NUL is not text; remove it (e.g. tr -d '\000' < in > out) or re-export the file`},
		// A record spanning two lines shifts the later lines: the
		// duplicate's first line is 3, not 2 + its row.
		{"duplicate id after a two-line record", "id,note,ann1\nx,\"a\nb\",a\ny,,b\ny,,c\n", []string{"ann1"}, "id", `f.csv:5:1 (column "id"): duplicate id "y" (first on line 4)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLabels(strings.NewReader(tc.in), "f.csv", tc.raters, tc.id)
			// AnalyzeCSV's streaming reader (integer codes, ids in one
			// block) gives the same errors.
			_, coded := readCoded(strings.NewReader(tc.in), "f.csv", tc.raters, tc.id)
			for _, err := range []error{err, coded} {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is not a *ParseError", err)
				}
				if err.Error() != tc.want {
					t.Errorf("error\n%s\nwant\n%s", err, tc.want)
				}
			}
		})
	}
	if _, err := ReadLabels(strings.NewReader("a,b\n"), "f.csv", []string{"a", "a"}, ""); err == nil {
		t.Error("a rater asked for twice was accepted")
	}
	if _, err := ReadLabels(strings.NewReader("a,b\n"), "f.csv", nil, ""); err == nil {
		t.Error("no raters was accepted")
	}
}

// FuzzReadLabels: no input makes the reader panic; what it accepts has one
// rating per rater on every row, no untrimmed or missing-marker labels,
// unique ids; and writing the table back and reading it again gives the
// same ids and ratings.
func FuzzReadLabels(f *testing.F) {
	f.Add([]byte("id,ann1,ann2\np01,a,b\np02,tie,NA\n"))
	f.Add([]byte("\xef\xbb\xbfid,ann1,ann2\r\n\"p,1\",\" a \",\"\"\r\n"))
	f.Add([]byte("ann1,id,ann2\n1,x,2\n,y,-\n"))
	f.Add([]byte("id,ann1,ann2\nx,\"a\"\"b\",c\nx,d,e\n"))
	f.Add([]byte("id,ann1\n"))
	f.Add([]byte("id,ann1,ann2\nx,a\xff,b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		raters := []string{"ann1", "ann2"}
		tab, err := ReadLabels(bytes.NewReader(data), "fuzz.csv", raters, "id")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "fuzz.csv" || (pe.Line < 1 && !errors.Is(err, tabular.ErrEmptyFile)) {
				t.Fatalf("error %v is not a placed *ParseError", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, r := range tab.Rows {
			if len(r.Ratings) != len(raters) || r.ID == "" || ids[r.ID] {
				t.Fatalf("bad row %+v", r)
			}
			ids[r.ID] = true
			for _, l := range r.Ratings {
				if l != strings.TrimSpace(l) || (l != "" && isMissing(l)) {
					t.Fatalf("label %q kept untrimmed or as a missing marker", l)
				}
			}
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write([]string{"id", "ann1", "ann2"})
		for _, r := range tab.Rows {
			w.Write([]string{r.ID, r.Ratings[0], r.Ratings[1]})
		}
		w.Flush()
		again, err := ReadLabels(&buf, "again.csv", raters, "id")
		if err != nil {
			t.Fatalf("re-reading what was written: %v\n%q", err, buf.String())
		}
		if len(again.Rows) != len(tab.Rows) {
			t.Fatalf("%d rows, then %d", len(tab.Rows), len(again.Rows))
		}
		for i := range tab.Rows {
			if again.Rows[i].ID != tab.Rows[i].ID || !slices.Equal(again.Rows[i].Ratings, tab.Rows[i].Ratings) {
				t.Fatalf("row %d: %+v then %+v", i, tab.Rows[i], again.Rows[i])
			}
		}
	})
}
