package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// evalbookCmd is the command as a child process: the test binary, which
// is evalbook itself when EVALBOOK_TEST_MAIN=1 (see the init in
// cmd_llmruns_test.go), with args.
func evalbookCmd(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "EVALBOOK_TEST_MAIN=1")
	return c
}

// TestSignalLeavesNoTemporaryFile (issue 17, finding 1): SIGTERM or SIGINT
// while score writes --out leaves no ".out.csv.<n>.tmp" behind and the
// previous out.csv as it was. The responses come from a named pipe that
// is kept open and silent, so the run is stopped while its output is
// half-made, whatever the machine's speed.
func TestSignalLeavesNoTemporaryFile(t *testing.T) {
	for _, s := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(s.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
			if err := syscall.Mkfifo(in, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			if err := os.WriteFile(out, []byte("the previous output\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := evalbookCmd("score", "--responses", in, "--out", out)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Opening the pipe for writing waits for the reader: the command.
			w, err := os.OpenFile(in, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.WriteString("question,answer,Domain,response\nq,a,D,a\n"); err != nil {
				t.Fatal(err)
			}
			// The temporary output exists before the first row is read.
			deadline := time.Now().Add(20 * time.Second)
			for {
				if tmp, _ := filepath.Glob(filepath.Join(dir, ".out.csv.*.tmp")); len(tmp) == 1 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("no temporary output appeared; stderr: %s", stderr.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(s.sig); err != nil {
				t.Fatal(err)
			}
			stuck := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() }) // a command that ignores the signal fails, not hangs
			err = cmd.Wait()
			stuck.Stop()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != s.code {
				t.Errorf("exit %v, want status %d; stderr: %s", err, s.code, stderr.String())
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			if b, _ := os.ReadFile(out); string(b) != "the previous output\n" {
				t.Errorf("out.csv is now %q", b)
			}
		})
	}
}
