package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The child processes of the tests below are this test binary run again
// with STORE_CHILD set: "kill" records a small run, then a big one that
// announces MID on stdout half-way (inside its transaction) and slows
// down so the parent can kill it; "record" records one 50,000-row run.
const childEnv = "STORE_CHILD"

// midRows is where the killed recorder announces MID: far enough in that
// its transaction has spilled pages past SQLite's 32 MB page cache into
// the WAL, so the kill leaves uncommitted frames on disk.
const midRows = 180*ChunkRows + 7

func TestChildRecorder(t *testing.T) {
	mode := os.Getenv(childEnv)
	if mode == "" {
		t.Skip("only run as a child process")
	}
	s, err := Open(os.Getenv("STORE_PATH"))
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	switch mode {
	case "kill":
		if _, err := s.Record(ctx, synthRun(100, true, func(int) float64 { return 1 })); err != nil {
			fmt.Println("record:", err)
			os.Exit(1)
		}
		big := newSynth(1_000_000, true, func(i int) float64 { return float64(i % 2) })
		big.onRow = func(i int) {
			if i == midRows {
				fmt.Println("MID")
				os.Stdout.Sync()
			}
			if i > midRows {
				time.Sleep(50 * time.Microsecond)
			}
		}
		s.Record(ctx, Run{Tool: "evalbook test", Command: "score", Source: big})
		fmt.Println("FINISHED") // the parent should have killed us first
	case "record":
		if _, err := s.Record(ctx, synthRun(50_000, true, func(i int) float64 { return float64(i % 2) })); err != nil {
			fmt.Println("record:", err)
			os.Exit(1)
		}
	case "hold":
		// a recorder in the middle of its run: the write lock taken
		// (BEGIN IMMEDIATE) and a run inserted, not committed, until
		// the parent closes our standard input
		if _, err := s.Record(ctx, synthRun(100, true, func(int) float64 { return 1 })); err != nil {
			fmt.Println("record:", err)
			os.Exit(1)
		}
		rec := s.Begin(ctx, nil, Columns{})
		for row, err := range synthRun(1000, true, func(int) float64 { return 0 }).Source.All() {
			if err == nil {
				err = rec.Add(row)
			}
			if err != nil {
				fmt.Println("add:", err)
				os.Exit(1)
			}
		}
		fmt.Println("HELD")
		os.Stdout.Sync()
		io.Copy(io.Discard, os.Stdin)
		rec.Abort()
	}
	s.Close()
	os.Exit(0)
}

func child(t *testing.T, mode, path string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildRecorder$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "STORE_PATH="+path)
	return cmd
}

// kill -9 in the middle of Record's transaction leaves the store
// consistent: integrity_check is ok, the earlier run is there and the
// killed run is absent, and the store takes new runs.
func TestKillDuringRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evalbook.db")
	cmd := child(t, "kill", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	mid := false
	for sc.Scan() {
		if sc.Text() == "MID" {
			mid = true
			break
		}
	}
	if !mid {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the child never reached the middle of its record")
	}
	time.Sleep(100 * time.Millisecond) // let it write more chunks into the open transaction
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	werr := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed by SIGKILL: %v", werr)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() < 1<<20 {
		t.Fatalf("the killed transaction left no frames in the WAL (%v): the kill was not mid-write", err)
	} else {
		t.Logf("WAL after the kill: %d bytes", fi.Size())
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var check string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check %q %v", check, err)
	}
	var runs, chunks, maxRun int
	s.db.QueryRow(`SELECT count(*), coalesce(max(id), 0) FROM run`).Scan(&runs, &maxRun)
	s.db.QueryRow(`SELECT count(*) FROM row_chunk`).Scan(&chunks)
	if runs != 1 || maxRun != 1 || chunks != 1 {
		t.Fatalf("after the kill: %d runs (max id %d), %d row chunks; want only the first run and its one chunk", runs, maxRun, chunks)
	}
	if _, err := s.Record(context.Background(), synthRun(10, true, func(int) float64 { return 0 })); err != nil {
		t.Fatalf("recording after the kill: %v", err)
	}
}

// Processes recording into one new store at the same time all land
// (three, so that two of them wait while the third writes).
func TestConcurrentRecorders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evalbook.db")
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 3 {
		c := child(t, "record", path)
		var b strings.Builder
		c.Stdout, c.Stderr = &b, &b
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, c), append(outs, &b)
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("recorder %d: %v\n%s", i, err, outs[i])
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Rows != 50_000 || list[1].Rows != 50_000 || list[2].Rows != 50_000 {
		t.Fatalf("runs %+v", list)
	}
	d, err := s.Diff(context.Background(), "1", "2", DiffOptions{})
	if err != nil || d.Metrics[0].Better+d.Metrics[0].Worse != 0 {
		t.Fatalf("the two identical runs differ: %v %v", d, err)
	}
}

// Readers do not wait for writers: while another process holds the
// store's write lock in the middle of a recording (checked: a second
// connection's BEGIN IMMEDIATE is refused as locked), OpenReadOnly,
// List, Get and Diff read the committed runs at once and do not see the
// uncommitted one; OpenExisting waited BusyTimeout (30 s) for the lock
// in its migration transaction and failed with "database is locked"
// (tried: 30.5 s). After the writer has gone the store still opens
// read-only.
func TestReaderDoesNotWaitForWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evalbook.db")
	cmd := child(t, "hold", path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	sc := bufio.NewScanner(out)
	held := false
	for sc.Scan() {
		if sc.Text() == "HELD" {
			held = true
			break
		}
		t.Log("child:", sc.Text())
	}
	if !held {
		t.Fatal("the child never took the write lock")
	}
	probe, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if _, err := probe.Exec("BEGIN IMMEDIATE"); err == nil || !strings.Contains(err.Error(), "locked") {
		probe.Exec("ROLLBACK")
		t.Fatalf("BEGIN IMMEDIATE beside the child: %v; want database is locked (the child holds no write lock?)", err)
	}

	ctx := context.Background()
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 1 || list[0].Rows != 100 {
		t.Fatalf("List beside a writer: %+v, %v; want the one committed run of 100 rows", list, err)
	}
	if r, err := s.Get(ctx, "last"); err != nil || r.ID != 1 {
		t.Fatalf("Get last: %+v, %v", r, err)
	}
	if _, err := s.Diff(ctx, "1", "1", DiffOptions{}); err != nil {
		t.Fatalf("Diff: %v", err)
	}
	if _, err := s.Remove(ctx, "1"); err == nil {
		t.Error("Remove through a read-only store succeeded")
	}
	s.Close()

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	probe.Close()
	s, err = OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if list, err := s.List(ctx); err != nil || len(list) != 1 {
		t.Fatalf("List after the writer: %d runs, %v", len(list), err)
	}
}

// OpenReadOnly of a missing file is ErrNoStore and creates nothing; of
// a file that is not a store, an error naming it.
func TestOpenReadOnlyMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "none.db")
	if _, err := OpenReadOnly(path); !errors.Is(err, ErrNoStore) {
		t.Fatalf("err = %v; want ErrNoStore", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("OpenReadOnly created %s", path)
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := OpenReadOnly(other); err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "not an evalbook store") {
		t.Fatalf("err = %v", err)
	}
}
