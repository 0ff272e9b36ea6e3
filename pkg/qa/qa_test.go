package qa

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func allMetrics(t testing.TB) []*score.Metric {
	var ms []*score.Metric
	for _, id := range score.IDs() {
		m, _ := score.Lookup(id)
		ms = append(ms, m)
	}
	return ms
}

// oracle is the simple implementation the streaming one must equal:
// encoding/csv, one row at a time, one Score call per metric.
func oracle(t *testing.T, data []byte, ms []*score.Metric, prof textnorm.Profile) (verdicts [][]string, perDomain map[string][]float64) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	h := recs[0]
	col := map[string]int{}
	for i, n := range h {
		col[n] = i
	}
	hdr := append([]string(nil), h...)
	for _, m := range ms {
		hdr = append(hdr, m.ID)
	}
	hdr = append(hdr, "matching_words", "total_golden_words", "blank_response", "empty_golden")
	verdicts = append(verdicts, hdr)
	perDomain = map[string][]float64{}
	for _, rec := range recs[1:] {
		g, resp := prof.Apply(rec[col["answer"]]), prof.Apply(rec[col["response"]])
		out := append([]string(nil), rec...)
		tabular.GuardRecord(out) // the verdict file guards formula cells
		var mw, tw int
		d := rec[col["Domain"]]
		if perDomain[d] == nil {
			perDomain[d] = make([]float64, len(ms)+1)
		}
		perDomain[d][len(ms)]++
		lang := ""
		if c, ok := col["language"]; ok {
			lang = rec[c]
		}
		for i, m := range ms {
			sc := m.New()
			v := sc.Score(g, resp)
			if ls, ok := sc.(score.LanguageScorer); ok {
				v = ls.ScoreLanguage(lang, g, resp)
			}
			if m.ID == "word_overlap" {
				mw, tw = v.Matching, v.Total
			}
			if m.Graded {
				out = append(out, fmt.Sprint(v.Value))
			} else {
				out = append(out, fmt.Sprint(int(v.Value)))
			}
			perDomain[d][i] += v.Value
		}
		b2i := func(b bool) string {
			if b {
				return "1"
			}
			return "0"
		}
		out = append(out, fmt.Sprint(mw), fmt.Sprint(tw), b2i(textnorm.IsBlank(resp)), b2i(g == ""))
		verdicts = append(verdicts, out)
	}
	return verdicts, perDomain
}

func runScore(t *testing.T, data []byte, opt Options) (*results.Score, [][]string) {
	t.Helper()
	var out bytes.Buffer
	opt.Verdicts = &out
	res, err := Score(context.Background(), bytes.NewReader(data), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatalf("verdict file is not valid CSV: %v", err)
	}
	return res, v
}

func compareWithOracle(t *testing.T, data []byte, prof textnorm.Profile) {
	t.Helper()
	ms := allMetrics(t)
	want, perDomain := oracle(t, data, ms, prof)
	for _, workers := range []int{1, 2, 5} {
		res, got := runScore(t, data, Options{Metrics: ms, Profile: prof, Workers: workers})
		if !reflect.DeepEqual(got, want) {
			for i := range want {
				if i >= len(got) || !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("workers=%d: verdict row %d differs:\n got %q\nwant %q", workers, i, got[min(i, len(got)-1)], want[i])
				}
			}
			t.Fatalf("workers=%d: %d verdict rows, want %d", workers, len(got), len(want))
		}
		for _, g := range res.Groups {
			w := perDomain[g.Group]
			if g.N != int(w[len(ms)]) {
				t.Errorf("group %s: n = %d, want %v", g.Group, g.N, w[len(ms)])
			}
			for i, m := range ms {
				if d := g.Metrics[m.ID].Correct - w[i]; d > 1e-9 || d < -1e-9 {
					t.Errorf("group %s %s: correct = %v, want %v", g.Group, m.ID, g.Metrics[m.ID].Correct, w[i])
				}
			}
		}
	}
}

func TestSampleMatchesOracle(t *testing.T) {
	data, err := os.ReadFile("../../datasets/responses.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []textnorm.Profile{textnorm.None, textnorm.NFC, textnorm.Indic} {
		t.Run(p.String(), func(t *testing.T) { compareWithOracle(t, data, p) })
	}
}

// tricky builds a CSV with every quoting case: embedded commas, quotes,
// LF and CRLF inside quoted fields, empty fields, CRLF line ends, a BOM.
func tricky(rng *rand.Rand, rows int, crlf, bom bool) []byte {
	pieces := []string{"Delhi", "नई दिल्ली।", "a,b", `say "hi"`, "line\nbreak", "cr\r\nlf", "", " ", "Narmada valley",
		"the Narmada river valley", "১৯৪৭", "=SUM(A1)", "\u0915\u093c", "\u0958", "No", "no such"}
	var b bytes.Buffer
	if bom {
		b.WriteString("\uFEFF")
	}
	w := csv.NewWriter(&b)
	w.UseCRLF = crlf
	w.Write([]string{"id", "question", "answer", "Domain", "response"})
	for i := 0; i < rows; i++ {
		pick := func() string {
			n := rng.IntN(3)
			var parts []string
			for j := 0; j < n; j++ {
				parts = append(parts, pieces[rng.IntN(len(pieces))])
			}
			return strings.Join(parts, " ")
		}
		w.Write([]string{fmt.Sprint(i), pick(), pick(), []string{"A", "B", "C, D"}[rng.IntN(3)], pick()})
	}
	w.Flush()
	return b.Bytes()
}

