package results

import "testing"

// Score's verdict: a binary metric as "k of n rows correct" with its
// interval, a graded one as a mean score, no interval when none was
// asked for, at most three metrics in words and the rest counted.
func TestScoreHeadline(t *testing.T) {
	s := &Score{Dataset: Dataset{Path: "/private/folder/answers.csv"},
		Settings: Settings{Metrics: []string{"a", "g", "c", "d"}, CI: "none"},
		Metrics:  []MetricDef{{ID: "a"}, {ID: "g", Graded: true}, {ID: "c"}, {ID: "d"}},
		Combined: Group{N: 8, Metrics: map[string]MetricScore{
			"a": {Correct: 6, Accuracy: 0.75, CILow: 0.75, CIHigh: 0.75},
			"g": {Correct: 5, Accuracy: 0.625, CILow: 0.625, CIHigh: 0.625},
			"c": {Correct: 2, Accuracy: 0.5, N: 4, CILow: 0.5, CIHigh: 0.5},
			"d": {Correct: 0, Accuracy: 0},
		}}}
	h := s.Headline()
	want := "a: 75.0% of 8 rows correct; g: 62.5% mean score over 8 rows; c: 50.0% of 4 rows correct. 1 metric more on the cards."
	if h.Verdict != want || h.Tone != "" || h.Subject != "answers.csv" || len(h.Cards) != 4 {
		t.Errorf("got %q tone %q subject %q, %d cards\nwant %q", h.Verdict, h.Tone, h.Subject, len(h.Cards), want)
	}
	// With a 95% Wilson interval, as the score stored it (3 of 4, z = 1.96:
	// centre (p + z²/2n)/(1 + z²/n) = 0.6275, half-width
	// z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n) = 0.3269: 0.3006 to 0.9544),
	// and one blank response, which makes the tone a warning.
	s = &Score{Settings: Settings{Metrics: []string{"a"}, CI: "wilson", Confidence: 0.95},
		Combined: Group{N: 4, Blank: 1, Metrics: map[string]MetricScore{"a": {Correct: 3, Accuracy: 0.75, CILow: 0.3006, CIHigh: 0.9544}}}}
	h = s.Headline()
	want = "a: 75.0% of 4 rows correct (95% wilson interval 30.1% to 95.4%)."
	if h.Verdict != want || h.Tone != ToneWarn || len(h.Notes) != 1 || h.Notes[0] != "1 of 4 responses are blank and count as wrong." {
		t.Errorf("got %q tone %q notes %q\nwant %q", h.Verdict, h.Tone, h.Notes, want)
	}
}
