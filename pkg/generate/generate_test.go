package generate

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Every dataset error is a *tabular.ParseError that errors.As finds,
// with its line, character column and field. Columns are counted by
// hand, one character at a time, as the comments show.
func TestReadQuestionsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		line, col        int
		field, msg       string
		is               error
	}{
		{"empty csv", "d.csv", "", 0, 0, "",
			"d.csv: the file is empty: want a header row naming a question column (and optionally id, answer, Domain, language)", tabular.ErrEmptyFile},
		{"empty jsonl", "d.jsonl", "\n\n", 0, 0, "",
			`d.jsonl: the file is empty: want one JSON object per line with a "question" field`, tabular.ErrEmptyFile},
		{"header only", "d.csv", "id,question\n", 0, 0, "", "d.csv: no questions: the file has a header but no rows", nil},
		{"no question column", "d.csv", "id,prompt\n1,hello\n", 1, 0, "question", `d.csv:1: no "question" column (the header has id, prompt)`, nil},
		// q1 (1-2) , (3) नई दिल्ली (न ई, a space, द ि ल ् ल ी: 4-12) , (13):
		// the empty question starts at character 14 (byte 30).
		{"empty question after Hindi", "d.csv", "id,answer,question\nq1,नई दिल्ली,\n", 2, 14, "question",
			`d.csv:2:14 (column "question"): empty question`, nil},
		// क (1) , (2) ख (3) the bad byte (4), the 2nd character of the field.
		{"invalid UTF-8", "d.csv", "id,question\nक,ख\xffग\n", 2, 4, "question",
			`d.csv:2:4 (column "question"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8`, tabular.ErrInvalidUTF8},
		{"a line without the question", "d.jsonl", "{\"id\": \"1\", \"question\": \"q\"}\n{\"id\": \"2\"}\n", 2, 0, "question",
			`d.jsonl:2: no "question" field`, nil},
		// The first object has no question, so the header has none; a
		// blank line 1 makes it line 2.
		{"a first line without the question", "d.jsonl", "\n{\"prompt\": \"p\"}\n{\"question\": \"q\"}\n", 2, 0, "question",
			`d.jsonl:2: no "question" field`, nil},
		// { (1) " (2) उत्तर (उ त ् त र: 3-7) " (8) : (9) space (10) "नई" (11-14)
		// , (15) space (16) "question" (17-26) : (27) space (28): the value
		// starts at character 29.
		{"empty question in JSON after Hindi", "d.jsonl", "{\"उत्तर\": \"नई\", \"question\": \" \"}\n", 1, 29, "question",
			`d.jsonl:1:29 (column "question"): empty question`, nil},
		{"unknown format", "q.parquet", "PAR1", 0, 0, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQuestions(strings.NewReader(tc.data), tc.file, "")
			var pe *tabular.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v (%T), want a *tabular.ParseError", err, err)
			}
			if tc.msg == "" { // the unknown format: qa's wording, and what generate reads
				if !strings.HasPrefix(err.Error(), `q.parquet: unknown input format "parquet"`) || !strings.HasSuffix(err.Error(), "; generate reads .csv, .jsonl and .xlsx files") {
					t.Errorf("err %q", err)
				}
				return
			}
			if pe.Line != tc.line || pe.Column != tc.col || pe.Field != tc.field || err.Error() != tc.msg || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err %q at %d:%d field %q\nwant %q at %d:%d field %q (%v)", err, pe.Line, pe.Column, pe.Field, tc.msg, tc.line, tc.col, tc.field, tc.is)
			}
		})
	}
}

