package results

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

func verdictScore() *Score {
	return &Score{
		Settings: Settings{Metrics: []string{"exact_substring", "word_overlap", "squad_f1"}},
		Metrics:  []MetricDef{{ID: "exact_substring"}, {ID: "word_overlap"}, {ID: "squad_f1", Graded: true}},
	}
}

func TestVerdictReader(t *testing.T) {
	// An input column that shares a metric's name comes first; the
	// scorer's own column is the last of that name.
	in := "\xEF\xBB\xBFid,word_overlap,response,exact_substring,word_overlap,squad_f1,matching_words,total_golden_words,blank_response,empty_golden\n" +
		"a,x,\"two\nlines\",1,0,0.5,1,2,0,0\n" +
		"b,y,ok,1,1,1,2,2,0,0\n" +
		"c,z,,0,0,0,0,1,1,0\n"
	// The figures of these rows, by hand: exact_substring passes a and
	// b, word_overlap b, squad_f1 sums to 1.5; a is only_first, b both,
	// c neither.
	s := verdictScore()
	s.Combined = Group{N: 3, Metrics: map[string]MetricScore{
		"exact_substring": {Correct: 2}, "word_overlap": {Correct: 1}, "squad_f1": {Correct: 1.5},
	}}
	s.Agreement = []Agreement{{First: "exact_substring", Second: "word_overlap", Both: 1, Neither: 1, OnlyFirst: 1}}
	v, err := NewVerdictReader(strings.NewReader(in), "v.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 4, 5}; !slices.Equal(v.MetricCol, want) {
		t.Errorf("MetricCol %v, want %v", v.MetricCol, want)
	}
	if want := []bool{false, false, false, true, true, true, true, true, true, true}; !slices.Equal(v.Numeric, want) {
		t.Errorf("Numeric %v, want %v", v.Numeric, want)
	}
	if !slices.Equal(v.Graded, []bool{false, false, true}) || v.Binary() != 2 {
		t.Errorf("Graded %v, Binary %d", v.Graded, v.Binary())
	}
	// Row a: exact 1, overlap 0 (disagree; the graded squad_f1 is left
	// out); b: both 1; c: both 0.
	for _, want := range []struct {
		line     int
		disagree bool
	}{{2, true}, {4, false}, {5, false}} {
		rec, err := v.Read()
		if err != nil {
			t.Fatal(err)
		}
		if v.Line() != want.line || v.Disagree(rec) != want.disagree {
			t.Errorf("row %q: line %d, disagree %v; want %d, %v", rec[0], v.Line(), v.Disagree(rec), want.line, want.disagree)
		}
	}
	if _, err := v.Read(); err != io.EOF {
		t.Errorf("after the last row: %v, want io.EOF", err)
	}
	if v.Rows() != 3 {
		t.Errorf("Rows %d, want 3", v.Rows())
	}
	if err := v.CheckSoFar(); err != nil {
		t.Errorf("CheckSoFar after the end: %v", err)
	}
}

