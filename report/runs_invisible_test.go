package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A run title, a model and a group label holding U+202E RIGHT-TO-LEFT
// OVERRIDE (a title typed from a file, a Domain from the data) are shown
// as <U+202E> by runs list, runs show, history (its table and its trend
// labels), runs diff and aa in text, so that the override cannot reorder
// what follows it on the terminal; the JSON keeps the text as stored.
func TestRunsShowInvisible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	table := func(pass func(int) bool) string {
		var b strings.Builder
		b.WriteString("id,question,answer,Domain,response\n")
		for i := range 20 {
			resp := fmt.Sprintf("answer %d", i)
			if !pass(i) {
				resp = "no"
			}
			fmt.Fprintf(&b, "q%d,Q%d?,answer %d,%s,%s\n", i, i, i, []string{"geo\u202Etxt.exe", "lit"}[i%2], resp)
		}
		return b.String()
	}
	scoreAndRecord(t, path, "a.csv", table(func(i int) bool { return i < 10 }), "--record-title", "weekly \u202Egnp.exe", "--record-model", "m\u202E1")
	scoreAndRecord(t, path, "b.csv", table(func(i int) bool { return i < 12 }), "--record-title", "again", "--record-model", "m\u202E1")
	for _, args := range [][]string{
		{"runs", "list"},
		{"runs", "show", "1"},
		{"history", "--metric", "exact_substring", "--by", "Domain"},
		{"runs", "diff", "1", "2"},
		{"aa", "1", "2"},
	} {
		out, errOut, code := runCLI(t, append(args, "--store", path)...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", strings.Join(args, " "), code, errOut)
		}
		if strings.ContainsRune(out, '\u202E') || !strings.Contains(out, "<U+202E>") {
			t.Errorf("%s shows U+202E raw or not at all:\n%s", strings.Join(args, " "), out)
		}
	}
	out, _, code := runCLI(t, "runs", "list", "--json", "--store", path)
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || list[0]["title"] != "weekly \u202Egnp.exe" {
		t.Errorf("runs list --json: %v %v", err, list)
	}
}
