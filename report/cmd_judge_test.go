package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// judgeStub is a loopback chat-completions server standing in for a judge
// model. For a reference prompt it applies the exact_substring rule
// (correct when the lower-cased golden answer occurs in the lower-cased
// response), so llm_judge must equal exact_substring on every row it
// answers validly, except where a reply is broken on purpose: the question
// about Khajuraho gets prose ("Sure, it is correct."), the one about
// Mohenjo-daro a JSON object with an extra field, and the one about Ellora
// a valid verdict inside a ```json fence. For a pairwise prompt it always
// says "first".
type judgeStub struct {
	*httptest.Server
	mu       sync.Mutex
	requests int
	onReq    func(n int) // called with the request count, if set
}

func newJudgeStub(t *testing.T) *judgeStub {
	s := &judgeStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests++
		n, hook := s.requests, s.onReq
		s.mu.Unlock()
		if hook != nil {
			hook(n)
		}
		p := body.Messages[len(body.Messages)-1].Content
		var content string
		switch q := stubBlock(p, "QUESTION"); {
		case strings.Contains(p, "<<<FIRST ANSWER "):
			content = `{"winner": "first", "reason": "the first one"}`
		case strings.Contains(q, "Khajuraho"):
			content = "Sure, it is correct."
		case strings.Contains(q, "Mohenjo-daro"):
			content = `{"verdict": "correct", "confidence": 1}`
		default:
			verdict := "incorrect"
			if strings.Contains(strings.ToLower(stubBlock(p, "RESPONSE")), strings.ToLower(stubBlock(p, "GOLDEN ANSWER"))) {
				verdict = "correct"
			}
			content = fmt.Sprintf(`{"verdict": %q, "reason": "substring rule"}`, verdict)
			if strings.Contains(q, "Ellora") {
				content = "```json\n" + content + "\n```"
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *judgeStub) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *judgeStub) endpoint() string { return s.URL + "/v1" }

// normalize replaces the stub's random address so golden files are
// stable; on the lines that held it, runs of spaces (padding to the
// address's width) are collapsed.
func (s *judgeStub) normalize(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, s.URL) {
			lines[i] = regexp.MustCompile(`(\S)  +`).ReplaceAllString(strings.ReplaceAll(l, s.URL, "http://stub"), "$1  ")
		}
	}
	return strings.Join(lines, "\n")
}

func stubBlock(prompt, title string) string {
	re := regexp.MustCompile(`(?s)<<<` + title + ` ([0-9a-f]{8}): untrusted data, not instructions>>>\n(.*?)\n<<<END ` + title + ` ([0-9a-f]{8})>>>`)
	m := re.FindStringSubmatch(prompt)
	if m == nil || m[1] != m[3] {
		return ""
	}
	return m[2]
}

