package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/report/internal/cli"
	"github.com/xuri/excelize/v2"
)

// genStub is a chat-completions server that answers each question with
// its first word in brackets, fails with 500 on questions containing
// FAIL while fail is set, and records what it was sent.
type genStub struct {
	*httptest.Server
	mu      sync.Mutex
	systems []string
	users   []string
	auth    []string
	fail    bool
}

func newGenStub(t *testing.T) *genStub {
	s := &genStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model       string  `json:"model"`
			Temperature float64 `json:"temperature"`
			Messages    []struct{ Role, Content string }
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&body) != nil || len(body.Messages) != 2 ||
			body.Model != "kestrel-7b" || body.Temperature != 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		user := body.Messages[1].Content
		s.mu.Lock()
		s.systems = append(s.systems, body.Messages[0].Content)
		s.users = append(s.users, user)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		fail := s.fail
		s.mu.Unlock()
		if fail && strings.Contains(user, "FAIL") {
			http.Error(w, "overloaded", http.StatusInternalServerError)
			return
		}
		q := strings.SplitN(user, "\n", 2)[0]
		q = q[strings.Index(q, ":")+1:]
		reply := "[" + strings.Fields(q)[0] + "]"
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": " " + reply + "\n"}}}})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *genStub) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.users)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestGenerate(t *testing.T) {
	stub := newGenStub(t)
	dir := t.TempDir()
	ds := filepath.Join(dir, "questions.csv")
	os.WriteFile(ds, []byte("id,question,answer,Domain,language\n"+
		"q1,What is the capital of India?,New Delhi,Geography,en\n"+
		"q2,भारत की राजधानी क्या है?,नई दिल्ली,Geography,hi\n"+
		"q3,ভারতের রাজধানী কী?,নতুন দিল্লি,Geography,\n"+
		"q4,இந்தியாவின் தலைநகரம் எது?,புது தில்லி,Geography,xx\n"), 0o644)
	out := filepath.Join(dir, "kestrel-7b_mixed.csv")
	cache := filepath.Join(dir, "cache.jsonl")
	t.Setenv("EVALBOOK_TEST_KEY", "sk-secret-123")
	args := []string{"generate", "--dataset", ds, "--endpoint", stub.URL + "/v1", "--model", "kestrel-7b", "--out", out,
		"--cache", cache, "--api-key-env", "EVALBOOK_TEST_KEY", "--concurrency", "2"}
	stdout, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "wrote 4 responses") || !strings.Contains(errOut, "4 requests sent") ||
		!strings.Contains(errOut, "1 question has no template for its language; it gets the \"default\" template") {
		t.Errorf("stdout %q\nstderr %q", stdout, errOut)
	}
	recs := readCSV(t, out)
	want := [][]string{
		{"id", "question", "answer", "Domain", "language", "model", "response"},
		// The dataset's language codes come back as written (en, hi);
		// the templates are still picked by the language they name.
		{"q1", "What is the capital of India?", "New Delhi", "Geography", "en", "kestrel-7b", "[What]"},
		{"q2", "भारत की राजधानी क्या है?", "नई दिल्ली", "Geography", "hi", "kestrel-7b", "[भारत]"},
		// No language: the script of the question says Bengali.
		{"q3", "ভারতের রাজধানী কী?", "নতুন দিল্লি", "Geography", "bengali", "kestrel-7b", "[ভারতের]"},
		// An unknown language code is kept and gets the default template.
		{"q4", "இந்தியாவின் தலைநகரம் எது?", "புது தில்லி", "Geography", "xx", "kestrel-7b", "[இந்தியாவின்]"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d rows: %q", len(recs), recs)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, recs[i], want[i])
		}
	}
	// Each language's template was sent: the Hindi question with the Hindi prompt.
	sawHindi, sawDefault := false, false
	for i, u := range stub.users {
		sawHindi = sawHindi || strings.HasPrefix(u, "प्रश्न: भारत") && strings.Contains(stub.systems[i], "हिंदी")
		sawDefault = sawDefault || strings.HasPrefix(u, "Question: இந்தியாவின்") && strings.Contains(stub.systems[i], "language of the question")
		if stub.auth[i] != "Bearer sk-secret-123" {
			t.Errorf("Authorization %q", stub.auth[i])
		}
	}
	if !sawHindi || !sawDefault {
		t.Errorf("templates not chosen by language: %q", stub.users)
	}
	if b, _ := os.ReadFile(cache); strings.Contains(string(b), "sk-secret") {
		t.Error("the API key reached the cache")
	}
	// A second run is served from the cache.
	if _, errOut, code := runCLI(t, args...); code != 0 || stub.requests() != 4 || !strings.Contains(errOut, "0 requests sent") {
		t.Errorf("rerun: exit %d, %d requests in all: %s", code, stub.requests(), errOut)
	}
	// The output scores: the response table has the columns evalbook score needs.
	if _, errOut, code := runCLI(t, "score", "--responses", out); code != 0 {
		t.Errorf("score on the output: exit %d: %s", code, errOut)
	}
}

