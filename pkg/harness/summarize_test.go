package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

func loadFixture(t *testing.T, dataset, results string) ([]Case, map[string]Outcome) {
	t.Helper()
	df, err := os.Open("../../datasets/helpdesk/" + dataset)
	if err != nil {
		t.Fatal(err)
	}
	defer df.Close()
	ds, err := ReadDataset(df, dataset)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := os.Open("../../datasets/helpdesk/" + results)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	res, err := ReadResults(rf, results)
	if err != nil {
		t.Fatal(err)
	}
	return ds, res
}

func f64(v float64) *float64 { return &v }

func checkReport(t *testing.T, got *Report, want Report) {
	t.Helper()
	rates := func(r Report) [3]*float64 { return [3]*float64{r.TaskSuccess, r.AnswerCoverage, r.AnsweredAccuracy} }
	g, w := rates(*got), rates(want)
	for i := range g {
		if (g[i] == nil) != (w[i] == nil) || g[i] != nil && math.Abs(*g[i]-*w[i]) > 1e-12 {
			t.Errorf("rate %d = %v, want %v", i, fmtRate(g[i]), fmtRate(w[i]))
		}
	}
	got2, want2 := *got, want
	got2.TaskSuccess, got2.AnswerCoverage, got2.AnsweredAccuracy = nil, nil, nil
	want2.TaskSuccess, want2.AnswerCoverage, want2.AnsweredAccuracy = nil, nil, nil
	if !reflect.DeepEqual(got2, want2) {
		t.Errorf("report = %+v, want %+v", got2, want2)
	}
}

func fmtRate(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// The fixture of seed 004 (SPEC.md section 4), scored by hand:
// E1 passes (answer with the right fact), E2 answers the wrong fact, E3
// passes (abstains), E4 answers an abstain case, E5 is an error, E6
// abstains on an answer case. success 2 (E1, E3), answered 3 (E1, E2, E4),
// correct answers 1, errors 1, missing 0; task success 2/6, answer
// coverage 3/6, answered accuracy 1/3.
func TestSummarizeSeedFixture(t *testing.T) {
	ds, res := loadFixture(t, "seed004_dataset.json", "seed004_results.json")
	got, err := Summarize(ds, res)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, got, Report{Total: 6, Success: 2, Answered: 3, CorrectAnswers: 1, Errors: 1, Missing: 0,
		TaskSuccess: f64(2.0 / 6), AnswerCoverage: f64(3.0 / 6), AnsweredAccuracy: f64(1.0 / 3),
		Slices: map[string]SliceCount{"standard": {2, 1}, "exception": {2, 0}, "missing": {2, 1}}})
}

// The same fixture plus E7 with no recorded outcome: it stays in the
// denominators, never passes, and is neither an abstention nor an error.
func TestSummarizeMissingOutput(t *testing.T) {
	ds, res := loadFixture(t, "seed004_dataset_missing.json", "seed004_results.json")
	got, err := Summarize(ds, res)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, got, Report{Total: 7, Success: 2, Answered: 3, CorrectAnswers: 1, Errors: 1, Missing: 1,
		TaskSuccess: f64(2.0 / 7), AnswerCoverage: f64(3.0 / 7), AnsweredAccuracy: f64(1.0 / 3),
		Slices: map[string]SliceCount{"standard": {3, 1}, "exception": {2, 0}, "missing": {2, 1}}})
}

// The worked example of seed 004, compared as JSON with the figures the
// seed prints (snake_case keys).
func TestSummarizeExample(t *testing.T) {
	ds, res := loadFixture(t, "example_dataset.json", "example_results.json")
	got, err := Summarize(ds, res)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `{"total":2,"success":1,"answered":1,"correct_answers":1,"errors":0,"missing":1,` +
		`"task_success":0.5,"answer_coverage":0.5,"answered_accuracy":1,"slices":{"s":{"total":2,"success":1}}}`
	if string(b) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", b, want)
	}
	// The page's and workbook's table shows the rates as its cards do
	// (1 of 2 cases: 50.0%, not 0.500), the counts as counts.
	tb := got.Tables()[0]
	var cells []string
	for i, r := range tb.Rows {
		cells = append(cells, r[0]+" "+tb.Cell(i, 1))
	}
	if g, w := strings.Join(cells, ", "), "total 2, success 1, answered 1, correct answers 1, errors 0, missing 1, "+
		"task success 50.0%, answer coverage 50.0%, answered accuracy 100.0%"; g != w {
		t.Errorf("figures table:\n%s\nwant\n%s", g, w)
	}
}