// Fields are copied, a JSON value is its text as written, and each
// question's language is settled in order: fixed, column, file name,
// script.
func TestReadQuestions(t *testing.T) {
	data := "{\"id\": 1.50, \"question\": \"ভারতের রাজধানী কী?\", \"answer\": 2e3, \"Domain\": null}\n" +
		"{\"id\": \"b\", \"question\": \"q\", \"language\": \"hi\", \"extra\": {\"z\": 1, \"a\": [1, 2]}}\n" +
		"{\"id\": \"c\", \"question\": \"q\", \"language\": \"XX\"}\n"
	qs, err := ReadQuestions(strings.NewReader(data), "qs.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, q := range qs {
		got = append(got, strings.Join([]string{q.ID, q.Answer, q.Domain, q.Language}, "|"))
	}
	// 1.50 and 2e3 as written (encoding/json would give 1.5 and 2000);
	// null is ""; "hi" is Hindi; XX is kept lower-cased; no language
	// column and no <name>_<language> file name: the Bengali script.
	want := []string{"1.50|2e3||bengali", "b|||hindi", "c|||xx"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || qs[2].Line != 3 {
		t.Errorf("got\n%s\nwant\n%s (line %d)", strings.Join(got, "\n"), strings.Join(want, "\n"), qs[2].Line)
	}
	// The file name's language, and a fixed language over everything.
	qs, _ = ReadQuestions(strings.NewReader("question,language\nq,\nr,hi\n"), "m_english.csv", "")
	fixed, _ := ReadQuestions(strings.NewReader("question,language\nq,\nr,hi\n"), "m_english.csv", "tamil")
	if qs[0].Language != "english" || qs[1].Language != "hindi" || fixed[0].Language != "tamil" || fixed[1].Language != "tamil" {
		t.Errorf("%+v %+v", qs, fixed)
	}
}

func testTemplates() *Templates {
	return &Templates{Version: "t1", Templates: map[string]Template{
		"default": {System: "Answer briefly.", User: "Question: {question}"},
		"hindi":   {System: "संक्षेप में उत्तर दें।", User: "प्रश्न: {question}"},
	}}
}

func testClient(t *testing.T, s *llmtest.Server, cache *llm.Cache) *llm.Client {
	t.Helper()
	c, err := llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "kestrel-7b", Retries: -1, Concurrency: 1, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Run asks every question with its language's template, keeps dataset
// order, counts the requests, and a rerun through the same cache asks
// only for what failed.
func TestRun(t *testing.T) {
	s := llmtest.New(t, "500") // the first request fails
	s.Answer = func(user string) string { return "  [" + user + "]\n" }
	qs, err := ReadQuestions(strings.NewReader("id,question,language\nq1,भारत की राजधानी?,hi\n,Capital of Tamil Nadu?,ta\n"), "qs.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	cache := llm.NewMemoryCache()
	opt := Options{Model: "kestrel-7b", Templates: testTemplates(), Workers: 1}
	res, err := Run(context.Background(), testClient(t, s, cache), qs, opt)
	if err != nil {
		t.Fatal(err)
	}
	// One worker: q1 goes first and meets the 500.
	if res.Questions != 2 || res.Received != 1 || res.Failed != 1 || res.Requests != 2 || res.CacheHits != 0 || res.Cache != "memory" ||
		len(res.Failures) != 1 || res.Failures[0].Line != 2 || res.Failures[0].ID != "q1" || !errors.Is(res.Failures[0].Err, llm.ErrServer) {
		t.Fatalf("%+v", res)
	}
	if !strings.HasPrefix(res.FailureSummary(), "1 of 2 questions failed (first: line 2: ") {
		t.Errorf("summary %q", res.FailureSummary())
	}
	// A failed question is a row with its error cell, not a lost row.
	var failed bytes.Buffer
	if err := res.WriteCSV(&failed); err != nil {
		t.Errorf("WriteCSV of a run with a failure: %v", err)
	}
	wantFailed := "id,question,answer,Domain,language,model,response,error\n" +
		"q1,भारत की राजधानी?,,,hi,kestrel-7b,,\"HTTP 500 after 1 attempt: server error (HTTP 5xx): HTTP 500: {\"\"error\"\": {\"\"message\"\": \"\"overloaded\"\"}}\"\n" +
		"2,Capital of Tamil Nadu?,,,ta,kestrel-7b,[Question: Capital of Tamil Nadu?],\n"
	if failed.String() != wantFailed {
		t.Errorf("response table\n%s\nwant\n%s", failed.String(), wantFailed)
	}
	if res.Failures[0].Kind != "server_error" || res.FailedKinds["server_error"] != 1 {
		t.Errorf("failure kinds %+v %v", res.Failures, res.FailedKinds)
	}
	// Tamil has no template: one warning, at line 3.
	if len(res.Warnings) != 1 || res.Warnings[0].Code != CodeDefaultTemplate || res.Warnings[0].Count != 1 || len(res.Warnings[0].Lines) != 1 || res.Warnings[0].Lines[0] != 3 {
		t.Errorf("warnings %+v", res.Warnings)
	}

	res, err = Run(context.Background(), testClient(t, s, cache), qs, opt)
	if err != nil || res.Failed != 0 || res.Requests != 1 || res.CacheHits != 1 {
		t.Fatalf("rerun: %v %+v", err, res)
	}
	var b bytes.Buffer
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	// The Hindi question got the Hindi template and the Tamil one the
	// default; the response is trimmed; the row without an id is 2.
	want := "id,question,answer,Domain,language,model,response\n" +
		"q1,भारत की राजधानी?,,,hi,kestrel-7b,[प्रश्न: भारत की राजधानी?]\n" +
		"2,Capital of Tamil Nadu?,,,ta,kestrel-7b,[Question: Capital of Tamil Nadu?]\n"
	if b.String() != want {
		t.Errorf("response table\n%s\nwant\n%s", b.String(), want)
	}
	if sys := s.Bodies()[0]["messages"].([]any)[0].(map[string]any)["content"]; sys != "संक्षेप में उत्तर दें।" {
		t.Errorf("system message %q", sys)
	}
	var text bytes.Buffer
	res.Out = "runs/kestrel-7b_mixed.csv"
	res.WriteText(&text)
	if text.String() != "wrote 2 responses from kestrel-7b to runs/kestrel-7b_mixed.csv\n" || res.Counts() != "1 requests sent (0 retries), 1 replies from the cache (memory)" {
		t.Errorf("text %q, counts %q", text.String(), res.Counts())
	}
	if tb := res.Tables(); len(tb) != 1 || len(tb[0].Rows) != 6 || tb[0].Check() != nil {
		t.Errorf("tables %+v", tb)
	}
}

// A run whose context ends stops, reports it, and writes nothing.
func TestRunInterrupted(t *testing.T) {
	s := llmtest.New(t)
	qs := []Question{{Line: 2, Text: "a"}, {Line: 3, Text: "b"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, testClient(t, s, nil), qs, Options{Model: "m", Templates: testTemplates()})
	if !errors.Is(err, context.Canceled) || res == nil || !res.Interrupted || res.Received != 0 || res.WriteCSV(&bytes.Buffer{}) != ErrIncomplete {
		t.Errorf("err %v, result %+v", err, res)
	}
}

// Several questions without a template are counted in one warning
// listing the first five lines.
func TestTemplateWarnings(t *testing.T) {
	var qs []Question
	for i := range 7 {
		qs = append(qs, Question{Line: i + 2, Language: "xx"})
	}
	w := TemplateWarnings(qs, testTemplates())
	if len(w) != 1 || w[0].Count != 7 || len(w[0].Lines) != 5 || w[0].Lines[4] != 6 ||
		w[0].Message != `7 questions have no template for their language; they get the "default" template` {
		t.Errorf("%+v", w)
	}
	if TemplateWarnings(qs[:0], testTemplates()) != nil {
		t.Error("a warning without questions")
	}
}

func TestReadTemplates(t *testing.T) {
	tpl, err := ReadTemplates([]byte(`{"version": "1", "templates": {"default": {"system": "s", "user": "{question}"}, "hi": {"system": "s", "user": "प्रश्न: {question}"}}}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tpl.For("hindi"); !ok {
		t.Error(`"hi" was not normalised to hindi`)
	}
	for body, want := range map[string]string{
		`{"version": "1", "templates": {"hindi": {"system": "s", "user": "{question}"}}}`:                                      `p.json: no "default" template`,
		`{"version": "1", "templates": {"default": {"system": "s", "user": "none"}}}`:                                          `p.json: template "default" has no {question} in its user message`,
		`{"version": "1", "templates": {"default": {"system": "s", "user": "{question}"}, "klingon": {"user": "{question}"}}}`: `p.json: template "klingon" is not a language evalbook knows`,
		`{"version": "1", "prompts": {}}`: `p.json: json: unknown field "prompts"`,
	} {
		if _, err := ReadTemplates([]byte(body), "p.json"); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", body, err, want)
		}
	}
}

// The response table keeps the dataset's language codes as written (en,
// hi-IN, Bengali), while templates are still picked by the language they
// name; rows without a language column get the settled name, as before.
func TestResponseTableKeepsLanguageCodes(t *testing.T) {
	qs, err := ReadQuestions(strings.NewReader("id,question,language\na,q1,en\nb,q2, hi-IN \nc,q3,Bengali\nd,নমস্কার,\n"), "qs.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range qs {
		got = append(got, q.Language+"="+q.LanguageOut())
	}
	want := "english=en hindi=hi-IN bengali=Bengali bengali=bengali"
	if strings.Join(got, " ") != want {
		t.Fatalf("template language = written language: %s, want %s", strings.Join(got, " "), want)
	}
	res := &Result{Model: "m", Questions: len(qs)}
	for _, q := range qs {
		res.Rows = append(res.Rows, Row{Question: q, Response: "r"})
	}
	var b strings.Builder
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	wantCSV := "id,question,answer,Domain,language,model,response\n" +
		"a,q1,,,en,m,r\nb,q2,,,hi-IN,m,r\nc,q3,,,Bengali,m,r\nd,নমস্কার,,,bengali,m,r\n"
	if b.String() != wantCSV {
		t.Errorf("response table\n%s\nwant\n%s", b.String(), wantCSV)
	}
}