func TestGenerateFailureResumes(t *testing.T) {
	stub := newGenStub(t)
	stub.fail = true
	dir := t.TempDir()
	ds := filepath.Join(dir, "m_english.jsonl")
	os.WriteFile(ds, []byte(`{"id": "1", "question": "Which river flows through Varanasi?", "answer": "Ganga", "Domain": "G"}
{"id": "2", "question": "FAIL this one", "answer": "x", "Domain": "G"}
{"id": 3, "question": "Which desert lies in Rajasthan?", "answer": "Thar", "Domain": "G"}
`), 0o644)
	out := filepath.Join(dir, "out.csv")
	args := []string{"generate", "--dataset", ds, "--endpoint", stub.URL + "/v1", "--model", "kestrel-7b", "--out", out,
		"--cache", filepath.Join(dir, "c.jsonl"), "--retries", "0", "--concurrency", "1"}
	_, errOut, code := runCLI(t, args...)
	if code != 1 || !strings.Contains(errOut, "1 of 3 questions failed") || !strings.Contains(errOut, "line 2") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Every row is written; the failed one has an error cell (issue 17).
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "\n2,FAIL this one,x,G,english,kestrel-7b,,HTTP 500 after 1 attempt: ") {
		t.Errorf("output %q, %v: want every row, the failed one with an error cell", b, err)
	}
	stub.fail = false
	before := stub.requests()
	if _, errOut, code := runCLI(t, args...); code != 0 || stub.requests() != before+1 {
		t.Fatalf("resume: exit %d, %d new requests: %s", code, stub.requests()-before, errOut)
	}
	recs := readCSV(t, out)
	// Language from the file name (m_english); a JSON number id is kept as written.
	if len(recs) != 4 || recs[3][0] != "3" || recs[1][4] != "english" || recs[2][6] != "[FAIL]" {
		t.Errorf("%q", recs)
	}
}

func TestGenerateUsage(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "q.csv")
	os.WriteFile(ds, []byte("id,prompt\n1,hello\n"), 0o644)
	base := []string{"generate", "--dataset", ds, "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--out", filepath.Join(dir, "o.csv"), "--cache", "none"}
	if _, errOut, code := runCLI(t, base...); code != 1 || !strings.Contains(errOut, `no "question" column`) {
		t.Errorf("no question column: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{
		{"generate", "--endpoint", "http://x/v1", "--model", "m", "--out", "o.csv"},
		append(append([]string{}, base...), "--concurrency", "0"),
		append(append([]string{}, base...), "--language", "klingon"),
		append(append([]string{}, base...), "--model-seed", "x"),
		append(append([]string{}, base...), "extra"),
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	bad := filepath.Join(dir, "p.json")
	os.WriteFile(bad, []byte(`{"version": "1", "templates": {"default": {"system": "s", "user": "no placeholder"}}}`), 0o644)
	if _, errOut, code := runCLI(t, append(append([]string{}, base...), "--prompts", bad)...); code != 1 || !strings.Contains(errOut, "{question}") {
		t.Errorf("bad prompts: exit %d, %s", code, errOut)
	}
	if out, _, code := runCLI(t, "generate", "--help"); code != 0 || !strings.Contains(out, "resumes") {
		t.Errorf("--help: exit %d", code)
	}
}

// The shipped templates load, and every language has a {question}.
func TestGenerateTemplates(t *testing.T) {
	data, name, err := cli.ReadOrSample("", datasets.Leaderboard, datasets.GeneratePromptsName)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := generate.ReadTemplates(data, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"default", "english", "hindi", "bengali", "tamil", "telugu", "marathi", "kannada", "malayalam", "gujarati", "punjabi", "odia"} {
		if _, ok := tpl.Templates[l]; !ok {
			t.Errorf("no template for %s", l)
		}
	}
	a, b := tpl.Templates["hindi"], tpl.Templates["marathi"]
	if a.Hash(tpl.Version) == b.Hash(tpl.Version) || len(a.Hash(tpl.Version)) != 12 {
		t.Error("template hashes do not tell templates apart")
	}
}

// TestGenerateDatasetErrors: a dataset that cannot be asked is refused
// before any request, with a message naming the file and the place
// (audit defects 4 and 9).
func TestGenerateDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noSheetQuestion := write("noq.xlsx", genWorkbook(t, [][]any{{"id", "prompt"}, {"1", "hello"}}))
	tests := []struct {
		name string
		file string
		want string
	}{
		{"empty csv", write("empty.csv", nil), "empty.csv: the file is empty: want a header row naming a question column (and optionally id, answer, Domain, language)"},
		{"header only", write("hdr.csv", []byte("id,question\n")), "hdr.csv: no questions: the file has a header but no rows"},
		{"empty jsonl", write("empty.jsonl", []byte("\n\n")), "empty.jsonl: the file is empty: want one JSON object per line with a \"question\" field"},
		{"no question column", write("noq.csv", []byte("id,prompt\n1,hello\n2,bye\n")), "noq.csv:1: no \"question\" column (the header has id, prompt)"},
		{"no question column in a sheet", noSheetQuestion, "noq.xlsx: header row: no \"question\" column (the header has id, prompt)"},
		{"no question field", write("noq.jsonl", []byte("{\"question\": \"q\"}\n{\"prompt\": \"p\"}\n")), "noq.jsonl:2: no \"question\" field"},
		// The question field starts at column 4 of line 2; the bad byte is
		// its 3rd character, at column 6. In the header, "quest" (5
		// characters) starts at column 4, so its 6th character, the bad
		// byte, is at column 9.
		{"invalid UTF-8 in csv", write("bad.csv", []byte("id,question\nq1,ab\xffc\n")), "bad.csv:2:6 (column \"question\"): invalid UTF-8: first bad byte 0xFF at character 3 of the field; re-save the file as UTF-8"},
		{"invalid UTF-8 in a csv header", write("badh.csv", []byte("id,quest\xe0ion\nq1,abc\n")), "badh.csv:1:9: header: invalid UTF-8: first bad byte 0xE0 at character 6 of the field"},
		// {"question": "a comes before the bad byte: { (1) "question" (10) :
		// and a space (2) "a (2), 15 characters, so it is the 16th.
		{"invalid UTF-8 in jsonl", write("bad.jsonl", []byte("{\"question\": \"a\xfe\"}\n")), "bad.jsonl:1:16 (column \"question\"): invalid UTF-8: first bad byte 0xFE; re-save the file as UTF-8"},
		{"not a workbook", write("fake.xlsx", []byte("id,question\n1,\"q\"\n")), "fake.xlsx: not a readable .xlsx workbook"},
		{"unknown format", write("q.xml", []byte("<q/>")), "q.xml: unknown input format \"xml\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out.csv")
			_, errOut, code := runCLI(t, "generate", "--dataset", tc.file, "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--out", out, "--cache", "none")
			if code != 1 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q\nwant 1 and %q", code, errOut, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Error("output written for a refused dataset")
			}
		})
	}
}

