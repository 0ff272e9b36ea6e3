package generate

import (
	"os"
	"testing"
)

// TestTemplatesFileHash: the prompt hash a stored generate run records is
// the first 12 hex digits of SHA-256 over the file's bytes. The shipped
// file's value is from `sha256sum datasets/leaderboard/generate_prompts.json`
// (GNU coreutils 9.1); one byte more (a trailing newline, which the JSON
// reader ignores) is a new hash.
func TestTemplatesFileHash(t *testing.T) {
	data, err := os.ReadFile("../../datasets/leaderboard/generate_prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := ReadTemplates(data, "generate_prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	if tpl.FileHash != "d3d34a2b72b7" {
		t.Errorf("FileHash = %q, want d3d34a2b72b7", tpl.FileHash)
	}
	more, err := ReadTemplates(append(data, '\n'), "generate_prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	if more.FileHash == tpl.FileHash {
		t.Errorf("a changed file keeps the hash %q", more.FileHash)
	}
}