func TestTrickyCSVAcrossBlockBoundaries(t *testing.T) {
	old := blockSize
	defer func() { blockSize = old }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bs := range []int{7, 64, 1000, 1 << 20} {
		blockSize = bs
		for _, crlf := range []bool{false, true} {
			data := tricky(rng, 300, crlf, crlf)
			t.Run(fmt.Sprintf("block%d/crlf=%v", bs, crlf), func(t *testing.T) { compareWithOracle(t, data, textnorm.None) })
		}
	}
}

func TestJSONL(t *testing.T) {
	in := `{"id": 1, "question": "Capital?", "answer": "Delhi", "Domain": "Geo", "response": "Delhi."}
{"Domain": "Geo", "response": "", "answer": "Agra", "question": "City of the Taj?", "id": 2}

{"id": 3, "question": "q", "answer": "", "Domain": "Art", "response": "x", "extra": null}
`
	_, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Field != "extra" {
		t.Fatalf("unknown key on line 4: err = %v", err)
	}
	in = strings.Replace(in, `, "extra": null`, "", 1)
	var out bytes.Buffer
	res, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{Verdicts: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 3 || res.Combined.Blank != 1 || res.Combined.EmptyGolden != 1 || res.Dataset.Format != "jsonl" {
		t.Errorf("combined = %+v", res.Combined)
	}
	want := "id,question,answer,Domain,response,exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden\n" +
		"1,Capital?,Delhi,Geo,Delhi.,1,1,1,1,0,0\n" +
		"2,City of the Taj?,Agra,Geo,,0,0,0,1,1,0\n" +
		"3,q,,Art,x,1,1,0,0,0,1\n"
	if out.String() != want {
		t.Errorf("verdicts:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestBadInput(t *testing.T) {
	hdr := "question,answer,Domain,response\n"
	cases := []struct {
		name, in string
		is       error
		line     int
		col      int
		contains []string
	}{
		{"empty file", "", ErrEmptyFile, 0, 0, nil},
		{"header only", hdr, ErrNoRows, 0, 0, nil},
		{"missing column", "question,answer,domain,response\nq,a,d,r\n", ErrMissingColumn, 1, 0,
			[]string{`"Domain"`, `"question", "answer", "domain", "response"`, "t.csv"}},
		{"ragged row", hdr + "q,a,D,r\nq,a,D\n", ErrFieldCount, 3, 0, []string{"3 fields", "header has 4"}},
		{"bare quote", hdr + "q,a\"b,D,r\n", ErrQuote, 2, 4, []string{"bare"}},
		{"unclosed quote", hdr + "q,\"a,D,r\nmore\n", ErrQuote, 2, 3, []string{"never closed"}},
		{"junk after quote", hdr + "q,\"a\"x,D,r\n", ErrQuote, 2, 6, nil},
		{"invalid utf8", hdr + "q,a,D,r\nq,a\xff,D,r\n", ErrInvalidUTF8, 3, 0, []string{`"answer"`, "0xFF", "re-save"}},
		{"duplicate header", "question,answer,Domain,response,answer\nq,a,D,r,x\n", nil, 1, 0, []string{"twice"}},
		{"verdict column clash", "question,answer,Domain,response,exact_substring\nq,a,D,r,1\n", nil, 1, 0, []string{"already has a column"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Score(context.Background(), strings.NewReader(c.in), "t.csv", Options{Verdicts: io.Discard})
			if err == nil {
				t.Fatal("no error")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if pe.Line != c.line || (c.col != 0 && pe.Column != c.col) {
				t.Errorf("at %d:%d, want %d:%d (%v)", pe.Line, pe.Column, c.line, c.col, err)
			}
			for _, s := range c.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %s", err, s)
				}
			}
			// A library error cannot know the command's flags (judge has
			// no --repair-utf8 or --question-col): it names none.
			if strings.Contains(err.Error(), "--") {
				t.Errorf("error %q names a command-line flag", err)
			}
		})
	}
}

func TestRepairUTF8(t *testing.T) {
	in := "question,answer,Domain,response\nq,a\xff,D,a\xff\nq,b,D,b\n"
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{RepairUTF8: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 2 {
		t.Fatalf("n = %d", res.Combined.N)
	}
	found := false
	for _, w := range res.Warnings {
		if w.Code == "repaired_utf8" && w.Count == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("no repaired_utf8 warning with count 1 in %+v", res.Warnings)
	}
}

func TestGroupingAndAgreement(t *testing.T) {
	in := "id,question,answer,Domain,response,language\n" +
		"1,q,amalak,Art,Amalaka,en\n" + // exact only
		"2,q,Narmada valley,Geo,Narmada River valley,en\n" + // overlap only
		"3,q,Delhi,Geo,Delhi,hi\n" + // both
		"4,q,Delhi,Art,Mumbai,hi\n" + // neither
		"5,q,,Art,x,hi\n" // empty golden: both
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{By: [][]string{{"Domain"}, {"Domain", "language"}}})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Agreement[0]
	if a.Both != 2 || a.Neither != 1 || a.OnlyFirst != 1 || a.OnlySecond != 1 {
		t.Errorf("agreement = %+v", a)
	}
	if ex := a.Examples["only_first"]; len(ex) != 1 || ex[0].ID != "1" || ex[0].Line != 2 {
		t.Errorf("only_first examples = %+v", ex)
	}
	var names []string
	for _, g := range res.Groups {
		names = append(names, g.By+"="+g.Group)
	}
	want := []string{"Domain=Art", "Domain=Geo", "Domain / language=Art / en", "Domain / language=Art / hi", "Domain / language=Geo / en", "Domain / language=Geo / hi"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("groups = %q, want %q", names, want)
	}
	// Combined accuracy is the micro-average: 3 of 5 exact_substring.
	if got := res.Combined.Metrics["exact_substring"].Accuracy; got != 0.6 {
		t.Errorf("combined exact_substring = %v, want 0.6", got)
	}
}

func FuzzCSVLoader(f *testing.F) {
	f.Add([]byte("question,answer,Domain,response\nq,a,D,r\n"))
	f.Add([]byte("question,answer,Domain,response\r\n\"q\nx\",\"a\"\"b\",D,\r\n"))
	f.Add([]byte("\uFEFFquestion,answer,Domain,response\nq,a,D\n"))
	f.Add([]byte("question,answer,Domain,response\nq,\"a,D,r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		old := blockSize
		blockSize = 16
		defer func() { blockSize = old }()
		var out bytes.Buffer
		res, err := Score(context.Background(), bytes.NewReader(data), "f.csv", Options{Verdicts: &out, Workers: 2})
		// encoding/csv is the reference for what parses.
		recs, cerr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF")))).ReadAll()
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *ParseError: %v", err)
			}
			return
		}
		if cerr != nil {
			t.Fatalf("we accepted input encoding/csv rejects (%v)", cerr)
		}
		if res.Combined.N != len(recs)-1 {
			t.Fatalf("n = %d, encoding/csv read %d records", res.Combined.N, len(recs)-1)
		}
		v, err := csv.NewReader(&out).ReadAll()
		if err != nil || len(v) != len(recs) {
			t.Fatalf("verdict file: %d records, err %v", len(v), err)
		}
		for i := range recs {
			if !reflect.DeepEqual(v[i][:len(recs[i])], recs[i]) {
				t.Fatalf("verdict row %d does not start with the input record: %q vs %q", i, v[i], recs[i])
			}
		}
	})
}

