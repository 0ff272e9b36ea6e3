package mc

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/stats"
)

// handCSV holds four questions whose figures are worked out by hand in
// TestEvaluateByHand.
const handCSV = `id,language,subject,choice,choice_text,loglik,tokens,gold
q1,hindi,physics,A,ab,-1.0,4,A
q1,hindi,physics,B,abcd,-2.0,1,A
q1,hindi,physics,C,a,-3.0,1,A
q2,hindi,history,A,abcdefgh,-4.0,1,A
q2,hindi,history,B,a,-1.5,1,A
q2,hindi,history,C,abcd,-2.0,1,A
q3,bengali,physics,ক,x,-2,1,খ
q3,bengali,physics,খ,y,-1,1,খ
q3,bengali,physics,গ,z,-1,1,খ
q3,bengali,physics,ঘ,w,-5,1,খ
q4,bengali,history,ক,xx,-1,1,ঘ
q4,bengali,history,খ,yy,-2,1,ঘ
q4,bengali,history,গ,zz,-3,1,ঘ
q4,bengali,history,ঘ,ww,-2.5,10,ঘ
`

// TestEvaluateByHand. Per question (rank ties go to the option listed first):
//
//	q1 gold A: ll −1 −2 −3 → rank 1. Per char −0.5 −0.5 −3: A ties B, listed first → pass.
//	   Per token −0.25 −2 −3 → pass.
//	q2 gold A: ll −4 −1.5 −2 → rank 3 (rr 1/3). Per char −0.5 −1.5 −0.5 → A first → pass.
//	   Per token = ll → fail.
//	q3 gold খ: ll −2 −1 −1 −5 → খ ties গ, listed first → rank 1. All one character,
//	   one token → pass, pass.
//	q4 gold ঘ: ll −1 −2 −3 −2.5 → rank 3 (rr 1/3). Per char (all 2) → fail.
//	   Per token −1 −2 −3 −0.25 → pass.
//
// Overall: acc 2/4, acc_norm 3/4, acc_norm_token 3/4, MRR (1 + 1/3 + 1 + 1/3)/4 = 2/3,
// recall@2 2/4, recall@3 4/4. Hindi: acc 1/2, char 2/2, MRR 2/3. Bengali: acc 1/2, char 1/2.
func TestEvaluateByHand(t *testing.T) {
	f, err := Read(strings.NewReader(handCSV), "hand.csv", Columns{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Mode != "loglik" || len(f.Questions) != 4 || f.LanguageSource != "column" {
		t.Fatalf("mode %q, %d questions, language from %q", f.Mode, len(f.Questions), f.LanguageSource)
	}
	r, err := Evaluate(f.Questions, f.Mode, Options{K: []int{2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{Acc, AccNormChar, AccNormToken, MRR, "recall@2", "recall@3"}
	if fmt.Sprint(r.Metrics) != fmt.Sprint(want) {
		t.Fatalf("metrics %v, want %v", r.Metrics, want)
	}
	check := func(g Group, m string, v float64) {
		t.Helper()
		if got := g.Metrics[m].Value; math.Abs(got-v) > 1e-12 {
			t.Errorf("%s %q %s = %v, want %v", g.By, g.Group, m, got, v)
		}
	}
	o := r.Overall
	check(o, Acc, 0.5)
	check(o, AccNormChar, 0.75)
	check(o, AccNormToken, 0.75)
	check(o, MRR, 2.0/3)
	check(o, "recall@2", 0.5)
	check(o, "recall@3", 1)
	if len(r.Languages) != 2 || r.Languages[0].Group != "bengali" || r.Languages[1].Group != "hindi" {
		t.Fatalf("languages %+v", r.Languages)
	}
	check(r.Languages[0], Acc, 0.5)
	check(r.Languages[0], AccNormChar, 0.5)
	check(r.Languages[1], Acc, 0.5)
	check(r.Languages[1], AccNormChar, 1)
	check(r.Languages[1], MRR, 2.0/3)
	if len(r.Subjects) != 2 || r.Subjects[0].Group != "history" {
		t.Fatalf("subjects %+v", r.Subjects)
	}
	check(r.Subjects[0], Acc, 0) // q2 and q4 both fail
	check(r.Subjects[1], Acc, 1) // q1 and q3 both pass
	// Wilson 95% for 2 of 4 by the formula (z = 1.959964): centre
	// (0.5 + z²/8)/(1 + z²/4) = 0.5, half-width z/(1 + z²/4)·√(0.25/4 + z²/64)
	// = 0.349962, so [0.150038, 0.849962] (R: prop.test(2, 4, correct = FALSE)).
	acc := o.Metrics[Acc]
	if math.Abs(acc.CILow-0.150038) > 1e-5 || math.Abs(acc.CIHigh-0.849962) > 1e-5 || acc.Method != "wilson" {
		t.Errorf("acc interval %+v", acc)
	}
	if m := o.Metrics[MRR]; m.Method != "bootstrap" || !(m.CILow <= m.Value && m.Value <= m.CIHigh) {
		t.Errorf("MRR interval %+v", m)
	}
	codes := map[string]int{}
	for _, w := range r.Warnings {
		codes[w.Code]++
	}
	// Five groups of fewer than 30 questions (all, 2 languages, 2 subjects);
	// the MRR bootstrap over 2 or 4 values warns (stats' code), in two
	// messages (2 values in four groups, 4 values overall), and two
	// groups' MRR values are all equal (a single-point interval).
	if codes["small_group"] != 5 || codes[stats.CodeFewResampled] != 2 || codes[stats.CodePointInterval] != 1 {
		t.Errorf("warnings %+v", r.Warnings)
	}
}

// recall@1 is acc by construction: the same ranks, ties to the first.
func TestRecallAtOneIsAccuracy(t *testing.T) {
	f, err := Read(strings.NewReader(handCSV), "hand.csv", Columns{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := Evaluate(f.Questions, f.Mode, Options{K: []int{1}})
	if r.Overall.Metrics["recall@1"] != r.Overall.Metrics[Acc] {
		t.Errorf("recall@1 %+v, acc %+v", r.Overall.Metrics["recall@1"], r.Overall.Metrics[Acc])
	}
}

func TestLettersMode(t *testing.T) {
	in := `id,language,subject,prediction,gold
1,hi,science,A,A
2,hi,science,(ख),B
3,hi,science,Answer: C,C
4,bn,science,উত্তর: ঘ,D
5,bn,science,I think it is B,B
6,bn,science,খ,C
`
	f, err := Read(strings.NewReader(in), "letters.csv", Columns{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Evaluate(f.Questions, f.Mode, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Rows 1-4 are right (ख is B, ঘ is D), 5 names no option, 6 is wrong: 4/6.
	if fmt.Sprint(r.Metrics) != "[acc]" || math.Abs(r.Overall.Metrics[Acc].Value-4.0/6) > 1e-12 {
		t.Errorf("metrics %v, acc %+v", r.Metrics, r.Overall.Metrics[Acc])
	}
	if r.Languages[0].Group != "bengali" || r.Languages[0].Metrics[Acc].Correct != 1 || r.Languages[1].Metrics[Acc].Correct != 3 {
		t.Errorf("languages %+v", r.Languages)
	}
	found := false
	for _, w := range r.Warnings {
		if w.Code == "unparsed_prediction" && w.Count == 1 && fmt.Sprint(w.Lines) == "[6]" {
			found = true
		}
	}
	if !found {
		t.Errorf("no unparsed_prediction warning for line 6: %+v", r.Warnings)
	}
}

func TestJSONLAndFileNameLanguage(t *testing.T) {
	in := `{"id": "q1", "choice": "A", "loglik": -0.5, "choice_text": "yes", "gold": "A"}

{"id": "q1", "choice": "B", "loglik": -1.25, "choice_text": "no", "gold": "A"}
`
	f, err := Read(strings.NewReader(in), "runs/kestrel-7b_tamil.jsonl", Columns{})
	if err != nil {
		t.Fatal(err)
	}
	q := f.Questions[0]
	if f.LanguageSource != "file name" || q.Language != "tamil" || len(q.Choices) != 2 || q.Choices[1].LogLik != -1.25 {
		t.Errorf("%+v %+v", f, q)
	}
}

func TestReadErrors(t *testing.T) {
	hdr := "id,choice,loglik,gold\n"
	cases := []struct {
		name, file, in, want string
	}{
		{"no mode column", "x.csv", "id,gold\n1,A\n", "x.csv:1: neither a \"loglik\" column"},
		{"missing gold", "x.csv", "id,choice,loglik\n1,A,-1\n", "x.csv:1: log-likelihood file has no \"gold\" column"},
		{"bad loglik", "x.csv", hdr + "1,A,abc,A\n", "x.csv:2:5: log-likelihood \"abc\" is not a number"},
		{"nan loglik", "x.csv", hdr + "1,A,NaN,A\n", "x.csv:2:5: log-likelihood \"NaN\""},
		{"bad label", "x.csv", hdr + "1,maybe,-1,A\n", "x.csv:2:3: option label \"maybe\" names no option"},
		{"gold differs", "x.csv", hdr + "1,A,-1,A\n1,B,-2,B\n", "x.csv:3:8: question \"1\": gold label \"B\" differs from A on line 2"},
		{"duplicate option", "x.csv", hdr + "1,A,-1,A\n1,a,-2,A\n", "x.csv:3:3: question \"1\": option \"a\" appears twice"},
		{"one option", "x.csv", hdr + "1,A,-1,A\n", "x.csv:2: question \"1\" has 1 option(s)"},
		{"gold absent", "x.csv", hdr + "1,A,-1,C\n1,B,-2,C\n", "x.csv:2: question \"1\": the gold option C is not among its options"},
		{"empty id", "x.csv", hdr + ",A,-1,A\n", "x.csv:2:1: empty question id"},
		{"bad tokens", "x.csv", "id,choice,loglik,gold,tokens\n1,A,-1,A,0\n", "x.csv:2:10: token count \"0\" is not a positive whole number"},
		{"duplicate letter question", "x.csv", "id,prediction,gold\n1,A,A\n1,B,A\n", "x.csv:3:1: question \"1\" (language \"\") appears twice; first on line 2"},
		{"csv quote", "x.csv", hdr + "1,\"A,-1,A\n", "x.csv:2:"},
		{"bad json", "x.jsonl", "{\"id\": 1, \"prediction\": \"A\", \"gold\": \"A\"}\nnot json\n", "x.jsonl:2:2: not JSON: invalid character 'o'"},
		{"empty", "x.csv", "", "x.csv: the file is empty"},
		{"header only", "x.csv", hdr, "x.csv: no rows after the header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), c.file, Columns{})
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want a ParseError containing %q", err, c.want)
			}
		})
	}
}

func TestEvaluateOptions(t *testing.T) {
	q := []Question{{ID: "1", Gold: 0, Choices: []Choice{{Index: 0, LogLik: -1}, {Index: 1, LogLik: -2}}}}
	if _, err := Evaluate(q, "loglik", Options{K: []int{0}}); err == nil {
		t.Error("k = 0 accepted")
	}
	if _, err := Evaluate(q, "loglik", Options{Confidence: 1.5}); err == nil {
		t.Error("confidence 1.5 accepted")
	}
	if _, err := Evaluate(nil, "loglik", Options{}); err == nil {
		t.Error("no questions accepted")
	}
	r, err := Evaluate(q, "loglik", Options{})
	if err != nil || r.Overall.Metrics[Acc].Value != 1 || len(r.Languages) != 0 {
		t.Errorf("%+v %v", r, err)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || w.Code == "no_tokens"
	}
	if !found || contains(r.Metrics, AccNormToken) {
		t.Errorf("without token counts: metrics %v, warnings %+v", r.Metrics, r.Warnings)
	}
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// FuzzRead: no input makes the reader panic, what it accepts is valid
// UTF-8 and can be evaluated with every proportion in [0, 1].
func FuzzRead(f *testing.F) {
	f.Add(handCSV, "x.csv")
	f.Add("id,prediction,gold\n1,ক,A\n", "x.csv")
	f.Add("{\"id\": \"a\", \"choice\": \"A\", \"loglik\": -1, \"gold\": \"B\"}\n", "x.jsonl")
	f.Add("{\"id\": \"a\xff\", \"prediction\": \"A\", \"gold\": \"B\"}\n", "x.jsonl")
	f.Fuzz(func(t *testing.T, in, name string) {
		file, err := Read(strings.NewReader(in), name, Columns{})
		if err != nil {
			return
		}
		for _, q := range file.Questions {
			for _, c := range q.Choices {
				if !utf8.ValidString(c.Label + c.Text) {
					t.Fatalf("accepted invalid UTF-8 in option %q of question %q", c.Label, q.ID)
				}
			}
			if !utf8.ValidString(q.ID + q.Language + q.Subject) {
				t.Fatalf("accepted invalid UTF-8 in question %q", q.ID)
			}
		}
		r, err := Evaluate(file.Questions, file.Mode, Options{Resamples: 50})
		if err != nil {
			t.Fatalf("read %d questions but Evaluate failed: %v", len(file.Questions), err)
		}
		for m, v := range r.Overall.Metrics {
			if !(v.Value >= 0 && v.Value <= 1 && v.CILow <= v.CIHigh) {
				t.Fatalf("%s = %+v", m, v)
			}
		}
	})
}

func ExampleEvaluate() {
	f, err := Read(strings.NewReader(handCSV), "hand.csv", Columns{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := Evaluate(f.Questions, f.Mode, Options{})
	for _, m := range r.Metrics {
		fmt.Printf("%-15s %.3f\n", m, r.Overall.Metrics[m].Value)
	}
	// Output:
	// acc             0.500
	// acc_norm        0.750
	// acc_norm_token  0.750
	// mrr             0.667
	// recall@2        0.500
}

// TestReadInvalidUTF8: a stray byte is refused with the file, line,
// column and field. The columns are those of the bad byte itself, in
// characters, counted by hand: in "1,A,-1,A\xff" the gold field starts
// at column 8 of line 2 and its bad byte, its 2nd character, is at 9; in
// the header "id,cho\xffice" 6 characters come first, so column 7; on
// line 3 of the quoted field "tw\xffo" it is at 3; in the JSON line the
// bad byte follows `{"id": "q1", "gold": "A` (23 characters), so it is
// character 24.
func TestReadInvalidUTF8(t *testing.T) {
	hdr := "id,choice,loglik,gold\n"
	cases := []struct {
		name, file, in, want string
	}{
		{"csv gold", "x.csv", hdr + "1,A,-1,A\xff\n", "x.csv:2:9 (column \"gold\"): invalid UTF-8: first bad byte 0xFF at character 2 of the field"},
		{"csv id", "x.csv", hdr + "\xfe1,A,-1,A\n", "x.csv:2:1 (column \"id\"): invalid UTF-8: first bad byte 0xFE at character 1 of the field"},
		{"csv header", "x.csv", "id,cho\xffice,loglik,gold\n1,A,-1,A\n", "x.csv:1:7: header: invalid UTF-8: first bad byte 0xFF at character 4"},
		{"csv second line of a quoted field", "x.csv", "id,choice,choice_text,loglik,gold\n1,A,\"one\ntw\xffo\",-1,A\n", "x.csv:3:3 (column \"choice_text\"): invalid UTF-8: first bad byte 0xFF at character 7"},
		{"letters prediction", "x.csv", "id,prediction,gold\n1,\xe0\xa6,A\n", "x.csv:2:3 (column \"prediction\"): invalid UTF-8: first bad byte 0xE0"},
		{"jsonl value", "x.jsonl", "{\"id\": \"q1\", \"gold\": \"A\xff\", \"prediction\": \"A\"}\n", "x.jsonl:1:24 (column \"gold\"): invalid UTF-8: first bad byte 0xFF"},
		{"jsonl nested", "x.jsonl", "{\"id\": \"q1\", \"gold\": \"A\", \"prediction\": \"A\"}\n{\"meta\": {\"k\": [\"\xff\"]}, \"id\": \"q2\", \"gold\": \"A\", \"prediction\": \"A\"}\n", "x.jsonl:2:18 (column \"meta\"): invalid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), c.file, Columns{})
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || !errors.Is(err, ErrInvalidUTF8) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want ErrInvalidUTF8 in a ParseError containing %q", err, c.want)
			}
		})
	}
}

// TestEvaluateSuspectData: suspect values are scored as written and
// warned about with their lines, and a repeated k counts once.
func TestEvaluateSuspectData(t *testing.T) {
	warning := func(t *testing.T, in, name string, opt Options, code string) (*Report, string) {
		t.Helper()
		f, err := Read(strings.NewReader(in), name, Columns{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Evaluate(f.Questions, f.Mode, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range r.Warnings {
			if w.Code == code {
				return r, fmt.Sprintf("%d %v %s", w.Count, w.Lines, w.Message)
			}
		}
		return r, ""
	}
	t.Run("positive log-likelihood", func(t *testing.T) {
		in := "id,choice,loglik,gold\nq1,A,5.0,A\nq1,B,-1,A\nq2,A,-2,B\nq2,B,0.5,B\n"
		_, got := warning(t, in, "x.csv", Options{}, "positive_loglik")
		if !strings.HasPrefix(got, "2 [2 5] 2 options have a positive log-likelihood") {
			t.Errorf("warning %q", got)
		}
		_, got = warning(t, "id,choice,loglik,gold\nq1,A,0,A\nq1,B,-1,A\n", "x.csv", Options{}, "positive_loglik")
		if got != "" {
			t.Errorf("a log-likelihood of 0 (probability 1) warned: %q", got)
		}
	})
	t.Run("gold past J", func(t *testing.T) {
		in := "id,prediction,gold\n1,A,A\n2,J,J\n3,B,Q\n4,K,K\n"
		r, got := warning(t, in, "x.csv", Options{}, "unlikely_gold")
		if !strings.HasPrefix(got, "2 [4 5] 2 gold labels name an option past J") {
			t.Errorf("warning %q", got)
		}
		// Scored as written: A, J and K are right, Q is wrong.
		if c := r.Overall.Metrics[Acc].Correct; c != 3 {
			t.Errorf("acc correct %v, want 3", c)
		}
	})
	t.Run("one unparsed prediction", func(t *testing.T) {
		_, got := warning(t, "id,prediction,gold\n1,no idea,A\n", "x.csv", Options{}, "unparsed_prediction")
		if got != "1 [2] 1 prediction names no option (it is not a Latin letter, a digit or an option letter of an Indic script such as क or ক); it counts as wrong" {
			t.Errorf("warning %q", got)
		}
	})
	t.Run("repeated k", func(t *testing.T) {
		r, _ := warning(t, handCSV, "hand.csv", Options{K: []int{2, 3, 2}}, "")
		if got := fmt.Sprint(r.Metrics, r.Settings.K); got != "[acc acc_norm acc_norm_token mrr recall@2 recall@3] [2 3]" {
			t.Errorf("metrics and k: %s", got)
		}
	})
}