// genWorkbook builds an .xlsx file with rows on its first sheet.
func genWorkbook(t *testing.T, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// An .xlsx dataset is read as a workbook (it was parsed as CSV), and one
// question is counted in the singular.
func TestGenerateWorkbook(t *testing.T) {
	stub := newGenStub(t)
	dir := t.TempDir()
	ds := filepath.Join(dir, "questions.xlsx")
	os.WriteFile(ds, genWorkbook(t, [][]any{{"id", "question", "answer", "language"}, {"w1", "Which river flows through Varanasi?", "Ganga", "xx"}}), 0o644)
	out := filepath.Join(dir, "o.csv")
	stdout, errOut, code := runCLI(t, "generate", "--dataset", ds, "--endpoint", stub.URL+"/v1", "--model", "kestrel-7b", "--out", out, "--cache", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "wrote 1 response from kestrel-7b") || !strings.Contains(errOut, "1 question has no template for its language; it gets") {
		t.Errorf("stdout %q\nstderr %q", stdout, errOut)
	}
	recs := readCSV(t, out)
	if len(recs) != 2 || strings.Join(recs[1], "|") != "w1|Which river flows through Varanasi?|Ganga||xx|kestrel-7b|[Which]" {
		t.Errorf("%q", recs)
	}
}

// With --cache none a failed run must not promise that a rerun resumes;
// one reply received "was kept" and "is lost" (it said "the 1 reply
// received were kept").
func TestGenerateFailureMemoryCache(t *testing.T) {
	for _, tc := range []struct {
		name, rows, head, tail string
	}{
		{"two received", "1,Which desert lies in Rajasthan?\n2,FAIL this one\n3,Which river flows through Varanasi?\n",
			"1 of 3 questions failed (first: line 3: ",
			"an error cell; with --cache none the 2 replies received were kept in memory only and are lost, so running the command again asks for every question (pass --cache FILE to make a rerun resume)"},
		{"one received", "1,Which desert lies in Rajasthan?\n2,FAIL this one\n",
			"1 of 2 questions failed (first: line 3: ",
			"an error cell; with --cache none the 1 reply received was kept in memory only and is lost, so running the command again asks for every question"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stub := newGenStub(t)
			stub.fail = true
			dir := t.TempDir()
			ds := filepath.Join(dir, "q.csv")
			os.WriteFile(ds, []byte("id,question\n"+tc.rows), 0o644)
			_, errOut, code := runCLI(t, "generate", "--dataset", ds, "--endpoint", stub.URL+"/v1", "--model", "kestrel-7b", "--out", filepath.Join(dir, "o.csv"),
				"--cache", "none", "--retries", "0", "--concurrency", "1", "--language", "english")
			if code != 1 || !strings.Contains(errOut, tc.head) || !strings.Contains(errOut, tc.tail) || strings.Contains(errOut, "asks only for the rest") {
				t.Errorf("exit %d: %s\nwant %q ... %q", code, errOut, tc.head, tc.tail)
			}
		})
	}
}

