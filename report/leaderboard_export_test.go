package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Two metrics give two boards: a workbook with a sheet per table of each,
// and one page holding both.
func TestLeaderboardExports(t *testing.T) {
	dir := t.TempDir()
	x, h := filepath.Join(dir, "lb.xlsx"), filepath.Join(dir, "lb.html")
	out, errs, code := runCLI(t, "leaderboard", "--metric", "exact_substring,chrf", "--xlsx", x, "--html", h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Leaderboard: exact_substring") || !strings.Contains(out, "Leaderboard: chrf") {
		t.Errorf("text output lacks one of the boards:\n%s", out)
	}
	f, err := excelize.OpenFile(x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := strings.Join(f.GetSheetList(), "|")
	for _, want := range []string{"exact_substring", "chrf"} {
		if !strings.Contains(sheets, want) {
			t.Errorf("workbook sheets %q lack one for %s", sheets, want)
		}
	}
	page, err := os.ReadFile(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Leaderboard: exact_substring", "Leaderboard: chrf", "kestrel-7b", "tern-13b"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "http://") || strings.Contains(string(page), "https://") {
		t.Error("page refers to the network")
	}
}
