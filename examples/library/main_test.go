package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTour runs the README's library tour. Its figures are those the
// command prints for the same data: 187 of 284 rows pass exact_substring,
// 65.8% with the Wilson interval [60.2, 71.1] (README, "Scoring
// responses"), and the annotators' kappa is 0.798 with the bootstrap
// interval 0.61 to 0.95 (README, "How sure are we?", seed 001's figures).
func TestTour(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"combined n=284  exact_substring  65.8% [60.2, 71.1]",
		"dataset hash 4eddc51363c3",
		"Cohen's kappa 0.798 (observed 0.867, chance 0.341), 95% bootstrap interval 0.61 to 0.95 over 30 items",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the tour does not print %q:\n%s", want, out.String())
		}
	}
}
