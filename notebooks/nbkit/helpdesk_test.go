package nbkit

import (
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/harness"
)

// The sample has 31 case records (datasets/helpdesk/cases.jsonl, one per
// line), 7 of which expect an abstention, as notebooks 03, 06 and 07 say.
func TestHelpdeskCases(t *testing.T) {
	cs, err := HelpdeskCases()
	if err != nil {
		t.Fatal(err)
	}
	b, err := HelpdeskFile("cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(strings.TrimSpace(string(b)), "\n") + 1; len(cs) != 31 || lines != 31 {
		t.Fatalf("%d cases from %d lines, want 31 of each", len(cs), lines)
	}
	abstain := 0
	for _, c := range harness.RunCases(cs) {
		if c.Expect == harness.KindAbstain {
			abstain++
		}
	}
	if abstain != 7 {
		t.Errorf("%d cases expect an abstention, want 7", abstain)
	}
}

func TestHelpdeskFileMissing(t *testing.T) {
	_, err := HelpdeskFile("no-such.json")
	if err == nil || !strings.Contains(err.Error(), "help-desk sample") || !strings.Contains(err.Error(), "no-such.json") {
		t.Errorf("err = %v, want one naming the sample and the file", err)
	}
}

// HelpdeskSystem is the system notebook 06 calls version 2 (sentence chunks,
// minimum score 0.4, margin 0.1); it passes 24 of the 31 cases (06's opening).
func TestHelpdeskSystem(t *testing.T) {
	cs, err := HelpdeskCases()
	if err != nil {
		t.Fatal(err)
	}
	sys, err := HelpdeskSystem(harness.Sentence, 0.4, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if got := harness.Passed(harness.Run(sys, harness.RunCases(cs))); got != 24 {
		t.Errorf("version 2 passes %d cases, want 24", got)
	}
	if _, err := HelpdeskSystem(harness.Chunking("no-such"), 0.4, 0.1); err == nil {
		t.Error("an unknown chunking gave no error")
	}
}
