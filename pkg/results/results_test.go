package results

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() *Score {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := func(by, name string, n int, c float64) Group {
		return Group{By: by, Group: name, N: n, Metrics: map[string]MetricScore{
			"exact_substring": {Correct: c, Accuracy: c / float64(n), CILow: 0.1, CIHigh: 0.9},
		}}
	}
	return &Score{
		Kind: "score", Tool: "evalbook test", Created: &at,
		Dataset:  Dataset{Path: "x.csv", Format: "csv", Hash: "0123456789ab", Rows: 3},
		Settings: Settings{Metrics: []string{"exact_substring"}, Normalize: "none", By: [][]string{{"Domain"}}, CI: "wilson", Confidence: 0.95, Seed: 1},
		Metrics:  []MetricDef{{ID: "exact_substring", Name: "Exact substring", Rule: "r"}},
		Combined: g("", "", 3, 2),
		Groups:   []Group{g("Domain", "Art", 1, 1), g("Domain", "Geo, India", 2, 1)},
		Agreement: []Agreement{{First: "a", Second: "b", Both: 1, Examples: map[string][]Example{
			"both": {{Line: 2, Golden: "Delhi ", Response: "line\nbreak"}}}}},
		Warnings: []Warning{{Code: "empty_golden", Message: "1 rows have an empty golden answer", Count: 1, Lines: []int{3}}},
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s := sample()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	got, err := ReadScore(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("round trip changed the result:\n got %+v\nwant %+v", got, s)
	}
	if _, err := ReadScore(strings.NewReader(`{"kind": "score", "surprise": 1}`)); err == nil {
		t.Error("an unknown field was accepted")
	}
	if _, err := ReadScore(strings.NewReader(`{"kind": "agree"}`)); err == nil {
		t.Error("a result of another kind was accepted")
	}
}

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"by", "group", "n", "blank", "empty_golden", "exact_substring_correct", "exact_substring_accuracy", "exact_substring_ci_low", "exact_substring_ci_high"},
		{"Domain", "Art", "1", "0", "0", "1", "1", "0.1", "0.9"},
		{"Domain", "Geo, India", "2", "0", "0", "1", "0.5", "0.1", "0.9"},
		{"", "combined", "3", "0", "0", "2", "0.6666666666666666", "0.1", "0.9"},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("CSV = %q\nwant %q", recs, want)
	}
}

func TestWriteTextShowsWhitespace(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{`"Delhi "`, `"line\nbreak"`, "Geo, India", "66.7%", "(lines 3)", "combined"} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q:\n%s", s, out)
		}
	}
}

func TestGroupTable(t *testing.T) {
	tab := GroupTable(sample(), "")
	if tab.Title != "Accuracy by Domain" || len(tab.Rows) != 3 || tab.Rows[2][0] != "combined" {
		t.Fatalf("table = %+v", tab)
	}
	// Geo: 1 of 2 correct.
	if got := tab.Rows[1]; got[0] != "Geo, India" || got[1] != "2" || got[3] != "0.5" || got[4] != "0.1" || got[5] != "0.9" {
		t.Errorf("row = %q", got)
	}
}
