package harness

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The readers never panic, and what they accept summarizes without error
// or with ErrUnknownResult: Summarize's case rules are the readers' own,
// so it never refuses a dataset ReadDataset accepted.
func FuzzReaders(f *testing.F) {
	f.Add([]byte(`[{"id":"A1","slice":"s","expected":"answer","fact":"f1"},{"id":"A2","slice":"s","expected":"abstain","fact":null}]`),
		[]byte(`{"A1":{"kind":"answer","fact":"f1"}}`))
	f.Add([]byte("{\"id\":\"E1\",\"slice\":\"x\",\"expected\":\"abstain\",\"fact\":null}\n"), []byte("{\"id\":\"E1\",\"kind\":\"abstain\"}\n"))
	f.Add([]byte(`[{"id":"A1","slice":"s","expected":"answer","fact":"f1"},{"id":"A1","slice":"s","expected":"abstain"}]`), []byte(`{"B9":{"kind":"error"}}`))
	f.Add([]byte(`[{"id":"A1","extra":1}]`), []byte(`{"A1":{"kind":"answer","fact":"f"},"A1":{"kind":"abstain"}}`))
	f.Fuzz(func(t *testing.T, dataset, results []byte) {
		ds, err1 := ReadDataset(bytes.NewReader(dataset), "d.json")
		res, err2 := ReadResults(bytes.NewReader(results), "r.json")
		if err1 != nil {
			if !strings.Contains(err1.Error(), "d.json") {
				t.Fatalf("dataset error does not name the file: %v", err1)
			}
			return
		}
		if err2 != nil {
			if !strings.Contains(err2.Error(), "r.json") {
				t.Fatalf("results error does not name the file: %v", err2)
			}
			return
		}
		rep, err := Summarize(ds, res)
		if err != nil {
			if !errors.Is(err, ErrUnknownResult) {
				t.Fatalf("unexpected Summarize error: %v", err)
			}
			return
		}
		if rep.Total != len(ds) || rep.Success > rep.Total || rep.Answered > rep.Total || rep.CorrectAnswers > rep.Answered {
			t.Fatalf("inconsistent report %+v for %d cases", rep, len(ds))
		}
		if rep.Success+rep.Missing > rep.Total { // a missing output never passes
			t.Fatalf("report %+v: success and missing overlap", rep)
		}
	})
}

func TestResultKindChecked(t *testing.T) {
	for _, in := range []string{`{"E1":{"kind":"maybe"}}`, "{\"id\":\"E1\",\"kind\":\"\"}\n"} {
		_, err := ReadResults(strings.NewReader(in), "r")
		if err == nil || !strings.Contains(err.Error(), "r:1:") || !strings.Contains(err.Error(), "kind: must be") {
			t.Errorf("ReadResults(%q) error = %v", in, err)
		}
	}
}
