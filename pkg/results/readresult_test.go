package results

import (
	"strings"
	"testing"
)

func TestReadResult(t *testing.T) {
	// A syntax error on line 2: "x" after the first member is at column 3
	// of `  x` (two spaces, then x).
	_, _, err := ReadResult("r.json", []byte("{\"kind\": \"score\",\n  x}"))
	if err == nil || !strings.HasPrefix(err.Error(), "r.json: line 2, column 3: ") {
		t.Errorf("syntax error: %v", err)
	}
	_, _, err = ReadResult("r.json", []byte(`{"kind": "mc"}`))
	if err == nil || !strings.Contains(err.Error(), `a result of kind "mc"`) {
		t.Errorf("unknown kind: %v", err)
	}
	_, _, err = ReadResult("j.json", []byte(`{"kind": "judge"}`))
	if err == nil || !strings.Contains(err.Error(), "without its score figures") {
		t.Errorf("judge without score: %v", err)
	}
	doc := `{"kind":"judge","score":{"kind":"score","tool":"t","dataset":{"path":"p","format":"csv","hash":"h","rows":1},` +
		`"settings":{"metrics":["llm_judge"],"normalize":"none","by":[],"ci":"none","confidence":0.95,"seed":1},"metric_defs":[],` +
		`"combined":{"n":1,"blank":0,"empty_golden":0,"metrics":{}},"groups":[],"agreement":[],"warnings":[]},` +
		`"review":{"title":"Review","columns":[{"name":"id"}],"rows":[["q1"]]}}`
	s, tables, err := ReadResult("j.json", []byte(doc))
	if err != nil || s.Combined.N != 1 || len(tables) != 1 || tables[0].Title != "Review" {
		t.Errorf("judge result: %v, %+v, %+v", err, s, tables)
	}
}