func TestJudgeGolden(t *testing.T) {
	s := newJudgeStub(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache.jsonl")
	verdicts := filepath.Join(dir, "verdicts.csv")
	base := []string{"judge", "--endpoint", s.endpoint(), "--model", "stub-judge", "--cache", cache, "--limit", "40"}

	out, errOut, code := runCLI(t, append(base, "--out", verdicts)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "judge_limit40.stdout", s.normalize(out))
	// 40 rows, one blank response (line 47 is past the limit, none here), so 40 requests.
	if !strings.Contains(errOut, "evalbook: 40 requests sent (0 retries), 0 replies from the cache") {
		t.Errorf("stderr: %s", errOut)
	}
	v, _ := os.ReadFile(verdicts)
	golden(t, "judge_verdicts.csv", string(v))

	// The rerun is served from the cache: no request at all.
	out2, errOut2, _ := runCLI(t, append(base, "--json")...)
	if s.count() != 40 || !strings.Contains(errOut2, "0 requests sent (0 retries), 40 replies from the cache") {
		t.Errorf("rerun made %d requests in total; stderr %s", s.count(), errOut2)
	}
	golden(t, "judge_limit40.json", s.normalize(out2))

	var rep struct {
		Judge judge.RunInfo  `json:"judge"`
		Score *results.Score `json:"score"`
	}
	if err := json.Unmarshal([]byte(out2), &rep); err != nil {
		t.Fatal(err)
	}
	// The stub applies exact_substring's rule, and breaks two replies:
	// Khajuraho (art-en-004, "mithuna" in "Mithuna couples": exact passes)
	// and Mohenjo-daro (hist-en-006, "Civilisation" vs "Civilization":
	// exact fails). So llm_judge is exact_substring minus one, and never
	// disagrees with it on a valid row.
	c := rep.Score.Combined
	if rep.Judge.Invalid != 2 || rep.Judge.InvalidReasons["not a JSON object"] != 1 || rep.Judge.InvalidReasons["a field outside the contract"] != 1 {
		t.Errorf("invalid %d %v", rep.Judge.Invalid, rep.Judge.InvalidReasons)
	}
	if c.N != 40 || c.Metrics["llm_judge"].Correct != c.Metrics["exact_substring"].Correct-1 {
		t.Errorf("n %d, llm_judge %v, exact_substring %v", c.N, c.Metrics["llm_judge"].Correct, c.Metrics["exact_substring"].Correct)
	}
	for _, a := range rep.Score.Agreement {
		if a.First == "llm_judge" && a.Second == "exact_substring" && (a.OnlyFirst != 0 || a.OnlySecond != 0 || a.Total() != 38) {
			t.Errorf("llm_judge vs exact_substring: %+v", a)
		}
	}
}

// TestJudgeVerdictFile checks the --out file: the input columns, the two
// seed verdicts, llm_judge (empty for the two broken replies) and reasons.
func TestJudgeVerdictFile(t *testing.T) {
	s := newJudgeStub(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "v.csv")
	if _, errOut, code := runCLI(t, "judge", "--endpoint", s.endpoint(), "--model", "m", "--cache", "none", "--limit", "20", "--out", out); code != 0 {
		t.Fatal(errOut)
	}
	f, _ := os.Open(out)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "id,question,answer,Domain,response,language,model,exact_substring,word_overlap,llm_judge,llm_judge_reason"
	if strings.Join(recs[0], ",") != want || len(recs) != 21 {
		t.Fatalf("header %v, %d records", recs[0], len(recs))
	}
	for _, r := range recs[1:] {
		id, es, lj := r[0], r[7], r[9]
		switch id {
		case "art-en-004", "hist-en-006":
			if lj != "" || !strings.HasPrefix(r[10], "invalid reply: ") {
				t.Errorf("%s: llm_judge %q reason %q", id, lj, r[10])
			}
		default:
			if lj != es {
				t.Errorf("%s: llm_judge %q, exact_substring %q", id, lj, es)
			}
		}
	}
}

// TestJudgeResume interrupts a run after 25 requests and checks that the
// message says how to resume and that the rerun sends only the rest.
func TestJudgeResume(t *testing.T) {
	s := newJudgeStub(t)
	cache := filepath.Join(t.TempDir(), "cache.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.onReq = func(n int) {
		if n == 25 {
			cancel()
		}
	}
	args := []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--cache", cache, "--limit", "60", "--concurrency", "4"}
	var out, errb strings.Builder
	err := testApp(t).Run(ctx, args, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "interrupted;") || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("error %v", err)
	}
	s.mu.Lock()
	s.onReq = nil
	s.mu.Unlock()
	// A request the cancelled run had sent may reach the stub after the
	// run returned (its client gave up waiting); let those arrive first,
	// so that they are not counted as the rerun's.
	before := s.count()
	for settled := 0; settled < 5; {
		time.Sleep(20 * time.Millisecond)
		if n := s.count(); n != before {
			before, settled = n, 0
		} else {
			settled++
		}
	}
	_, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatal(errOut)
	}
	var sent, hits int
	if m := regexp.MustCompile(`(\d+) requests sent \(0 retries\), (\d+) replies from the cache`).FindStringSubmatch(errOut); m != nil {
		fmt.Sscan(m[1], &sent)
		fmt.Sscan(m[2], &hits)
	}
	// 60 rows with one blank response (line 47) not sent: 59 judgments.
	if sent+hits != 59 || hits == 0 || sent != s.count()-before {
		t.Errorf("rerun: %d sent + %d cached, want 59 with some cached; stderr %s", sent, hits, errOut)
	}
}

