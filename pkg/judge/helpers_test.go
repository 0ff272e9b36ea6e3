package judge

import (
	"math"
	"os"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// warningMessages returns the warnings' messages, in order.
func warningMessages(ws []results.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Message
	}
	return out
}

// The sample data shipped in datasets/judge. The package cannot import
// datasets (core packages depend on the standard library, x/text and the
// core only), so the tests read the files themselves.
const (
	pairsFile   = "../../datasets/judge/pairs.jsonl"
	promptsFile = "../../datasets/judge/prompts.json"
)

func loadPairs(t testing.TB) []Pair {
	t.Helper()
	f, err := os.Open(pairsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pairs, err := ReadPairs(f, pairsFile)
	if err != nil {
		t.Fatal(err)
	}
	return pairs
}

func loadPrompts(t testing.TB) []Prompt {
	t.Helper()
	f, err := os.Open(promptsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := ReadPrompts(f, promptsFile)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func mustPrompt(t testing.TB, id string) Prompt {
	t.Helper()
	p, err := FindPrompt(loadPrompts(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pairByID(t testing.TB, pairs []Pair, id string) Pair {
	t.Helper()
	for _, p := range pairs {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no pair %s", id)
	return Pair{}
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// round3 rounds x to three decimals, the precision reports print.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
