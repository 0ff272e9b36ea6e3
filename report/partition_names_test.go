package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 29, through the command on real files: score --out-dir
// --partition-by names no folder with a raw U+202E RIGHT-TO-LEFT
// OVERRIDE (its bytes E2 80 AE are written %E2%80%AE, as Hive escapes a
// byte), and an empty value and the literal __HIVE_DEFAULT_PARTITION__
// get two folders (they shared one, and so one group when read back).
func TestScorePartitionFolderNames(t *testing.T) {
	dir := t.TempDir()
	responses := filepath.Join(dir, "responses.csv")
	// Rows 1-2: a Domain with U+202E; row 3 an empty Domain; row 4 the
	// literal null name; row 5 a plain Domain.
	csv := "id,question,answer,Domain,response\n" +
		"q1,Q1?,a1,geo\u202Etxt.exe,a1\n" +
		"q2,Q2?,a2,geo\u202Etxt.exe,no\n" +
		"q3,Q3?,a3,,a3\n" +
		"q4,Q4?,a4,__HIVE_DEFAULT_PARTITION__,a4\n" +
		"q5,Q5?,a5,lit,a5\n"
	if err := os.WriteFile(responses, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "verdicts")
	if _, errb, code := runCLI(t, "score", "--responses", responses, "--out-dir", out, "--partition-by", "Domain"); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if strings.ContainsRune(e.Name(), '\u202E') {
			t.Errorf("folder %q holds a raw U+202E", e.Name())
		}
	}
	// By hand from Hive's escaping: E2 80 AE as %E2%80%AE; the empty
	// value is Hive's null name; the literal's first '_' is escaped.
	want := []string{"Domain=%5F_HIVE_DEFAULT_PARTITION__", "Domain=__HIVE_DEFAULT_PARTITION__", "Domain=geo%E2%80%AEtxt.exe", "Domain=lit"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("folders %q, want %q", names, want)
	}
}
