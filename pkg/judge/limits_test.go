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
