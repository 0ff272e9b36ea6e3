package leaderboard

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// writeRows writes a response file whose row i answers question q<i>
// right (the golden answer) when pass(i), else wrong.
func writeRows(t *testing.T, dir, name string, n int, golden func(i int) string, pass func(i int) bool, extra string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response" + extra + "\n")
	for i := 0; i < n; i++ {
		resp := "something else"
		if pass(i) {
			resp = "it is " + golden(i)
		}
		dom := "D1"
		if i%2 == 1 {
			dom = "D2"
		}
		fmt.Fprintf(&b, "q%02d,question %d,%s,%s,%s\n", i, i, golden(i), dom, resp)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func hindiAnswer(i int) string   { return fmt.Sprintf("नदी%d", i) }
func englishAnswer(i int) string { return fmt.Sprintf("river%d", i) }

// The hand figures: in hindi, a passes 10 of 10 and b 2 of 10, so on the
// 10 shared questions a is better on 8 and worse on none; the sign test
// gives p = 2·(1/2)^8 = 0.0078125 < 0.05: a is marked. In english, a
// passes q0-q5 (6) and b q0-q3 and q6 (5): a better on q4 and q5, worse on
// q6; p = min(1, 2·P(X ≤ 1 | m = 3)) = min(1, 2·4/8) = 1: no mark.
func TestBuildByHand(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, "a_hindi.csv", 10, hindiAnswer, func(int) bool { return true }, "")
	writeRows(t, dir, "b_hi.csv", 10, hindiAnswer, func(i int) bool { return i < 2 }, "")
	writeRows(t, dir, "a_english.csv", 10, englishAnswer, func(i int) bool { return i < 6 }, "")
	writeRows(t, dir, "b_english.csv", 10, englishAnswer, func(i int) bool { return i < 4 || i == 6 }, "")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a response file"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	inputs, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 4 || inputs[2].Model != "b" || inputs[2].Language != "english" || inputs[3].Language != "hindi" {
		t.Fatalf("Discover = %+v", inputs)
	}
	b, err := Build(context.Background(), inputs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b.Models) != "[a b]" || fmt.Sprint(b.Languages) != "[english hindi]" || len(b.Cells) != 4 {
		t.Fatalf("models %v, languages %v, %d cells", b.Models, b.Languages, len(b.Cells))
	}
	want := []struct {
		model, lang string
		correct     int
		best        bool
	}{{"a", "english", 6, false}, {"b", "english", 5, false}, {"a", "hindi", 10, true}, {"b", "hindi", 2, false}}
	for i, w := range want {
		c := b.Cells[i]
		lo, hi := stats.Wilson(w.correct, 10, 0.95)
		if c.Model != w.model || c.Language != w.lang || c.N != 10 || c.Value != float64(w.correct)/10 ||
			c.CILow != lo || c.CIHigh != hi || c.Best != w.best {
			t.Errorf("cell %d = %+v, want %s %s %d/10 best=%v", i, c, w.model, w.lang, w.correct, w.best)
		}
	}
	en, hi := b.Leaders[0], b.Leaders[1]
	if en.Best != "a" || en.Shared != 10 || en.Better != 2 || en.Worse != 1 || en.P != 1 || en.Significant {
		t.Errorf("english leader %+v", en)
	}
	if hi.Best != "a" || hi.Better != 8 || hi.Worse != 0 || math.Abs(hi.P-0.0078125) > 1e-12 || !hi.Significant ||
		hi.Test != "sign test (exact McNemar)" {
		t.Errorf("hindi leader %+v", hi)
	}
	// Domains: D1 holds the even questions. a in english passes q0, q2, q4 of D1 = 3/5.
	found := false
	for _, d := range b.Domains {
		if d.Domain == "D1" && d.Model == "a" && d.Language == "english" {
			found = d.N == 5 && d.Value == 0.6
		}
	}
	if !found {
		t.Errorf("domain figures %+v", b.Domains)
	}
	for _, f := range b.Files {
		if f.LanguageSource != "file name" || f.Rows != 10 || len(f.Hash) != 12 {
			t.Errorf("file %+v", f)
		}
	}
}