func TestSummarizeErrors(t *testing.T) {
	fact, empty, blank := "f", "", " "
	ds := []Case{{ID: "A", Slice: "s", Expected: "answer", Fact: &fact}, {ID: "B", Slice: "s", Expected: "abstain"}}
	for _, tc := range []struct {
		name     string
		ds       []Case
		res      map[string]Outcome
		want     string
		sentinel error
	}{
		{"duplicate case", append(ds, ds[0]), nil, `dataset[2]: id: Duplicate case ID: "A" (first at dataset[0])`, ErrDuplicateCase},
		{"unknown result", ds, map[string]Outcome{"Z": {Kind: "abstain"}, "Y": {Kind: "abstain"}}, `Unknown result ID: "Y" (and 1 more)`, ErrUnknownResult},
		{"duplicate before unknown", append(ds, ds[1]), map[string]Outcome{"Z": {Kind: "error"}}, "Duplicate case ID", ErrDuplicateCase},
		{"bad kind", ds, map[string]Outcome{"A": {Kind: "maybe"}}, `kind must be answer, abstain or error`, nil},
		{"bad expected", []Case{{ID: "A", Slice: "s", Expected: "both"}}, nil, `dataset[0]: expected: case "A": must be "answer" or "abstain", got "both"`, nil},
		{"answer without fact", []Case{{ID: "A", Slice: "s", Expected: "answer"}}, nil, `dataset[0]: fact: case "A": an answer case needs the fact`, nil},
		// The rules ReadDataset enforces (TestReadDatasetRejects), which
		// Summarize used to skip: with an empty fact, an answer stating
		// nothing counted as a correct answer.
		{"answer case with an empty fact", append(ds[:1:1], Case{ID: "C", Slice: "s", Expected: "answer", Fact: &empty}),
			map[string]Outcome{"C": {Kind: "answer"}}, `dataset[1]: fact: case "C": an answer case needs a non-empty fact`, nil},
		{"answer case with a blank fact", []Case{{ID: "C", Slice: "s", Expected: "answer", Fact: &blank}}, nil, `dataset[0]: fact: case "C": an answer case needs a non-empty fact`, nil},
		{"abstain case with a fact", []Case{{ID: "B", Slice: "s", Expected: "abstain", Fact: &fact}}, nil, `dataset[0]: fact: case "B" expects abstain, so its fact must be null, got "f"`, nil},
		{"empty slice", append(ds[:1:1], Case{ID: "B", Expected: "abstain"}), nil, `dataset[1]: slice: case "B" needs a non-empty slice name`, nil},
		{"blank slice", []Case{{ID: "B", Slice: " ", Expected: "abstain"}}, nil, `dataset[0]: slice: case "B" needs a non-empty slice name`, nil},
		{"empty id", append(ds[:1:1], Case{Slice: "s", Expected: "abstain"}), nil, `dataset[1]: id: must be a non-empty string`, nil},
		{"blank id", []Case{{ID: "\t", Slice: "s", Expected: "abstain"}}, nil, `dataset[0]: id: must be a non-empty string`, nil},
		{"invalid case before unknown result", []Case{{ID: "A", Slice: "s", Expected: "answer"}}, map[string]Outcome{"Z": {Kind: "error"}}, `dataset[0]: fact:`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Summarize(tc.ds, tc.res)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
		})
	}
}