func TestOpen(t *testing.T) {
	in := "id,question,answer,Domain,response\n1,q,a,D,\"multi\nline\"\n2,q,b,D,r\n"
	src, err := Open(strings.NewReader(in), "x.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := src.Header()
	if err != nil || len(h) != 5 {
		t.Fatalf("header %q, %v", h, err)
	}
	var lines []int
	for {
		f, line, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
		if len(f) != 5 {
			t.Fatalf("record %q", f)
		}
	}
	if !reflect.DeepEqual(lines, []int{2, 4}) {
		t.Errorf("lines = %v, want [2 4] (the first record spans lines 2-3)", lines)
	}
	if _, err := Open(strings.NewReader(""), "x.parquet", ""); err == nil || !strings.Contains(err.Error(), "parquet") {
		t.Errorf("unknown format: %v", err)
	}
}

// TestLastBoundaryExhaustive checks lastBoundary against a byte-by-byte
// quote state machine on every string of up to 8 bytes over the four
// bytes that matter (a, quote, comma, newline): 87,381 inputs.
func TestLastBoundaryExhaustive(t *testing.T) {
	alphabet := []byte{'a', '"', ',', '\n'}
	ref := func(b []byte) int {
		inside, best := false, 0
		for i, c := range b {
			switch {
			case c == '"':
				inside = !inside
			case c == '\n' && !inside:
				best = i + 1
			}
		}
		return best
	}
	buf := make([]byte, 0, 8)
	var walk func(n int)
	walk = func(n int) {
		want := ref(buf)
		if got := lastBoundary(buf); got != want {
			t.Fatalf("lastBoundary(%q) = %d, want %d", buf, got, want)
		}
		// Read on from any prefix that has no boundary (a long record).
		for from := 1; from <= len(buf); from++ {
			if ref(buf[:from]) != 0 {
				break
			}
			if got := lastBoundaryFrom(buf, from, bytes.Count(buf[:from], []byte{'"'})); got != want {
				t.Fatalf("lastBoundaryFrom(%q, %d) = %d, want %d", buf, from, got, want)
			}
		}
		if n == 8 {
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
