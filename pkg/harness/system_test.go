package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestSentences(t *testing.T) {
	got := Sentences("It costs €4.50. Really? ৩০ দিনের মধ্যে ফেরত। শেষ")
	want := []string{"It costs €4.50.", "Really?", "৩০ দিনের মধ্যে ফেরত।", "শেষ"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
	d := ParseDocument("d", "# Title\n\nline one\nline two\n\n\npara two\n")
	if d.Title != "Title" || !reflect.DeepEqual(d.Paragraphs, []string{"line one line two", "para two"}) {
		t.Errorf("ParseDocument = %+v", d)
	}
}

func newRetriever(t *testing.T, docs []Document, ch Chunking) *Retriever {
	t.Helper()
	r, err := NewRetriever(docs, ch)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var tinyCorpus = []Document{
	{ID: "a-returns", Paragraphs: []string{"Return unused pens within 30 days. Refunds take 5 days."}},
	{ID: "b-shipping", Paragraphs: []string{"Shipping takes 3 days. Express shipping costs 9 euros."}},
}

// Scores by hand: "How many days do refunds take?" has terms {days,
// many, refunds, take} (how and do are stop words). The returns paragraph
// holds days and refunds and take: 3/4; its second sentence "Refunds take
// 5 days." the same 3/4; the shipping paragraph holds days only: 1/4
// ("takes" is not "take").
func TestSearchScores(t *testing.T) {
	for _, ch := range []Chunking{Paragraph, Sentence} {
		hits, err := newRetriever(t, tinyCorpus, ch).Search("How many days do refunds take?")
		if err != nil {
			t.Fatal(err)
		}
		if hits[0].DocID != "a-returns" || math.Abs(hits[0].Score-0.75) > 1e-12 {
			t.Errorf("%s: top = %+v, want a-returns at 0.75", ch, hits[0])
		}
		if last := hits[len(hits)-1]; last.DocID != "b-shipping" || math.Abs(last.Score-0.25) > 1e-12 {
			t.Errorf("%s: last = %+v, want b-shipping at 0.25", ch, last)
		}
	}
	if _, err := newRetriever(t, tinyCorpus, Paragraph).Search("how do I?"); err != ErrNoTerms {
		t.Errorf("question of stop words: err = %v, want ErrNoTerms", err)
	}
}

// An unknown chunking is an error; it used to chunk by paragraph.
func TestUnknownChunking(t *testing.T) {
	for _, ch := range []Chunking{"words", "", "Sentence"} {
		t.Run(string(ch), func(t *testing.T) {
			want := fmt.Sprintf("unknown chunking %q (want paragraph or sentence)", ch)
			if r, err := NewRetriever(tinyCorpus, ch); err == nil || err.Error() != want {
				t.Errorf("NewRetriever = %v, %v; want error %q", r, err, want)
			}
			if c, err := Chunks(tinyCorpus, ch); err == nil || err.Error() != want {
				t.Errorf("Chunks = %v, %v; want error %q", c, err, want)
			}
		})
	}
	// The tiny corpus has 2 paragraphs of 2 sentences each.
	for _, tc := range []struct {
		ch   Chunking
		want int
	}{{Paragraph, 2}, {Sentence, 4}} {
		if r := newRetriever(t, tinyCorpus, tc.ch); r.Len() != tc.want {
			t.Errorf("%s: %d chunks, want %d", tc.ch, r.Len(), tc.want)
		}
	}
}

func TestGuard(t *testing.T) {
	r := newRetriever(t, tinyCorpus, Paragraph)
	q := "How many days do refunds take?" // top 0.75, margin 0.75 - 0.25 = 0.5
	for _, tc := range []struct {
		minScore, minMargin float64
		kind                string
	}{{0.75, 0, "answer"}, {0.76, 0, "abstain"}, {0, 0.5, "answer"}, {0, 0.51, "abstain"}} {
		rep := (&System{Retriever: r, MinScore: tc.minScore, MinMargin: tc.minMargin}).Ask(q)
		if rep.Kind != tc.kind {
			t.Errorf("min score %v, margin %v: %s (%s), want %s", tc.minScore, tc.minMargin, rep.Kind, rep.Reason, tc.kind)
		}
	}
	rep := (&System{Retriever: r}).Ask(q)
	if want := "Return unused pens within 30 days. Refunds take 5 days. [a-returns]"; rep.Text != want {
		t.Errorf("CopyModel reply = %q, want %q", rep.Text, want)
	}
	if rep := (&System{Retriever: r}).Ask("zebra?"); rep.Kind != KindAbstain {
		t.Errorf("no match: %+v", rep)
	}
	if rep := (&System{Retriever: r}).Ask("?!"); rep.Kind != KindError {
		t.Errorf("no terms: %+v", rep)
	}
}

func TestRunPassRules(t *testing.T) {
	sys := &System{Retriever: newRetriever(t, tinyCorpus, Sentence)}
	rows := Run(sys, []RunCase{
		{ID: "1", Question: "How many days do refunds take?", Expect: "answer", DocIDs: []string{"a-returns"}, Facts: []string{"5 days"}},
		{ID: "2", Question: "How many days do refunds take?", Expect: "answer", DocIDs: []string{"a-returns"}, Facts: []string{"5 days", "30 days"}},
		{ID: "3", Question: "How many days do refunds take?", Expect: "abstain"},
		{ID: "4", Question: "zebra", Expect: "abstain"},
	})
	want := []struct {
		outcome, fact string
		pass          bool
	}{{"answer", "5 days", true}, {"answer", "5 days", false}, {"answer", "", false}, {"abstain", "", true}}
	for i, w := range want {
		if rows[i].Outcome != w.outcome || rows[i].Fact != w.fact || rows[i].Pass != w.pass {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], w)
		}
	}
	if got := ContainedFacts("ফেরত ৩০ দিনের মধ্যে, 5 Days", []string{"30 দিন", "5 days", "7 days"}); !reflect.DeepEqual(got, []string{"30 দিন", "5 days"}) {
		t.Errorf("ContainedFacts = %q", got)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	rows := []RunRow{{ID: "a", Task: "lookup", Set: "golden", Lang: "bn", Expect: "answer", Outcome: "answer", Fact: "৩০ দিন | \"x\", y", Pass: true},
		{ID: "b", Task: "unanswerable", Set: "golden", Lang: "en", Expect: "abstain", Outcome: "error"}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "id,task,set,lang,expect,outcome,fact,pass\n") {
		t.Errorf("header: %q", buf.String())
	}
	got, err := ReadCSV(&buf, "r.csv")
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Errorf("round trip = %+v, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"id,task\n", "header is"},
		{"id,task,set,lang,expect,outcome,fact,pass\na,t,s,en,answer,maybe,,1\n", `r.csv:2:17 (column "outcome")`},
		{"id,task,set,lang,expect,outcome,fact,pass\na,t,s,en,answer,answer,,yes\n", "(column \"pass\"): \"yes\" is not 1 or 0"},
		{"id,task,set,lang,expect,outcome,fact,pass\na,t,s,en,answer,answer,,1\na,t,s,en,answer,answer,,1\n", "already on line 2"},
	} {
		if _, err := ReadCSV(strings.NewReader(tc.in), "r.csv"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadCSV(%q) error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func sampleRunCases(t *testing.T) []RunCase {
	f, err := os.Open("../../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []RunCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct {
			ID, Question, Task, Set, Lang, Expect string
			DocIDs                                []string `json:"doc_ids"`
			Facts                                 []string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, RunCase{c.ID, c.Question, c.Task, c.Set, c.Lang, c.Expect, c.DocIDs, c.Facts})
	}
	return out
}

// The version comparison of the sample (the story of SPEC.md section 3 on
// Inkwell Row's data). Old: paragraph chunks, min score 0.3. New: sentence
// chunks, min score 0.4, min margin 0.1. The two flips, by hand:
//   - a06 "What is the discount code for students?": terms {code, discount,
//     students}; the best chunks hold "code" only, 1/3 = 0.333: old answers
//     (fails), new abstains (passes).
//   - p09 "do gift cards earn ink points": terms {cards, earn, gift, ink,
//     points}. Old: the points paragraph holds earn, ink, points = 0.6, the
//     gift-card paragraph gift, cards = 0.4, margin 0.2: answers (fails).
//     New: the best sentences, "Members earn 1 Ink Point ..." (earn, ink)
//     and "You can use up to two gift cards ..." (gift, cards), tie at 0.4,
//     margin 0: abstains (passes).
func TestSampleVersionStory(t *testing.T) {
	docs, err := ReadCorpus(os.DirFS("../../datasets/helpdesk/corpus"))
	if err != nil {
		t.Fatal(err)
	}
	cases := sampleRunCases(t)
	old := Run(&System{Retriever: newRetriever(t, docs, Paragraph), MinScore: 0.3}, cases)
	nw := Run(&System{Retriever: newRetriever(t, docs, Sentence), MinScore: 0.4, MinMargin: 0.1}, cases)
	var better, worse []string
	for i := range old {
		switch {
		case nw[i].Pass && !old[i].Pass:
			better = append(better, old[i].ID)
		case old[i].Pass && !nw[i].Pass:
			worse = append(worse, old[i].ID)
		}
	}
	if !reflect.DeepEqual(better, []string{"a06", "p09"}) || len(worse) != 0 {
		t.Errorf("better %q, worse %q; want [a06 p09] and none", better, worse)
	}
	m := Measure(nw)
	if ab := m["abstain_correct"]; ab.Value() >= 0.9 {
		t.Errorf("new abstain_correct %d/%d reaches the plan's 0.9; the story needs it below", ab.Passed, ab.N)
	}
	// Same inputs, same bytes.
	var a, b bytes.Buffer
	WriteCSV(&a, nw)
	WriteCSV(&b, Run(&System{Retriever: newRetriever(t, docs, Sentence), MinScore: 0.4, MinMargin: 0.1}, cases))
	if a.String() != b.String() {
		t.Error("two runs of the same system differ")
	}
}

// Info reads the chunking and the counts off the retriever: three
// documents of two, one and one paragraphs give four paragraph chunks.
func TestSystemInfo(t *testing.T) {
	docs := []Document{
		ParseDocument("a", "# A\n\nfirst paragraph.\n\nsecond paragraph."),
		ParseDocument("b", "only one. two sentences."),
		ParseDocument("c", "third document."),
	}
	r := newRetriever(t, docs, Paragraph)
	got := (&System{Retriever: r, MinScore: 0.4, MinMargin: 0.1}).Info("corpus")
	want := SystemInfo{Chunking: "paragraph", MinScore: 0.4, MinMargin: 0.1, Corpus: "corpus", Documents: 3, Chunks: 4}
	if got != want {
		t.Errorf("Info = %+v, want %+v", got, want)
	}
	// Sentence chunks: 2 + 2 + 1.
	if got := (&System{Retriever: newRetriever(t, docs, Sentence)}).Info("x"); got.Chunks != 5 || got.Documents != 3 || got.Chunking != "sentence" {
		t.Errorf("sentence Info = %+v, want 5 chunks of 3 documents", got)
	}
}

// LoadRetriever is ReadCorpus then NewRetriever, and its errors name the
// corpus by the label it is given.
func TestLoadRetriever(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("# A\n\nfirst paragraph.\n\nsecond paragraph.\n")},
		"b.md": {Data: []byte("only one.\n")},
	}
	r, err := LoadRetriever(fsys, "mem", Paragraph)
	if err != nil {
		t.Fatal(err)
	}
	if r.Documents() != 2 || r.Len() != 3 || r.Chunking != Paragraph {
		t.Errorf("LoadRetriever: %d documents, %d chunks, %s; want 2, 3 (2+1 paragraphs), paragraph", r.Documents(), r.Len(), r.Chunking)
	}
	_, err = LoadRetriever(fstest.MapFS{"notes.txt": {Data: []byte("x")}}, "docs/", Paragraph)
	if want := "corpus docs/: no *.md document at the top of the directory"; err == nil || err.Error() != want {
		t.Errorf("no document: got %v, want %q", err, want)
	}
	_, err = LoadRetriever(os.DirFS(t.TempDir()+"/missing"), "missing", Sentence)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "corpus missing: no such directory") {
		t.Errorf("missing directory: got %v, want corpus missing: no such directory, wrapping fs.ErrNotExist", err)
	}
	if _, err := LoadRetriever(fsys, "mem", Chunking("word")); err == nil {
		t.Error("chunking \"word\" was accepted")
	}
}
