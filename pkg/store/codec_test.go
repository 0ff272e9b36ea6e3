package store

import (
	"context"
	"encoding/json"
	"iter"
	"math"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// Text with quotes, backslashes, control characters, Bengali and an
// invalid byte is stored as valid JSON (SQLite's json_valid agrees) and
// reads back as written (the invalid byte as U+FFFD).
func TestChunkTextRoundTrip(t *testing.T) {
	texts := []string{`say "hi"`, `back\slash`, "line\nbreak\ttab\x01", "বাংলা উত্তর", "bad \xff byte", ""}
	schema := results.NewRowSchema([]string{"id", "question", "answer", "response"}, []string{"m"}, []bool{true}, false, nil)
	var rows []*results.Row
	for i, s := range texts {
		rows = append(rows, &results.Row{Schema: schema, Line: i + 2, Fields: []string{"id " + s + string(rune('a'+i)), "q", "a", s}, Values: []float64{float64(i) / 10}})
	}
	rows[2].Values[0] = math.NaN()
	st := openTemp(t)
	ctx := context.Background()
	if _, err := st.Record(ctx, Run{Command: "score", Source: results.NewRowTable(schema, rows)}); err != nil {
		t.Fatal(err)
	}
	var valid int
	st.db.QueryRow(`SELECT min(json_valid(ids) AND json_valid(response) AND json_valid(question)) FROM row_chunk`).Scan(&valid)
	if valid != 1 {
		t.Error("a chunk is not valid JSON")
	}
	tx, err := st.texts(ctx, 1, []int{0, 1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	d, err := st.load(ctx, "1", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		want := s
		if i == 4 {
			want = "bad \ufffd byte"
		}
		if tx[i].Response != want || tx[i].Line != i+2 {
			t.Errorf("row %d: %q line %d, want %q", i, tx[i].Response, tx[i].Line, want)
		}
		var wantID string
		json.Unmarshal(appendJSONString(nil, "id "+s+string(rune('a'+i))), &wantID)
		if d.keys[i] != wantID {
			t.Errorf("row %d id %q, want %q", i, d.keys[i], wantID)
		}
		v := d.values[0][i]
		if i == 2 && !math.IsNaN(v) || i != 2 && v != float64(i)/10 {
			t.Errorf("row %d value %v", i, v)
		}
	}
}

func TestParseNumbersErrors(t *testing.T) {
	for _, s := range []string{"", "1,2", "[1,x]", "[1,2"} {
		if _, err := parseNumbers(nil, s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
	got, err := parseNumbers(nil, "[ 1 , 0.25,null,0 ]")
	if err != nil || len(got) != 4 || got[1] != 0.25 || !math.IsNaN(got[2]) {
		t.Errorf("%v %v", got, err)
	}
	if got, err := parseStrings(nil, `["a","b"]`); err != nil || len(got) != 2 || got[1] != "b" {
		t.Errorf("%v %v", got, err)
	}
}

// reversed yields the rows of a synthRows in reverse order, dropping the
// first `drop` rows: the same sample ids in another order, some missing.
type reversed struct {
	*synthRows
	drop int
}

func (r reversed) All() iter.Seq2[*results.Row, error] {
	return func(yield func(*results.Row, error) bool) {
		var all []*results.Row
		for row := range r.synthRows.All() {
			all = append(all, row.Clone())
		}
		for i := len(all) - 1; i >= r.drop; i-- {
			if !yield(all[i], nil) {
				return
			}
		}
	}
}

// Pairing is by sample id, not position: B holds A's rows reversed,
// without rows 0..9. A passes even rows, B passes rows below 50: paired
// rows 10..99; better = odd rows below 50 (11..49: 20), worse = even rows
// from 50 (50..98: 25).
func TestDiffPairsByID(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	record(t, s, synthRun(100, true, func(i int) float64 { return b2f(i%2 == 0) }))
	record(t, s, Run{Command: "score", Source: reversed{newSynth(100, true, func(i int) float64 { return b2f(i < 50) }), 10}})
	ra, _ := s.Get(ctx, "1")
	rb, _ := s.Get(ctx, "2")
	if ra.DatasetHash == rb.DatasetHash {
		t.Fatal("a dataset missing rows has the same content hash")
	}
	d, err := s.Diff(ctx, "1", "2", DiffOptions{Force: true, Flips: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := d.Metrics[0]
	if d.Paired != 90 || d.OnlyA != 10 || d.OnlyB != 0 || m.Better != 20 || m.Worse != 25 || d.Comparable {
		t.Fatalf("paired %d only %d/%d better %d worse %d comparable %v", d.Paired, d.OnlyA, d.OnlyB, m.Better, m.Worse, d.Comparable)
	}
	if f := m.BetterRows[0]; f.ID != "s11" || f.RowA != 12 || f.RowB != 100-11 {
		t.Errorf("first better flip %+v", f)
	}
	codes := map[string]bool{}
	for _, w := range d.Warnings {
		codes[w.Code] = true
	}
	if !codes[CodeNotComparable] || !codes[CodeUnpaired] {
		t.Errorf("warnings %v", d.Warnings)
	}
}
