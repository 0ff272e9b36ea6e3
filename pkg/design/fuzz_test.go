package design

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzReadPlan: no input makes the reader panic; every metric of an
// accepted plan passes Metric.Validate (the rules Gate relies on); an
// accepted plan re-encodes to JSON that reads back to the same problems.
func FuzzReadPlan(f *testing.F) {
	for _, s := range []string{
		`{"task":"t","failures":[{"name":"f","cost":"high","metric":"m"}],"metrics":[{"name":"m","family":"correctness","gate":"block","threshold":0.9}],"dataset":{"name":"d","version":"1"},"release_rule":"r"}`,
		`{"task":"t","failures":[],"metrics":[],"dataset":{},"release_rule":""}`,
		`{"a":1,"a":2}`, `[`, `{"metrics":[{"threshold":1e400}]}`, "\ufeff{}", `{"case_values":{"lang":[""]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPlan(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			if p != nil {
				t.Fatal("plan and error both returned")
			}
			return
		}
		for _, m := range p.Metrics {
			if fes := m.Validate(); len(fes) > 0 {
				t.Fatalf("accepted plan has an invalid metric %+v: %v", m, fes[0])
			}
		}
		probs := p.Problems()
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshal accepted plan: %v", err)
		}
		q, err := ReadPlan(bytes.NewReader(out), "again.json")
		if err != nil {
			t.Fatalf("re-read of %s: %v", out, err)
		}
		if strings.Join(q.Problems(), "\n") != strings.Join(probs, "\n") {
			t.Fatalf("problems changed after a round trip")
		}
	})
}

// FuzzReadCases: no input makes the reader panic; accepted records
// re-encode to JSONL that reads back with the same dataset hash.
func FuzzReadCases(f *testing.F) {
	f.Add([]byte(okLine))
	f.Add([]byte(okLine + "\n" + strings.Replace(okLine, "x1", "x2", 1)))
	f.Add([]byte(`{"id":"a","question":"q","task":"unanswerable","set":"golden","lang":"bn","expect":"abstain","why":"ফেরত নীতি নেই।"}`))
	f.Add([]byte("{\n}\n[]\n\"x\"\n{\"id\":1}"))
	f.Add([]byte(`{"id":"a","id":"b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := ReadCases(bytes.NewReader(data), "fuzz.jsonl", DefaultVocabulary)
		if err != nil {
			if cases != nil {
				t.Fatal("cases and error both returned")
			}
			return
		}
		var buf bytes.Buffer
		for i := range cases {
			b, err := json.Marshal(cases[i])
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
		again, err := ReadCases(&buf, "again.jsonl", DefaultVocabulary)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if Hash(again) != Hash(cases) {
			t.Fatal("hash changed after a round trip")
		}
		if _, err := CoverageOf(cases, "task", "set", DefaultVocabulary, 2); err != nil {
			t.Fatal(err)
		}
	})
}
