package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/judge"
)

func TestProbesGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"probes_all.stdout", []string{"probes", "--judge", "fake:all"}},
		{"probes_mixed.json", []string{"probes", "--judge", "fake:mixed", "--json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code != 0 || !strings.Contains(errOut, "no --pairs given: probes uses the built-in") {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, c.name, out)
		})
	}
}

// TestProbesSeedTable checks the table against seed 003's printed probe
// table (SPEC.md section 3), to two decimals.
func TestProbesSeedTable(t *testing.T) {
	out, _, code := runCLI(t, "probes", "--judge", "fake:all", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var rep judge.ProbeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	seed := map[string][4]float64{
		"fake:clean":     {0.5, 0, 0, 0},
		"fake:position":  {0.78, 0.63, 0.4, 0},
		"fake:verbosity": {0.5, 0, 1, 0},
		"fake:self":      {0.5, 0, 0, 1},
		"fake:mixed":     {0.74, 0.57, 0.4, 0.6},
	}
	if len(rep.Judges) != 5 {
		t.Fatalf("%d judges", len(rep.Judges))
	}
	for _, j := range rep.Judges {
		for i, s := range []judge.Share{j.FirstPick, j.OrderFlip, j.LongerWins, j.SelfWins} {
			v, _ := s.Value()
			if float64(int(v*100+0.5))/100 != seed[j.Judge][i] {
				t.Errorf("%s probe %d = %.3f, the lesson prints %v", j.Judge, i, v, seed[j.Judge][i])
			}
		}
	}
}

// TestProbesModelJudge probes the stub model, which always answers
// "first". By hand: all 60 single-order verdicts pick the first answer
// (first_pick 60/60), every pair flips with the order (30/30), the longer
// answer is a in 2 of the 5 verbose ties (longer_wins 2/5), and the
// own-style answer is a in 3 of the 5 self pairs (self_wins 3/5).
func TestProbesModelJudge(t *testing.T) {
	s := newJudgeStub(t)
	out, errOut, code := runCLI(t, "probes", "--judge", s.endpoint(), "--model", "stub-judge", "--cache", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "probes_model.stdout", s.normalize(out))
	for _, want := range []string{"1.00 (60/60)", "1.00 (30/30)", "0.40 (2/5)", "0.60 (3/5)", "0 replies broke the contract"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if _, errOut, code := runCLI(t, "probes"); code != 2 || !strings.Contains(errOut, "--judge is required") {
		t.Errorf("no judge: exit %d %s", code, errOut)
	}
	// Audit defect 4: bad bytes in --pairs are refused. {"id":"x", is 10
	// bytes, so "question" opens at byte 11 and "question":"q ends at 23;
	// the bad byte is byte 24.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"id\":\"x\",\"question\":\"q\xfe\",\"facts\":[\"f\"],\"a\":\"A\",\"b\":\"B\",\"kind\":\"tie\",\"lang\":\"en\",\"ann1\":\"tie\",\"ann2\":\"tie\",\"final\":\"tie\"}\n"), 0o644)
	if _, errOut, code := runCLI(t, "probes", "--judge", "fake:all", "--pairs", bad); code != 1 || !strings.Contains(errOut, "bad.jsonl:1:24 (column \"question\"): invalid UTF-8: first bad byte 0xFE") {
		t.Errorf("invalid UTF-8: exit %d %s", code, errOut)
	}
}
