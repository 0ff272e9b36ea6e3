package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/store"
)

// holdWriteLock opens a second connection to the store at path and
// begins a write transaction on it (BEGIN IMMEDIATE, as a recorder does),
// held until the test ends: what a long `--record` in another process
// looks like to a command.
func holdWriteLock(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := st.DB().BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE run SET title = 'held' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tx.Rollback()
		st.Close()
	})
}

// Reading commands do not wait for a writer: with another connection
// holding the store's write lock, runs list, runs show, runs diff, aa,
// history and gate answer from the committed runs (before, runs list
// waited the 30 s busy timeout and failed with "database is locked").
func TestReadersBesideAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	scoreAndRecord(t, path, "a.csv", storeTestTable(40, func(i int) bool { return i%2 == 0 }))
	scoreAndRecord(t, path, "b.csv", storeTestTable(40, func(i int) bool { return i%3 == 0 }))
	holdWriteLock(t, path)
	for _, args := range [][]string{
		{"runs", "list", "--json"},
		{"runs", "show", "1"},
		{"runs", "diff", "1", "2"},
		{"aa", "1", "2"},
		{"history", "--metric", "exact_substring"},
		{"gate", "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0.5"},
	} {
		out, errOut, code := runCLI(t, append(args, "--store", path)...)
		if code != 0 || strings.Contains(errOut, "locked") {
			t.Errorf("%s beside a writer: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		if args[1] == "list" {
			var list []map[string]any
			if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 || list[0]["title"] == "held" {
				t.Errorf("runs list: %v %s; want the two committed runs, not the held change", err, out)
			}
		}
	}
}

// When the store cannot take the run (another connection holds its
// write lock past the busy timeout, lowered here to 200 ms), the
// command still writes every output (score's --out verdict file, its
// report; mc's report), then fails with exit 1 saying the run was not
// recorded, in which store, why, and how to record it; nothing is added
// to the store. Before, score failed at the first row and wrote nothing.
func TestRecordOnLockedStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	scoreAndRecord(t, path, "a.csv", storeTestTable(40, func(i int) bool { return i%2 == 0 }))
	old := store.BusyTimeout
	store.BusyTimeout = 200
	t.Cleanup(func() { store.BusyTimeout = old })
	holdWriteLock(t, path)

	responses := filepath.Join(dir, "responses.csv")
	if err := os.WriteFile(responses, []byte(storeTestTable(40, func(i int) bool { return i < 10 })), 0o644); err != nil {
		t.Fatal(err)
	}
	verdicts := filepath.Join(dir, "verdicts.csv")
	out, errOut, code := runCLI(t, "score", "--responses", responses, "--out", verdicts, "--record", "--store", path)
	notRecorded := func(what string) {
		t.Helper()
		for _, w := range []string{"NOT recorded", path, "database is locked", "another process held its write lock", "again with --record"} {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr does not say %q:\n%s", what, w, errOut)
			}
		}
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", what, code)
		}
	}
	notRecorded("score")
	data, err := os.ReadFile(verdicts)
	if err != nil {
		t.Fatalf("score wrote no --out file: %v", err)
	}
	if n := strings.Count(string(data), "\n"); n != 41 {
		t.Errorf("the verdict file has %d lines, want a header and 40 rows", n)
	}
	if !strings.Contains(out, "exact_substring") {
		t.Errorf("score printed no report:\n%s", out)
	}

	out, errOut, code = runCLI(t, "mc", "--predictions", "../datasets/mc/kestrel-7b_predictions.csv", "--record", "--store", path)
	notRecorded("mc")
	want, _, _ := runCLI(t, "mc", "--predictions", "../datasets/mc/kestrel-7b_predictions.csv")
	if out != want {
		t.Errorf("mc printed another report with a failed --record:\n%s\nwant\n%s", out, want)
	}

	st, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if list, err := st.List(context.Background()); err != nil || len(list) != 1 {
		t.Errorf("the store holds %d runs (%v), want the first only", len(list), err)
	}
}