// A cell from a one-language file has the figures `evalbook score` gives
// the whole file.
func TestCellMatchesQA(t *testing.T) {
	dir := t.TempDir()
	p := writeRows(t, dir, "m_tamil.csv", 37, func(i int) string { return fmt.Sprintf("ஆறு%d", i) }, func(i int) bool { return i%3 != 0 }, "")
	for _, id := range []string{"exact_substring", "squad_f1"} {
		m, _ := score.Lookup(id)
		res, err := qa.ScoreFile(context.Background(), p, qa.Options{Metrics: []*score.Metric{m}, By: [][]string{}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(context.Background(), []Input{{Path: p, Model: "m", Language: "tamil"}}, Options{Metric: id})
		if err != nil {
			t.Fatal(err)
		}
		want, got := res.Combined.Metrics[id], b.Cells[0]
		if math.Abs(got.Value-want.Accuracy) > 1e-12 || math.Abs(got.CILow-want.CILow) > 1e-12 || math.Abs(got.CIHigh-want.CIHigh) > 1e-12 {
			t.Errorf("%s: cell %+v, qa %+v", id, got, want)
		}
	}
}

// One corpus bootstrap (stats.BootstrapStatistic): a chrF cell has the
// interval and the warnings `evalbook score --ci bootstrap` gives the
// same rows with the same seed. Eight rows are fewer than
// stats.MinBootstrapN, so both warn, with the same code and message.
func TestCorpusCellMatchesQA(t *testing.T) {
	dir := t.TempDir()
	p := writeRows(t, dir, "m_hindi.csv", 8, hindiAnswer, func(i int) bool { return i%2 == 0 }, "")
	m, _ := score.Lookup("chrf")
	res, err := qa.ScoreFile(context.Background(), p, qa.Options{Metrics: []*score.Metric{m}, By: [][]string{}, CI: "bootstrap", Resamples: 400, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(context.Background(), []Input{{Path: p, Model: "m", Language: "hindi"}}, Options{Metric: "chrf", Resamples: 400, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	want, got := res.Combined.Metrics["chrf"], b.Cells[0]
	if got.Value != want.Accuracy || got.CILow != want.CILow || got.CIHigh != want.CIHigh || got.CILow == got.CIHigh {
		t.Errorf("cell %+v, qa %+v", got, want)
	}
	var qaw, lbw []results.Warning
	for _, w := range res.Warnings {
		if w.Code == stats.CodeFewResampled {
			qaw = append(qaw, w)
		}
	}
	for _, w := range b.Warnings {
		if w.Code == stats.CodeFewResampled {
			lbw = append(lbw, w)
		}
	}
	const msg = "bootstrap over only 8 rows: the interval is rough and too narrow"
	if len(qaw) != 1 || qaw[0].Message != "chrf: "+msg || len(lbw) != 1 || lbw[0].Message != msg+" (1 cell)" {
		t.Errorf("warnings: score %+v, leaderboard %+v, want %q for both", qaw, lbw, msg)
	}
}

// A corpus-level metric's cell is the corpus value over its rows.
func TestCorpusCell(t *testing.T) {
	dir := t.TempDir()
	p := writeRows(t, dir, "m_hindi.csv", 12, hindiAnswer, func(i int) bool { return i%2 == 0 }, "")
	b, err := Build(context.Background(), []Input{{Path: p, Model: "m", Language: "hindi"}}, Options{Metric: "chrf", Resamples: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var hyps, refs []string
	for i := 0; i < 12; i++ {
		refs = append(refs, hindiAnswer(i))
		if i%2 == 0 {
			hyps = append(hyps, "it is "+hindiAnswer(i))
		} else {
			hyps = append(hyps, "something else")
		}
	}
	c := b.Cells[0]
	if want := score.CorpusCHRF(hyps, [][]string{refs}, score.CHRFOptions{}); math.Abs(c.Value-want) > 1e-12 {
		t.Errorf("cell %v, CorpusCHRF %v", c.Value, want)
	}
	if b.Level != "corpus" || !(c.CILow <= c.Value && c.Value <= c.CIHigh) || c.CILow == c.CIHigh {
		t.Errorf("level %s, cell %+v", b.Level, c)
	}
	// The same seed gives the same interval.
	b2, _ := Build(context.Background(), []Input{{Path: p, Model: "m", Language: "hindi"}}, Options{Metric: "chrf", Resamples: 300, Seed: 3})
	if b2.Cells[0] != c {
		t.Errorf("not reproducible: %+v vs %+v", b2.Cells[0], c)
	}
}

// Without a language in the file name, the language column is used;
// without that, the script of the golden answer, with a warning.
func TestLanguageSources(t *testing.T) {
	dir := t.TempDir()
	col := "id,question,answer,Domain,response,language\nq1,x,गंगा,D,गंगा,hi\nq2,y,Ganga,D,Ganga,English\n"
	os.WriteFile(filepath.Join(dir, "withcol.csv"), []byte(col), 0o644)
	script := "id,question,answer,Domain,response\nq1,x,গঙ্গা,D,গঙ্গা\nq2,y,Ganga,D,no\nq3,z,1947,D,1947\nq4,w,கங்கை,D,கங்கை\n"
	os.WriteFile(filepath.Join(dir, "noname.csv"), []byte(script), 0o644)
	inputs, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(context.Background(), inputs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Files[0].LanguageSource != "script" || fmt.Sprint(b.Files[0].Languages) != "[bengali english tamil unknown]" ||
		b.Files[1].LanguageSource != "column" || fmt.Sprint(b.Files[1].Languages) != "[english hindi]" {
		t.Errorf("files %+v", b.Files)
	}
	codes := map[string]int{}
	for _, w := range b.Warnings {
		codes[w.Code] = w.Count
	}
	// Bengali script and Latin are ambiguous guesses (2 rows); Tamil is not; "1947" has no script.
	if codes["language_guessed"] != 2 || codes["language_unknown"] != 1 {
		t.Errorf("warnings %+v", b.Warnings)
	}
}

func TestPairsByQuestionTextAndDuplicates(t *testing.T) {
	dir := t.TempDir()
	a := "question,answer,Domain,response\nq one,x,D,x\nq two,y,D,y\nq two,y,D,no\n"
	c := "question,answer,Domain,response\nq two,y,D,no\nq one,x,D,no\nq three,z,D,z\n"
	os.WriteFile(filepath.Join(dir, "a_english.csv"), []byte(a), 0o644)
	os.WriteFile(filepath.Join(dir, "c_english.csv"), []byte(c), 0o644)
	inputs, _ := Discover(dir)
	b, err := Build(context.Background(), inputs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Shared questions: "q one" and "q two" (a's first "q two" row counts): a better on both.
	ld := b.Leaders[0]
	if ld.Shared != 2 || ld.Better != 2 || ld.Worse != 0 || ld.P != 0.5 || ld.Significant {
		t.Errorf("leader %+v", ld)
	}
	found := false
	for _, w := range b.Warnings {
		found = found || w.Code == "duplicate_question" && w.Count == 1
	}
	if !found {
		t.Errorf("no duplicate_question warning: %+v", b.Warnings)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Discover(dir); err == nil {
		t.Error("an empty directory was accepted")
	}
	if _, err := Discover(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory was accepted")
	}
	p := filepath.Join(dir, "m_hindi.csv")
	os.WriteFile(p, []byte("question,answer\nq,a\n"), 0o644)
	if _, err := Build(context.Background(), []Input{{Path: p, Model: "m", Language: "hindi"}}, Options{}); err == nil ||
		!strings.Contains(err.Error(), "m_hindi.csv") {
		t.Errorf("missing columns: %v", err)
	}
	if _, err := Build(context.Background(), []Input{{Path: p}}, Options{Metric: "nope"}); err == nil {
		t.Error("unknown metric accepted")
	}
	if _, err := Build(context.Background(), nil, Options{}); err == nil {
		t.Error("no inputs accepted")
	}
	if _, err := Build(context.Background(), []Input{{Path: p}}, Options{Alpha: 2}); err == nil {
		t.Error("alpha 2 accepted")
	}
}

func TestTablesAndText(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, "a_hindi.csv", 10, hindiAnswer, func(int) bool { return true }, "")
	writeRows(t, dir, "b_hindi.csv", 10, hindiAnswer, func(i int) bool { return i < 2 }, "")
	inputs, _ := Discover(dir)
	b, err := Build(context.Background(), inputs, Options{Profile: textnorm.Indic})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range b.Tables() {
		if err := tb.Check(); err != nil || len(tb.Rows) == 0 {
			t.Errorf("table %q: %v, %d rows", tb.Title, err, len(tb.Rows))
		}
	}
	// a beats b on 8 of the 10 shared questions and loses none: the
	// exact sign test gives p = 2·0.5⁸ ≈ 0.008, significant, shown as a
	// person reads it ("yes", not Go's "true").
	leaders := b.Tables()[1]
	if last := len(leaders.Columns) - 1; leaders.Title != "Leaders" || leaders.Columns[last].Name != "significant" || leaders.Cell(0, last) != "yes" {
		t.Errorf("leaders table %q: %v %v", leaders.Title, leaders.Columns, leaders.Rows)
	}
	var s strings.Builder
	if err := b.WriteText(&s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"normalisation indic", "1.000 [0.722, 1.000] *", "0.200 [0.057, 0.510]", "significant"} {
		if !strings.Contains(s.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, s.String())
		}
	}
}

// Options.Advice closes the no_interval warning by code, and Input.Name
// is how the board names the file.
func TestAdviceAndName(t *testing.T) {
	dir := t.TempDir()
	p := writeRows(t, dir, "m_hindi.csv", 3, hindiAnswer, func(i int) bool { return true }, "")
	in := []Input{{Path: p, Model: "m", Language: "hindi", Name: "data/m_hindi.csv"}}
	for _, c := range []struct {
		advice map[string]string
		want   string
	}{
		{nil, "chrf is corpus-level (its value is not a mean of rows), so cells have no interval; a bootstrap over rows gives one (Options.Resamples)"},
		{map[string]string{qa.CodeNoInterval: "pass -n"}, "chrf is corpus-level (its value is not a mean of rows), so cells have no interval; pass -n"},
	} {
		b, err := Build(context.Background(), in, Options{Metric: "chrf", Advice: c.advice})
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Warnings) == 0 || b.Warnings[0].Code != qa.CodeNoInterval || b.Warnings[0].Message != c.want {
			t.Errorf("advice %v: warnings %+v, want first %q", c.advice, b.Warnings, c.want)
		}
		if b.Files[0].Path != "data/m_hindi.csv" {
			t.Errorf("file named %q, want data/m_hindi.csv", b.Files[0].Path)
		}
	}
}

// The duplicate-question warnings of a file with a model column come in
// the order of the models' names, whatever order the map holding them
// gives (six models: a random order is the sorted one once in 720).
func TestDuplicateWarningsSorted(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response,model,language\n")
	models := []string{"f-model", "c-model", "a-model", "e-model", "b-model", "d-model"}
	for _, m := range models {
		for _, id := range []string{"1", "2", "2"} { // question 2 twice
			fmt.Fprintf(&b, "%s,q%s,x,D,x,%s,en\n", id, id, m)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "all.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		bd, err := Build(context.Background(), inputs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := warningMessages(bd, CodeDuplicateQuestion)
		if len(got) != len(models) || !slices.IsSorted(got) {
			t.Fatalf("duplicate warnings not in the models' order:\n%s", strings.Join(got, "\n"))
		}
	}
}
