package qa

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestGenerationFailedRows: a response table from evalbook generate whose
// failed rows carry an error cell scores only the rows that have a
// response; the others are counted, with their lines, in one warning
// (before, they counted as blank responses, so as wrong answers).
func TestGenerationFailedRows(t *testing.T) {
	in := "question,answer,Domain,response,error\n" +
		"q1,Delhi,D,Delhi,\n" +
		"q2,Dhaka,D,,HTTP 500 after 4 attempts: server error\n" +
		"q3,Paris,D,Rome,\n" +
		"q4,Agra,D,,HTTP 200 not retried: malformed reply\n"
	for _, file := range []string{"t.csv", "t.jsonl"} {
		data := in
		if file == "t.jsonl" {
			data = `{"question": "q1", "answer": "Delhi", "Domain": "D", "response": "Delhi", "error": ""}` + "\n" +
				`{"question": "q2", "answer": "Dhaka", "Domain": "D", "response": "", "error": "HTTP 500 after 4 attempts"}` + "\n" +
				`{"question": "q3", "answer": "Paris", "Domain": "D", "response": "Rome", "error": ""}` + "\n" +
				`{"question": "q4", "answer": "Agra", "Domain": "D", "response": "", "error": "malformed"}` + "\n"
		}
		res, err := Score(context.Background(), strings.NewReader(data), file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Combined.N != 2 || res.Combined.Blank != 0 || res.Combined.Metrics["exact_substring"].Correct != 1 {
			t.Errorf("%s: n %d, blank %d, exact_substring %+v; want 2 rows scored, none blank, 1 correct", file, res.Combined.N, res.Combined.Blank, res.Combined.Metrics["exact_substring"])
		}
		var found bool
		for _, w := range res.Warnings {
			if w.Code == CodeGenerationFailed {
				found = true
				want := []int{3, 5} // CSV: the header is line 1
				if file == "t.jsonl" {
					want = []int{2, 4}
				}
				if w.Count != 2 || fmt.Sprint(w.Lines) != fmt.Sprint(want) {
					t.Errorf("%s: warning %+v, want 2 rows at lines %v", file, w, want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s warning in %+v", file, CodeGenerationFailed, res.Warnings)
		}
	}
}
