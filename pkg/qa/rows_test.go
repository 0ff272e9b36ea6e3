package qa

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

func sampleData(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../datasets/responses.csv")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRowsMatchVerdicts checks every field of every Row against the
// verdict CSV of the same run on the sample data (binary, graded and
// word_overlap metrics, two groupings, one of them a cross grouping),
// against the input read by encoding/csv (fields and lines), and checks
// that the schema renders each row as the verdict file's record. It
// runs on the CSV fast path with tiny blocks on several workers (many
// batches, merged out of order) and on the JSONL path.
func TestRowsMatchVerdicts(t *testing.T) {
	data := sampleData(t)
	ids := []string{"exact_substring", "word_overlap", "squad_f1", "exact_match"}
	by := [][]string{{"Domain"}, {"model", "language"}}

	// The input, read by the standard library: fields and start lines.
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	header, err := cr.Read()
	if err != nil {
		t.Fatal(err)
	}
	var inRecs [][]string
	var inLines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		line, _ := cr.FieldPos(0)
		inRecs, inLines = append(inRecs, rec), append(inLines, line)
	}
	col := func(name string) int { return slices.Index(header, name) }

	jsonl := toJSONL(t, header, inRecs)
	for _, c := range []struct {
		name    string
		in      []byte
		file    string
		block   int
		workers int
	}{
		{"csv", data, "responses.csv", 0, 0},
		{"csv tiny blocks", data, "responses.csv", 512, 4},
		{"jsonl", jsonl, "responses.jsonl", 0, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.block > 0 {
				old := blockSize
				defer func() { blockSize = old }()
				blockSize = c.block
			}
			var out bytes.Buffer
			var rows []*Row
			var seen *Row
			reused := true
			res, err := Score(context.Background(), bytes.NewReader(c.in), c.file, Options{
				Metrics: metricsOf(t, ids...), By: by, Verdicts: &out, Workers: c.workers,
				Rows: func(r *Row) error {
					if seen != nil && r != seen {
						reused = false
					}
					seen = r
					rows = append(rows, r.Clone())
					return nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reused {
				t.Error("Options.Rows got different *Row values; the doc says one is reused")
			}
			verdicts := slices.Clone(out.Bytes())
			vr := csv.NewReader(bytes.NewReader(verdicts))
			vrecs, err := vr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			vh, vrecs := vrecs[0], vrecs[1:]
			if len(rows) != len(vrecs) || len(rows) != res.Combined.N || len(rows) != len(inRecs) {
				t.Fatalf("%d rows, %d verdict rows, %d scored, %d input records", len(rows), len(vrecs), res.Combined.N, len(inRecs))
			}
			s := rows[0].Schema
			if !slices.Equal(s.Header, vh) || !slices.Equal(s.Columns, header) || !slices.Equal(s.Metrics, ids) || !s.Words || !s.Flags {
				t.Fatalf("schema %+v, verdict header %v", s, vh)
			}
			if !slices.Equal(s.Groupings, []string{"Domain", "model / language"}) {
				t.Errorf("groupings %q", s.Groupings)
			}
			vcol := func(name string) int { return slices.Index(vh, name) }
			groupN := map[string]int{}
			for i, r := range rows {
				v := vrecs[i]
				if r.Schema != s {
					t.Fatalf("row %d has another schema", i)
				}
				if want := inLines[i]; c.name != "jsonl" && r.Line != want {
					t.Errorf("row %d: line %d, want %d", i, r.Line, want)
				}
				if c.name == "jsonl" && r.Line != i+1 {
					t.Errorf("row %d: JSONL line %d, want %d", i, r.Line, i+1)
				}
				// The verdict file guards cells a spreadsheet would run
				// (tabular.GuardRecord); the rows carry them as read.
				guarded := slices.Clone(r.Fields)
				tabular.GuardRecord(guarded)
				if !slices.Equal(r.Fields, inRecs[i]) || !slices.Equal(guarded, v[:len(header)]) {
					t.Errorf("row %d: fields %q, want %q", i, r.Fields, inRecs[i])
				}
				for k, id := range ids {
					cell := v[vcol(id)]
					if got := results.FormatValue(r.Values[k], s.Graded[k]); got != cell {
						t.Errorf("row %d: %s is %s, the verdict file says %s", i, id, got, cell)
					}
					if x, _ := strconv.ParseFloat(cell, 64); x != r.Values[k] {
						t.Errorf("row %d: %s value %v, cell %s", i, id, r.Values[k], cell)
					}
				}
				if strconv.Itoa(r.Matching) != v[vcol("matching_words")] || strconv.Itoa(r.TotalGolden) != v[vcol("total_golden_words")] {
					t.Errorf("row %d: words %d/%d, verdict file %s/%s", i, r.Matching, r.TotalGolden, v[vcol("matching_words")], v[vcol("total_golden_words")])
				}
				if (r.Blank != (v[vcol("blank_response")] == "1")) || (r.EmptyGolden != (v[vcol("empty_golden")] == "1")) {
					t.Errorf("row %d: blank %v empty %v, verdict file %s %s", i, r.Blank, r.EmptyGolden, v[vcol("blank_response")], v[vcol("empty_golden")])
				}
				f := inRecs[i]
				wantGroups := []string{f[col("Domain")], f[col("model")] + " / " + f[col("language")]}
				if !slices.Equal(r.Groups, wantGroups) {
					t.Errorf("row %d: groups %q, want %q", i, r.Groups, wantGroups)
				}
				for g, key := range r.Groups {
					groupN[s.Groupings[g]+"\x00"+key]++
				}
				if cells := s.AppendCells(nil, r); tabular.GuardRecord(cells[:len(header)]) >= 0 && !slices.Equal(cells, v) {
					t.Errorf("row %d: cells %q, verdict record %q", i, cells, v)
				}
				if x, ok := r.Field("response"); !ok || x != f[col("response")] {
					t.Errorf("row %d: Field(response) = %q, %v", i, x, ok)
				}
				if x, ok := r.Value("squad_f1"); !ok || x != r.Values[2] {
					t.Errorf("row %d: Value(squad_f1) = %v, %v", i, x, ok)
				}
			}
			for _, g := range res.Groups {
				if n := groupN[g.By+"\x00"+g.Group]; n != g.N {
					t.Errorf("group %s %q: %d rows carry it, the result counts %d", g.By, g.Group, n, g.N)
				}
			}
			// A VerdictReader over the verdict file gives the same rows.
			rd, err := results.NewVerdictReader(bytes.NewReader(verdicts), "v.csv", res)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for r, err := range rd.All() {
				if err != nil {
					t.Fatal(err)
				}
				want := rows[i]
				if !slices.Equal(r.Fields, want.Fields) || !slices.Equal(r.Values, want.Values) || r.Matching != want.Matching ||
					r.TotalGolden != want.TotalGolden || r.Blank != want.Blank || r.EmptyGolden != want.EmptyGolden || len(r.Extra) != 0 {
					t.Errorf("VerdictReader row %d = %+v, qa row %+v", i, r, want)
				}
				if c.name != "jsonl" && r.Line != want.Line {
					t.Errorf("VerdictReader row %d on line %d, qa says %d", i, r.Line, want.Line)
				}
				i++
			}
			if i != len(rows) {
				t.Errorf("VerdictReader gave %d rows, want %d", i, len(rows))
			}
		})
	}
}

// toJSONL writes records as JSONL objects with the header's keys, in
// header order (encoding/json quotes the strings).
func toJSONL(t *testing.T, header []string, recs [][]string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, rec := range recs {
		b.WriteByte('{')
		for i, h := range header {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(h)
			v, err := json.Marshal(rec[i])
			if err != nil {
				t.Fatal(err)
			}
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// TestRowsOwnership: a Row handed to Options.Rows is reused (its memory
// is the next row's), so a consumer that keeps the pointer sees other
// values; Clone keeps the row it was given.
func TestRowsOwnership(t *testing.T) {
	in := "question,answer,Domain,response\nq1,Paris,geo,Paris\nq2,Delhi,geo,no idea\n"
	var kept, clones []*Row
	_, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: metricsOf(t, "exact_substring"),
		Rows: func(r *Row) error {
			kept = append(kept, r)
			clones = append(clones, r.Clone())
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0] != kept[1] {
		t.Fatalf("kept %d rows, pointers equal: %v", len(kept), len(kept) == 2 && kept[0] == kept[1])
	}
	if clones[0].Fields[0] != "q1" || clones[0].Values[0] != 1 || clones[1].Fields[0] != "q2" || clones[1].Values[0] != 0 {
		t.Errorf("clones %+v %+v", clones[0], clones[1])
	}
	if clones[0].Line != 2 || clones[1].Line != 3 {
		t.Errorf("lines %d %d, want 2 3", clones[0].Line, clones[1].Line)
	}
	if kept[0].Fields != nil {
		t.Errorf("after Score the reused row still points at the input (%q); it should hold nothing", kept[0].Fields)
	}
}

// TestRowsOrder: on many small batches scored on 4 workers, rows arrive
// in file order, each line once.
func TestRowsOrder(t *testing.T) {
	old := blockSize
	defer func() { blockSize = old }()
	blockSize = 64
	var b strings.Builder
	b.WriteString("question,answer,Domain,response\n")
	const n = 3000
	for i := range n {
		fmt.Fprintf(&b, "q%d,a%d,d%d,a%d\n", i, i, i%3, i%2*i)
	}
	line := 1
	_, err := Score(context.Background(), strings.NewReader(b.String()), "t.csv", Options{Workers: 4, Rows: func(r *Row) error {
		line++
		if r.Line != line || r.Fields[0] != "q"+strconv.Itoa(line-2) {
			return fmt.Errorf("row on line %d (%s), want line %d", r.Line, r.Fields[0], line)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if line != n+1 {
		t.Errorf("last line %d, want %d", line, n+1)
	}
}

// TestRowsStopAtBadRecord: a record with too few fields on line 1203
// (CSV: tiny blocks, so it sits mid-batch of a later block; JSONL: a
// line that is not an object) stops the stream with a *ParseError
// naming that line, after every row before it, through Options.Rows and
// through the Rows sequence.
func TestRowsStopAtBadRecord(t *testing.T) {
	old := blockSize
	defer func() { blockSize = old }()
	blockSize = 256
	const bad = 1203 // line of the bad record
	var cb, jb strings.Builder
	cb.WriteString("question,answer,Domain,response\n")
	for line := 2; line < 3000; line++ {
		if line == bad {
			cb.WriteString("only,three,fields\n")
			jb.WriteString("[1]\n")
			continue
		}
		fmt.Fprintf(&cb, "q%d,a,d,a\n", line)
		fmt.Fprintf(&jb, `{"question":"q%d","answer":"a","Domain":"d","response":"a"}`+"\n", line)
	}
	for _, c := range []struct{ file, in string }{{"t.csv", cb.String()}, {"t.jsonl", jb.String()}} {
		t.Run(c.file, func(t *testing.T) {
			wantLast := bad - 1 // CSV: the header is line 1
			if strings.HasSuffix(c.file, ".jsonl") {
				wantLast = bad - 2 // JSONL rows count from 1, and the input has no header
			}
			last := 0
			_, err := Score(context.Background(), strings.NewReader(c.in), c.file, Options{Workers: 3, Rows: func(r *Row) error {
				last = r.Line
				return nil
			}})
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Score: %v, want a *ParseError", err)
			}
			if pe.Line != wantLast+1 || last != wantLast {
				t.Errorf("error on line %d after row %d; want line %d after row %d", pe.Line, last, wantLast+1, wantLast)
			}
			// The same through the sequence: rows, then the error once.
			last, errs := 0, 0
			for r, err := range Rows(context.Background(), strings.NewReader(c.in), c.file, Options{Workers: 3}) {
				if err != nil {
					errs++
					if !errors.As(err, &pe) || r != nil {
						t.Errorf("yielded %v, %v", r, err)
					}
					continue
				}
				if errs > 0 {
					t.Fatal("a row after the error")
				}
				last = r.Line
			}
			if errs != 1 || last != wantLast {
				t.Errorf("%d errors, last row %d; want 1 error after row %d", errs, last, wantLast)
			}
		})
	}
}

// TestRowsCallbackError: an error from Options.Rows stops scoring and
// Score returns it; breaking out of the Rows sequence stops it too.
func TestRowsCallbackError(t *testing.T) {
	data := sampleData(t)
	stop := errors.New("enough")
	calls := 0
	_, err := Score(context.Background(), bytes.NewReader(data), "r.csv", Options{Rows: func(r *Row) error {
		calls++
		if calls == 10 {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) || calls != 10 {
		t.Errorf("Score: %v after %d calls, want %v after 10", err, calls, stop)
	}
	n := 0
	for _, err := range Rows(context.Background(), bytes.NewReader(data), "r.csv", Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 5 {
			break
		}
	}
	if n != 5 {
		t.Errorf("%d rows before break", n)
	}
}

// TestRowTableFeedsRenderers: a RowTable filled through Options.Rows
// yields the rows in order, cloned (they survive the run).
func TestRowTableAdd(t *testing.T) {
	data := sampleData(t)
	var tbl results.RowTable
	res, err := Score(context.Background(), bytes.NewReader(data), "r.csv", Options{Rows: tbl.Add})
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Len() != res.Combined.N || tbl.Schema() == nil {
		t.Fatalf("%d rows, want %d", tbl.Len(), res.Combined.N)
	}
	pass, prev := 0.0, 0
	for r, err := range tbl.All() {
		if err != nil {
			t.Fatal(err)
		}
		if r.Line <= prev {
			t.Fatalf("line %d after %d", r.Line, prev)
		}
		prev = r.Line
		pass += r.Values[0]
	}
	if m := res.Combined.Metrics[res.Settings.Metrics[0]]; pass != m.Correct || math.IsNaN(pass) {
		t.Errorf("rows pass %v, the result says %v", pass, m.Correct)
	}
}

// TestRowsKeptStringsStay: a field string kept from the callback without
// cloning still reads the same after its block has been recycled for
// later input (many 64-byte blocks, 4 workers). Before the strings were
// the row's own, 171,228 of 200,000 kept strings read as other rows'.
func TestRowsKeptStringsStay(t *testing.T) {
	old := blockSize
	defer func() { blockSize = old }()
	blockSize = 64
	var b strings.Builder
	b.WriteString("question,answer,Domain,response\n")
	const n = 20000
	for i := range n {
		fmt.Fprintf(&b, "q%d,a%d,d%d,r%d\n", i, i, i%7, i)
	}
	var questions, domains []string
	_, err := Score(context.Background(), strings.NewReader(b.String()), "t.csv", Options{Workers: 4, Rows: func(r *Row) error {
		questions = append(questions, r.Fields[0])
		domains = append(domains, r.Groups[0])
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range n {
		if questions[i] != "q"+strconv.Itoa(i) || domains[i] != "d"+strconv.Itoa(i%7) {
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d kept strings changed after their block was reused", bad, n)
	}
}

// With RowsCopy, Rows gets views of the read blocks instead of strings of
// the row's own; a callback that copies (Clone) gets the same rows as one
// that keeps the strings as they are without it. Tiny blocks on several
// workers make the blocks recycled many times during the run.
func TestRowsCopy(t *testing.T) {
	data := sampleData(t)
	old := blockSize
	defer func() { blockSize = old }()
	blockSize = 512
	run := func(rowsCopy bool) []*Row {
		var rows []*Row
		_, err := Score(context.Background(), bytes.NewReader(data), "responses.csv", Options{
			Metrics: metricsOf(t, "exact_substring", "word_overlap"), By: [][]string{{"model", "language"}}, Workers: 4,
			RowsCopy: rowsCopy,
			Rows: func(r *Row) error {
				if rowsCopy {
					rows = append(rows, r.Clone())
				} else {
					// The doc: the strings are the row's own; keep them as they are.
					rows = append(rows, &Row{Line: r.Line, Fields: slices.Clone(r.Fields), Groups: slices.Clone(r.Groups), Values: slices.Clone(r.Values)})
				}
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	owned, viewed := run(false), run(true)
	if len(owned) < 20 || len(owned) != len(viewed) {
		t.Fatalf("%d rows without RowsCopy, %d with", len(owned), len(viewed))
	}
	for i := range owned {
		a, b := owned[i], viewed[i]
		if a.Line != b.Line || !slices.Equal(a.Fields, b.Fields) || !slices.Equal(a.Groups, b.Groups) || !slices.Equal(a.Values, b.Values) {
			t.Fatalf("row %d: %+v without RowsCopy, %+v with", i+1, a, b)
		}
	}
}

// A chunk that holds a record of megabytes is split by the general
// parser without the byte masks (csvParser.nomask): the records around a
// 2.5 MB quoted response with commas, quotes and line breaks inside read
// as encoding/csv reads them, and the big field's row scores as the
// others do.
func TestHugeRecordWithoutMasks(t *testing.T) {
	big := strings.Repeat("the Answer is 42, \"ok\"\nयह उत्तर है। ", 60000) // about 2.5 MB
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response\n")
	for i := range 5 {
		fmt.Fprintf(&b, "%d,q%d,42,D,the answer is %d\n", i, i, 40+i)
	}
	fmt.Fprintf(&b, "big,qb,42,D,\"%s\"\n", strings.ReplaceAll(big, `"`, `""`))
	for i := 5; i < 10; i++ {
		fmt.Fprintf(&b, "%d,q%d,42,\"D, x\",\"the answer is %d\"\n", i, i, 40+i)
	}
	want, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	k := 1
	for r, err := range Rows(context.Background(), strings.NewReader(b.String()), "big.csv", Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if k >= len(want) || !slices.Equal(r.Fields[:5], want[k]) {
			t.Fatalf("record %d: %.80q, want %.80q", k, r.Fields, want[k])
		}
		es, _ := r.Value("exact_substring")
		if wantES := strings.Contains(strings.ToLower(want[k][4]), "42"); (es == 1) != wantES {
			t.Errorf("record %d: exact_substring %v", k, es)
		}
		k++
	}
	if k != len(want) {
		t.Fatalf("%d records, want %d", k-1, len(want)-1)
	}
}

// Delivered comes once, after the last row was handed to Rows and the
// verdicts written, and never for a run that fails (here on a record
// with a field too many, after rows were handed out).
func TestDelivered(t *testing.T) {
	const good = "question,answer,Domain,response\nq1,a,x,a\nq2,b,x,c\nq3,d,y,d\n"
	for _, tc := range []struct {
		in      string
		wantErr bool
	}{{good, false}, {good + "q4,e,x,e,extra\n", true}} {
		rows, calls, rowsAtCall := 0, 0, -1
		var out bytes.Buffer
		opt := Options{
			Rows:      func(*Row) error { rows++; return nil },
			Verdicts:  &out,
			Delivered: func() { calls++; rowsAtCall = rows },
		}
		_, err := Score(context.Background(), strings.NewReader(tc.in), "t.csv", opt)
		if (err != nil) != tc.wantErr {
			t.Fatalf("error %v, want one: %v", err, tc.wantErr)
		}
		want := 1
		if tc.wantErr {
			want = 0
		}
		if calls != want {
			t.Fatalf("error %v: Delivered called %d times, want %d", err, calls, want)
		}
		if !tc.wantErr && (rowsAtCall != 3 || !strings.HasSuffix(out.String(), "q3,d,y,d,1,1,1,1,0,0\n")) {
			t.Fatalf("Delivered came after %d rows, verdicts %q", rowsAtCall, out.String())
		}
	}
}
