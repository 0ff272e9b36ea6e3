package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
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
		Warnings: []Warning{{Code: "empty_golden", Message: "1 row has an empty golden answer", Count: 1, Lines: []int{3}}},
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
	for _, s := range []string{`"Delhi "`, `"line\nbreak"`, "Geo, India", "66.7%", "(line 3)", "combined"} {
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

// TestWarningLinesWording: one line listed is "(line 3)"; several, or
// one of several rows, "(lines ...)".
func TestWarningLinesWording(t *testing.T) {
	for _, c := range []struct {
		w    Warning
		want string
	}{
		{Warning{Message: "m", Count: 1, Lines: []int{3}}, "m (line 3)"},
		{Warning{Message: "m", Count: 2, Lines: []int{3, 5}}, "m (lines 3, 5)"},
		{Warning{Message: "m", Count: 30, Lines: []int{3}}, "m (lines 3, ... 29 more)"},
	} {
		s := sample()
		s.Warnings = []Warning{c.w}
		var b bytes.Buffer
		if err := s.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want+"\n") {
			t.Errorf("warning %+v: output lacks %q:\n%s", c.w, c.want, b.String())
		}
	}
}

// TestReadScoreRefuses: empty input and data after the document are
// errors that say so (they were a bare EOF and silently accepted).
func TestReadScoreRefuses(t *testing.T) {
	var doc bytes.Buffer
	if err := sample().WriteJSON(&doc); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(doc.String(), "\n") // WriteJSON ends with a newline
	if _, err := ReadScore(bytes.NewReader(append(doc.Bytes(), " \n\t\n"...))); err != nil {
		t.Errorf("trailing whitespace refused: %v", err)
	}
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "no JSON document: the input is empty"},
		{"only whitespace", " \n ", "no JSON document"},
		{"a second document", doc.String() + doc.String(), fmt.Sprintf("line %d, column 1: data after the end of the JSON document", lines+1)},
		{"junk on the last line", strings.TrimSuffix(doc.String(), "\n") + " x\n", fmt.Sprintf("line %d, column 3: data after", lines)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadScore(strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	if _, err := ReadScore(strings.NewReader("")); !errors.Is(err, ErrNoDocument) {
		t.Errorf("empty input: %v is not ErrNoDocument", err)
	}
}

// TestScoreTables: a Score is a Report; its tables are the settings, one
// table per grouping (the sample has Domain), the agreement buckets and
// the warnings, with the figures of the result.
func TestScoreTables(t *testing.T) {
	var r Report = sample()
	tabs := r.Tables()
	var titles []string
	for _, tb := range tabs {
		if err := tb.Check(); err != nil {
			t.Errorf("%s: %v", tb.Title, err)
		}
		titles = append(titles, tb.Title)
	}
	want := []string{"Dataset and settings", "Accuracy by Domain", "Agreement between metrics", "Warnings"}
	if !reflect.DeepEqual(titles, want) {
		t.Fatalf("titles %q, want %q", titles, want)
	}
	if got := tabs[0].Rows[0]; got[0] != "dataset" || got[1] != "x.csv" {
		t.Errorf("settings row %q", got)
	}
	if !reflect.DeepEqual(tabs[1], GroupTable(sample(), "Domain")) {
		t.Errorf("group table %+v", tabs[1])
	}
	// The sample's one pair: a and b, both pass on 1 row, no other bucket.
	if got := tabs[2].Rows; !reflect.DeepEqual(got, [][]string{{"a", "b", "1", "0", "0", "0"}}) {
		t.Errorf("agreement rows %q", got)
	}
	if got := tabs[3].Rows[0]; got[0] != "empty_golden" || got[1] != "1" {
		t.Errorf("warning row %q", got)
	}
	// No grouping: one table of the combined line.
	s := sample()
	s.Groups, s.Settings.By = nil, nil
	tabs = s.Tables()
	if tabs[1].Title != "Accuracy" || len(tabs[1].Rows) != 1 || tabs[1].Rows[0][0] != "combined" || tabs[1].Rows[0][1] != "3" {
		t.Errorf("ungrouped table %+v", tabs[1])
	}
}