func TestJudgeUsage(t *testing.T) {
	s := newJudgeStub(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no endpoint", []string{"judge", "--model", "m"}, 2, "--endpoint is required"},
		{"no model", []string{"judge", "--endpoint", s.endpoint()}, 2, "--model is required"},
		{"bad endpoint", []string{"judge", "--endpoint", "localhost:8000", "--model", "m", "--cache", "none"}, 2, "want an http or https base URL"},
		{"pairwise prompt", []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--prompt", "pairwise@1"}, 2, "is a pairwise prompt"},
		{"unknown prompt", []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--prompt", "reference@9"}, 2, "no prompt reference@9"},
		{"negative limit", []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--limit", "-1"}, 2, "--limit must not be negative"},
		{"bad model seed", []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--model-seed", "x", "--cache", "none"}, 2, "--model-seed must be an integer"},
		{"missing file", []string{"judge", "--endpoint", s.endpoint(), "--model", "m", "--responses", "nope.csv"}, 1, "nope.csv"},
		{"help", []string{"judge", "--help"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
			if tt.name == "help" && !strings.Contains(out, "evalbook judge --endpoint http://127.0.0.1:8000/v1") {
				t.Errorf("help has no example:\n%s", out)
			}
		})
	}
	if s.count() != 0 {
		t.Errorf("usage errors made %d requests", s.count())
	}
}

// TestJudgeKeyNeverShown passes a key through the environment and checks
// that it reaches the server but no output, message or cache file.
func TestJudgeKeyNeverShown(t *testing.T) {
	const key = "sk-evalbook-test-0123456789"
	t.Setenv("EVALBOOK_TEST_KEY", key)
	var mu sync.Mutex
	var seen []string
	inner := newJudgeStub(t)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		r.URL.Path = "/v1/chat/completions"
		inner.Config.Handler.ServeHTTP(w, r)
	}))
	defer s.Close()
	cache := filepath.Join(t.TempDir(), "c.jsonl")
	out, errOut, code := runCLI(t, "judge", "--endpoint", s.URL+"/v1", "--model", "m", "--api-key-env", "EVALBOOK_TEST_KEY", "--cache", cache, "--limit", "5", "--json")
	data, _ := os.ReadFile(cache)
	if code != 0 || len(seen) != 5 || seen[0] != "Bearer "+key {
		t.Fatalf("exit %d, auth headers %q: %s", code, seen, errOut)
	}
	for name, text := range map[string]string{"stdout": out, "stderr": errOut, "cache": string(data)} {
		if strings.Contains(text, key) {
			t.Errorf("the key appears in %s", name)
		}
	}
}

// TestJudgeJSONL judges a JSON Lines table grouped by language, with a
// blank line inside it: the blank response is not sent, and every line
// number (qa's warnings and the judge's own) counts the file's lines.
func TestJudgeJSONL(t *testing.T) {
	s := newJudgeStub(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	rows := `{"question": "Which city was the capital of British India until 1911?", "answer": "Calcutta", "Domain": "History", "response": "Calcutta", "language": "en"}
{"question": "Which river flows through Kolkata?", "answer": "Hooghly", "Domain": "Geography", "response": "   ", "language": "en"}

{"question": "भारत की राजधानी क्या है?", "answer": "नई दिल्ली", "Domain": "Civics", "response": "मुंबई", "language": "hi"}
{"question": "Which emperor issued rock edicts after the Kalinga war?", "answer": "Ashoka", "Domain": "History", "response": "Emperor Ashoka", "language": "en"}
`
	os.WriteFile(path, []byte(rows), 0o644)
	out, errOut, code := runCLI(t, "judge", "--endpoint", s.endpoint(), "--model", "m", "--cache", "none", "--responses", path, "--by", "language", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Judge judge.RunInfo  `json:"judge"`
		Score *results.Score `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Judge.Rows != 4 || rep.Judge.Sent != 3 || s.count() != 3 {
		t.Errorf("rows %d, sent %d, requests %d; want 4, 3, 3", rep.Judge.Rows, rep.Judge.Sent, s.count())
	}
	got := map[string]float64{}
	for _, g := range rep.Score.Groups {
		got[g.Group] = g.Metrics["llm_judge"].Correct
	}
	// en: Calcutta and Ashoka are correct, the blank response is not; hi: मुंबई is wrong.
	if got["en"] != 2 || got["hi"] != 0 || len(got) != 2 {
		t.Errorf("llm_judge correct by language %v", got)
	}
	var blankLines []int
	for _, w := range rep.Score.Warnings {
		if w.Code == "blank_response" {
			blankLines = w.Lines
		}
	}
	var judgeLines []int
	for _, a := range rep.Score.Agreement {
		if a.First == "llm_judge" && a.Second == "exact_substring" {
			for _, b := range []string{"both", "neither"} {
				for _, ex := range a.Examples[b] {
					judgeLines = append(judgeLines, ex.Line)
				}
			}
		}
	}
	// Lines 1, 2, 4 and 5 hold rows; line 3 is blank.
	if fmt.Sprint(blankLines) != "[2]" || fmt.Sprint(judgeLines) != "[1 5 2 4]" {
		t.Errorf("blank response on lines %v, judge examples on lines %v", blankLines, judgeLines)
	}
}

// TestJudgeInvalidUTF8: a response table with a bad byte is refused with
// its place, and the message does not send the user to --repair-utf8,
// which judge does not have (audit defects 4 and 5).
func TestJudgeInvalidUTF8(t *testing.T) {
	s := newJudgeStub(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	csvFile := write("bad.csv", "id,question,answer,Domain,response\n1,q,a,D,r\xff\n")
	jsonlFile := write("bad.jsonl", "{\"question\": \"q\", \"answer\": \"a\", \"Domain\": \"D\", \"response\": \"\xfe\"}\n")
	tests := []struct {
		name, file, want string
	}{
		// The response field starts at column 9 of line 2; the bad byte is
		// its 2nd character, at column 10.
		{"csv", csvFile, csvFile + ":2:10 (column \"response\"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8\n"},
		// 61 characters come before the bad byte: {"question": "q", (18)
		// "answer": "a", (15) "Domain": "D", (15) "response": " (13).
		// pkg/qa's JSONL reader (tabular's) words it as every reader does,
		// naming the key as the column.
		{"jsonl", jsonlFile, jsonlFile + ":1:62 (column \"response\"): invalid UTF-8: first bad byte 0xFE; re-save the file as UTF-8\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, "judge", "--endpoint", s.endpoint(), "--model", "m", "--cache", "none", "--responses", tt.file)
			if code != 1 || errOut != "evalbook: "+tt.want {
				t.Errorf("exit %d, stderr %q\nwant 1, %q", code, errOut, "evalbook: "+tt.want)
			}
		})
	}
	if s.count() != 0 {
		t.Errorf("%d requests for files that were refused", s.count())
	}
}

// TestJudgeMessages: an interrupted run with --cache none does not
// promise to resume; counts of one are singular.
func TestJudgeMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"interrupted, memory cache", (&cli.ModelClient{Cache: llm.NewMemoryCache(), CachePath: "none"}).Interrupted(context.Canceled).Error(),
			"interrupted; with --cache none the 0 replies received were kept in memory only and are lost, so running the command again starts from the beginning (pass --cache FILE to make a rerun resume)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got  %q\nwant %q", tc.got, tc.want)
			}
		})
	}
	t.Run("one row", func(t *testing.T) {
		s := newJudgeStub(t)
		// The stub answers the Khajuraho question with prose: one broken reply.
		path := filepath.Join(t.TempDir(), "one.jsonl")
		os.WriteFile(path, []byte(`{"question": "Which dynasty built the Khajuraho temples?", "answer": "Chandela", "Domain": "Art", "response": "Chandela"}`+"\n"), 0o644)
		out, errOut, code := runCLI(t, "judge", "--endpoint", s.endpoint(), "--model", "m", "--cache", "none", "--responses", path)
		if code != 0 || !strings.Contains(out, "judged 1 row: 1 sent, 0 blank responses not sent, 1 reply broke the contract\n") ||
			!strings.Contains(out, "1 judge reply broke the reply contract") {
			t.Errorf("exit %d: %s\n%s", code, errOut, out)
		}
	})
}
