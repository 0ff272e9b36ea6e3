package design

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readSampleCases(t testing.TB) []Case {
	t.Helper()
	f, err := os.Open("../../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f, "cases.jsonl", DefaultVocabulary)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestReadSampleCases(t *testing.T) {
	cases := readSampleCases(t)
	if len(cases) != 31 {
		t.Fatalf("%d cases, want 31", len(cases))
	}
	seen := map[string]map[string]bool{"task": {}, "set": {}, "lang": {}}
	for i := range cases {
		for f := range seen {
			seen[f][cases[i].Field(f)] = true
		}
	}
	for f, vals := range seen {
		allowed, _ := DefaultVocabulary.Values(f)
		for _, a := range allowed {
			if !vals[a] {
				t.Errorf("no sample case has %s %q", f, a)
			}
		}
	}
}

const okLine = `{"id":"x1","question":"How long is the warranty?","task":"lookup","set":"golden","lang":"en","expect":"answer","doc_ids":["d"],"facts":["2 years"],"why":"Plain warranty lookup."}`

func TestReadCasesErrors(t *testing.T) {
	abstain := `{"id":"x2","question":"Open on Sunday?","task":"unanswerable","set":"golden","lang":"en","expect":"abstain","why":"No page has hours."}`
	tests := []struct {
		name, in string
		want     []string // each a substring of one reported error, in order
	}{
		// Columns: python3 line.index(value) + 1 on the same line.
		{"answer without facts", strings.Replace(okLine, `"facts":["2 years"]`, `"facts":[]`, 1),
			[]string{"c.jsonl:1:136 (column \"facts\"): an answer case needs doc_ids and facts"}},
		{"abstain with doc_ids", strings.Replace(abstain, `"expect":"abstain"`, `"expect":"abstain","doc_ids":["d"]`, 1),
			[]string{"(column \"doc_ids\"): an abstain case has neither doc_ids nor facts"}},
		{"unanswerable must abstain", strings.Replace(okLine, `"task":"lookup"`, `"task":"unanswerable"`, 1),
			[]string{`(column "expect"): task unanswerable and expect abstain go together (task "unanswerable", expect "answer")`}},
		{"abstain must be unanswerable", strings.Replace(abstain, `"unanswerable"`, `"lookup"`, 1),
			[]string{`(column "expect"): task unanswerable and expect abstain go together`}},
		{"short why", strings.Replace(okLine, `"Plain warranty lookup."`, `"too short"`, 1),
			[]string{"(column \"why\"): must be at least 10 characters, has 9"}},
		{"why counts characters not bytes", strings.Replace(okLine, `"Plain warranty lookup."`, `"ফেরত নীতি"`, 1),
			[]string{"(column \"why\"): must be at least 10 characters, has 9"}},
		{"bad set and lang", strings.Replace(strings.Replace(okLine, `"golden"`, `"gold"`, 1), `"en"`, `"hi"`, 1),
			[]string{`(column "set"): "gold" is not one of golden, adversarial, production_like`, `(column "lang"): "hi" is not one of en, bn`}},
		{"unknown field", strings.Replace(okLine, `"why"`, `"reason":"x","why"`, 1),
			[]string{`c.jsonl:1:148: unknown field "reason"`}},
		{"wrong type", strings.Replace(okLine, `"facts":["2 years"]`, `"facts":"2 years"`, 1),
			[]string{`(column "facts"): want a list, got a JSON string`}},
		{"duplicate id on line 3", okLine + "\n\n" + okLine, []string{`c.jsonl:3:1 (column "id"): duplicate case id "x1" (first on line 1)`}},
		{"error on line 2", abstain + "\n{\"id\": 1}", []string{"c.jsonl:2:"}},
		{"every bad line is reported", "{\n" + okLine + "\n[]", []string{"c.jsonl:1:", "c.jsonl:3:1: want a JSON object"}},
		// encoding/json would read each of these as U+FFFD. Columns:
		// python3 line.index(" long") + 1 on the same line (the bad byte
		// replaces the space before "long"), and line.index(" years") + 1.
		{"invalid UTF-8 in question", strings.Replace(okLine, "How long", "How\xfflong", 1),
			[]string{"c.jsonl:1:27 (column \"question\"): invalid UTF-8: byte 0xFF is not part of a UTF-8 character"}},
		{"invalid UTF-8 in a fact", okLine + "\n" + strings.Replace(strings.Replace(okLine, "x1", "x2", 1), "2 years", "2\xc3years", 1),
			[]string{"c.jsonl:2:139 (column \"facts[0]\"): invalid UTF-8: byte 0xC3"}},
		{"lone surrogate escape", strings.Replace(okLine, "How long", `How\udc00long`, 1),
			[]string{`c.jsonl:1:27 (column "question"): invalid UTF-8: the escape \udc00 is half of a UTF-16 surrogate pair`}},
		{"empty file", "", []string{"c.jsonl: no case records (the file is empty)"}},
		{"blank lines only", "\ufeff\n  \n\n", []string{"c.jsonl: no case records (the file has only blank lines)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCases(strings.NewReader(tc.in), "c.jsonl", DefaultVocabulary)
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v is not an ErrorList", err)
			}
			if len(list) != len(tc.want) {
				t.Fatalf("%d errors (%v), want %d", len(list), err, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(list[i].Error(), w) {
					t.Errorf("error %d = %q, want it to contain %q", i, list[i], w)
				}
			}
		})
	}
}

func TestReadCasesExtendedVocabulary(t *testing.T) {
	line := strings.Replace(okLine, `"en"`, `"hi"`, 1)
	if _, err := ReadCases(strings.NewReader(line), "c.jsonl", DefaultVocabulary); err == nil {
		t.Fatal("lang hi accepted by the default vocabulary")
	}
	v := DefaultVocabulary.Extend(Vocabulary{Lang: []string{"hi"}})
	cases, err := ReadCases(strings.NewReader("\ufeff"+line+"\n\n"), "c.jsonl", v)
	if err != nil || len(cases) != 1 || cases[0].Lang != "hi" {
		t.Fatalf("with hi allowed: %v, %v", cases, err)
	}
}

// The zero Vocabulary used to reject every record with `task: "lookup" is
// not one of ` (an empty list); now it is one error before reading.
func TestReadCasesEmptyVocabulary(t *testing.T) {
	for _, tc := range []struct {
		name     string
		v        Vocabulary
		want     string
		sentinel error
	}{
		{"zero", Vocabulary{}, "the case vocabulary is empty: it allows no task, set, lang value (start from DefaultVocabulary and Extend it)", ErrEmptyVocabulary},
		{"no set", Vocabulary{Task: DefaultVocabulary.Task, Lang: DefaultVocabulary.Lang}, "the case vocabulary is empty: it allows no set value (start from DefaultVocabulary and Extend it)", ErrEmptyVocabulary},
		{"blank value", DefaultVocabulary.Extend(Vocabulary{Lang: []string{" hi"}}), `case vocabulary lang[2]: " hi" is not a non-empty value without surrounding spaces`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cases, err := ReadCases(strings.NewReader(okLine+"\n"+okLine), "c.jsonl", tc.v)
			if err == nil || cases != nil || err.Error() != tc.want {
				t.Fatalf("ReadCases = %v, %v; want error %q", cases, err, tc.want)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
			var list ErrorList
			if errors.As(err, &list) {
				t.Errorf("error %v is a per-record list; want one error about the vocabulary", err)
			}
		})
	}
	if err := DefaultVocabulary.Validate(); err != nil {
		t.Errorf("DefaultVocabulary.Validate() = %v", err)
	}
	// Case.Validate on its own names the empty list instead of printing it.
	c := Case{ID: "x", Question: "q?", Task: "lookup", Set: "golden", Lang: "en", Expect: "abstain", Why: "0123456789"}
	var got []string
	for _, fe := range c.Validate(Vocabulary{Task: []string{"lookup"}, Lang: []string{"en"}}) {
		got = append(got, fe.Error())
	}
	want := []string{`set: "golden" is not allowed: the vocabulary has no set value`, `expect: task unanswerable and expect abstain go together (task "lookup", expect "abstain")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Validate = %q, want %q", got, want)
	}
}

func TestCheckUnique(t *testing.T) {
	c := []Case{{ID: "a"}, {ID: "b"}, {ID: "a"}}
	if err := CheckUnique(c); !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("CheckUnique = %v", err)
	}
	if err := CheckUnique(c[:2]); err != nil {
		t.Errorf("CheckUnique(unique) = %v", err)
	}
}

// The lesson's coverage (seed 003, SPEC.md section 3): 7 cells under 2
// cases and one empty cell, paraphrase x adversarial. The matrix printed
// there is rebuilt here cell by cell.
func TestCoverageLessonFigures(t *testing.T) {
	lesson := [][]int{ // rows: tasks; columns: golden, adversarial, production_like
		{6, 1, 5}, {1, 1, 1}, {2, 0, 2}, {3, 2, 1}, {2, 3, 1},
	}
	var cases []Case
	for i, task := range DefaultVocabulary.Task {
		for j, set := range DefaultVocabulary.Set {
			for k := 0; k < lesson[i][j]; k++ {
				cases = append(cases, Case{Task: task, Set: set})
			}
		}
	}
	if len(cases) != 31 {
		t.Fatalf("%d cases, want the lesson's 31", len(cases))
	}
	cov, err := CoverageOf(cases, "task", "set", DefaultVocabulary, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cov.Counts, lesson) {
		t.Errorf("counts = %v, want %v", cov.Counts, lesson)
	}
	if len(cov.UnderMin) != 7 {
		t.Errorf("%d cells under 2, want 7: %v", len(cov.UnderMin), cov.UnderMin)
	}
	if want := []Cell{{"paraphrase", "adversarial", 0}}; !reflect.DeepEqual(cov.Empty, want) {
		t.Errorf("empty = %v, want %v", cov.Empty, want)
	}
}

// The sample's matrix, counted by hand from datasets/helpdesk/cases.jsonl:
// multi_fact x adversarial is empty on purpose.
func TestCoverageSample(t *testing.T) {
	cov, err := CoverageOf(readSampleCases(t), "task", "set", DefaultVocabulary, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{5, 2, 4}, {2, 1, 1}, {2, 1, 1}, {3, 0, 2}, {2, 3, 2}}
	if !reflect.DeepEqual(cov.Counts, want) {
		t.Errorf("counts = %v, want %v", cov.Counts, want)
	}
	if want := []Cell{{"multi_fact", "adversarial", 0}}; !reflect.DeepEqual(cov.Empty, want) {
		t.Errorf("empty = %v, want %v", cov.Empty, want)
	}
	if len(cov.UnderMin) != 5 {
		t.Errorf("%d cells under 2, want 5", len(cov.UnderMin))
	}
	// Other fields, and a value no case has (lang "hi" added by a plan).
	v := DefaultVocabulary.Extend(Vocabulary{Lang: []string{"hi"}})
	cov, err = CoverageOf(readSampleCases(t), "lang", "expect", v, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{19, 4}, {5, 3}, {0, 0}}; !reflect.DeepEqual(cov.Counts, want) {
		t.Errorf("lang x expect = %v, want %v", cov.Counts, want)
	}
	if len(cov.Empty) != 2 {
		t.Errorf("empty = %v, want the two hi cells", cov.Empty)
	}
	if _, err := CoverageOf(nil, "task", "task", v, 2); err == nil {
		t.Error("same field twice accepted")
	}
	if _, err := CoverageOf(nil, "task", "why", v, 2); err == nil {
		t.Error("field why accepted")
	}
}
