package judge

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A prompt file larger than tabular.MaxFile (--max-file-mib) is refused
// unread, naming the file, the limit and the flag; one of exactly the
// limit reads.
func TestReadPromptsFileLimit(t *testing.T) {
	data, err := os.ReadFile("../../datasets/judge/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	old := tabular.MaxFile
	t.Cleanup(func() { tabular.MaxFile = old })
	tabular.MaxFile = int64(len(data))
	if _, err := ReadPrompts(strings.NewReader(string(data)), "prompts.json"); err != nil {
		t.Fatalf("a prompt file of exactly the limit: %v", err)
	}
	tabular.MaxFile = int64(len(data) - 1)
	_, err = ReadPrompts(strings.NewReader(string(data)), "prompts.json")
	var pe *ParseError
	if !errors.Is(err, tabular.ErrFileTooLarge) || !errors.As(err, &pe) || pe.File != "prompts.json" ||
		!strings.Contains(err.Error(), tabular.Size(len(data)-1)) || !strings.Contains(err.Error(), "--max-file-mib") {
		t.Errorf("%v; want an error naming prompts.json, %s and --max-file-mib", err, tabular.Size(len(data)-1))
	}
}

// A labelled-pairs line longer than tabular.Limit (--max-field-mib) is
// an error at its line naming the limit and the flag (the limit used to
// be fixed at 64 MiB, whatever the flag said).
func TestReadPairsLineLimit(t *testing.T) {
	data, err := os.ReadFile("../../datasets/judge/pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	old := tabular.Limit
	t.Cleanup(func() { tabular.Limit = old })
	tabular.Limit.MaxRecord = 4096
	if _, err := ReadPairs(strings.NewReader(lines[0]+lines[1]), "pairs.jsonl"); err != nil {
		t.Fatalf("two pairs under the limit: %v", err)
	}
	long := strings.Replace(lines[1], `"question": "`, `"question": "`+strings.Repeat("q", 5000), 1)
	if len(long) <= 5000 {
		t.Fatal("the test could not lengthen line 2")
	}
	_, err = ReadPairs(strings.NewReader(lines[0]+long), "pairs.jsonl")
	var pe *ParseError
	if !errors.Is(err, tabular.ErrTooLong) || !errors.As(err, &pe) || pe.File != "pairs.jsonl" || pe.Line != 2 ||
		!strings.Contains(err.Error(), "4096 bytes") || !strings.Contains(err.Error(), "--max-field-mib") {
		t.Errorf("%v; want pairs.jsonl:2, 4096 bytes and --max-field-mib", err)
	}
}
