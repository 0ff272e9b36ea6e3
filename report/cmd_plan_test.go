package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Uses runCLI and golden from score_test.go.

func TestPlanCheckGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"plan_check_v1.stdout", []string{"plan", "check", "../datasets/helpdesk/plan_v1.json"}},
		{"plan_check_v1.json", []string{"plan", "check", "--json", "../datasets/helpdesk/plan_v1.json"}},
		{"plan_check_weak.stdout", []string{"plan", "check", "../datasets/helpdesk/plan_weak.json"}},
		{"plan_check_weak.json", []string{"plan", "check", "../datasets/helpdesk/plan_weak.json", "--json"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, out)
		})
	}
}

func TestPlanCheckErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"task\": \"t\",\n  \"owner\": \"me\"\n}\n"), 0o644)
	_, errOut, code := runCLI(t, "plan", "check", bad)
	if code != 1 || !strings.Contains(errOut, "bad.json:3:3: unknown field \"owner\"") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "plan", "check", "a", "b"); code != 2 {
		t.Errorf("two files: exit %d, stderr %q", code, errOut)
	}
	out, errOut, code := runCLI(t, "plan", "check")
	if code != 0 || out != "no problems\n" || !strings.Contains(errOut, "embedded sample datasets/helpdesk/plan_v1.json") {
		t.Errorf("default plan: exit %d, out %q, stderr %q", code, out, errOut)
	}
	out, _, code = runCLI(t, "plan", "check", "--help")
	if code != 0 || !strings.Contains(out, "Example:") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// The plan's verdict on the two sample versions (see TestRunGolden).
func TestPlanGateGolden(t *testing.T) {
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	if _, e, code := runCLI(t, "run", "--chunking", "paragraph", "--min-score", "0.3", "--out", old); code != 0 {
		t.Fatal(e)
	}
	if _, e, code := runCLI(t, "run", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1", "--out", nw); code != 0 {
		t.Fatal(e)
	}
	// "no release" is exit status 3, after the table and the reasons, with
	// nothing on stderr: a CI job can gate on it.
	out, errOut, code := runCLI(t, "plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", nw)
	if code != 3 || errOut != "" {
		t.Fatalf("no release: exit %d, stderr %q; want 3 and nothing", code, errOut)
	}
	golden(t, "plan_gate_new.stdout", out)
	out, _, code = runCLI(t, "plan", "gate", "--json", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", old)
	if code != 3 {
		t.Errorf("no release, --json: exit %d, want 3", code)
	}
	golden(t, "plan_gate_old.json", out)
	// The new run with every case passing meets both blocking thresholds
	// (answer_correct 24/24 >= 0.8, abstain_correct 7/7 >= 0.9): release,
	// exit 0.
	b, err := os.ReadFile(nw)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = lines[i][:strings.LastIndexByte(lines[i], ',')] + ",1"
	}
	all := filepath.Join(dir, "all.csv")
	if err := os.WriteFile(all, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", all)
	if code != 0 || !strings.Contains(out, "\nrelease\n") {
		t.Errorf("every case passing: exit %d, %s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "plan", "gate"); code != 2 || !strings.Contains(errOut, "--run FILE is required") {
		t.Errorf("no --run: exit %d, %q", code, errOut)
	}
}