// Rates with a zero denominator are null (SPEC.md section 4, seed 004: "A
// rate whose denominator is 0 is null, never 0 or NaN"), so an empty
// dataset is no error: total 0 and three null rates. A slice with no
// success still appears.
func TestSummarizeNullRates(t *testing.T) {
	got, err := Summarize(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if want := `{"total":0,"success":0,"answered":0,"correct_answers":0,"errors":0,"missing":0,"task_success":null,"answer_coverage":null,"answered_accuracy":null,"slices":{}}`; string(b) != want {
		t.Errorf("empty dataset JSON = %s, want %s", b, want)
	}
	got, err = Summarize([]Case{{ID: "B", Slice: "quiet", Expected: "abstain"}}, map[string]Outcome{"B": {Kind: "error"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.AnsweredAccuracy != nil || got.Slices["quiet"] != (SliceCount{1, 0}) || got.Errors != 1 || *got.TaskSuccess != 0 {
		t.Errorf("report = %+v", got)
	}
}

func TestReadersFormats(t *testing.T) {
	jsonl := `{"id":"E1","slice":"s","expected":"answer","fact":"f"}` + "\n\n" + `{"id":"E2","slice":"s","expected":"abstain","fact":null}`
	ds, err := ReadDataset(strings.NewReader(jsonl), "d.jsonl")
	if err != nil || len(ds) != 2 || ds[1].Fact != nil || *ds[0].Fact != "f" {
		t.Fatalf("JSONL dataset = %+v, %v", ds, err)
	}
	res, err := ReadResults(strings.NewReader(`{"id":"E1","kind":"answer","fact":"f"}`+"\n"+`{"id":"E2","kind":"abstain"}`), "r.jsonl")
	if err != nil || !reflect.DeepEqual(res, map[string]Outcome{"E1": {"answer", "f"}, "E2": {"abstain", ""}}) {
		t.Fatalf("JSONL results = %v, %v", res, err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"unknown field in array", "[\n{\"id\":\"a\",\"slice\":\"s\",\"expected\":\"abstain\",\"fact\":null},\n{\"id\":\"b\",\"kind\":1}\n]", `d:3: json: unknown field "kind"`},
		{"missing id", `{"slice":"s","expected":"abstain"}`, "d:1 (column \"id\"): must be a non-empty string"},
		{"trailing", `[] []`, "unexpected data after the JSON array"},
		{"jsonl garbage", "{\"id\":\"a\",\"slice\":\"s\",\"expected\":\"abstain\"}\n{", "d:2:"},
		{"bad expected", `{"id":"a","slice":"s","expected":"maybe"}`, `d:1 (column "expected"): case "a": must be "answer" or "abstain", got "maybe"`},
		{"answer without fact", `{"id":"a","slice":"s","expected":"answer"}`, `d:1 (column "fact"): case "a": an answer case needs the fact`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDataset(strings.NewReader(tc.in), "d")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, in, want string }{
		{"twice in object", `{"E1": {"kind": "abstain"}, "E1": {"kind": "error"}}`, `result for case "E1" recorded twice`},
		{"twice in jsonl", "{\"id\":\"E1\",\"kind\":\"error\"}\n{\"id\":\"E1\",\"kind\":\"error\"}", "r:2: result for case \"E1\" recorded twice (first on line 1)"},
		{"unknown outcome field", `{"E1": {"kind": "answer", "facts": "x"}}`, `unknown field "facts"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadResults(strings.NewReader(tc.in), "r")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Passes on its own (without Summarize's checks) fails closed on an
// answer case without a usable fact.
func TestPassesBlankFact(t *testing.T) {
	f, empty, blank := "f", "", " "
	for _, tc := range []struct {
		name string
		fact *string
		o    Outcome
		want bool
	}{
		{"same fact", &f, Outcome{Kind: KindAnswer, Fact: "f"}, true},
		{"other fact", &f, Outcome{Kind: KindAnswer, Fact: "g"}, false},
		{"no fact", nil, Outcome{Kind: KindAnswer}, false},
		{"empty fact, answer stating nothing", &empty, Outcome{Kind: KindAnswer}, false},
		{"blank fact, answer stating the blank", &blank, Outcome{Kind: KindAnswer, Fact: " "}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Passes(Case{ID: "A", Slice: "s", Expected: KindAnswer, Fact: tc.fact}, &tc.o); got != tc.want {
				t.Errorf("Passes = %v, want %v", got, tc.want)
			}
		})
	}
}

func ExampleSummarize() {
	f1 := "f1"
	r, _ := Summarize(
		[]Case{{ID: "A1", Slice: "s", Expected: "answer", Fact: &f1}, {ID: "A2", Slice: "s", Expected: "abstain"}},
		map[string]Outcome{"A1": {Kind: "answer", Fact: "f1"}},
	)
	fmt.Println(r.Total, r.Success, r.Answered, r.CorrectAnswers, r.Errors, r.Missing)
	fmt.Println(*r.TaskSuccess, *r.AnswerCoverage, *r.AnsweredAccuracy, r.Slices["s"])
	// Output:
	// 2 1 1 1 0 1
	// 0.5 0.5 1 {2 1}
}