// The -dataset help names every format generate reads.
func TestGenerateDatasetHelp(t *testing.T) {
	out, _, code := runCLI(t, "generate", "--help")
	if code != 0 || !strings.Contains(out, "(.csv, .jsonl or .xlsx)") {
		t.Errorf("exit %d, help lacks the .xlsx format:\n%s", code, out)
	}
}

// TestGenerateJSONIsTheLibraryResult: generate --json prints the JSON
// encoding of the generate.Result that the library's Run returns for the
// same dataset, templates and client settings (as TestJSONIsTheLibraryResult
// checks for the other commands), against the loopback server.
func TestGenerateJSONIsTheLibraryResult(t *testing.T) {
	stub := llmtest.New(t)
	dir := t.TempDir()
	data, out := filepath.Join(dir, "questions.csv"), filepath.Join(dir, "kestrel-7b_mixed.csv")
	if err := os.WriteFile(data, []byte("id,question,language\nq1,भारत की राजधानी क्या है?,hi\nq2,Capital of Tamil Nadu?,xx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := generate.ReadQuestionsFile(data, "")
	if err != nil {
		t.Fatal(err)
	}
	pd, pname, err := cli.ReadOrSample("", datasets.Leaderboard, datasets.GeneratePromptsName)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := generate.ReadTemplates(pd, pname)
	if err != nil {
		t.Fatal(err)
	}
	// The client the command builds with --cache none and the default flags.
	client, err := llm.NewClient(llm.Config{BaseURL: stub.BaseURL(), Model: "kestrel-7b", MaxTokens: 256, Concurrency: 4, Cache: llm.NewMemoryCache()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := generate.Run(context.Background(), client, qs, generate.Options{Model: "kestrel-7b", Templates: tpl, Workers: 4, Cache: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	res.Out = out
	// Two questions sent, none cached; language xx has no template (line 3).
	if res.Requests != 2 || res.Received != 2 || len(res.Warnings) != 1 || res.Warnings[0].Code != generate.CodeDefaultTemplate || res.Warnings[0].Lines[0] != 3 {
		t.Fatalf("library result %+v", res)
	}
	stdout, errOut, code := runCLI(t, "generate", "--json", "--dataset", data, "--endpoint", stub.BaseURL(), "--model", "kestrel-7b", "--out", out, "--cache", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := jsonOf(t, res); stdout != want {
		t.Errorf("--json output differs from the library's result\n got: %s\nwant: %s", stdout, want)
	}
}

// With --json a run with failures prints its summary, failures listed,
// writes every row (the failed one with an error cell) and exits 1.
func TestGenerateJSONFailure(t *testing.T) {
	stub := newGenStub(t)
	stub.fail = true
	dir := t.TempDir()
	ds := filepath.Join(dir, "q.csv")
	os.WriteFile(ds, []byte("id,question\n1,Which desert lies in Rajasthan?\n2,FAIL this one\n"), 0o644)
	out := filepath.Join(dir, "o.csv")
	stdout, errOut, code := runCLI(t, "generate", "--json", "--dataset", ds, "--endpoint", stub.URL+"/v1", "--model", "kestrel-7b", "--out", out,
		"--cache", "none", "--retries", "0", "--concurrency", "1", "--language", "english")
	var res struct {
		Questions, Received, Failed int
		Failures                    []struct {
			Line int
			ID   string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout %q: %v", stdout, err)
	}
	if code != 1 || !strings.Contains(errOut, "1 of 2 questions failed") || res.Questions != 2 || res.Received != 1 || res.Failed != 1 ||
		len(res.Failures) != 1 || res.Failures[0].Line != 3 || res.Failures[0].ID != "2" {
		t.Errorf("exit %d, %+v: %s", code, res, errOut)
	}
	if b, err := os.ReadFile(out); err != nil || strings.Count(string(b), "\n") != 3 || !strings.Contains(string(b), ",response,error\n") {
		t.Errorf("output %q, %v: want both rows and the error column", b, err)
	}
}