// TestVerdictReaderChecks: the reader compares what it streamed with the
// result, at the end (Read) or for the rows read so far (CheckSoFar).
func TestVerdictReaderChecks(t *testing.T) {
	head := "id,exact_substring,word_overlap,squad_f1\n"
	rows := "a,1,0,0.5\nb,1,1,1\nc,0,0,0\n" // as in TestVerdictReader
	s := verdictScore()
	s.Combined = Group{N: 3, Metrics: map[string]MetricScore{
		"exact_substring": {Correct: 2}, "word_overlap": {Correct: 1}, "squad_f1": {Correct: 1.5},
	}}
	s.Agreement = []Agreement{{First: "exact_substring", Second: "word_overlap", Both: 1, Neither: 1, OnlyFirst: 1}}
	readAll := func(in string) error {
		v, err := NewVerdictReader(strings.NewReader(in), "v.csv", s)
		if err != nil {
			return err
		}
		for {
			if _, err := v.Read(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
	for _, c := range []struct{ name, in, want string }{
		{"own rows", head + rows, ""},
		{"a row missing", head + "a,1,0,0.5\nb,1,1,1\n", "v.csv: the verdict file has 2 rows, the result has 3"},
		// Swapping exact_substring between b (both) and c (neither) keeps
		// its pass count; the buckets become only_second 1, only_first 2.
		{"buckets differ", head + "a,1,0,0.5\nb,0,1,1\nc,1,0,0\n", "v.csv: exact_substring and word_overlap: 0 rows are passed by both in the verdict file, the result says 1"},
		{"graded cell not a number", head + "a,1,0,half\n", "v.csv:2: squad_f1 is \"half\", not a number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := readAll(c.in)
			if c.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	// Stopping after two rows of another file: four passes of
	// word_overlap where the result has one in all.
	v, err := NewVerdictReader(strings.NewReader(head+"a,1,1,0\nb,1,1,0\n"), "v.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	v.Read()
	if err := v.CheckSoFar(); err != nil {
		t.Errorf("one row (1 of 1 word_overlap pass): %v", err)
	}
	v.Read()
	var m *VerdictMismatch
	if err := v.CheckSoFar(); !errors.As(err, &m) || !strings.Contains(err.Error(), "word_overlap passes 2 rows in the verdict file so far, the result says 1") {
		t.Errorf("two rows: %v, want a VerdictMismatch on word_overlap so far", err)
	}
}

func TestVerdictReaderErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "v.csv: empty verdict file"},
		{"missing metric", "id,exact_substring,word_overlap\n", `v.csv: no column "squad_f1"`},
		{"quote", "id,exact_substring,word_overlap,squad_f1\n\"a,1,1,1\n", "v.csv: "},
		{"ragged", "id,exact_substring,word_overlap,squad_f1\na,1\n", "v.csv:2: 2 fields, the header has 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewVerdictReader(strings.NewReader(c.in), "v.csv", verdictScore())
			if err == nil {
				_, err = v.Read()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestNumber(t *testing.T) {
	for in, ok := range map[string]bool{"1": true, "0.25": true, "-3": true, "1e3": true, "": false, "NaN": false, "Inf": false, "yes": false, "1e400": false} {
		if _, got := Number(in); got != ok {
			t.Errorf("Number(%q) ok = %v, want %v", in, got, ok)
		}
	}
}

func TestAgreementWords(t *testing.T) {
	a := Agreement{First: "exact_substring", Second: "word_overlap", Both: 164, Neither: 77, OnlyFirst: 23, OnlySecond: 20}
	// The sample's buckets (score --json on datasets/responses.csv): 284 rows.
	if a.Total() != 284 || a.Count("only_first") != 23 || a.Count("nope") != 0 {
		t.Errorf("Total %d, Count(only_first) %d", a.Total(), a.Count("only_first"))
	}
	if m := a.Meaning("only_second"); !strings.HasPrefix(m, "only word_overlap passes: golden words present") {
		t.Errorf("Meaning(only_second) = %q", m)
	}
	if m := a.Meaning("both"); m != Buckets[0].Meaning {
		t.Errorf("Meaning(both) = %q", m)
	}
}

// A verdict file is bounded like every other table: a record longer than
// the record limit (here 1 MiB, as --max-field-mib 1 sets it) is an error
// naming the file, the limit and the flag, after reading at most the limit
// and the read-ahead past the last whole record; a field just under the
// limit reads. Before, encoding/csv took an unclosed quote to the end of
// the file, however large.
func TestVerdictReaderRecordLimit(t *testing.T) {
	saved := tabular.Limit
	t.Cleanup(func() { tabular.Limit = saved })
	tabular.Limit.MaxRecord = 1 << 20
	const head = "id,response,exact_substring,word_overlap,squad_f1\n"
	s := verdictScore()
	s.Combined = Group{N: 1, Metrics: map[string]MetricScore{"exact_substring": {Correct: 1}, "word_overlap": {Correct: 1}, "squad_f1": {Correct: 1}}}

	ok := head + "a," + strings.Repeat("x", 1<<20-100) + ",1,1,1\n"
	v, err := NewVerdictReader(strings.NewReader(ok), "v.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := v.Read(); err != nil || len(rec[1]) != 1<<20-100 {
		t.Fatalf("a field under the limit: %v", err)
	}

	// An unclosed quote in the second row, then 8 MiB of text.
	body := head + "a,ok,1,1,1\nb,\"" + strings.Repeat("y", 8<<20)
	counted := &countingReader{r: strings.NewReader(body)}
	v, err = NewVerdictReader(counted, "v.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Read(); err != nil {
		t.Fatal(err)
	}
	_, err = v.Read()
	if !errors.Is(err, tabular.ErrTooLong) {
		t.Fatalf("unclosed quote: %v, want ErrTooLong", err)
	}
	for _, want := range []string{"v.csv: ", "byte 62", "1 MiB", "--max-field-mib"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Count(err.Error(), "v.csv") != 1 {
		t.Errorf("error %q names the file more than once", err)
	}
	// The limit plus two read-aheads at most: 3 MiB of the 8 read.
	if counted.n > 3<<20+int64(len(head))+20 {
		t.Errorf("read %d bytes before refusing, want about 3 MiB", counted.n)
	}

	// A header that never ends is refused the same way.
	if _, err := NewVerdictReader(strings.NewReader("\""+strings.Repeat("z", 4<<20)), "h.csv", s); !errors.Is(err, tabular.ErrTooLong) || strings.Count(err.Error(), "h.csv") != 1 {
		t.Errorf("endless header: %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
